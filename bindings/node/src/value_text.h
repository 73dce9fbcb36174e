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

// A JS string's UTF-8 read in one pass: `room` for its bytes and the NUL V8 writes after them,
// found without walking the string (its UTF-16 length × 3 + 1: each unit is at most 3 bytes, and
// asking for the UTF-8 length would walk it), then the bytes written into `buffer`. False when N-API
// refuses (not a string).
bool utf8_room(Napi::Value text, std::size_t& room);
bool write_utf8(Napi::Value text, char* buffer, std::size_t room, std::size_t& size);

}  // namespace sandgate_node
