// The explanations of yaml-cpp's errors that find a place in the text by lexing it again
// (document/yaml_flow_brackets.h, document/yaml_indicator_as_text.h), at their edges: where the
// quoted value ends, which bracket is named, and when nothing is said.
#include <gtest/gtest.h>

#include <string>
#include <string_view>

#include "document/yaml_indicator_as_text.h"
#include "document/yaml_flow_brackets.h"

using sandgate::detail::explain_indicator_as_text;
using sandgate::detail::explain_stray_flow_end;
using sandgate::detail::explain_unclosed_flow;
using sandgate::detail::value_written_at;

namespace {
constexpr std::size_t npos = std::string_view::npos;
const std::string k_list = "end of sequence flow not found";
const std::string k_map = "end of map flow not found";
}  // namespace

// In block style a value runs to a comment or the line's end; inside brackets, to , ] or }.
TEST(YamlErrorExplanations, the_value_written_ends_where_its_context_ends_it) {
  EXPECT_EQ(value_written_at("a: @x y  # c\nb: 1", 3), "@x y");
  EXPECT_EQ(value_written_at("a: @x#y\r\n", 3), "@x#y");  // a '#' glued to the value is part of it
  EXPECT_EQ(value_written_at("a: [b, @x y , c]", 7), "@x y");
  EXPECT_EQ(value_written_at("a: {k: v,@x}", 9), "@x");
  EXPECT_EQ(value_written_at("@x, y", 0), "@x, y");  // block style: a comma is text
  EXPECT_EQ(value_written_at("a: @", 3), "@");
  EXPECT_EQ(value_written_at("a: {b: %c, d}", 7), "%c");   // after a key's ':' inside braces
  EXPECT_EQ(value_written_at("a: {b: [c], d: %e}", 15), "%e");  // a closed list before it
  EXPECT_EQ(value_written_at("a: [b] %c, d", 7), "%c, d");  // the list before it is closed
  EXPECT_EQ(value_written_at("a: [b,\n  @c d, e]", 9), "@c d");  // a list opened on a line above
  EXPECT_EQ(value_written_at("a: '[' @c, d", 7), "@c, d");       // a quoted '[' opens nothing
}

TEST(YamlErrorExplanations, only_the_errors_at_their_characters_are_explained) {
  EXPECT_EQ(explain_indicator_as_text("a: *b", 3, "unknown token").message, "");
  EXPECT_EQ(explain_indicator_as_text("a: @b", 3, "the referenced anchor is not defined").message, "");
  EXPECT_EQ(explain_indicator_as_text("a: @b", 5, "unknown token").message, "");  // past the end
  auto alias = explain_indicator_as_text("a: *b c", 3, "the referenced anchor is not defined");
  EXPECT_NE(alias.message.find("\"*b\" is an alias"), npos) << alias.message;
  EXPECT_NE(alias.message.find("\"&b\""), npos) << alias.message;
  EXPECT_EQ(alias.hint, "if \"*b c\" is text, quote it: \"*b c\"");
  EXPECT_EQ(alias.at, 3u);
}

// Text on a block scalar's header line, after its indicators; not a `|` or `>` inside a tag or a
// word, and not the comment after a header.
TEST(YamlErrorExplanations, text_on_a_block_header_line_is_told_from_its_indicator) {
  const std::string block = "unexpected character in block scalar";
  auto folded = explain_indicator_as_text("a: >+2 x y\n", 7, block);
  EXPECT_NE(folded.message.find("starting with '>' is a block of text on the lines below (folded)"), npos) << folded.message;
  EXPECT_NE(folded.message.find("not \"x y\""), npos) << folded.message;
  EXPECT_EQ(folded.hint, "start the text on the next line, indented more than its key; or, if \">+2 x y\" is the value itself, "
                         "quote it: \">+2 x y\"");
  EXPECT_NE(explain_indicator_as_text("|x", 1, block).message.find("(literal)"), npos);  // at the text's start
  EXPECT_EQ(explain_indicator_as_text("a: !t>x\n", 6, block).message, "");  // inside a tag
  EXPECT_EQ(explain_indicator_as_text("a: x\n", 3, block).message, "");     // no header before it
  EXPECT_EQ(explain_indicator_as_text("a: | #c\n", 5, block).message, "");  // the header's comment
  EXPECT_EQ(explain_indicator_as_text("a: > x\n", 5, "unknown token").message, "");
}

