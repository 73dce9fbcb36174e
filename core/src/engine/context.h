// The state of one check: the inputs, the merged request, what has been resolved so far, and
// where diagnostics go. Rule functions read and write it; the pipeline order is in check.cpp.
#pragma once

#include <array>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "model/cursor.h"
#include "model/policy_model.h"
#include "model/runners_model.h"
#include "sandgate/engine.h"
#include "sandgate/quantity.h"

namespace sandgate::engine {

using model::Cursor;

// Where a resolved value came from; request layers are in precedence order (later wins). Stored
// in Node::origin of merged and resolved values.
constexpr std::uint8_t k_no_layer = 0;
constexpr std::uint8_t k_defaults = 1;
constexpr std::uint8_t k_sandbox = 2;
constexpr std::uint8_t k_function = 3;
constexpr std::uint8_t k_policy_base = 4;
constexpr std::uint8_t k_sdk = 5;       // a default of the client SDK (python:3.11, the keep-alive command)
constexpr std::uint8_t k_platform = 6;  // a default of the platform (600 s lifetime, 30 s timeout)
// How diagnostics name each layer's input, and how provenance names each origin (SPEC §7).
constexpr std::array<const char*, 7> k_input_names = {"sandbox", "defaults", "sandbox", "overrides",
                                                      "policy",  "sandbox",  "sandbox"};
constexpr std::array<const char*, 7> k_layer_names = {"sandbox",     "defaults", "sandbox", "function",
                                                      "policy.base", "sdk",      "platform"};

// Stamps `origin` on `n` and everything under it.
void stamp(Node& n, std::uint8_t origin);

struct GpuRequest {
  std::int64_t count = 0;
  std::string type;
  std::int64_t memory_gb = 0;
  Cursor at;  // where the gpu value was written
};

// One container's resources after N-RES, before and after the policy's defaults.
struct ContainerResources {
  std::string name;
  bool primary = true;
  Cursor at;  // the resources value (may be empty)
  Cursor container;  // the container object (multi-container form), for problems without a resources value
  const Cursor& where(const Cursor& fallback) const { return at ? at : container ? container : fallback; }
  std::optional<Quantity> req_cpu, req_mem, lim_cpu, lim_mem;
  std::string req_cpu_text, req_mem_text, lim_cpu_text, lim_mem_text;
  // Where each value came from: a cursor into the request, or the policy default.
  Cursor req_cpu_at, req_mem_at, lim_cpu_at, lim_mem_at;
  bool client_cpu = false, client_mem = false;  // the client gave at least one side
  bool defaulted_cpu = false, defaulted_mem = false;
  std::optional<GpuRequest> gpu;
  Quantity memory_volumes;  // memory-backed volumes mounted on this container (R-VOL-3)
  bool invalid = false;     // N-RES errors: skip the policy checks that need values
};

struct Context {
  Context(Result& r, const CheckOptions& o) : result(r), options(o) {}

  Result& result;
  const CheckOptions& options;
  std::array<const Document*, 4> layers{};
  std::array<Node, 4> prepared;  // each layer after the spelling layer and schema, origins stamped

  const Policy* policy = nullptr;  // the policy the request is checked against (may be null)
  const model::PolicyModel* pm = nullptr;
  model::PolicyModel empty_policy;
  const model::RunnersModel* inventory = nullptr;  // null = no runners input
  std::string runners_file, org_file;
  model::OrgModel org;
  model::Runner builtin_serverless = model::builtin_serverless_runner();
  model::Runner anonymous_cks = model::anonymous_cks_runner();

  Node req = Node::make_object();  // the merged request (canonical keys, origins stamped)
  Cursor root() const { return Cursor{&req, nullptr, ""}; }
  // N-LAYER bookkeeping, to turn a pointer into the merged request back into a pointer into the
  // layer a value came from: how each layer spelled a top-level key, and for concatenated lists
  // (tags, secrets) each merged item's index in its own layer.
  std::map<std::string, std::array<std::string, 4>> layer_spelling;
  std::map<std::string, std::vector<std::size_t>> merged_list_index;
  std::string input_path(const std::string& merged_path, std::uint8_t layer) const;

  // Placement (N-PL).
  std::string mode;  // "serverless" or "cks"
  bool mode_explicit = false;
  std::vector<const model::Runner*> candidates;
  const model::Runner* primary = nullptr;

  // Resources (N-RES, R-RES) and GPU.
  std::vector<ContainerResources> containers;
  bool multi_container = false;
  Quantity unmounted_memory_volumes = Quantity::from_int(0);  // count toward memory_ceiling only
  const GpuRequest* gpu() const;

  // SUNK.
  std::string scheduler;
  bool slurm = false;
  std::optional<std::int64_t> kill_wait;

  // Resolved lifetime (R-TIME-2), used by R-TIME-4.
  std::int64_t lifetime = 600;

  // Diagnostics about a value of the request (located through the value's layer).
  Diagnostic& report(Code code, const Cursor& at, std::string message, std::string hint = {});
  // The same, pointing at the key of an object member (annotation keys, unknown fields).
  Diagnostic& report_key(Code code, const Cursor& at, std::string message, std::string hint = {});
  // Diagnostics about a value of the policy (the one the request is checked against).
  Diagnostic& report_policy(Code code, const model::Origin& where, std::string message, std::string hint = {});
  // Diagnostics about another input (runners, org) or about the request as a whole.
  Diagnostic& report_input(Code code, const std::string& input, const std::string& file, const std::string& path,
                           Mark mark, std::string message, std::string hint = {});

  // The resolved sandbox and provenance (SPEC §7). With `from` empty, each leaf's provenance is
  // the layer stamped in its Node::origin.
  void resolve(const std::string& pointer, Node value, const std::string& from = {});
  // For each path: how many result.provenance entries are at or under it (resolve()).
  std::unordered_map<std::string, std::size_t> provenance_under;
  // Records which rule decided a resolved value (shown by `sandgate explain`).
  void touched(const std::string& pointer, std::string_view rule);
  std::string policy_origin(const std::string& field) const;  // "policy.constraints.resources.default_cpu"
  std::string layer_name(const Node& n) const { return k_layer_names[n.origin]; }
  const std::string& file_of(std::uint8_t layer) const;
};

// A memory size for messages: "4Gi", or "≈3687Mi" when it is not a whole number of Mi.
std::string human_bytes(const Quantity& q);

// Client-side rules of the other SDK are warnings (SPEC §1.3).
void apply_client(Diagnostic& d, const std::string& client);

}  // namespace sandgate::engine
