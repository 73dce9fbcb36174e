#include "document/yaml_errors.h"

#include <charconv>
#include <cstdint>
#include <cstdio>

#include "util/text.h"

namespace sandgate::detail {
namespace {

// yaml-cpp's messages are ASCII but may quote one raw byte of the input ("unknown escape
// character: \xc3", the first byte of a multi-byte character): escaped, so that diagnostics stay
// valid UTF-8 (the JSON and SARIF outputs must be).
std::string ascii_message(const std::string& msg) {
  std::string out;
  for (unsigned char ch : msg.empty() ? std::string("malformed YAML") : msg) {
    if (ch < 0x80) {
      out += static_cast<char>(ch);
    } else {
      static constexpr char kHex[] = "0123456789abcdef";
      out += "\\x";
      out += kHex[ch >> 4];
      out += kHex[ch & 15];
    }
  }
  return out;
}

// The two usual causes that yaml-cpp's wording ("illegal map value") hides: a tab indenting the
// line or the one before (YAML forbids tabs in indentation), and a key longer than 1024
// characters (YAML then does not read it as a key at all).
std::string layout_hint(std::string_view text, const LineIndex& lines, const YAML::Mark& mark) {
  for (int l = mark.line; l >= 0 && l >= mark.line - 1; --l) {
    std::size_t i = lines.offset_of(l, 0);
    while (i < text.size() && (text[i] == ' ' || text[i] == '\t')) {
      if (text[i] == '\t') return "YAML does not allow tabs for indentation; indent with spaces";
      ++i;
    }
  }
  if (mark.column > 1024) {
    return "a key longer than 1024 characters is not read as a key; shorten it, or write it as \"? key\" "
           "on its own line";
  }
  return {};
}

// yaml-cpp 0.7 ends a plain scalar inside [ ] or { } at any `?` (YAML 1.1's reading), then fails
// on the `?` with "unknown token"; YAML 1.2, PyYAML and go-yaml read `[https://x.io/a?b=c]` as one
// value. Empty when the error at `offset` is not such a `?` (`? ` alone is an explicit key, which
// yaml-cpp reads).
SyntaxExplanation question_mark_in_flow(std::string_view text, std::size_t offset) {
  if (offset >= text.size() || text[offset] != '?') return {};
  auto ends_value = [&](std::size_t i) {
    char c = text[i];
    return c == ',' || c == '[' || c == ']' || c == '{' || c == '}' || c == '\n' || c == '\r' ||
           (c == ':' && (i + 1 == text.size() || is_blank_or_break(text[i + 1])));
  };
  std::size_t start = offset;
  while (start > 0 && !ends_value(start - 1)) --start;
  std::size_t end = offset;
  while (end < text.size() && !ends_value(end)) ++end;
  while (start < end && is_blank_or_break(text[start])) ++start;
  while (end > start && is_blank_or_break(text[end - 1])) --end;
  std::string_view value = text.substr(start, end - start);
  if (value == "?" || value.find_first_of("\"'#") != std::string_view::npos) return {};
  return {"the YAML could not be read: " + shown_text(value) +
              " has a \"?\" inside [ ] or { }, where the YAML reader sandgate uses (yaml-cpp 0.7) ends an unquoted value",
          value.size() <= 80 ? "quote it: " + quoted(value) : "quote the value"};
}

// The \u escape of 4 hex digits that starts at `at`, or -1.
long u_escape_at(std::string_view text, std::size_t at) {
  if (at + 6 > text.size() || text[at] != '\\' || text[at + 1] != 'u') return -1;
  long v = 0;
  auto [end, ec] = std::from_chars(text.data() + at + 2, text.data() + at + 6, v, 16);
  return ec == std::errc{} && end == text.data() + at + 6 ? v : -1;
}

// yaml-cpp says "invalid unicode: 55357" for an escape that is half of a UTF-16 surrogate pair
// (`\uD83D\uDE00`, which JSON encoders such as Python's json.dumps write for 😀). YAML has no
// surrogate pairs: PyYAML keeps the two halves as two broken characters, yaml-cpp refuses them.
// The mark is right after the escape.
SyntaxExplanation surrogate_escape(std::string_view text, std::size_t offset, const std::string& msg) {
  static constexpr std::string_view k_prefix = "invalid unicode: ";
  if (msg.rfind(k_prefix, 0) != 0 || offset < 6) return {};
  std::size_t at = offset - 6;
  long half = u_escape_at(text, at);
  if (half < 0xD800 || half > 0xDFFF) return {};
  std::string escape(text.substr(at, 6));
  SyntaxExplanation out;
  out.at = at;
  out.message = "the YAML could not be read: the escape " + escape +
                " is half of a UTF-16 surrogate pair, which YAML does not combine into one character";
  long low = u_escape_at(text, offset);
  if (half <= 0xDBFF && low >= 0xDC00 && low <= 0xDFFF) {
    unsigned long code_point = 0x10000 + ((static_cast<unsigned long>(half) - 0xD800) << 10) + (static_cast<unsigned long>(low) - 0xDC00);
    char buf[16];
    std::snprintf(buf, sizeof buf, "\\U%08lX", code_point);
    out.hint = "write " + escape + std::string(text.substr(offset, 6)) + " as one escape, " + buf +
               ", or as the character itself";
  } else {
    out.hint = "write the character itself, or its \\U escape of 8 hex digits";
  }
  return out;
}

}  // namespace

SyntaxExplanation explain_yaml_error(std::string_view text, const LineIndex& lines, const YAML::Exception& e) {
  if (e.mark.is_null()) return {"the YAML is malformed: " + ascii_message(e.msg), {}};
  std::size_t offset = lines.offset_of(e.mark.line, e.mark.column);
  if (SyntaxExplanation q = question_mark_in_flow(text, offset); !q.message.empty()) return q;
  if (SyntaxExplanation s = surrogate_escape(text, offset, e.msg); !s.message.empty()) return s;
  return {"the YAML is malformed: " + ascii_message(e.msg), layout_hint(text, lines, e.mark)};
}

}  // namespace sandgate::detail
