// Loading policies and runner inventories into their models (core/src/model/policy.cpp,
// runners.cpp), pinned where no conformance vector can see it: the public Policy API, `related`
// locations, and diagnostics a check does not carry (it keeps only the inputs' errors).
#include <gtest/gtest.h>

#include <algorithm>

#include "sandgate/sandgate.h"

namespace {

using namespace sandgate;

Result check(std::string_view policy_text, std::string_view sandbox_text) {
  auto policy = Policy::parse(policy_text, Format::yaml, "policy.yaml").policy;
  Document sandbox = load_document(sandbox_text, Format::yaml, "sandbox.yaml", "sandbox");
  return Engine(policy).check(sandbox, nullptr, nullptr, CheckOptions{});
}

// SPEC §3 `related`: an ingress rule outside the envelope names allowed_ingress, as egress names
// allowed_egress.
TEST(PolicyModel, ingress_outside_the_envelope_names_allowed_ingress) {
  Result r = check("constraints:\n  network:\n    allowed_ingress:\n      - {cidr: {cidr: \"10.0.0.0/8\"}}\n",
                   "network:\n  ingress:\n    - {cidr: 192.168.0.0/16}\nresources: {cpu: \"1\", memory: 1Gi}\n");
  const Diagnostic* d = nullptr;
  for (const auto& x : r.diagnostics()) {
    if (x.code == Code::NET_OUTSIDE_ENVELOPE) d = &x;
  }
  ASSERT_NE(d, nullptr);
  EXPECT_EQ(d->path, "/network/ingress/0");
  ASSERT_EQ(d->related.size(), 1u);
  EXPECT_EQ(d->related.front().input, "policy");
  EXPECT_EQ(d->related.front().path, "/constraints/network/allowed_ingress");
  ASSERT_TRUE(d->related.front().source);
  EXPECT_EQ(d->related.front().source->line, 4);
}

// SPEC: a null policy (never configured) is reported, and Policy::is_null says so; {} is not null.
TEST(PolicyModel, is_null_tells_a_null_policy_from_an_empty_one) {
  PolicyLoad null_load = Policy::parse("null\n", Format::yaml, "policy.yaml");
  ASSERT_TRUE(null_load.policy);
  EXPECT_TRUE(null_load.policy->is_null());
  PolicyLoad wrapped = Policy::parse("{\"runner_id\": \"r1\", \"policy\": null}", Format::json, "runner.json");
  ASSERT_TRUE(wrapped.policy);
  EXPECT_TRUE(wrapped.policy->is_null());
  PolicyLoad empty = Policy::parse("{}\n", Format::yaml, "policy.yaml");
  ASSERT_TRUE(empty.policy);
  EXPECT_FALSE(empty.policy->is_null());
}

// A loading error (L-6 tag, L-7 duplicate key) is the one report for its value: the schema does
// not add its own error at the same path.
TEST(PolicyModel, a_loading_error_is_not_reported_again_by_the_schema) {
  PolicyLoad tagged = Policy::parse("constraints:\n  image:\n    allowed_images: !!binary aGVsbG8=\n", Format::yaml,
                                    "policy.yaml");
  ASSERT_EQ(tagged.diagnostics.size(), 1u);
  EXPECT_EQ(tagged.diagnostics.front().code, Code::YAML_TAG);
  PolicyLoad twice = Policy::parse(
      "constraints:\n  lifecycle:\n    default_lifetime_seconds: 5\n    default_lifetime_seconds: 99999999\n",
      Format::yaml, "policy.yaml");
  ASSERT_EQ(twice.diagnostics.size(), 1u);
  EXPECT_EQ(twice.diagnostics.front().code, Code::DUPLICATE_KEY);
}

// P-13 on a runner's own policy: the runner's sunk.scheduler_name says which scheduler is Slurm,
// even when the name does not contain "slurm" (SPEC §1.4, P-13).
TEST(RunnersModel, runner_policy_node_selector_warns_under_the_runners_own_sunk_scheduler) {
  RunnersLoad load = Runners::parse(
      "runners:\n  - runner_id: sunk-east\n    sunk: {scheduler_name: hpc-pods}\n    policy:\n      base:\n        spec:\n"
      "          schedulerName: hpc-pods\n          nodeSelector: {pool: a}\n",
      Format::yaml, "runners.yaml");
  const Diagnostic* d = nullptr;
  for (const auto& x : load.diagnostics) {
    if (x.code == Code::SUNK_NODE_SELECTOR) d = &x;
  }
  ASSERT_NE(d, nullptr);
  EXPECT_EQ(d->severity, Severity::warning);
  EXPECT_EQ(d->path, "/runners/0/policy/base/spec/nodeSelector");
  EXPECT_EQ(d->input, "runners");
}

// A runner without a sunk block has no Slurm scheduler (SPEC §6.8: in the runners input a
// scheduler is Slurm only when it is the runner's sunk.scheduler_name): its own policy gets no P-13
// warning even when its scheduler's name contains "slurm". The same policy read on its own does.
TEST(RunnersModel, a_runner_without_sunk_has_no_slurm_scheduler_for_p13) {
  const char* policy = "base:\n  spec:\n    schedulerName: tenant-slurm-scheduler\n    nodeSelector: {pool: a}\n";
  auto has_p13 = [](const Diagnostics& ds) {
    return std::any_of(ds.begin(), ds.end(), [](const Diagnostic& d) { return d.code == Code::SUNK_NODE_SELECTOR; });
  };
  EXPECT_TRUE(has_p13(Policy::parse(policy, Format::yaml, "policy.yaml").diagnostics));
  RunnersLoad load = Runners::parse(
      "runners:\n  - runner_id: cks-east\n    policy:\n      base:\n        spec:\n"
      "          schedulerName: tenant-slurm-scheduler\n          nodeSelector: {pool: a}\n",
      Format::yaml, "runners.yaml");
  EXPECT_FALSE(has_p13(load.diagnostics));
}

// SPEC §3 `related`: an org entitlement that refuses the request names where the org sets it.
TEST(OrgModel, refused_entitlements_name_the_org_field) {
  auto check_with_org = [](std::string_view org_text, std::string_view sandbox_text) {
    auto org = Org::parse(org_text, Format::yaml, "org.yaml").org;
    Document sandbox = load_document(sandbox_text, Format::yaml, "sandbox.yaml", "sandbox");
    return Engine(nullptr, nullptr, org).check(sandbox, nullptr, nullptr, CheckOptions{});
  };
  auto related_of = [](const Result& r, Code code) -> const Related* {
    for (const auto& d : r.diagnostics()) {
      if (d.code == code && !d.related.empty()) return &d.related.front();
    }
    return nullptr;
  };
  Result gpu = check_with_org("max_gpus_per_sandbox: 4\ngpu_allowed: false\n",
                              "resources: {cpu: \"4\", memory: 16Gi, gpu: 1}\n");
  const Related* rel = related_of(gpu, Code::GPU_NOT_ALLOWED);
  ASSERT_NE(rel, nullptr);
  EXPECT_EQ(rel->input, "org");
  EXPECT_EQ(rel->path, "/gpu_allowed");
  ASSERT_TRUE(rel->source);
  EXPECT_EQ(rel->source->line, 2);

  Result serverless = check_with_org("gpu_allowed: true\nserverless_allowed: false\n",
                                     "placement_mode: serverless\nresources: {cpu: \"1\", memory: 1Gi}\n");
  rel = related_of(serverless, Code::SERVERLESS_NOT_ALLOWED);
  ASSERT_NE(rel, nullptr);
  EXPECT_EQ(rel->input, "org");
  EXPECT_EQ(rel->path, "/serverless_allowed");
  ASSERT_TRUE(rel->source);
  EXPECT_EQ(rel->source->line, 2);
}

}  // namespace
