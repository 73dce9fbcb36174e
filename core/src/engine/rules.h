// The rule functions of `check`, one family per file; check.cpp runs them in SPEC §6 order:
// placement → the policy that applies → apply base → fill defaults → check constraints. Each rule
// reads the RuleInput, the policy that applies and what earlier rules resolved, writes its own
// slice of the Resolution, and reports Findings. None of them allocates for a passing request.
#pragma once

#include "engine/rule_input.h"

namespace sandgate::engine {

// placement.cpp — N-PL, SPEC §1.4: candidates, then the primary runner and its policy
void choose_candidates(const RuleInput& in, Resolution& res, Findings& f);
void choose_primary_runner(const RuleInput& in, Resolution& res, Findings& f);

// gpu.cpp — R-GPU
void filter_gpu_candidates(const RuleInput& in, Resolution& res, Findings& f);        // R-GPU-6/7
void check_gpu(const RuleInput& in, const model::PolicyModel& pm, const Resolution& res, Findings& f);  // R-GPU-1..10
void check_gpu_runtime(const RuleInput& in, const model::PolicyModel& pm, const Resolution& res, Findings& f);  // R-GPU-9/12/13

// sunk.cpp — R-SUNK (whether the scheduler is Slurm is known before the resources are checked)
void resolve_scheduler(const RuleInput& in, const model::PolicyModel& pm, Resolution& res);
void check_sunk(const RuleInput& in, const model::PolicyModel& pm, Resolution& res, Findings& f);

// resources.cpp — R-RES-1 defaults, R-RES-2..5, N-QOS
void apply_resource_defaults(const RuleInput& in, const model::PolicyModel& pm, Resolution& res);
void check_resources(const RuleInput& in, const model::PolicyModel& pm, const Resolution& res, Findings& f);
void resolve_qos(const RuleInput& in, Resolution& res, Findings& f);

// annotations.cpp — R-ANN-1/2/4/5/7 (the key syntax of R-ANN-3 is the request's own)
void check_annotations(const RuleInput& in, const model::PolicyModel& pm, Resolution& res, Findings& f);

// lifetime.cpp — R-TIME-2/4
void resolve_lifetime(const RuleInput& in, const model::PolicyModel& pm, Resolution& res, Findings& f);

// volumes.cpp — R-VOL-2/3/4 (percent sizes need the resolved memory requests)
void check_volumes(const RuleInput& in, const model::PolicyModel& pm, Resolution& res, Findings& f);
// The size a volume resolves to (absolute, or its percentage of the resolved memory request).
std::optional<Quantity> resolved_volume_size(const model::RequestModel& req, const Resolution& res, std::size_t volume);

// runtime_class.cpp — R-RC
void resolve_runtime_class(const RuleInput& in, const model::PolicyModel& pm, Resolution& res, Findings& f);

// network.cpp — R-NET
void check_network(const RuleInput& in, const model::PolicyModel& pm, Resolution& res, Findings& f);

// image_security.cpp — R-IMG, R-SEC, R-INST
void check_image_security_instance(const RuleInput& in, const model::PolicyModel& pm, Findings& f);

// The resolved annotations (SPEC §6.1 R-ANN-1/7), in order: the client's (a key the base pins takes
// the base's value), then the base's other keys, then a group-id that follows user-id.
struct ResolvedAnnotation {
  std::string_view key, value;
  const model::Annotation* client = nullptr;    // the client's entry, when the client wrote the key
  const model::BaseAnnotation* base = nullptr;  // the base's entry, when the base pins the key
  bool group_id_from_user_id = false;
};
std::vector<ResolvedAnnotation> resolved_annotations(const model::RequestModel& req, const model::PolicyModel& pm, const Resolution& res);
// The Slurm job parameters the sunk.coreweave.com/ annotations become (partition, account, …).
std::vector<std::pair<std::string, std::string>> slurm_job_parameters(const model::RequestModel& req, const model::PolicyModel& pm,
                                                                      const Resolution& res);

// Sums over the containers of one resolved dimension (requests or limits, cpu or memory).
std::optional<Quantity> sum_resolved(const Resolution& res, bool request, bool cpu);

}  // namespace sandgate::engine
