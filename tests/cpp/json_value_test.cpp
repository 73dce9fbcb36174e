// node_from_json_value (sandgate/json_value.h): the tree the Node binding's converter would build
// from the value a JSON text stands for, or nullopt for anything that converter must see itself.
#include <gtest/gtest.h>

#include <string>

#include "sandgate/json_value.h"

namespace sandgate {
namespace {

Node read(const std::string& text) {
  std::optional<Node> n = node_from_json_value(text);
  EXPECT_TRUE(n.has_value()) << text;
  return n ? *n : Node{};
}

bool refused(const std::string& text, const Limits& limits = Limits{}) { return !node_from_json_value(text, limits); }

TEST(JsonValue, members_keep_text_order_and_values_their_types) {
  Node n = read(R"({"b": [1, "two", true, null, {"c": 2.5}], "a": false})");
  ASSERT_TRUE(n.is_object());
  ASSERT_EQ(n.members.size(), 2u);
  EXPECT_EQ(n.members[0].key, "b");
  EXPECT_EQ(n.members[1].key, "a");
  const Node& b = n.members[0].value;
  ASSERT_TRUE(b.is_array());
  ASSERT_EQ(b.items.size(), 5u);
  EXPECT_TRUE(b.items[0].is_int());
  EXPECT_EQ(b.items[0].integer, 1);
  EXPECT_EQ(b.items[1].text, "two");
  EXPECT_TRUE(b.items[2].is_bool() && b.items[2].boolean);
  EXPECT_TRUE(b.items[3].is_null());
  EXPECT_EQ(b.items[4].members[0].value.kind, NodeKind::number);
  EXPECT_EQ(b.items[4].members[0].value.number, 2.5);
  EXPECT_TRUE(n.members[1].value.is_bool() && !n.members[1].value.boolean);
  EXPECT_FALSE(n.members[1].value.mark.known());  // a native value has no position
}

TEST(JsonValue, numbers_are_read_as_the_double_a_js_value_holds) {
  EXPECT_EQ(read("9007199254740992").integer, 9007199254740992);  // 2^53: exact
  EXPECT_EQ(read("-9007199254740992").integer, -9007199254740992);
  // 2^53 + 1 is no JS number: it rounds to 2^53, as the converter reads it.
  EXPECT_EQ(read("9007199254740993").integer, 9007199254740992);
  EXPECT_EQ(read("-9007199254740993").integer, -9007199254740992);
  EXPECT_EQ(read("4294967295").integer, 4294967295);
  Node whole = read("1e3");  // a whole number written with an exponent is an integer
  EXPECT_TRUE(whole.is_int());
  EXPECT_EQ(whole.integer, 1000);
  Node big = read("18446744073709551615");  // past int64: flagged, clamped, digits of the double
  EXPECT_TRUE(big.is_int() && big.int_overflow);
  EXPECT_EQ(big.integer, INT64_MAX);
  EXPECT_EQ(big.text, "18446744073709551616");
  Node low = read("-1e19");
  EXPECT_TRUE(low.int_overflow);
  EXPECT_EQ(low.integer, INT64_MIN);
  EXPECT_EQ(read("0.1").number, 0.1);
  EXPECT_TRUE(refused("1e400"));  // beyond the double range
  EXPECT_TRUE(refused("1e-400"));  // below it (JSON.stringify writes no such text: a JS number is 0)
  EXPECT_EQ(read("5e-324").number, 5e-324);                    // the least subnormal, exactly
  EXPECT_EQ(read("0.30000000000000004").number, 0.1 + 0.2);   // correctly rounded
  EXPECT_EQ(read("-0").integer, 0);
  Node negative_zero = read("-0.0");  // a whole number: the integer 0, as the converter reads -0
  EXPECT_TRUE(negative_zero.is_int());
  EXPECT_EQ(negative_zero.integer, 0);
  EXPECT_EQ(read("1.5E+2").integer, 150);
  EXPECT_EQ(read("-2.5e-1").number, -0.25);
  // JSON's number grammar, strictly: no leading zero, plus sign, bare point or empty exponent.
  for (const char* bad : {"01", "-01", "+1", ".5", "1.", "1e", "1e+", "-", "--1", "0x10", "1_000", "Infinity", "NaN"}) {
    EXPECT_TRUE(refused(bad)) << bad;
  }
}

TEST(JsonValue, strings_keys_and_literals_as_json_writes_them) {
  // Every escape JSON has; a string's plain runs around them copied as they are.
  EXPECT_EQ(read(R"("a\"b\\c\/d\be\ff\ng\rh\ti\u0041\u00e9")").text, "a\"b\\c/d\be\ff\ng\rh\tiA\xc3\xa9");
  EXPECT_EQ(read(R"("0123456789abcdef\n0123456789abcdef")").text, "0123456789abcdef\n0123456789abcdef");
  EXPECT_EQ(read(R"("\uD83D\uDE00")").text, "\xf0\x9f\x98\x80");  // upper-case hex
  for (const char* bad : {R"("\x41")", R"("\u12")", R"("\u12G4")", R"("\ud83d\u0041")", R"("\ud83dx")", "\"a\x01b\"",
                          "\"tab\there\"", R"("unterminated)", R"("ends in a backslash\)"}) {
    EXPECT_TRUE(refused(bad)) << bad;
  }
  EXPECT_EQ(read(" \t\r\n[ true , false , null ] \n").items.size(), 3u);  // JSON's four spaces
  for (const char* bad : {"tru", "nulls", "True", "[1 2]", "[1,]", "{\"a\":1,}", "{\"a\"}", "{\"a\":}", "{a:1}", "[",
                          "\xef\xbb\xbf{}", "\f[]", "// c\n1"}) {
    EXPECT_TRUE(refused(bad)) << bad;
  }
  Node empty = read(R"({"": "", "k": {}, "l": []})");
  ASSERT_EQ(empty.members.size(), 3u);
  EXPECT_EQ(empty.members[0].key, "");
  EXPECT_TRUE(empty.members[1].value.is_object() && empty.members[1].value.members.empty());
  EXPECT_TRUE(empty.members[2].value.is_array() && empty.members[2].value.items.empty());
}

TEST(JsonValue, refuses_what_the_converter_must_report) {
  EXPECT_TRUE(refused(R"({"a": 1, "a": 2})"));
  std::string many = "{";  // past the linear scan's size, the duplicate is found all the same
  for (int i = 0; i < 40; ++i) many += "\"k" + std::to_string(i) + "\": " + std::to_string(i) + ", ";
  EXPECT_FALSE(refused(many + "\"last\": 0}"));
  EXPECT_TRUE(refused(many + "\"k7\": 0}"));
  EXPECT_TRUE(refused(R"({"a": "x\u0000y"})"));      // an escaped NUL
  EXPECT_TRUE(refused(R"({"a\u0000": 1})"));         // in a key
  EXPECT_TRUE(refused(R"(["\ud800"])"));             // a lone surrogate
  EXPECT_TRUE(refused(R"({"\udc00": 1})"));
  EXPECT_EQ(read(R"(["\u00e9\ud83d\ude00"])").items[0].text, "\xc3\xa9\xf0\x9f\x98\x80");  // decoded
  EXPECT_TRUE(refused(std::string("[\"\xff\"]")));   // not UTF-8
  EXPECT_TRUE(refused("{} {}"));                     // two values
  EXPECT_TRUE(refused("[1,"));                       // not one value
  EXPECT_TRUE(refused(""));
}

TEST(JsonValue, refuses_within_half_of_each_limit) {
  Limits limits;
  limits.max_depth = 8;  // half: 4 containers
  EXPECT_FALSE(refused("[[[[1]]]]", limits));
  EXPECT_TRUE(refused("[[[[[1]]]]]", limits));
  EXPECT_TRUE(refused(R"({"a":{"b":{"c":{"d":{}}}}})", limits));
  // Brackets in strings and keys, escaped quotes among them, do not nest.
  EXPECT_EQ(read(R"(["[[[[\"{{{{{{", {"[[[[[[": "]"}])").items.size(), 2u);
  EXPECT_FALSE(refused(R"(["[[[[\"{{{{{{", {"[[[[[[": [[1]]}])", limits));
  limits = Limits{};
  limits.max_nodes = 10;  // half: 5 values, containers included
  EXPECT_FALSE(refused("[1,2,3,4]", limits));
  EXPECT_TRUE(refused("[1,2,3,4,5]", limits));
  EXPECT_TRUE(refused(R"({"a":1,"b":2,"c":3,"d":4,"e":5})", limits));
  limits = Limits{};
  limits.max_bytes = 20;  // half: 10 bytes of text
  EXPECT_FALSE(refused("[1,2,3,44]", limits));
  EXPECT_TRUE(refused("[1,2,3,4,5]", limits));
  // However deep the text nests, reading it neither recurses past the limit nor overflows.
  EXPECT_TRUE(refused(std::string(100000, '[') + std::string(100000, ']')));
  // Nor past 256 levels under any limit: deeper text is the caller's iterative reader's.
  limits = Limits{};
  limits.max_depth = 1 << 20;
  EXPECT_FALSE(refused(std::string(256, '[') + std::string(256, ']'), limits));
  EXPECT_TRUE(refused(std::string(257, '[') + std::string(257, ']'), limits));
  // A million-item array, in a text within the byte limit, is past the node limit.
  std::string wide = "[0";
  for (int i = 0; i < 1000000; ++i) wide += ",0";
  limits = Limits{};
  limits.max_bytes = 8u << 20;
  EXPECT_TRUE(refused(wide + "]", limits));
}

}  // namespace
}  // namespace sandgate