// The bracket named is the innermost open where the parser stopped, found past quotes, plain
// text holding brackets or quotes, comments and block scalars.
TEST(YamlErrorExplanations, the_bracket_never_closed_is_found_past_what_is_not_one) {
  const std::string text = "a: 'x]'\nb: Bob's x[1]\nc: |\n  [z\nd: [e, \"f]\" # ]\n  , g\nh: i\n";
  const std::size_t open = text.find("[e");
  auto e = explain_unclosed_flow(text, text.find("h: i") + 1, k_list);
  EXPECT_EQ(e.at, open);
  EXPECT_NE(e.hint.find("the ']' on line 5 is inside a comment"), npos) << e.hint;
  // The map message names no list, and a bracket closed further on is left to yaml-cpp.
  EXPECT_EQ(explain_unclosed_flow(text, text.find("h: i") + 1, k_map).message, "");
  EXPECT_EQ(explain_unclosed_flow("a: [b, {c: d]\ne: f]\n", 12, k_list).message, "");
  EXPECT_EQ(explain_unclosed_flow("a: [b]\n", 3, "end of map not found").message, "");
  // Nothing open where the parser stopped: nothing to name (a block scalar's `[` is text).
  EXPECT_EQ(explain_unclosed_flow("a: [b]\nc: d\n", 8, k_list).message, "");
  EXPECT_EQ(explain_unclosed_flow("a: |\n  [x\nb: c\n", 12, k_list).message, "");
  // The map open where the parser stopped closes; the list around it is not the one meant.
  EXPECT_EQ(explain_unclosed_flow("a: [b, {c: d}\n", 8, k_map).message, "");
}

TEST(YamlErrorExplanations, a_bracket_at_the_error_or_open_at_the_end_is_named) {
  const std::string stray = "a: b\n{";
  EXPECT_EQ(explain_unclosed_flow(stray, 5, k_map).at, 5u);
  EXPECT_EQ(explain_unclosed_flow("a: [b, {c: d}\n", 14, k_list).at, 3u);
  auto map = explain_unclosed_flow("a: {b: [c]\n", 11, k_map);
  EXPECT_EQ(map.at, 3u);
  EXPECT_EQ(map.hint, "close it with '}' after its last entry");
  // An unclosed quote is a different error.
  EXPECT_EQ(explain_unclosed_flow("a: [b, 'c\n", 10, k_list).message, "");
}

// A closer yaml-cpp calls an "illegal flow end": one with nothing open, or one of the wrong kind,
// named with where the collection still open began; one inside a token is left alone.
TEST(YamlErrorExplanations, a_stray_closer_is_told_against_what_is_open) {
  const std::string flow_end = "illegal flow end";
  auto nothing = explain_stray_flow_end("a: [b]\nc: ]\n", 10, flow_end);
  EXPECT_EQ(nothing.message, "the YAML is malformed: this ']' closes nothing: no '[' before it is open");
  EXPECT_EQ(nothing.at, 10u);
  auto wrong = explain_stray_flow_end("a: [\n  'x]',\n  b}\n", 16, flow_end);
  EXPECT_NE(wrong.message.find("this '}' cannot close the list that '[' opened on line 1"), npos) << wrong.message;
  EXPECT_EQ(wrong.hint, "close the list with ']' first, or quote the value that holds the '}'");
  EXPECT_EQ(explain_stray_flow_end("a: [b}", 5, "end of map not found").message, "");
  EXPECT_EQ(explain_stray_flow_end("a: [b]", 5, flow_end).message, "");    // it closes its own kind
  EXPECT_EQ(explain_stray_flow_end("a: 'x]'", 5, flow_end).message, "");   // inside a quoted value
  EXPECT_EQ(explain_stray_flow_end("a: b", 3, flow_end).message, "");      // not a bracket
  EXPECT_EQ(explain_stray_flow_end("a: ]", 9, flow_end).message, "");      // past the end
}
