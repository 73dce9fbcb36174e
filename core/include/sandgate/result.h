// What sandgate answers: whether the request passes, the diagnostics and, for `check`, the
// Resolution. `ok` is known at once; the diagnostics' messages, the resolved sandbox, its
// provenance and the rules that decided it are made from Request ⊕ Resolution on first access
// (and kept), so a check that nobody reads in full costs only its rules.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "sandgate/diagnostic.h"
#include "sandgate/node.h"
#include "sandgate/resolution.h"
#include "sandgate/small_vector.h"

namespace sandgate {

class Request;
struct CheckInputs;  // the engine's policy, runners and org, shared with its results
struct FindingContext;
struct Finding;

// Formats a finding's message and hint, only when someone reads the diagnostics.
using FindingFormat = void (*)(const FindingContext& context, const Finding& finding, std::string& message, std::string& hint);

// Which input a finding points into.
enum class FindingInput : std::uint8_t { request, policy, runners, org };

struct FindingPlace {
  const void* origin = nullptr;  // a model::Origin in that input; null: the request as a whole
  FindingInput input = FindingInput::request;
  bool key = false;  // point at the member's key rather than its value
};

// A rule's verdict before it is put into words: the code, where it points, what it relates to,
// and the few values its message needs. Plain data, so a list of them costs no allocation.
struct Finding {
  Code code{};
  Severity severity = Severity::error;
  bool other_client = false;  // a client rule of the SDK not in use: downgraded to a warning
  FindingPlace at;
  FindingPlace related;
  const char* related_note = nullptr;  // "the limit is set here"
  FindingFormat format = nullptr;
  const void* p[2] = {nullptr, nullptr};  // pointers into the Request, Policy or Runners
  std::int64_t n[2] = {0, 0};
  std::string_view s[2];
};

struct GpuResolution {
  std::int64_t count = 0;
  std::string type;                         // as requested ("" when not)
  std::int64_t memory_gb = 0;               // as requested (0 when not)
  std::vector<std::string> eligible_types;  // GPU types that satisfy the request
};

struct RuntimeClassResolution {
  std::string value;  // "kata-qemu", or "<node-default>" when nothing assigns one
  std::string from;   // "sandbox", "policy.constraints.security.default_cpu_runtime_class", "runner", "platform"
};

struct SlurmMapping {
  std::string scheduler;
  std::int64_t cpus_per_task = 0;    // requests.cpu rounded up to whole CPUs
  std::int64_t min_memory_node = 0;  // requests.memory in MiB, rounded up
  std::vector<std::pair<std::string, std::string>> job_parameters;  // partition, account, qos, …
};

using PointerNotes = std::vector<std::pair<std::string, std::string>>;  // JSON Pointer → note

// The resolved sandbox (SPEC §7) with, for each leaf, where it came from and which rule decided it.
struct ResolvedOutput {
  Node resolved;             // canonical snake_case, every default filled in
  PointerNotes provenance;   // resolved pointer → "sandbox", "policy.base", "platform", …
  PointerNotes rules_applied;  // resolved pointer → rule id
};

class Result {
 public:
  Result();
  ~Result();
  Result(const Result& other);
  Result& operator=(const Result& other);
  Result(Result&& other) noexcept;
  Result& operator=(Result&& other) noexcept;

  // A result that is only diagnostics (validate_policy, inputs that could not be read).
  static Result from_diagnostics(Diagnostics diagnostics);
  // A result with a resolved value of its own (normalize_resources).
  static Result from_resolved(Diagnostics diagnostics, Node resolved, QosClass qos);

  // Adds diagnostics found outside the engine (a binding's conversion of a native value).
  void add_diagnostics(const Diagnostics& more);

  bool ok() const { return ok_; }  // no diagnostic has severity error
  // Every diagnostic, read top to bottom (inputs in order of first mention, then by position).
  const Diagnostics& diagnostics() const;
  // The errors of diagnostics(), in the same order, moved out of a result that is done with (the
  // result is left without them) and with no other finding put into words: a reader that keeps
  // only the errors' text need not make or copy the rest.
  Diagnostics take_errors() &&;
  std::vector<const Diagnostic*> with_severity(Severity s) const;
  std::vector<const Diagnostic*> errors() const { return with_severity(Severity::error); }
  std::vector<const Diagnostic*> warnings() const { return with_severity(Severity::warning); }
  std::size_t error_count() const;  // without materialising the diagnostics

  // Filled by check (and normalize_resources); empty or nullopt otherwise.
  bool checked() const { return checked_; }
  std::string_view placement_mode() const;  // "serverless" or "cks"
  std::string_view qos_class() const;       // "Guaranteed", "Burstable" or "BestEffort"
  std::string_view runner_id() const;       // the primary candidate runner
  std::vector<std::string> other_candidates() const;
  std::optional<GpuResolution> gpu() const;
  std::optional<RuntimeClassResolution> runtime_class() const;
  std::optional<SlurmMapping> slurm() const;
  const Node& resolved() const { return output().resolved; }
  const PointerNotes& provenance() const { return output().provenance; }
  const PointerNotes& rules_applied() const { return output().rules_applied; }
  const ResolvedOutput& output() const;

  const Resolution& resolution() const { return resolution_; }
  const Request* request() const { return request_.get(); }
  const SmallVector<Finding, 8>& findings() const { return findings_; }

 private:
  friend class Engine;
  friend struct ResultAccess;

  template <typename T>
  struct Lazy {
    mutable std::atomic<T*> value{nullptr};
    ~Lazy() { delete value.load(); }
    void reset() { delete value.exchange(nullptr); }
  };

  bool ok_ = true;
  bool checked_ = false;
  Diagnostics eager_;  // diagnostics known as text already (validation, inputs, the request's own)
  std::shared_ptr<const Request> request_;
  std::shared_ptr<const CheckInputs> inputs_;
  Resolution resolution_;
  SmallVector<Finding, 8> findings_;
  std::shared_ptr<const Node> own_resolved_;  // normalize_resources
  Lazy<Diagnostics> diagnostics_;
  Lazy<ResolvedOutput> output_;
  void copy_from(const Result& other);
  Diagnostics collect_diagnostics() const;
};

// Sorts diagnostics for reading: inputs in order of first mention, then line and column.
void sort_for_reading(Diagnostics& diagnostics);

}  // namespace sandgate
