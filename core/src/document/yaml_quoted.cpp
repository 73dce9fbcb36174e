#include "document/yaml_quoted.h"

#include <cstddef>

#include "util/text.h"

namespace sandgate::detail {
namespace {

bool is_white(char c) { return c == ' ' || c == '\t'; }

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// The length of the line break at `i`, 0 when there is none.
std::size_t break_at(std::string_view s, std::size_t i) {
  if (i < s.size() && s[i] == '\n') return 1;
  if (i + 1 < s.size() && s[i] == '\r' && s[i + 1] == '\n') return 2;
  return 0;
}

// From just past a line break: skips the next lines' leading white space and counts the lines that
// hold nothing else (the empty lines). Leaves `i` at the first character of the next line's content
// (or at the end).
std::size_t skip_empty_lines(std::string_view s, std::size_t& i) {
  std::size_t empty = 0;
  for (;;) {
    while (i < s.size() && is_white(s[i])) ++i;
    std::size_t b = break_at(s, i);
    if (b == 0) return empty;
    ++empty;
    i += b;
  }
}

// Decodes the escape whose backslash is at `i` (not an escaped line break); advances `i` past it.
bool decode_escape(std::string_view s, std::size_t& i, std::string& out) {
  if (i + 1 >= s.size()) return false;
  const char e = s[i + 1];
  i += 2;
  int digits = 0;
  switch (e) {
    case '0': out += '\0'; return true;
    case 'a': out += '\a'; return true;
    case 'b': out += '\b'; return true;
    case 't': case '\t': out += '\t'; return true;
    case 'n': out += '\n'; return true;
    case 'v': out += '\v'; return true;
    case 'f': out += '\f'; return true;
    case 'r': out += '\r'; return true;
    case 'e': out += '\x1B'; return true;
    case ' ': out += ' '; return true;
    case '"': out += '"'; return true;
    case '/': out += '/'; return true;
    case '\\': out += '\\'; return true;
    case 'N': append_utf8(out, 0x85); return true;
    case '_': append_utf8(out, 0xA0); return true;
    case 'L': append_utf8(out, 0x2028); return true;
    case 'P': append_utf8(out, 0x2029); return true;
    case 'x': digits = 2; break;
    case 'u': digits = 4; break;
    case 'U': digits = 8; break;
    default: return false;
  }
  if (i + digits > s.size()) return false;
  char32_t c = 0;
  for (int k = 0; k < digits; ++k) {
    int v = hex_value(s[i + k]);
    if (v < 0) return false;
    c = c * 16 + static_cast<char32_t>(v);
  }
  if (c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF)) return false;
  i += digits;
  append_utf8(out, c);
  return true;
}

}  // namespace

std::size_t closing_quote(std::string_view text, std::size_t at, std::size_t* quote_escape) {
  const char quote = text[at];
  if (quote_escape != nullptr) *quote_escape = std::string_view::npos;
  for (std::size_t i = at + 1; i < text.size(); ++i) {
    if (quote == '"' && text[i] == '\\') {
      if (quote_escape != nullptr && *quote_escape == std::string_view::npos && i + 1 < text.size() && text[i + 1] == '\'') {
        *quote_escape = i;
      }
      ++i;  // an escape: the next character is the escape's, even a quote
    } else if (text[i] == quote) {
      if (quote == '\'' && i + 1 < text.size() && text[i + 1] == '\'') {
        ++i;  // '' is a quote inside a single-quoted scalar
      } else {
        return i;
      }
    }
  }
  return std::string_view::npos;
}

bool decode_multiline_quoted(std::string_view s, char quote, std::string& out) {
  out.clear();
  std::size_t white_from = std::string::npos;  // where the white space not yet written began
  std::size_t i = 0;
  while (i < s.size()) {
    const char c = s[i];
    if (is_white(c)) {
      if (white_from == std::string::npos) white_from = out.size();
      out += c;
      ++i;
      continue;
    }
    if (std::size_t b = break_at(s, i)) {
      // A line's trailing white space is not content.
      if (white_from != std::string::npos) out.resize(white_from);
      white_from = std::string::npos;
      i += b;
      std::size_t empty = skip_empty_lines(s, i);
      if (empty == 0) {
        out += ' ';
      } else {
        out.append(empty, '\n');
      }
      continue;
    }
    white_from = std::string::npos;
    if (quote == '\'' && c == '\'') {
      // '' is one quote (the closing quote is not in `s`).
      if (i + 1 >= s.size() || s[i + 1] != '\'') return false;
      out += '\'';
      i += 2;
    } else if (quote == '"' && c == '\\') {
      if (std::size_t b = break_at(s, i + 1)) {
        // An escaped line break: the white space before it stays, the break and the next lines'
        // leading white space go; each empty line in between is a "\n".
        i += 1 + b;
        out.append(skip_empty_lines(s, i), '\n');
      } else if (!decode_escape(s, i, out)) {
        return false;
      }
    } else {
      out += c;
      ++i;
    }
  }
  return true;
}

}  // namespace sandgate::detail
