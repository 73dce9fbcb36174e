// The word-at-a-time scans (UTF-8 validation, the line index's line starts and ASCII test)
// against byte-by-byte reference implementations, on random texts built to put NULs, invalid
// bytes, multi-byte characters and newlines at every position of an 8-byte word.
#include <gtest/gtest.h>

#include <random>
#include <string>

#include "document/line_index.h"
#include "sandgate/document.h"

namespace sandgate {
namespace {

// The first byte that is NUL or starts an invalid sequence, decoded one code point at a time.
std::size_t reference_invalid(std::string_view text, bool& is_nul) {
  is_nul = false;
  for (std::size_t i = 0; i < text.size();) {
    auto b = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
    unsigned char c = b(i);
    if (c == 0) {
      is_nul = true;
      return i;
    }
    if (c < 0x80) {
      ++i;
      continue;
    }
    std::size_t len = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : 2;
    if (c < 0xC2 || c > 0xF4 || i + len > text.size()) return i;
    std::uint32_t cp = c & (len == 2 ? 0x1F : len == 3 ? 0x0F : 0x07);
    for (std::size_t k = 1; k < len; ++k) {
      if ((b(i + k) & 0xC0) != 0x80) return i;
      cp = (cp << 6) | (b(i + k) & 0x3F);
    }
    bool overlong = (len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000);
    if (overlong || (cp >= 0xD800 && cp <= 0xDFFF) || cp > 0x10FFFF) return i;
    i += len;
  }
  return std::string_view::npos;
}

std::string random_text(std::mt19937& rng, bool allow_bad) {
  static const char* pieces[] = {"a", "bc", "defghij", "\n", "é", "€", "😀", " ", "{\"k\":1}"};
  static const char* bad[] = {std::string_view("\0", 1).data(), "\xC0\x80", "\xED\xA0\x80", "\xF4\x90\x80\x80",
                              "\x80", "\xE2\x82", "\xFF"};
  std::string s;
  int n = static_cast<int>(rng() % 40);
  for (int i = 0; i < n; ++i) {
    if (allow_bad && rng() % 25 == 0) {
      std::size_t k = rng() % std::size(bad);
      s.append(bad[k], k == 0 ? 1 : std::char_traits<char>::length(bad[k]));
    } else {
      s += pieces[rng() % std::size(pieces)];
    }
  }
  return s;
}

TEST(TextScan, InvalidUtf8MatchesTheReference) {
  std::mt19937 rng(20261201);
  for (int round = 0; round < 20000; ++round) {
    std::string s = random_text(rng, true);
    bool nul = false, ref_nul = false;
    std::size_t got = find_invalid_utf8(s, nul);
    std::size_t want = reference_invalid(s, ref_nul);
    ASSERT_EQ(got, want) << "text of " << s.size() << " bytes, round " << round;
    ASSERT_EQ(nul, ref_nul) << "round " << round;
  }
}

TEST(TextScan, NulAtEveryPositionOfAWord) {
  for (std::size_t at = 0; at < 24; ++at) {
    std::string s(24, 'x');
    s[at] = '\0';
    bool nul = false;
    EXPECT_EQ(find_invalid_utf8(s, nul), at);
    EXPECT_TRUE(nul);
  }
}

TEST(TextScan, LineIndexMatchesCountingFromTheStart) {
  std::mt19937 rng(7);
  for (int round = 0; round < 3000; ++round) {
    std::string s = random_text(rng, false);
    LineIndex index(s);
    int line = 1;
    std::size_t line_start = 0;
    for (std::size_t offset = 0; offset <= s.size(); ++offset) {
      int column = 1;  // code points from the line's start: bytes that are not continuation bytes
      for (std::size_t k = line_start; k < offset; ++k) column += (static_cast<unsigned char>(s[k]) & 0xC0) != 0x80;
      Mark m = index.at_offset(offset);
      ASSERT_EQ(m.line, line) << "offset " << offset << ", round " << round;
      ASSERT_EQ(m.column, column) << "offset " << offset << ", round " << round;
      if (offset < s.size() && s[offset] == '\n') {
        ++line;
        line_start = offset + 1;
      }
    }
  }
}

}  // namespace
}  // namespace sandgate
