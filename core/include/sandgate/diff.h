// Policy diff (SPEC §10.3): what changes between two runner policies, field by field, and — replayed
// over a request stream — which requests the new policy would reject, accept or resolve differently,
// with the static change that caused each new rejection. The CLI (`sandgate policy diff`) and the
// bindings share this API.
#pragma once

#include <array>
#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sandgate/diagnostic.h"
#include "sandgate/engine.h"
#include "sandgate/node.h"
#include "sandgate/policy.h"
#include "sandgate/stream.h"

namespace sandgate {

// One difference between the two policy documents (canonical keys, so spelling never counts).
struct StaticChange {
  enum class Kind : std::uint8_t {
    changed,    // a value differs (quantities compare by value: "8" equals "8000m")
    added,      // a field, or an item of a list, that only NEW has
    removed,    // one that only OLD has
    reordered,  // a list with the same items in another order
  };
  Kind kind = Kind::changed;
  std::string field;    // "constraints.resources.max_cpu"; for a list item, the list's field
  std::string pointer;  // JSON Pointer into the policy object; a list item's is its index on the side that has it
  bool list_item = false;
  std::optional<Node> old_value, new_value;  // absent on the side that lacks it
  // Where each side writes it; on the side that lacks it, the nearest enclosing field.
  std::optional<SourceLocation> old_source, new_source;
};
std::string_view to_string(StaticChange::Kind k);

// The static part of the diff. Lists of values are compared as sets (an added denied prefix is one
// `added` change); objects key by key; `null` outside `base` counts as absent.
std::vector<StaticChange> static_policy_changes(const Policy& old_policy, const Policy& new_policy);

enum class DiffClass : std::uint8_t {
  newly_rejected,      // accepted under OLD, rejected under NEW
  newly_accepted,      // rejected under OLD, accepted under NEW
  rejection_changed,   // rejected under both, with another set of error codes
  resolution_changed,  // accepted under both, resolved differently
  unchanged,
  unreadable,          // the record cannot be read at all
};
inline constexpr std::size_t k_diff_classes = 6;
std::string_view to_string(DiffClass c);
std::optional<DiffClass> diff_class_from_name(std::string_view name);

// One resolved value that differs: a JSON Pointer into the resolved sandbox, or one of the derived
// values `qos_class`, `runtime_class`, `runner`, `placement_mode`, `slurm.<parameter>`.
struct ValueChange {
  std::string pointer;
  std::optional<Node> old_value, new_value;  // absent on the side that lacks it
};

struct RecordDiff {
  std::size_t index = 0;  // 1-based position in the stream
  int line = 0;           // 1-based line where the record starts
  std::optional<std::string> id;
  DiffClass cls = DiffClass::unchanged;
  Diagnostics errors;                  // NEW's errors (newly_rejected, rejection_changed); the problem (unreadable)
  std::vector<std::string> old_codes;  // OLD's error codes (newly_accepted, rejection_changed)
  std::vector<ValueChange> changes;    // resolution_changed
  // The static changes (indexes into static_changes) that caused the new errors: per error, and all.
  std::vector<std::vector<std::size_t>> error_causes;
  std::vector<std::size_t> caused_by;
};

// Both policies compiled once into engines with the same runners, org and client; diff() is const
// and safe to call from many threads at once.
class PolicyDiffer {
 public:
  PolicyDiffer(std::shared_ptr<const Policy> old_policy, std::shared_ptr<const Policy> new_policy,
               std::shared_ptr<const Runners> runners = nullptr, std::shared_ptr<const Org> org = nullptr,
               CheckOptions options = {});
  const std::vector<StaticChange>& static_changes() const { return changes_; }
  // Compiles the record once and checks it under both policies; its layers are handed over.
  RecordDiff diff(RequestRecord record) const;

