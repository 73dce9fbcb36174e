// index.js's fast input path (lib/plain_json.js): a plain JS value handed over as the text of one
// JSON.stringify, read by the core (sandgate/json_value.h) into the tree js_to_node would build
// by walking the value's properties, at a fraction of the cost.
#pragma once

#include <napi.h>

#include <optional>

#include "sandgate/node.h"

namespace sandgate_node {

// The tree of `json` when it is a string the core accepts; nullopt otherwise (not a string, or
// text the core refuses: the caller then converts the value itself, which reports what it finds).
std::optional<sandgate::Node> value_from_json(Napi::Value json);

}  // namespace sandgate_node
