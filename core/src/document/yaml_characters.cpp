#include "document/yaml_characters.h"

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>

namespace sandgate::detail {
namespace {

std::string code_point_name(char32_t c) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "U+%04X", static_cast<unsigned>(c));
  return buf;
}

// The escape that writes `c` inside "…": YAML's own name for it where it has one.
std::string escape_for(char32_t c) {
  switch (c) {
    case 0x85: return "\\N";
    case 0x2028: return "\\L";
    case 0x2029: return "\\P";
    case 0x1B: return "\\e";
    case 0x07: return "\\a";
    case 0x08: return "\\b";
    case 0x0B: return "\\v";
    case 0x0C: return "\\f";
    default: break;
  }
  char buf[16];
  if (c <= 0xFF) {
    std::snprintf(buf, sizeof buf, "\\x%02X", static_cast<unsigned>(c));
  } else {
    std::snprintf(buf, sizeof buf, "\\u%04X", static_cast<unsigned>(c));
  }
  return buf;
}

}  // namespace

namespace {

// Whether the 8 bytes of `w` are all printable ASCII, tab or line feed: the common case, skipped a
// word at a time (a byte at a time was 16 instructions a byte, 1 % of validating a 57 KB policy).
// Exact per byte: every lane is compared with its high bit set, so no borrow crosses lanes.
bool plain_word(std::uint64_t w) {
  constexpr std::uint64_t ones = 0x0101010101010101ULL, highs = 0x8080808080808080ULL, lows = ~highs;
  auto equal = [&](unsigned char c) {
    const std::uint64_t y = w ^ (c * ones);
    return ~(((y & lows) + lows) | y) & highs;
  };
  const std::uint64_t below_space = ~(((w | highs) - 0x20 * ones) & highs) & ~w & highs;
  const std::uint64_t special = (below_space & ~equal('\n') & ~equal('\t')) | equal(0x7F) | (w & highs);
  return special == 0;
}

}  // namespace

bool reject_unreadable_character(std::string_view text, const LineIndex& lines, DiagnosticSink& sink) {
  const auto* s = reinterpret_cast<const unsigned char*>(text.data());
  const std::size_t n = text.size();
  for (std::size_t i = 0; i < n; ++i) {
    if ((i & 7) == 0) {
      // Whole words of plain text first.
      for (std::uint64_t w; i + 8 <= n; i += 8) {
        std::memcpy(&w, s + i, 8);
        if (!plain_word(w)) break;
      }
      if (i >= n) break;
    }
    const unsigned char b = s[i];
    if ((b >= 0x20 && b < 0x7F) || b == '\n' || b == '\t') continue;
    if (b == '\r') {
      if (i + 1 < n && s[i + 1] == '\n') continue;
      sink.add(Code::SYNTAX, "", lines.at_offset(i),
               "the text has a carriage return (\\r) without a line feed (old Mac line endings): "
               "YAML readers disagree on where its lines end",
               "save the file with LF or CRLF line endings");
      return true;
    }
    char32_t c = 0;
    if (b < 0x80) {
      c = b;  // a C0 control or DEL
    } else if (b == 0xC2 && i + 1 < n && s[i + 1] >= 0x80 && s[i + 1] <= 0x9F) {
      c = s[i + 1];  // a C1 control, NEL among them
    } else if (b == 0xE2 && i + 2 < n && s[i + 1] == 0x80 && (s[i + 2] == 0xA8 || s[i + 2] == 0xA9)) {
      c = s[i + 2] == 0xA8 ? 0x2028 : 0x2029;
    } else if (b == 0xEF && i + 2 < n && s[i + 1] == 0xBF && (s[i + 2] == 0xBE || s[i + 2] == 0xBF)) {
      c = s[i + 2] == 0xBE ? 0xFFFE : 0xFFFF;
    } else if (b == 0xEF && i + 2 < n && s[i + 1] == 0xBB && s[i + 2] == 0xBF) {
      c = 0xFEFF;
    } else {
      continue;
    }
    const std::string name = code_point_name(c);
    const bool line_break = c == 0x85 || c == 0x2028 || c == 0x2029;
    std::string message =
        c == 0xFEFF ? "the text holds U+FEFF (a byte order mark, or zero-width no-break space) after its start, where "
                      "YAML readers disagree on it (yaml-cpp ends a tag at it, PyYAML refuses it there)"
        : line_break ? "the text holds the character " + name +
                         std::string(c == 0x85 ? " (next line)" : c == 0x2028 ? " (line separator)" : " (paragraph separator)") +
                         ", a line break to YAML 1.1 readers (PyYAML, go-yaml) and an ordinary character to YAML 1.2 "
                         "ones: they would read different documents"
        : c >= 0xFFFE ? "the text holds " + name + ", a noncharacter, which YAML does not allow in a file"
                      : "the text holds the control character " + name + ", which YAML does not allow in a file";
    sink.add(Code::SYNTAX, "", lines.at_offset(i), std::move(message),
             "remove it; inside a \"…\" value write it as the escape " + escape_for(c));
    return true;
  }
  return false;
}

}  // namespace sandgate::detail
