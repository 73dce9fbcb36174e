#include "document/yaml_unclosed_flow.h"

#include <algorithm>
#include <vector>

#include "util/text.h"

namespace sandgate::detail {
namespace {

// Just past the quote that closes the value opened at `open`, or npos: `''` inside '…' and a
// backslash's escape inside "…" close nothing.
std::size_t quoted_end(std::string_view text, std::size_t open) {
  const char q = text[open];
  for (std::size_t i = open + 1; i < text.size(); ++i) {
    if (q == '"' && text[i] == '\\') {
      ++i;
    } else if (text[i] == q) {
      if (q == '\'' && i + 1 < text.size() && text[i + 1] == '\'') {
        ++i;
      } else {
        return i + 1;
      }
    }
  }
  return std::string_view::npos;
}

// Past the lines of a block scalar whose header line is indented by `indent`: the rest of the
// header's line, then every empty line and every line indented more.
std::size_t block_scalar_end(std::string_view text, std::size_t header, std::size_t indent) {
  std::size_t i = text.find('\n', header);
  while (i != std::string_view::npos) {
    std::size_t next = i + 1;
    std::size_t spaces = leading_spaces(text.substr(next));
    std::size_t after = next + spaces;
    bool blank = after >= text.size() || text[after] == '\n' || text[after] == '\r';
    if (!blank && spaces <= indent) return i;
    i = text.find('\n', next);
  }
  return text.size();
}

}  // namespace

SyntaxExplanation explain_unclosed_flow(std::string_view text, std::size_t error_offset, const std::string& msg) {
  const bool list = msg == "end of sequence flow not found";
  if (!list && msg != "end of map flow not found") return {};
  struct Open {
    std::size_t at;
    // The first comment directly inside it that holds its closing bracket (`{cpu: "1", #note}`).
    std::size_t closer_in_comment = std::string_view::npos;
  };
  std::vector<Open> open;                              // the brackets open now
  std::size_t open_at_error = std::string_view::npos;  // the innermost one open at the error
  char prev = '\n';  // the last character of the last token: '\n' at a block line's start
  std::size_t indent = 0;
  for (std::size_t i = 0; i < text.size();) {
    if (open_at_error == std::string_view::npos && i >= error_offset) {
      if (!open.empty()) {
        open_at_error = open.back().at;
      } else if (i > error_offset || (text[i] != '[' && text[i] != '{')) {
        return {};  // a bracket at the error itself is the one (a `{` ending the text)
      }
    }
    const char c = text[i];
    if (c == '\n') {
      ++i;
      indent = leading_spaces(text.substr(i));
      if (open.empty()) prev = '\n';
      continue;
    }
    if (c == ' ' || c == '\t' || c == '\r') {
      ++i;
      continue;
    }
    if (c == '#' && (i == 0 || is_blank_or_break(text[i - 1]))) {
      const std::size_t end = std::min(text.find('\n', i), text.size());
      if (!open.empty() && open.back().closer_in_comment == std::string_view::npos &&
          text.substr(i, end - i).find(text[open.back().at] == '[' ? ']' : '}') != std::string_view::npos) {
        open.back().closer_in_comment = i;
      }
      i = end;
      continue;
    }
    const bool after_blank = i > 0 && is_blank_or_break(text[i - 1]);
    const bool token_start = open.empty() ? prev == '\n' || ((prev == ':' || prev == '-' || prev == '?') && after_blank)
                                          : std::string_view("[{,:?]}").find(prev) != std::string_view::npos;
    if (token_start && (c == '"' || c == '\'')) {
      i = quoted_end(text, i);
      if (i == std::string_view::npos) return {};  // an unclosed quote: a different error
      prev = c;
      continue;
    }
    if ((c == '[' || c == '{') && (token_start || !open.empty())) {
      open.push_back({i});
    } else if ((c == ']' || c == '}') && !open.empty()) {
      if (open.back().at == open_at_error) return {};  // closed after all: malformed otherwise
      open.pop_back();
    } else if (open.empty() && token_start && (c == '|' || c == '>')) {
      i = block_scalar_end(text, i, indent);
      continue;
    }
    prev = c;
    ++i;
  }
  if (open.empty()) return {};
  if (open_at_error == std::string_view::npos) open_at_error = open.back().at;  // the error at the text's end
  if (text[open_at_error] != (list ? '[' : '{')) return {};
  std::size_t closer_in_comment = std::string_view::npos;
  for (const Open& o : open) {
    if (o.at == open_at_error) closer_in_comment = o.closer_in_comment;
  }
  std::string hint = list ? "close it with ']' after its last item" : "close it with '}' after its last entry";
  if (closer_in_comment != std::string_view::npos) {
    hint = std::string("the '") + (list ? ']' : '}') + "' on line " +
           std::to_string(1 + std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(closer_in_comment), '\n')) +
           " is inside a comment (a '#' after a space starts one): quote the value holding the '#', or close the " +
           (list ? "list" : "map") + " before the comment";
  }
  return {std::string("the YAML is malformed: the ") + (list ? "list that starts here with '['" : "map that starts here with '{'") +
              " is never closed",
          std::move(hint), open_at_error};
}

}  // namespace sandgate::detail
