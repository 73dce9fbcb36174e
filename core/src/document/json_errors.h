// What a RapidJSON parse error means, in words a user can act on. Its messages ("Missing a name
// for object member.") describe the parser's state, not the mistake; most JSON mistakes are one
// of a few written by hand or copied from Python or JavaScript (a trailing comma, single quotes,
// an unquoted name, True/None, NaN, a comment), and the text at the error's offset tells which.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "util/rapidjson.h"

namespace sandgate::detail {

struct JsonExplanation {
  std::string message;  // "the JSON is malformed: …"
  std::string hint;     // "" when there is nothing better to say than the message
};

// `stream_line`: `text` is one line of a JSON Lines request stream, so a record written over
// several lines (pretty-printed, `jq` without -c) shows as broken lines, and is told so.
JsonExplanation explain_json_error(std::string_view text, std::size_t offset, rapidjson::ParseErrorCode code,
                                   bool stream_line = false);

}  // namespace sandgate::detail
