// A runner policy, loaded and compiled once (quantities parsed, rules checked), immutable after,
// and safe to share between threads — like a compiled regular expression.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "sandgate/document.h"
#include "sandgate/result.h"

namespace sandgate {

namespace model {
struct PolicyModel;
}

class Policy;

struct PolicyLoad {
  std::shared_ptr<const Policy> policy;  // null when the text could not be read as a document
  Diagnostics diagnostics;               // everything validate_policy reports
  bool ok() const { return policy != nullptr && !has_errors(diagnostics); }
};

// What the caller knows about the runner a policy belongs to (sharpens P-13).
struct PolicyContext {
  // The runner's SUNK scheduler name when the policy is a runner's ("" for a runner without one);
  // unset for a policy read on its own, whose Slurm scheduler is then guessed by name (SPEC §6.8).
  std::optional<std::string> sunk_scheduler;
};

class Policy {
 public:
  // Reads a policy (YAML or JSON; from a runner document `{"policy": …, "etag": …}` the policy is
  // taken) and validates it (SPEC §4). Never throws for anything in `text`.
  static PolicyLoad parse(std::string_view text, Format format = Format::auto_detect, std::string file = "",
                          const Limits& limits = {}, const PolicyContext& context = {});
  // The same, from a tree a binding built (no source positions).
  static PolicyLoad from_node(Node root, std::string file = "", const PolicyContext& context = {});

  ~Policy();
  Policy(const Policy&) = delete;
  Policy& operator=(const Policy&) = delete;

  const std::string& file() const;
  bool is_null() const;                        // P-15: `null`, never configured
  const Diagnostics& diagnostics() const;      // the validation diagnostics
  bool valid() const { return !has_errors(diagnostics()); }
  const Node& document() const;                // the policy object, canonical keys
  const std::string& base_path() const;        // "" or "/policy" for a runner document
  const model::PolicyModel& model() const;

 private:
  struct Impl;
  explicit Policy(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
  friend struct PolicyBuilder;
};

// Validates a policy text: every problem at once (SPEC §4).
Result validate_policy(std::string_view text, Format format = Format::auto_detect, std::string file = "",
                       const Limits& limits = {}, const PolicyContext& context = {});
Result validate_policy(const Node& root, std::string file = "", const PolicyContext& context = {});

}  // namespace sandgate
