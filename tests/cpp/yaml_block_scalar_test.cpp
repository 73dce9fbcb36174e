// The lines of a block scalar as far as the loader needs them (document/yaml_block_scalar.h): where
// the block ends, how many line breaks end its value when kept (`|+`, `>+`), and whether the text
// ends in a line of its indentation's spaces. Each row's breaks are the trailing "\n"s of PyYAML's
// value for the same text with `>+`.
#include <gtest/gtest.h>

#include <string>
#include <string_view>

#include "document/yaml_block_scalar.h"

using sandgate::detail::BlockLines;
using sandgate::detail::read_block_lines;
using sandgate::detail::read_block_scalar_header;

namespace {

BlockLines lines_of(std::string_view text) { return read_block_lines(text, text.find('>')); }

}  // namespace

TEST(YamlBlockScalar, the_breaks_that_end_a_kept_block_are_counted_from_its_text) {
  struct Row {
    std::string_view text;
    std::size_t indent, breaks;
  };
  const Row rows[] = {
      {"a: >+\n x\n", 1, 1},
      {"a: >+\n x\n\n", 1, 2},               // "x\n\n"
      {"a: >+\n x\n\n\n", 1, 3},
      {"a: >+\n x\n \n", 1, 2},              // a line of the indentation's spaces is empty
      {"a: >+\n x\n  \n", 1, 1},             // one of more spaces is content: " \n" ends the value
      {"a: >+\n x", 1, 0},                   // the text's last line, without a line break
      {"a: >+\n x\n\n# c\n", 1, 2},          // a comment left of the block ends it
      {"a: >+\n  x\n\n # c\n\nb: 1\n", 2, 2},
      {"a: >+\n\n  x\n\nb: 1\n", 2, 2},      // empty lines before the first content line
      {"- >+\n  x\n  y\n\n- b\n", 2, 2},
      {"a: >+\r\n x\r\n\r\n \r\nb: 1\r\n", 1, 3},  // CRLF: a "\r" alone on a line is an empty one
  };
  for (const Row& r : rows) {
    BlockLines b = lines_of(r.text);
    EXPECT_TRUE(b.has_content) << r.text;
    EXPECT_EQ(b.indent, r.indent) << r.text;
    EXPECT_EQ(b.final_breaks, r.breaks) << r.text;
  }
  EXPECT_FALSE(lines_of("a: >+\n\n\n").has_content);  // empty lines only
  EXPECT_FALSE(lines_of("a: >+\nb: 1\n").has_content);  // the next key at the parent's column
  EXPECT_FALSE(lines_of(">+\nx\n").has_content);        // a document that is one block at column 0
  EXPECT_FALSE(lines_of("a: >+").has_content);          // no line after the header
}

TEST(YamlBlockScalar, a_last_line_of_the_indentation_spaces_right_after_content_is_flagged) {
  EXPECT_TRUE(lines_of("a: >\n b\n ").ends_in_white_line);
  EXPECT_TRUE(lines_of("a: >\n  b\n  ").ends_in_white_line);
  EXPECT_FALSE(lines_of("a: >\n  b\n ").ends_in_white_line);   // fewer spaces: read alike
  EXPECT_FALSE(lines_of("a: >\n b\n  ").ends_in_white_line);   // more: content
  EXPECT_FALSE(lines_of("a: >\n b\n\n ").ends_in_white_line);  // after an empty line: read alike
  EXPECT_FALSE(lines_of("a: >\n b\n \n").ends_in_white_line);  // with its line break
}

TEST(YamlBlockScalar, the_header_indicators_come_in_either_order) {
  for (std::string_view h : {">+2", ">2+"}) {
    auto header = read_block_scalar_header(h, 0);
    EXPECT_TRUE(header.folded && header.keep) << h;
    EXPECT_EQ(header.indentation_indicator, 2) << h;
  }
  EXPECT_EQ(read_block_scalar_header("|1", 0).indentation_indicator, 1);
  EXPECT_EQ(read_block_scalar_header("|0", 0).indentation_indicator, 0);  // no indicator: 0 is none
  auto literal = read_block_scalar_header("|-9 # c", 0);
  EXPECT_FALSE(literal.folded || literal.keep);
  EXPECT_EQ(literal.indentation_indicator, 9);
  EXPECT_EQ(read_block_scalar_header(">", 0).indentation_indicator, 0);
}
