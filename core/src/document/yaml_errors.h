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

}  // namespace sandgate::detail
