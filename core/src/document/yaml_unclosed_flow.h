// A `[` or `{` that is never closed, named where it opens. yaml-cpp 0.7 reports a forgotten `]` as
// "end of sequence flow not found" wherever its parser gave up, often lines further down (at the
// next key's `:`), with nothing that points back at the bracket.
#pragma once

#include <string>
#include <string_view>

#include "document/yaml_errors.h"

namespace sandgate::detail {

// For yaml-cpp's "end of sequence flow not found" and "end of map flow not found" (`msg`) at
// `error_offset`: the flow collection open there whose closing bracket the whole text lacks,
// marked at its `[` or `{`. Empty when the message is another, or when that collection is closed
// further on (the text is then malformed in some other way, and yaml-cpp's message stands).
//
// The text is lexed as far as it takes to find the brackets: quoted values and brackets count
// only where a token starts (`Bob's` and `x[1]` are plain text), comments and block scalars are
// skipped.
SyntaxExplanation explain_unclosed_flow(std::string_view text, std::size_t error_offset, const std::string& msg);

}  // namespace sandgate::detail
