// JS values → sandgate Node trees, directly (no JSON text in between), within the loader's limits.
// Anything JSON cannot hold (functions, Symbols, cycles, getters that throw, Proxies whose traps
// throw, NaN, Dates, Maps, …) becomes a diagnostic at its JSON Pointer; nothing here throws.
#pragma once

#include <napi.h>

#include <string>

#include "sandgate/document.h"

namespace sandgate_node {

struct Converted {
  sandgate::Node root;
  sandgate::Diagnostics diagnostics;
  bool usable = true;  // false when a limit stopped the walk: the tree is incomplete
};

// Converts `value` (the whole input named `input`: "sandbox", "policy", …). `base` is prepended to
// every pointer (normalizeResources converts the value found at "/resources").
Converted js_to_node(napi_env env, napi_value value, const std::string& input, const std::string& base = "",
                     const sandgate::Limits& limits = {});

// The UTF-8 bytes of a JS string, or of a Buffer / typed array / ArrayBuffer; false for other values.
bool js_text(napi_env env, napi_value value, std::string& out);

}  // namespace sandgate_node
