// yaml-cpp 0.7's errors about `[ ]` and `{ }`, told at the bracket that is wrong. A forgotten `]`
// is "end of sequence flow not found" wherever its parser gave up, often lines further down (at
// the next key's `:`), and a `]` where a `}` was meant is "illegal flow end", with nothing that
// points back at the bracket left open.
//
// The text is lexed again for its brackets: quoted values and brackets count only where a token
// starts (`Bob's` and `x[1]` are plain text), comments and block scalars are skipped.
#pragma once

#include <string>
#include <string_view>

#include "document/yaml_errors.h"

namespace sandgate::detail {

// Whether `offset` lies inside a `[ ]` or `{ }` still open there.
bool inside_flow_collection(std::string_view text, std::size_t offset);

// For "end of sequence flow not found" and "end of map flow not found" (`msg`) at `error_offset`:
// the flow collection open there whose closing bracket the whole text lacks, marked at its `[` or
// `{`. Empty when the message is another, or when that collection is closed further on (the text
// is then malformed in some other way, and yaml-cpp's message stands).
SyntaxExplanation explain_unclosed_flow(std::string_view text, std::size_t error_offset, const std::string& msg);

// For "illegal flow end" at a `]` or `}`: that it closes nothing, or that it cannot close the
// collection of the other kind still open (and where that one opened). Empty otherwise.
SyntaxExplanation explain_stray_flow_end(std::string_view text, std::size_t error_offset, const std::string& msg);

}  // namespace sandgate::detail
