// The text helpers at every byte: each ASCII case mapping and character class is exact at both
// ends of its ranges (A, Z, a, z, 0, 9) and leaves every other byte alone, and the length limits
// hold at exactly their size. A mutation sweep of util/text.cpp found these ends untested: the
// helpers were only ever fed words from the middle of the alphabet.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "util/text.h"

namespace {

bool upper(int c) { return c >= 'A' && c <= 'Z'; }
bool lower(int c) { return c >= 'a' && c <= 'z'; }
char to_lower(int c) { return static_cast<char>(upper(c) ? c - 'A' + 'a' : c); }
char to_upper(int c) { return static_cast<char>(lower(c) ? c - 'a' + 'A' : c); }

}  // namespace

TEST(TextBytes, ascii_case_maps_only_letters) {
  std::string all;
  for (int c = 1; c < 256; ++c) all += static_cast<char>(c);  // "CAP_" cannot start it: byte 1 does
  std::string lowered, uppered;
  for (int c = 1; c < 256; ++c) {
    lowered += to_lower(c);
    uppered += to_upper(c);
  }
  EXPECT_EQ(sandgate::ascii_lower(all), lowered);
  EXPECT_EQ(sandgate::capability_name(all), uppered);
}

TEST(TextBytes, snake_and_camel_case_split_at_capitals_only) {
  for (int c = 1; c < 256; ++c) {
    if (c == '_') continue;
    const std::string ch(1, static_cast<char>(c));
    const std::string snake = upper(c) ? "x_" + std::string(1, to_lower(c)) : "x" + ch;
    EXPECT_EQ(sandgate::to_snake_case("x" + ch), snake) << c;
    EXPECT_EQ(sandgate::to_camel_case("x_" + ch), "x" + std::string(1, to_upper(c))) << c;
  }
}

// Letters differing in case only are the same letter to the distance and to its bag bound: three
// capitals against three small letters is a distance of 0, not a candidate ruled out.
TEST(TextBytes, distances_ignore_the_case_of_every_letter) {
  for (int c = 'A'; c <= 'Z'; ++c) {
    const std::string big(3, static_cast<char>(c)), small(3, to_lower(c));
    EXPECT_EQ(sandgate::edit_distance(big, small, 3), 0u) << big;
    EXPECT_EQ(sandgate::closest_match(big, {small}), small) << big;
  }
  EXPECT_EQ(sandgate::edit_distance("[", "{", 3), 1u);  // '[' is 'Z' + 1, '{' is 'z' + 1: not letters
  EXPECT_EQ(sandgate::edit_distance("@", "`", 3), 1u);  // 'A' - 1 and 'a' - 1
}

// Words up to 256 bytes are measured; longer ones are past any name and count as the cap.
TEST(TextBytes, distances_are_measured_up_to_256_bytes) {
  EXPECT_EQ(sandgate::edit_distance(std::string(256, 'a'), std::string(256, 'a'), 5), 0u);
  EXPECT_EQ(sandgate::edit_distance(std::string(256, 'a'), std::string(255, 'a'), 5), 1u);
  EXPECT_EQ(sandgate::edit_distance(std::string(257, 'a'), std::string(257, 'a'), 5), 5u);
  EXPECT_EQ(sandgate::edit_distance(std::string(300, 'a'), std::string(256, 'a'), 100), 100u);
}

TEST(TextBytes, names_with_words_reads_words_up_to_64_bytes) {
  const std::string w64(64, 'x'), w65(65, 'x');
  EXPECT_EQ(sandgate::names_with_words(w64, {w64}), std::vector<std::string>{w64});
  EXPECT_TRUE(sandgate::names_with_words(w65, {w65}).empty());
}