 private:
  std::shared_ptr<const Policy> old_policy_, new_policy_;
  Engine old_engine_, new_engine_;
  CheckOptions options_;
  std::vector<StaticChange> changes_;
  std::vector<std::size_t> attribute(const Diagnostic& d) const;
};

// A group of records in the summary: one error code (newly rejected) or one changed value
// (resolution changed), with its count, the static changes behind it and the first examples.
struct DiffGroup {
  std::string key;
  std::size_t count = 0;
  std::vector<std::size_t> caused_by;
  std::vector<RecordDiff> examples;
};

// The replay's summary, built one record at a time in bounded memory.
struct DiffSummary {
  std::size_t examples = 5;  // examples kept per class and per group
  std::array<std::size_t, k_diff_classes> counts{};
  std::array<std::vector<RecordDiff>, k_diff_classes> class_examples;
  std::vector<DiffGroup> newly_rejected_by_code;        // in order of first appearance
  std::vector<DiffGroup> resolution_changed_by_pointer;
  std::size_t total() const;
  void add(const RecordDiff& r);
};

struct DiffOptions {
  CheckOptions check;
  std::size_t examples = 5;
  unsigned jobs = 0;          // 0 = every core
  bool keep_records = true;   // fill PolicyDiff::records (a stream of any length: false, and use on_record)
};

struct PolicyDiff {
  std::string old_file, new_file;
  bool old_readable = false, new_readable = false;  // could be read into a policy at all
  Diagnostics old_errors, new_errors;               // each policy's own errors
  std::vector<StaticChange> static_changes;
  bool replayed = false;  // a request stream was given (and both policies could be read)
  std::string requests;   // the stream's name
  DiffSummary summary;
  std::vector<RecordDiff> records;  // every record that is not unchanged, in input order (diff_policies)
  std::string error;                // why reading the stream stopped early, if it did
  // NEW is valid and no record is newly rejected (SPEC §10.3's exit 0); OLD must be readable too.
  bool ok() const;
};

// The whole diff, in memory: the bindings' entry point. `records` may be null (static part only).
PolicyDiff diff_policies(const PolicyLoad& old_policy, const PolicyLoad& new_policy, RequestReader* records,
                         std::shared_ptr<const Runners> runners = nullptr, std::shared_ptr<const Org> org = nullptr,
                         const DiffOptions& options = {});

// The same in two steps, for a caller that streams: the static part (files, each policy's errors,
// the static changes), then the replay of `records` on options.jobs threads, calling `on_record`
// for every record (unchanged ones too) in input order; `on_record` returning false stops it.
PolicyDiff start_diff(const PolicyLoad& old_policy, const PolicyLoad& new_policy, std::size_t examples = 5);
void replay(PolicyDiff& diff, const PolicyDiffer& differ, RequestReader& records, const DiffOptions& options,
            const std::function<bool(const RecordDiff&)>& on_record = {});
// The same from any source of records (a binding's native values, via record_from_node into
// PendingRecord::tree): `next` runs on the calling thread; `stream_name` labels the diagnostics.
void replay(PolicyDiff& diff, const PolicyDiffer& differ, const std::function<bool(PendingRecord&)>& next,
            const std::string& stream_name, const Limits& limits, const DiffOptions& options,
            const std::function<bool(const RecordDiff&)>& on_record = {});

// Renderings. JSON is one object (SPEC §10.3) whose `records` holds one record per line; it is
// written as diff_json_head + records joined by ",\n" + diff_json_tail, so a caller can stream it.
std::string diff_to_json(const PolicyDiff& d);
std::string diff_json_head(const PolicyDiff& d);
std::string record_diff_to_json(const RecordDiff& r, const std::vector<StaticChange>& changes);
std::string diff_json_tail(const PolicyDiff& d);

struct DiffTextOptions {
  bool color = false;
};
std::string diff_to_text(const PolicyDiff& d, const DiffTextOptions& options = {});
// A summary fit for a pull-request comment.
std::string diff_to_markdown(const PolicyDiff& d);

// "constraints.resources.max_cpu" for "/constraints/resources/max_cpu"; keys that are not plain
// names are quoted (`base.metadata.annotations["example.com/owner"]`), indexes are `[2]`.
std::string field_name(std::string_view pointer);

}  // namespace sandgate
