#include "document/yaml_block_scalar.h"

#include "util/text.h"

namespace sandgate::detail {
namespace {

struct Line {
  std::size_t spaces = 0;  // leading spaces
  bool blank = false;      // nothing but spaces (and a CRLF's "\r")
};

Line read_line(std::string_view text, std::size_t begin, std::size_t end) {
  Line l;
  l.spaces = leading_spaces(text.substr(begin, end - begin));
  std::size_t rest = begin + l.spaces;
  l.blank = rest == end || (rest + 1 == end && text[rest] == '\r');
  return l;
}

}  // namespace

BlockScalarHeader read_block_scalar_header(std::string_view text, std::size_t at) {
  BlockScalarHeader h;
  h.folded = at < text.size() && text[at] == '>';
  for (std::size_t i = at + 1; i < text.size() && i <= at + 2; ++i) {
    if (text[i] == '+') {
      h.keep = true;
    } else if (text[i] >= '1' && text[i] <= '9') {
      h.indentation_indicator = text[i] - '0';
    } else if (text[i] != '-') {
      break;
    }
  }
  return h;
}

BlockLines read_block_lines(std::string_view text, std::size_t header) {
  BlockLines b;
  std::size_t begin = text.find('\n', header);
  if (begin == std::string_view::npos) return b;
  ++begin;
  std::size_t longest_blank = 0;  // of the empty lines before the first content line
  while (begin < text.size()) {
    std::size_t end = text.find('\n', begin);
    if (end == std::string_view::npos) end = text.size();
    const std::size_t line_break = end < text.size() ? 1 : 0;  // the text's last line may have none
    Line l = read_line(text, begin, end);
    if (!b.has_content) {
      if (l.blank) {
        if (l.spaces > longest_blank) longest_blank = l.spaces;
      } else {
        b.indent = l.spaces > longest_blank ? l.spaces : longest_blank;
        if (l.spaces < b.indent || b.indent == 0) return BlockLines{};  // no content line after all
        b.has_content = true;
        b.final_breaks = line_break;
      }
    } else if (l.blank && l.spaces <= b.indent) {
      // Fewer spaces, or empty lines before, are read alike.
      b.ends_in_white_line = line_break == 0 && l.spaces == b.indent && b.final_breaks == 1;
      b.final_breaks += line_break;
    } else if (!l.blank && l.spaces < b.indent) {
      break;  // the block ends: a key, an entry or a comment left of it
    } else {
      b.final_breaks = line_break;  // a content line (a line of spaces beyond the indentation is one too)
    }
    begin = end + 1;
  }
  return b;
}

}  // namespace sandgate::detail
