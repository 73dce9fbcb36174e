// The check engine: what the server would do with a sandbox request under a runner policy.
#pragma once

#include <memory>
#include <string>

#include "sandgate/document.h"
#include "sandgate/policy.h"
#include "sandgate/request.h"
#include "sandgate/result.h"

namespace sandgate {

namespace model {
struct RunnersModel;
struct OrgModel;
}  // namespace model

class Runners;
class Org;

struct RunnersLoad {
  std::shared_ptr<const Runners> runners;  // null when the text could not be read
  Diagnostics diagnostics;
  bool ok() const { return runners != nullptr && !has_errors(diagnostics); }
};

struct OrgLoad {
  std::shared_ptr<const Org> org;
  Diagnostics diagnostics;
  bool ok() const { return org != nullptr && !has_errors(diagnostics); }
};

// The runner inventory a client can see (SPEC §1.4), compiled once.
class Runners {
 public:
  static RunnersLoad parse(std::string_view text, Format format = Format::auto_detect, std::string file = "",
                           const Limits& limits = {});
  static RunnersLoad from_node(Node root, std::string file = "");
  ~Runners();
  Runners(const Runners&) = delete;
  Runners& operator=(const Runners&) = delete;
  const model::RunnersModel& model() const;
  const std::string& file() const;
  const Diagnostics& diagnostics() const;  // what loading reported (including runner policies)

 private:
  struct Impl;
  explicit Runners(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
  friend struct RunnersBuilder;
};

// The organisation's entitlements (SPEC §1): gpu_allowed, max_gpus_per_sandbox, serverless_allowed.
class Org {
 public:
  static OrgLoad parse(std::string_view text, Format format = Format::auto_detect, std::string file = "",
                       const Limits& limits = {});
  static OrgLoad from_node(Node root, std::string file = "");
  ~Org();
  Org(const Org&) = delete;
  Org& operator=(const Org&) = delete;
  const model::OrgModel& model() const;
  const Diagnostics& diagnostics() const;
  const std::string& file() const;

 private:
  struct Impl;
  explicit Org(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
  friend struct OrgBuilder;
};

// An input layer built from a native value (no text, so no line:col): what bindings pass to check.
Document document_from_node(Node root, std::string input, std::string file = "");

class Engine {
 public:
  // Any of the three may be null: no policy means an empty (permissive) one, no runners means the
  // built-in serverless runner (and, for cks, an anonymous runner offering every GPU type), no org
  // means the default entitlements (no GPUs, serverless allowed).
  explicit Engine(std::shared_ptr<const Policy> policy = nullptr, std::shared_ptr<const Runners> runners = nullptr,
                  std::shared_ptr<const Org> org = nullptr);
  // The same, with the errors every result carries given by the caller instead of taken from the
  // three inputs: a binding's copies of them, which may say what only the binding knows (that a
  // str it read as text looks like a path it meant).
  Engine(std::shared_ptr<const Policy> policy, std::shared_ptr<const Runners> runners, std::shared_ptr<const Org> org,
         Diagnostics input_errors);

  // Checks one compiled request. Never throws for anything in the inputs; safe to call from many
  // threads at once; allocates nothing when the request passes. Errors of the policy, runners and
  // org inputs are part of every result (their warnings are `validate_policy`'s business).
  Result check(std::shared_ptr<const Request> request) const;

  // Compiles and checks one request: the sandbox layer, with the optional SandboxDefaults layer
  // beneath it and the @session.function overrides above it (SPEC §5.1).
  Result check(const Document& sandbox, const Document* defaults = nullptr, const Document* overrides = nullptr,
               const CheckOptions& options = {}) const;

  const Policy* policy() const;
  const std::shared_ptr<const CheckInputs>& inputs() const { return inputs_; }

 private:
  std::shared_ptr<const CheckInputs> inputs_;
};

// N-RES on its own (SPEC §5.2): the requests/limits/gpu the SDK would send for a `resources` value,
// with the QoS class; `resolved` holds {requests, limits, gpu}.
Result normalize_resources(const Node& resources, const CheckOptions& options = {});

}  // namespace sandgate
