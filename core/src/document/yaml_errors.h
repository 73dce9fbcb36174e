// What a yaml-cpp 0.7 parse error means, in words a user can act on. Its messages ("unknown
// token", "invalid unicode: 55357") name neither the value nor the cure; this says what happened
// at the error's place in the text and how to write it instead.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include <yaml-cpp/exceptions.h>

#include "document/line_index.h"

namespace sandgate::detail {

struct SyntaxExplanation {
  std::string message;
  std::string hint;  // "" when there is nothing better to say than the message
  std::size_t at = std::string_view::npos;  // a better byte offset to point at than the error's mark
};

SyntaxExplanation explain_yaml_error(std::string_view text, const LineIndex& lines, const YAML::Exception& e);

// yaml-cpp 0.7 starts a second document at a line indented less than the first document's first
// line (`  a: 1` then ` b: 2`), where YAML and PyYAML need `---` to start one. Such a line is a
// syntax error, explained here; nothing (an empty message) when the document at `second` (a byte
// offset) does follow a `---` or `...` line.
SyntaxExplanation explain_unmarked_document(std::string_view text, const LineIndex& lines, std::size_t first,
                                            std::size_t second);

}  // namespace sandgate::detail
