// The README examples the benchmarks measure: each sandbox with the policy it is checked against,
// the runner inventory and (for the GPU example) the organisation.
#pragma once

#include <fstream>
#include <iterator>
#include <sstream>
#include <string>

#include "sandgate/sandgate.h"

namespace sandgate::bench {

inline std::string read(const std::string& rel) {
  std::ifstream in(std::string(SANDGATE_SOURCE_DIR) + "/examples/" + rel, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

struct Example {
  std::string sandbox, policy;
  bool org = false;
};

inline const Example k_examples[] = {
    {"sandboxes/prod-ok.yaml", "policies/production-cks.yaml"},
    {"sandboxes/sunk-ok.yaml", "policies/sunk-slurm.yaml"},
    {"sandboxes/sunk-partition-override.yaml", "policies/sunk-slurm.yaml"},
    {"sandboxes/gpu-wrong-case.yaml", "policies/gpu-cks.yaml", true},
    {"sandboxes/memory-volume-80.yaml", "policies/production-cks.yaml"},
    {"sandboxes/cpu-above-max.yaml", "policies/production-cks.yaml"},
};

// Every policy under examples/policies/, as the bindings' policy-validation benchmarks read them.
inline const char* const k_policies[] = {
    "policies/gpu-cks.yaml", "policies/permissive.yaml", "policies/production-cks-v2.yaml",
    "policies/production-cks.yaml", "policies/sunk-slurm.yaml",
};

inline Engine engine_for(const Example& e) {
  auto policy = Policy::parse(read(e.policy), Format::yaml, e.policy).policy;
  auto runners = Runners::parse(read("runners.yaml"), Format::yaml, "runners.yaml").runners;
  std::shared_ptr<const Org> org;
  if (e.org) org = Org::parse(read("org.yaml"), Format::yaml, "org.yaml").org;
  return Engine(policy, runners, org);
}


}  // namespace sandgate::bench
