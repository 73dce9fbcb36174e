// Values a user meant as text that start with a character YAML reserves: `*.example.com` is an
// alias to YAML, `> prod` a block of text on the lines below, and `@team`, `` `cmd` `` and `%x`
// cannot start a plain value at all. yaml-cpp 0.7 says "the referenced anchor is not defined",
// "unexpected character in block scalar" or "unknown token"; the hint writes the value quoted.
#pragma once

#include <string>
#include <string_view>

#include "document/yaml_errors.h"

namespace sandgate::detail {

// The value that starts at `at` as a user wrote it, to quote in a hint: up to a comment or the
// line's end, or, inside `[ ]` or `{ }` (opened on any line before), up to the next `,`, `]` or
// `}`; trailing blanks dropped.
std::string_view value_written_at(std::string_view text, std::size_t at);

// For yaml-cpp's "the referenced anchor is not defined" at a `*`, "unknown token" at `@`, a
// backquote or `%`, and "unexpected character in block scalar" on a `|` or `>` header's line
// (`display_name: > prod team`): the explanation and the quoted value. Empty for any other error.
SyntaxExplanation explain_indicator_as_text(std::string_view text, std::size_t offset, const std::string& msg);

}  // namespace sandgate::detail