TEST(TextBytes, exponent_integers_up_to_32_bytes_and_every_digit) {
  const std::string t32 = "1." + std::string(27, '0') + "e+1";
  ASSERT_EQ(t32.size(), 32u);
  EXPECT_EQ(sandgate::exponent_integer(t32), 10);
  EXPECT_FALSE(sandgate::exponent_integer("1." + std::string(28, '0') + "e+1"));
  EXPECT_EQ(sandgate::exponent_integer("9e2"), 900);
  EXPECT_EQ(sandgate::exponent_integer("0.9e1"), 9);
  EXPECT_FALSE(sandgate::exponent_integer("/e2"));  // '0' - 1
  EXPECT_FALSE(sandgate::exponent_integer(":e2"));  // '9' + 1
}

TEST(TextBytes, shown_text_cuts_past_80_bytes) {
  const std::string s80(80, 'a');
  EXPECT_EQ(sandgate::shown_text(s80), "\"" + s80 + "\"");
  EXPECT_EQ(sandgate::shown_text(s80 + "b"), "\"" + s80 + "\"…");
  // A cut never splits a character, even when the text is nothing but continuation bytes.
  EXPECT_EQ(sandgate::shown_text(std::string(79, 'a') + "é"), "\"" + std::string(79, 'a') + "\"…");
  EXPECT_EQ(sandgate::shown_text(std::string(100, '\x80')), "\"\"…");
}

TEST(TextBytes, a_glued_key_may_hold_every_letter_and_digit) {
  EXPECT_EQ(sandgate::glued_colon_fix("aAzZ09_-./x:[a]"), "aAzZ09_-./x: [a]");
  for (const char* first : {"a", "z", "A", "Z", "_"}) {
    EXPECT_EQ(sandgate::glued_colon_fix(std::string(first) + "k:v"), std::string(first) + "k: v") << first;
  }
  for (const char* first : {"0", "9", "-", "@", "[", "`", "{"}) {
    EXPECT_EQ(sandgate::glued_colon_fix(std::string(first) + "k:v"), "") << first;
  }
  EXPECT_EQ(sandgate::glued_colon_fix("k@:v"), "");  // '@' ends the key before the colon
}

// What follows the colon decides: white space, a second colon or a slash (a URL) is not a glued
// value; a trailing comment and trailing white space are left out; a value past 80 bytes is cut.
TEST(TextBytes, a_glued_value_and_what_ends_it) {
  for (const char* not_glued : {"k: v", "k:\tv", "k::v", "k:/v", "k:", "k"}) {
    EXPECT_EQ(sandgate::glued_colon_fix(not_glued), "") << not_glued;
  }
  EXPECT_EQ(sandgate::glued_colon_fix("  k:v #note"), "k: v");
  EXPECT_EQ(sandgate::glued_colon_fix("k:v \t "), "k: v");
  EXPECT_EQ(sandgate::glued_colon_fix("k:v#x"), "k: v#x");  // a comment needs the space before it
  const std::string v80(80, 'v');
  EXPECT_EQ(sandgate::glued_colon_fix("k:" + v80), "k: " + v80);
  EXPECT_EQ(sandgate::glued_colon_fix("k:" + v80 + "w"), "k: …");
  // A key of up to 65 bytes is read to its colon; a longer one is not a key.
  EXPECT_EQ(sandgate::glued_colon_fix(std::string(65, 'k') + ":v"), std::string(65, 'k') + ": v");
  EXPECT_EQ(sandgate::glued_colon_fix(std::string(66, 'k') + ":v"), "");
}

// Indentation is spaces only: a tab, a line break or a CRLF's "\r" ends it, as does the text's end.
TEST(TextBytes, leading_spaces_count_spaces_alone) {
  EXPECT_EQ(sandgate::leading_spaces(""), 0u);
  EXPECT_EQ(sandgate::leading_spaces("   "), 3u);
  EXPECT_EQ(sandgate::leading_spaces("  - a"), 2u);
  EXPECT_EQ(sandgate::leading_spaces(" \t a"), 1u);
  EXPECT_EQ(sandgate::leading_spaces("  \r\n"), 2u);
  EXPECT_EQ(sandgate::leading_spaces("a  "), 0u);
  static_assert(sandgate::leading_spaces("    x") == 4);
}
