// A lexical pre-check of YAML flow collections ([…] and {…}), run before yaml-cpp sees the text.
//
// While a flow collection could still turn out to be a key (`[a, b]: c`), yaml-cpp 0.7's scanner
// keeps every token after it in memory and hands the parser nothing: `[[` followed by 4 MiB of
// `a,` costs 420 MB, and 4 MiB of `[` or `{` costs 1 GB, before any of our limits can see a
// single event. So the text is lexed once, cheaply, to find where its flow collections alone break
// the depth or node limit.
//
// The lexer follows yaml-cpp's token rules inside flow collections, where they are simple. In
// block context it only has to find where flow collections start, and it skips what it cannot be
// sure of (block scalars, continuation lines of plain scalars). It is only a shortcut: the
// loader then parses the text up to the offset found, and reports the limit only when the real
// parser hits it there; otherwise it parses the whole text as if nothing had been found.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "sandgate/document.h"

namespace sandgate::detail {

struct FlowBreach {
  // The length of the shortest prefix of the text whose flow collections alone break the depth
  // limit or hold more keys and values than the node limit allows; npos when there is none.
  std::size_t cut = std::string_view::npos;
  // What closes the flow collections still open at the cut (`]}` …). Appended to the prefix, it
  // lets yaml-cpp settle which collections are keys the same way it would in the whole text.
  std::string closers;
};

FlowBreach find_flow_limit_breach(std::string_view text, const Limits& limits);

}  // namespace sandgate::detail
