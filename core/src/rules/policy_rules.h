// Policy validation rules P-2 … P-14 (SPEC §4), over the shaped policy tree and its typed model.
// P-1, P-4, P-6, P-9, P-11 and P-15 are checked while loading (schema, spelling layer, model).
#pragma once

#include "model/cursor.h"
#include "model/policy_model.h"
#include "sandgate/policy.h"
#include "util/diagnostics.h"

namespace sandgate::rules {

void check_policy(const model::Cursor& policy, const model::PolicyModel& m, DiagnosticSink& sink,
                  const PolicyContext& context);

// Whether `scheduler` is a Slurm (SUNK) scheduler: the runner's SUNK scheduler when known,
// else any name containing "slurm" (SPEC §6.8).
bool is_slurm_scheduler(const std::string& scheduler, const std::optional<std::string>& sunk_scheduler);

// Structural checks of one egress/ingress rule (P-7, P-8); `where` is "allowed_egress",
// "default_egress", "allowed_ingress", "default_ingress" or "sandbox".
void check_net_rule(const model::Cursor& rule, const model::NetRule& r, const std::string& where,
                    DiagnosticSink& sink);

}  // namespace sandgate::rules
