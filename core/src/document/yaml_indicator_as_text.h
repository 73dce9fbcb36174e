// Values a user meant as text that start with a character YAML reserves: `*.example.com` is an
// alias to YAML, `@team`, `` `cmd` `` and `%x` cannot start a plain value at all. yaml-cpp 0.7 says
// "the referenced anchor is not defined" or "unknown token"; the hint writes the value quoted.
#pragma once

#include <string>
#include <string_view>

#include "document/yaml_errors.h"

namespace sandgate::detail {

// The value that starts at `at` as a user wrote it, to quote in a hint: up to a comment or the
// line's end, or, inside `[ ]` or `{ }`, up to the next `,`, `]` or `}`; trailing blanks dropped.
std::string_view value_written_at(std::string_view text, std::size_t at);

// For yaml-cpp's "the referenced anchor is not defined" at a `*`, and "unknown token" at `@`, a
// backquote or `%`: the explanation and the quoted value. Empty for any other error.
SyntaxExplanation explain_indicator_as_text(std::string_view text, std::size_t offset, const std::string& msg);

}  // namespace sandgate::detail
