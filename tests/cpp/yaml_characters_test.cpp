// The character check that runs before yaml-cpp (document/yaml_characters.h). It skips plain text
// eight bytes at a time, so each refused character is placed at every offset of a word, at the
// text's end and past a multi-byte character, and each accepted one likewise: a lane the word test
// misjudged would let a character through, or refuse a text, only at some offsets.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <string_view>

#include "document/line_index.h"
#include "document/yaml_characters.h"
#include "util/diagnostics.h"

using namespace sandgate;
using sandgate::detail::reject_unreadable_character;

namespace {

struct Verdict {
  bool refused = false;
  int line = 0, column = 0;
  std::string message;
};

Verdict check(const std::string& text) {
  Diagnostics out;
  DiagnosticSink sink(out, "t.yaml", "policy");
  LineIndex lines(text, Mark{1, 1});
  Verdict v;
  v.refused = reject_unreadable_character(text, lines, sink);
  if (!out.empty()) {
    if (out.front().source) {
      v.line = out.front().source->line;
      v.column = out.front().source->column;
    }
    v.message = out.front().message;
  }
  return v;
}

// A text with `c` after `offset` plain bytes, followed by more plain text or nothing.
std::string placed(std::string_view c, std::size_t offset, bool at_end) {
  std::string text(offset, 'a');
  for (std::size_t i = 7; i < offset; i += 9) text[i] = '\n';  // lines, so a word holds a line feed too
  text += c;
  if (!at_end) text += "bcdefghij: k\n";
  return text;
}

}  // namespace

TEST(YamlCharacters, each_refused_character_is_found_at_every_offset_of_a_word) {
  const std::string refused[] = {"\x01", "\x1b", "\x7f", "\r",  // a CR alone
                                 "\xc2\x80", "\xc2\x85", "\xc2\x9f", "\xe2\x80\xa8", "\xe2\x80\xa9",
                                 "\xef\xbb\xbf", "\xef\xbf\xbe", "\xef\xbf\xbf"};
  for (const std::string& c : refused) {
    for (std::size_t offset = 0; offset < 20; ++offset) {
      for (bool at_end : {false, true}) {
        std::string text = placed(c, offset, at_end);
        Verdict v = check(text);
        EXPECT_TRUE(v.refused) << "not refused at offset " << offset << ": " << text;
        // The mark is the character's own place: its line and column (code points).
        std::size_t line_start = text.rfind('\n', offset == 0 ? 0 : offset - 1);
        line_start = line_start == std::string::npos || offset == 0 ? 0 : line_start + 1;
        const int line = 1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(offset), '\n'));
        EXPECT_EQ(v.line, line) << text;
        EXPECT_EQ(v.column, static_cast<int>(offset - line_start) + 1) << text;
      }
    }
  }
}

TEST(YamlCharacters, the_characters_yaml_readers_agree_on_pass_at_every_offset) {
  const std::string accepted[] = {"\t", "\n", "\r\n", " ", "~", "\xc2\xa0", "\xc3\xa9", "\xe2\x80\xa6" /* … */,
                                  "\xe2\x80\xa7", "\xe2\x81\xa8", "\xef\xbb\xbe", "\xef\xbf\xbd", "\xf0\x9f\x98\x80"};
  for (const std::string& c : accepted) {
    for (std::size_t offset = 0; offset < 20; ++offset) {
      for (bool at_end : {false, true}) {
        std::string text = placed(c, offset, at_end);
        EXPECT_FALSE(check(text).refused) << "refused at offset " << offset << ": " << text;
      }
    }
  }
}

TEST(YamlCharacters, the_message_names_the_character_and_its_escape) {
  Verdict nel = check("a: x\xc2\x85y\n");
  EXPECT_NE(nel.message.find("U+0085 (next line), a line break to YAML 1.1 readers"), std::string::npos) << nel.message;
  Verdict del = check("a: x\x7fy\n");
  EXPECT_EQ(del.message, "the text holds the control character U+007F, which YAML does not allow in a file");
  Verdict nonchar = check("a: x\xef\xbf\xbfy\n");
  EXPECT_EQ(nonchar.message, "the text holds U+FFFF, a noncharacter, which YAML does not allow in a file");
  EXPECT_EQ(check("a: x\xef\xbf\xbey\n").message, "the text holds U+FFFE, a noncharacter, which YAML does not allow in a file");
  EXPECT_NE(check("a: x\xef\xbb\xbfy\n").message.find("U+FEFF (a byte order mark"), std::string::npos);
}
