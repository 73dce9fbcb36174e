// The asynchronous batch check behind checkMany().
#pragma once

#include <napi.h>

namespace sandgate_node {

Napi::Value check_batch(const Napi::CallbackInfo& info);
Napi::Value check_texts(const Napi::CallbackInfo& info);
Napi::Value check_item(const Napi::CallbackInfo& info);

}  // namespace sandgate_node
