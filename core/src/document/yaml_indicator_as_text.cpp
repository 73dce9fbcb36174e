#include "document/yaml_indicator_as_text.h"

#include "document/yaml_flow_brackets.h"
#include "util/text.h"

namespace sandgate::detail {

std::string_view value_written_at(std::string_view text, std::size_t at) {
  const bool in_flow = inside_flow_collection(text, at);
  std::size_t end = at;
  while (end < text.size() && text[end] != '\n' && text[end] != '\r' &&
         !(in_flow && (text[end] == ',' || text[end] == ']' || text[end] == '}')) &&
         !(text[end] == '#' && end > at && (text[end - 1] == ' ' || text[end - 1] == '\t'))) {
    ++end;
  }
  while (end > at && (text[end - 1] == ' ' || text[end - 1] == '\t')) --end;
  return text.substr(at, end - at);
}

SyntaxExplanation explain_indicator_as_text(std::string_view text, std::size_t offset, const std::string& msg) {
  if (offset >= text.size()) return {};
  const char c = text[offset];
  if (msg == "the referenced anchor is not defined" && c == '*') {
    const std::string_view value = value_written_at(text, offset);
    std::size_t name_end = 1;
    while (name_end < value.size() && value[name_end] != ' ' && value[name_end] != '\t') ++name_end;
    return {"the YAML is malformed: " + shown_text(value.substr(0, name_end)) +
                " is an alias (a value starting with '*' refers to an anchor), and no anchor " +
                shown_text("&" + std::string(value.substr(1, name_end - 1))) + " comes before it",
            "if " + shown_text(value) + " is text, quote it: " + quoted(value), offset};
  }
  if (msg == "unexpected character in block scalar") {
    // `display_name: > prod team`: text on a block scalar's header line. Back over the header's
    // indicators to its `|` or `>`.
    std::size_t h = offset;
    while (h > 0 && std::string_view("+-0123456789 \t").find(text[h - 1]) != std::string_view::npos) --h;
    if (h == 0 || (text[h - 1] != '|' && text[h - 1] != '>')) return {};
    if (h >= 2 && !is_blank_or_break(text[h - 2])) return {};  // inside a tag (`!Sandbox>Defaults`), say
    const char header = text[h - 1];
    const std::string_view whole = value_written_at(text, h - 1);
    if (whole.size() <= offset - (h - 1)) return {};  // the character is a comment's or a line end's
    return {std::string("the YAML is malformed: a value starting with '") + header + "' is a block of text on the lines below (" +
                (header == '>' ? "folded" : "literal") + "); its own line may hold only '+' or '-', an indentation digit "
                "and a comment, not " + shown_text(whole.substr(offset - (h - 1))),
            "start the text on the next line, indented more than its key; or, if " + shown_text(whole) +
                " is the value itself, quote it: " + quoted(whole),
            offset};
  }
  if (msg == "unknown token" && (c == '@' || c == '`' || c == '%')) {
    return {std::string("the YAML is malformed: a value cannot start with '") + c + "', which YAML reserves",
            "quote the value: " + quoted(value_written_at(text, offset)), offset};
  }
  return {};
}

}  // namespace sandgate::detail
