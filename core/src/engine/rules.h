// The rule functions of `check`, one family per file; check.cpp runs them in SPEC §6 order:
// merge layers (N) → placement → resources → apply base → fill defaults → check constraints.
#pragma once

#include "engine/context.h"

namespace sandgate::engine {

// layers.cpp — N-LAYER
bool prepare_layers(Context& ctx);  // shape and validate each layer; false when one is unusable
void merge_layers(Context& ctx);

// placement.cpp — N-PL, SPEC §1.4
void resolve_placement(Context& ctx);
void choose_primary_runner(Context& ctx, const std::shared_ptr<const Policy>& policy_argument);

// resources.cpp — N-RES, N-QOS, R-RES
void normalize_request_resources(Context& ctx);
void apply_resource_defaults(Context& ctx);
void check_resources(Context& ctx);
void resolve_qos(Context& ctx);

// gpu.cpp — R-GPU-1 … R-GPU-13 (runtime-class and SUNK parts run after those are resolved)
void filter_gpu_candidates(Context& ctx);
void check_gpu(Context& ctx);
void check_gpu_runtime(Context& ctx);

// annotations.cpp — R-ANN
void resolve_annotations(Context& ctx);

// lifetime.cpp — R-TIME
void resolve_lifetime(Context& ctx);

// volumes.cpp — R-VOL (sizes need the resolved memory requests)
void check_volumes(Context& ctx);

// runtime_class.cpp — R-RC
void resolve_runtime_class(Context& ctx);

// network.cpp — R-NET
void resolve_network(Context& ctx);

// image_security.cpp — R-IMG, R-SEC, R-INST
void check_image_security_instance(Context& ctx);

// sunk.cpp — R-SUNK
void resolve_scheduler(Context& ctx);
void check_sunk(Context& ctx);

// misc.cpp — R-MISC
void check_misc(Context& ctx);

// resolved.cpp — the resolved sandbox and its provenance (SPEC §7)
void resolve_passthrough(Context& ctx);

}  // namespace sandgate::engine
