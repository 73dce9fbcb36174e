// Quoted YAML values over several lines, decoded from their text (document/yaml_quoted.h) because
// yaml-cpp 0.7 folds their ends wrongly. The expected values are PyYAML's (yaml.safe_load of the
// quoted text), which follows YAML 1.2 §7.3 here; each row is one folding or escape rule.
#include <gtest/gtest.h>

#include <string>
#include <string_view>

#include "document/yaml_quoted.h"

using namespace std::string_view_literals;
using sandgate::detail::decode_multiline_quoted;

namespace {

struct Row {
  char quote;
  std::string_view inside;  // the text between the quotes
  std::string_view value;   // PyYAML's
};

}  // namespace

TEST(YamlQuoted, values_over_lines_decode_as_pyyaml_reads_them) {
  const Row rows[] = {
      {'"', "a\n b"sv, "a b"sv},                 // a line break is a space
      {'"', "a\n\n b"sv, "a\nb"sv},              // ...or, before empty lines, one "\n" for each
      {'"', "a\n\n\n b"sv, "a\n\nb"sv},
      {'"', "a \t\n b"sv, "a b"sv},              // a line's trailing white space is not content
      {'"', "  a\n  b  "sv, "  a b  "sv},        // but the first line's leading and the last's trailing are
      {'"', "\n"sv, " "sv},
      {'"', "\n\n"sv, "\n"sv},                   // line breaks only: not empty (yaml-cpp: "")
      {'"', " \n \n "sv, "\n"sv},
      {'"', "a\\\n  b"sv, "ab"sv},               // an escaped line break joins with nothing
      {'"', "a \\\n  b"sv, "a b"sv},             // and keeps the white space before it
      {'"', "a\\\n\n  b"sv, "a\nb"sv},           // each empty line after it is a "\n"
      {'"', "a\\\n \n\n b"sv, "a\n\nb"sv},
      {'"', "\\t\n\\ \n"sv, "\t   "sv},          // escaped white space is content, never trimmed
      {'"', "x\\n\n y"sv, "x\n y"sv},
      {'"', "\\x41\\u00e9\\U0001F600\n\\N\\_\\L\\P"sv, "A\xc3\xa9\xf0\x9f\x98\x80 \xc2\x85\xc2\xa0\xe2\x80\xa8\xe2\x80\xa9"sv},
      {'"', "\\0\\a\\b\\v\\f\\r\\e\\/\\\"\\\\\n."sv, "\x00\x07\x08\x0b\x0c\r\x1b/\"\\ ."sv},
      {'"', "\\\t\n"sv, "\t "sv},                // a backslash and a tab is a tab
      {'"', "\\xaf\\xAF\\u00fA\n"sv, "\xc2\xaf\xc2\xaf\xc3\xba "sv},  // the ends of the hex digit ranges
      {'"', "\\xa0\\xFF\\x9a\n"sv, "\xc2\xa0\xc3\xbf\xc2\x9a "sv},
      {'"', "a\r\n\r\n b"sv, "a\nb"sv},          // CRLF line ends
      {'"', "a\r\n b"sv, "a b"sv},
      {'\'', "a\n b"sv, "a b"sv},
      {'\'', "it''s\n\n ok"sv, "it's\nok"sv},    // '' is a quote
      {'\'', "''\n''"sv, "' '"sv},
      {'\'', "a\\\n b"sv, "a\\ b"sv},            // no escapes inside '…'
      {'\'', "\t\n\t"sv, " "sv},
      {'\'', " x \n y "sv, " x y "sv},
  };
  for (const Row& r : rows) {
    std::string out;
    ASSERT_TRUE(decode_multiline_quoted(r.inside, r.quote, out)) << r.inside;
    EXPECT_EQ(out, r.value) << "inside " << r.quote << r.inside << r.quote;
  }
}

// What yaml-cpp refuses before the loader sees the value: the decoder gives up on it rather than
// guess, and the loader keeps yaml-cpp's reading.
TEST(YamlQuoted, an_escape_or_quote_yaml_does_not_have_is_not_decoded) {
  std::string out;
  for (std::string_view bad : {"a\\q\nb"sv, "\\x4\n"sv, "\\x4g\n"sv, "\\uD800\n"sv, "\\uDFFF\n"sv, "\\U00110000\n"sv, "a\n\\"sv,
                               "a\n\\x4"sv, "a\n\\u00e"sv /* cut short at the end */, "a\n\\xg1"sv, "a\n\\x/1"sv}) {
    EXPECT_FALSE(decode_multiline_quoted(bad, '"', out)) << bad;
  }
  EXPECT_FALSE(decode_multiline_quoted("it's\nx"sv, '\'', out));
  EXPECT_FALSE(decode_multiline_quoted("a\n'"sv, '\'', out));  // a lone quote as the last character
  EXPECT_TRUE(decode_multiline_quoted("\\uD7FF\\uE000\\U0010FFFF\n"sv, '"', out));
  EXPECT_EQ(out, "\xed\x9f\xbf\xee\x80\x80\xf4\x8f\xbf\xbf "sv);
}

// The one scanner for a quoted value's end (the loader, the bracket lexer and the two-keys hint
// share it): an escape or a doubled '' closes nothing, and the first \' is reported.
TEST(YamlQuoted, the_closing_quote_is_found_past_escapes_and_doubled_quotes) {
  using sandgate::detail::closing_quote;
  constexpr std::size_t npos = std::string_view::npos;
  EXPECT_EQ(closing_quote(R"(a: "x\"y" z)", 3), 8u);
  EXPECT_EQ(closing_quote("a: 'it''s' z", 3), 9u);
  EXPECT_EQ(closing_quote(R"('x\' y')", 0), 3u);  // no escapes inside '…'
  EXPECT_EQ(closing_quote(R"("x\")", 0), npos);  // the text ends first
  EXPECT_EQ(closing_quote("'it''", 0), npos);
  std::size_t escape = 0;
  EXPECT_EQ(closing_quote(R"("a\'b\'c")", 0, &escape), 8u);
  EXPECT_EQ(escape, 2u);
  EXPECT_EQ(closing_quote(R"("ab")", 0, &escape), 3u);
  EXPECT_EQ(escape, npos);
}
