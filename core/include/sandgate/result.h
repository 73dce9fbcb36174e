// What sandgate answers: the diagnostics and, for `check`, the resolved sandbox.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "sandgate/diagnostic.h"
#include "sandgate/node.h"

namespace sandgate {

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

struct Result {
  bool ok = true;  // no diagnostic has severity error
  Diagnostics diagnostics;

  // Filled by check (empty for validate_policy).
  std::string placement_mode;  // "serverless" or "cks"
  std::string qos_class;       // "Guaranteed", "Burstable" or "BestEffort"
  Node resolved;               // the effective request, canonical snake_case, defaults filled in
  std::vector<std::pair<std::string, std::string>> provenance;  // resolved pointer → where it came from
  std::vector<std::pair<std::string, std::string>> rules_applied;  // resolved pointer → rule that decided it
  std::optional<GpuResolution> gpu;
  std::optional<RuntimeClassResolution> runtime_class;
  std::optional<SlurmMapping> slurm;
  std::string runner_id;                       // the primary candidate runner
  std::vector<std::string> other_candidates;   // the other eligible runners

  std::vector<const Diagnostic*> with_severity(Severity s) const;
  std::vector<const Diagnostic*> errors() const { return with_severity(Severity::error); }
  std::vector<const Diagnostic*> warnings() const { return with_severity(Severity::warning); }
  // Recomputes `ok` from the diagnostics.
  void finish();
};

}  // namespace sandgate
