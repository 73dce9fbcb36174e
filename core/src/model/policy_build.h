// Compiling a policy that is part of another input (a runner's `policy` in the inventory).
#pragma once

#include <string>

#include "sandgate/policy.h"

namespace sandgate {

// Validates and compiles `policy`, which sits at `path` in `input` (e.g. "/runners/0/policy" in
// "runners"); diagnostics point there.
PolicyLoad build_policy(const Node& policy, std::string file, std::string path, std::string input,
                        const PolicyContext& context);

}  // namespace sandgate
