// The document tree's own operations (sandgate/node.h): structural equality, a value shown in a
// message, the SDK class names a binding marks values with, and JSON pointers split and resolved.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "sandgate/document.h"
#include "sandgate/node.h"

using namespace sandgate;

namespace {

Node json(const std::string& text) {
  Document d = load_document(text, Format::json, "t.json", "sandbox");
  EXPECT_TRUE(d.loaded) << text;
  return std::move(d.root);
}

Node yaml(const std::string& text) {
  Document d = load_document(text, Format::yaml, "t.yaml", "sandbox");
  EXPECT_TRUE(d.loaded) << text;
  return std::move(d.root);
}

}  // namespace

// Equality is the value's, whatever its spelling and wherever it stands: 2 and 2.0 are one number,
// an integer past int64 equals the same integer written another way, marks do not count.
TEST(NodeEquality, values_are_equal_by_value_not_by_spelling_or_place) {
  struct Case {
    const char* a;
    const char* b;
    bool equal;
  } cases[] = {
      {"null", "null", true},
      {"true", "true", true},
      {"true", "false", false},
      {"2", "2.0", true},
      {"2.0", "2", true},
      {"2", "2.5", false},
      {"2.5", "2", false},
      {"2.5", "2.50", true},
      {"2.5", "2.25", false},
      {"2", "3", false},
      {"2", "\"2\"", false},
      {"0", "\"0\"", false},  // a string's unused number field is 0: kinds decide first
      {"0", "null", false},
      {"0.0", "false", false},
      {"null", "false", false},
      {"\"a\"", "\"a\"", true},
      {"\"a\"", "\"b\"", false},
      {"[1, \"x\", null]", "[1,\"x\",null]", true},
      {"[1, 2]", "[2, 1]", false},
      {"[1, 2]", "[1, 2, 3]", false},
      {"{\"a\": 1, \"b\": [true]}", "{ \"a\": 1.0,\n \"b\": [true] }", true},
      {"{\"a\": 1}", "{\"a\": 1, \"b\": 2}", false},
      {"{\"a\": 1, \"b\": 2}", "{\"a\": 1}", false},
      {"{\"a\": 1}", "{\"b\": 1}", false},
      {"{\"a\": 1}", "{\"a\": 2}", false},
      {"{\"a\": {\"b\": null}}", "{\"a\": {\"b\": false}}", false},
      {"18446744073709551616", "18446744073709551616", true},
      {"18446744073709551616", "18446744073709551617", false},
  };
  for (const Case& c : cases) {
    Node a = json(c.a), b = json(c.b);
    EXPECT_EQ(a == b, c.equal) << c.a << " vs " << c.b;
    EXPECT_EQ(b == a, c.equal) << c.b << " vs " << c.a;
  }
  // Past int64 the literal decides: YAML 1.1's hex and JSON's decimal of one integer are equal.
  Node hex = yaml("0x10000000000000000"), decimal = json("18446744073709551616"), other = yaml("0x10000000000000001");
  EXPECT_TRUE(hex == decimal);
  EXPECT_FALSE(other == decimal);
  EXPECT_FALSE(json("9223372036854775807") == decimal) << "a clamped integer is not the literal past it";
}

// A long string is shown cut at 80 bytes, on a character boundary: a cut inside a UTF-8 sequence
// would make the message itself invalid text.
TEST(NodeDisplay, a_long_string_is_cut_on_a_character_boundary) {
  const std::string e_acute = "\xC3\xA9";
  Node at_boundary = Node::make_string(std::string(80, 'a') + "bcd");
  EXPECT_EQ(at_boundary.display(), "\"" + std::string(80, 'a') + "\"\xE2\x80\xA6");
  Node inside = Node::make_string(std::string(79, 'a') + e_acute + "xyz");  // é at bytes 79 and 80
  EXPECT_EQ(inside.display(), "\"" + std::string(79, 'a') + "\"\xE2\x80\xA6");
  Node exactly = Node::make_string(std::string(78, 'a') + e_acute);  // 80 bytes: shown whole
  EXPECT_EQ(exactly.display(), "\"" + std::string(78, 'a') + e_acute + "\"");
}

// The SDK classes a binding names a value as: each name and class map to each other.
TEST(GivenAs, every_class_and_its_name_map_to_each_other) {
  for (GivenAs c : {GivenAs::sandbox_defaults, GivenAs::registered_volume_options, GivenAs::scratch_volume_options,
                    GivenAs::resource_options}) {
    std::string_view name = given_as_name(c);
    EXPECT_FALSE(name.empty());
    EXPECT_EQ(given_as_from_name(name), c) << name;
  }
  EXPECT_EQ(given_as_name(GivenAs::resource_options), "ResourceOptions");
  EXPECT_EQ(given_as_name(GivenAs::none), "");
  EXPECT_EQ(given_as_from_name("Sandbox"), GivenAs::none);
}

// A JSON pointer is "" or starts with /; its tokens are unescaped (~1 is /, ~0 is ~).
TEST(PointerSplit, a_pointer_starts_with_a_slash_and_its_tokens_are_unescaped) {
  std::vector<std::string> tokens;
  EXPECT_TRUE(pointer_split("", tokens));
  EXPECT_TRUE(tokens.empty());
  EXPECT_TRUE(pointer_split("/a~1b/~0c/0/", tokens));
  EXPECT_EQ(tokens, (std::vector<std::string>{"a/b", "~c", "0", ""}));
  EXPECT_FALSE(pointer_split("a/b", tokens));
  EXPECT_FALSE(pointer_split("~", tokens));
  EXPECT_FALSE(pointer_split("/a~", tokens)) << "a ~ escapes the next character, and there is none";
  EXPECT_FALSE(pointer_split("/a~2", tokens)) << "only ~0 and ~1 are escapes";
}

// A pointer resolves through objects by key and through arrays by a decimal index in range.
TEST(PointerResolve, each_token_names_a_member_or_an_index_in_range) {
  Node root = json(R"({"a/b": {"~c": [10, 20, [30]]}})");
  ASSERT_NE(pointer_resolve(root, "/a~1b/~0c/2/0"), nullptr);
  EXPECT_EQ(pointer_resolve(root, "/a~1b/~0c/2/0")->integer, 30);
  EXPECT_EQ(pointer_resolve(root, ""), &root);
  for (const char* missing : {"/a", "/a~1b/c", "/a~1b/~0c/3", "/a~1b/~0c/01", "/a~1b/~0c/1x", "/a~1b/~0c/-1",
                              "/a~1b/~0c/", "/a~1b/~0c/0/0", "a~1b"}) {
    EXPECT_EQ(pointer_resolve(root, missing), nullptr) << missing;
  }
}
