// Fixed inputs for the check targets: a small policy that exercises most constraint families,
// a runner inventory (cks runners with GPUs, a SUNK runner, a runner with its own policy) and an
// organisation that may use GPUs.
#pragma once

#include <memory>

#include "fuzz_common.h"

namespace fuzz {

inline constexpr std::string_view k_policy = R"(display_name: fuzz
base:
  metadata:
    annotations:
      sunk.coreweave.com/partition: sandboxes
  spec:
    nodeSelector:
      pool: sandboxes
constraints:
  resources:
    max_cpu: "8"
    max_memory: 32Gi
    min_cpu: 100m
    min_memory: 64Mi
    default_cpu: "1"
    default_memory: 1Gi
    cpu_ceiling: "16"
    memory_ceiling: 64Gi
    max_gpu_count: 4
  metadata:
    denied_annotation_prefixes: [coreweave.com/, kubernetes.io/]
    max_annotation_count: 16
  lifecycle:
    default_lifetime_seconds: 3600
  image:
    allowed_registries: [docker.io, ghcr.io/acme]
  security:
    allowed_runtime_classes: [kata-qemu, runc, nvidia]
    default_cpu_runtime_class: kata-qemu
    default_gpu_runtime_class: nvidia
    allowed_capabilities: [NET_BIND_SERVICE]
  volumes:
    allowed_media: [STORAGE_MEDIUM_DISK, STORAGE_MEDIUM_MEMORY]
    max_size: 8Gi
  network:
    allowed_egress:
      - https_hostname: "*.example.com"
      - cidr: {cidr: 10.0.0.0/8, except: [10.1.0.0/16]}
        ports: [{port: 443, protocol: TCP}]
    default_egress:
      - cidr: {cidr: 10.0.0.0/8}
    allowed_ingress:
      - tenant: TENANT_SCOPE_SAME_ORG
)";

inline constexpr std::string_view k_runners = R"(runners:
  - runner_id: prod-us-east-1
    mode: cks
    gpu_types:
      - {type: H100, memory_gb: 80}
      - {type: A100, memory_gb: 40}
    max_gpu_count: 8
    runtime_classes: {cpu: kata-qemu, gpu: ""}
  - runner_id: slurm-1
    mode: cks
    sunk: {scheduler_name: tenant-slurm-slurm-scheduler, kill_wait_seconds: 60}
  - runner_id: locked
    mode: cks
    policy:
      constraints:
        resources: {max_cpu: "2", default_cpu: 500m, default_memory: 512Mi}
)";

inline constexpr std::string_view k_org = "gpu_allowed: true\nmax_gpus_per_sandbox: 8\nserverless_allowed: true\n";

// Loaded once; aborts when a fixture itself is invalid (a broken fixture would hide everything).
struct Fixtures {
  Document policy_doc = load_document(k_policy, Format::yaml, "policy.yaml", "policy");
  Document runners_doc = load_document(k_runners, Format::yaml, "runners.yaml", "runners");
  Document org_doc = load_document(k_org, Format::yaml, "org.yaml", "org");
  std::shared_ptr<const Policy> policy;
  std::shared_ptr<const Runners> runners;
  std::shared_ptr<const Org> org;

  Fixtures() {
    PolicyLoad p = Policy::parse(k_policy, Format::yaml, "policy.yaml");
    if (!p.ok() || !p.diagnostics.empty()) fail("fixture policy is clean", describe(p.diagnostics));
    RunnersLoad r = Runners::parse(k_runners, Format::yaml, "runners.yaml");
    if (!r.ok()) fail("fixture runners load", describe(r.diagnostics));
    OrgLoad o = Org::parse(k_org, Format::yaml, "org.yaml");
    if (!o.ok()) fail("fixture org loads", describe(o.diagnostics));
    policy = p.policy;
    runners = r.runners;
    org = o.org;
  }

  std::map<std::string, const Node*> roots() const {
    return {{"policy", &policy_doc.root}, {"runners", &runners_doc.root}, {"org", &org_doc.root}};
  }
};

inline const Fixtures& fixtures() {
  static const Fixtures f;
  return f;
}

}  // namespace fuzz
