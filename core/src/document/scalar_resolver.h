// Typing plain YAML scalars the way YAML 1.1 readers do (PyYAML's implicit resolvers, which the
// Python SDK's users load their files with): yes/on are booleans, 0x1F and 012 are integers,
// 1.5 is a float, 1e3 (no dot) stays a string.
#pragma once

#include <string_view>

#include "sandgate/node.h"

namespace sandgate {

// Fills `node` (kind, value, flags, text) from a plain scalar's text.
void resolve_plain_scalar(std::string_view text, Node& node);

// Resolves `text` as exactly the type an explicit core tag asks for ("int", "float", "bool",
// "null", "str"); false when the text is not a value of that type.
bool resolve_tagged_scalar(std::string_view tag, std::string_view text, Node& node);

// Parses a JSON number literal into an integer or number node (exact text kept).
void resolve_json_number(std::string_view text, Node& node);

}  // namespace sandgate
