// The runner inventory (SPEC §1.4) and the organisation's entitlements, compiled.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "model/policy_model.h"
#include "sandgate/policy.h"

namespace sandgate::model {

struct GpuType {
  std::string type;
  std::int64_t memory_gb = 0;  // 0 = unknown
};

struct Runner {
  std::string id;
  std::string mode = "cks";  // "cks" or "serverless"
  std::vector<GpuType> gpu_types;
  std::optional<std::int64_t> max_gpu_count;  // GPUs on one node
  std::string runtime_class_cpu, runtime_class_gpu;
  std::optional<std::string> sunk_scheduler;
  std::optional<std::int64_t> kill_wait_seconds;
  Origin kill_wait_origin;  // where sunk.kill_wait_seconds is written
  std::shared_ptr<const Policy> policy;  // the runner's own policy, when it has one
  bool builtin = false;                  // the built-in serverless runner or the anonymous cks runner
  bool offers_every_gpu = false;         // the anonymous cks runner: type matching cannot fail
  Origin origin;
  Origin id_origin;  // where runner_id is written: a duplicate id names it as its first occurrence
};

struct RunnersModel {
  std::vector<Runner> runners;
  // The first runner of each id (a hash lookup: runner_ids × runners must not be pairwise).
  std::unordered_map<std::string, std::size_t> first_of_id;
  void add(Runner r) {
    first_of_id.emplace(r.id, runners.size());
    runners.push_back(std::move(r));
  }
  const Runner* find(const std::string& id) const {
    auto it = first_of_id.find(id);
    return it == first_of_id.end() ? nullptr : &runners[it->second];
  }
};

struct OrgModel {
  bool gpu_allowed = false;
  std::optional<std::int64_t> max_gpus_per_sandbox;
  bool serverless_allowed = true;
  Origin gpu_allowed_origin, max_gpus_origin, serverless_origin;
};

// The runner the engine always knows (SPEC §1): one GPU type, 96 GB, one GPU per sandbox.
const Runner& builtin_serverless_runner();
// With no runners input, the only cks candidate: offers every GPU type, uses the policy argument;
// its id is the request's first runner id, if any (Resolution::runner_id).
const Runner& anonymous_cks_runner();

}  // namespace sandgate::model
