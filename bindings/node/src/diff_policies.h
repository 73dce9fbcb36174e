// The asynchronous policy diff behind diffPolicies().
#pragma once

#include <napi.h>

namespace sandgate_node {

Napi::Value diff_policies(const Napi::CallbackInfo& info);

}  // namespace sandgate_node
