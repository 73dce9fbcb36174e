// The JSON loader at its edges, read both ways (the direct reader, and RapidJSON's builder, which
// reads what the direct reader refuses): a document of exactly the node or depth limit is read, one
// node or level more is one diagnostic where it breaks and no tree; a lone surrogate or an escaped
// NUL is found with the path of its value (or, for a key, of its object), and the load stops at
// the first limit or surrogate rather than reading on to a tree with an error beside it.
#include <gtest/gtest.h>

#include <string>

#include "document/loaders.h"
#include "sandgate/document.h"

using namespace sandgate;

namespace {

struct Loaded {
  bool loaded = false;
  std::string diagnostics;  // "CODE path line:col" per diagnostic
  Node root;
};

Loaded load_one_way(const std::string& text, const Limits& limits, bool direct) {
  detail::set_json_direct_reader(direct);
  Document d = detail::load_text(text, Format::json, "t.json", "sandbox", limits, detail::TextRole::document);
  detail::set_json_direct_reader(true);
  Loaded out;
  out.loaded = d.loaded;
  for (const Diagnostic& x : d.diagnostics) {
    out.diagnostics += std::string(x.name()) + " " + x.path + " " +
                       (x.source ? std::to_string(x.source->line) + ":" + std::to_string(x.source->column) : "-") + "\n";
  }
  out.root = std::move(d.root);
  return out;
}

// Reads `text` both ways; each expectation below holds for both.
std::vector<Loaded> both_ways(const std::string& text, const Limits& limits = {}) {
  std::vector<Loaded> out;
  out.push_back(load_one_way(text, limits, true));
  out.push_back(load_one_way(text, limits, false));
  return out;
}

}  // namespace

TEST(JsonLoaderLimits, exactly_the_node_limit_is_read_and_one_more_node_is_one_diagnostic) {
  Limits limits;
  limits.max_nodes = 5;
  // {} a, "x", [ ], 1, {} : five nodes.
  for (const Loaded& at : both_ways(R"({"a": "x", "b": [1, {}]})", limits)) {
    EXPECT_TRUE(at.loaded);
    EXPECT_EQ(at.diagnostics, "");
  }
  struct Case {
    std::string sixth;  // the node past the limit: a string, a number, a literal, a container
  } cases[] = {{R"("y")"}, {"2"}, {"true"}, {"[]"}, {"{}"}};
  for (const Case& c : cases) {
    // What follows the sixth node is not read: one diagnostic, at the sixth.
    const std::string text = R"({"a": "x", "b": [1, {}], "c": )" + c.sixth + R"(, "d": "z", "e": [3, "w"]})";
    for (const Loaded& over : both_ways(text, limits)) {
      EXPECT_FALSE(over.loaded) << text;
      EXPECT_EQ(over.diagnostics, "SG_DOC_TOO_MANY_NODES /c 1:31\n") << text;
    }
  }
}

TEST(JsonLoaderLimits, exactly_the_depth_limit_is_read_and_one_more_level_is_one_diagnostic) {
  Limits limits;
  limits.max_depth = 3;
  for (const Loaded& at : both_ways(R"({"a": [{"b": 1}]})", limits)) {
    EXPECT_TRUE(at.loaded);
    EXPECT_EQ(at.diagnostics, "");
  }
  for (const Loaded& over : both_ways(R"({"a": [{"b": [1]}], "c": [[[[2]]]]})", limits)) {
    EXPECT_FALSE(over.loaded);
    EXPECT_EQ(over.diagnostics, "SG_DOC_TOO_DEEP /a/0/b 1:14\n");
  }
}

// Either half of a surrogate pair alone: a low half is found in the decoded string (marked where the
// string begins), a high half by RapidJSON, which stops at its escape. Both are SG_INVALID_UTF8.
TEST(JsonLoaderEscapes, a_lone_surrogate_stops_the_load_at_its_value_or_its_keys_object) {
  struct Case {
    std::string text, diagnostics;
  } cases[] = {
      // In a key: named by the object that holds it (the key is no value's name).
      {R"({"a": {"ok": 1, "\udc00": 1}, "b": "\udc00"})", "SG_INVALID_UTF8 /a 1:17\n"},
      {R"({"a": {"ok": 1, "\ud800": 1}, "b": "\ud800"})", "SG_INVALID_UTF8 /a 1:18\n"},
      {R"({"\ud800x": 1})", "SG_INVALID_UTF8  1:3\n"},
      {R"({"a": ["x", "\udc00"], "b": "\udc00"})", "SG_INVALID_UTF8 /a/1 1:13\n"},
      {R"({"a": ["x", "\ud800"], "b": "\ud800"})", "SG_INVALID_UTF8 /a/1 1:14\n"},
      {R"({"a": {"b": "x\ud800\u0041"}})", "SG_INVALID_UTF8 /a/b 1:15\n"},  // a high half, then no low one
      {R"("\ud800")", "SG_INVALID_UTF8  1:2\n"},
  };
  for (const Case& c : cases) {
    for (const Loaded& d : both_ways(c.text)) {
      EXPECT_FALSE(d.loaded) << c.text;
      EXPECT_EQ(d.diagnostics, c.diagnostics) << c.text;
    }
  }
  // A pair is a character.
  for (const Loaded& pair : both_ways(R"({"\ud83d\ude00": "\ud83d\ude00"})")) {
    EXPECT_TRUE(pair.loaded) << pair.diagnostics;
    EXPECT_EQ(pair.root.members.at(0).value.text, "\xF0\x9F\x98\x80");
  }
}

// A lone surrogate decodes to 0xED 0xA0-0xBF …; a character that is UTF-8's own 0xED lead byte
// (U+D000-U+D7FF, Hangul) beside an escape is read as it is.
TEST(JsonLoaderEscapes, a_character_with_the_surrogates_lead_byte_beside_an_escape_is_read) {
  for (const Loaded& d : both_ways("{\"\xED\x95\x9C\": \"\xED\x95\x9C\\u0041\", \"b\": \"\\u00e9\xED\x9F\xBF\"}")) {
    ASSERT_TRUE(d.loaded) << d.diagnostics;
    EXPECT_EQ(d.diagnostics, "");
    ASSERT_EQ(d.root.members.size(), 2u);
    EXPECT_EQ(d.root.members[0].key, "\xED\x95\x9C");
    EXPECT_EQ(d.root.members[0].value.text, "\xED\x95\x9C" "A");
    EXPECT_EQ(d.root.members[1].value.text, "\xC3\xA9\xED\x9F\xBF");
  }
}

// An escaped NUL is noted wherever the value is, the document's root included.
TEST(JsonLoaderEscapes, an_escaped_nul_is_noted_at_the_root_too) {
  for (const Loaded& d : both_ways(R"("a\u0000b")")) {
    EXPECT_TRUE(d.loaded);
    EXPECT_EQ(d.diagnostics, "SG_NUL_BYTE  1:1\n");
  }
}

// A number past the double range is not a syntax error but a value that fits no field: its
// literal is quoted up to where it ends (at most 40 characters of it), and nothing is loaded.
TEST(JsonLoaderNumbers, a_number_past_the_double_range_is_quoted_and_stops_the_load) {
  const std::string forty = "1." + std::string(34, '0') + "e400", forty_one = "1." + std::string(35, '0') + "e400";
  ASSERT_EQ(forty.size(), 40u);
  struct Case {
    std::string text, path, shown;
  } cases[] = {
      {R"({"a": 1e400, "b": 2})", "/a", "1e400"},
      {R"({"a": [1, -2E+999]})", "/a/1", "-2E+999"},
      {"1e400", "", "1e400"},
      {"{\"a\": " + forty + "}", "/a", forty},
      {"{\"a\": " + forty_one + "}", "/a", forty_one.substr(0, 40) + "\xE2\x80\xA6"},
  };
  for (const Case& c : cases) {
    for (bool direct : {true, false}) {
      detail::set_json_direct_reader(direct);
      Document d = load_document(c.text, Format::json, "t.json", "sandbox");
      detail::set_json_direct_reader(true);
      EXPECT_FALSE(d.loaded) << c.text;
      ASSERT_EQ(d.diagnostics.size(), 1u) << c.text;
      EXPECT_EQ(d.diagnostics[0].name(), "SG_INTEGER_RANGE");
      EXPECT_EQ(d.diagnostics[0].path, c.path) << c.text;
      EXPECT_EQ(d.diagnostics[0].message, "the number " + c.shown + " is too large to be read: it does not fit any field")
          << c.text;
    }
  }
}

// A JSON text of white space alone is an empty document (not a syntax error), and is not loaded.
TEST(JsonLoaderEmpty, white_space_alone_is_an_empty_document) {
  for (const char* text : {"", " ", " \t\r\n"}) {
    for (const Loaded& d : both_ways(text)) {
      EXPECT_FALSE(d.loaded) << "[" << text << "]";
      EXPECT_EQ(d.diagnostics, "SG_EMPTY_DOCUMENT  1:1\n") << "[" << text << "]";
    }
  }
}

namespace {

// Whether every array and object under `n` holds exactly the room its children take.
bool sized_exactly(const Node& n, std::string& where, const std::string& path = "") {
  if (n.is_array() && n.items.capacity() != n.items.size()) {
    where = path + ": " + std::to_string(n.items.size()) + " items in room for " + std::to_string(n.items.capacity());
    return false;
  }
  if (n.is_object() && n.members.capacity() != n.members.size()) {
    where = path + ": " + std::to_string(n.members.size()) + " members in room for " + std::to_string(n.members.capacity());
    return false;
  }
  for (std::size_t i = 0; i < n.items.size(); ++i) {
    if (!sized_exactly(n.items[i], where, path + "/" + std::to_string(i))) return false;
  }
  for (const Member& m : n.members) {
    if (!sized_exactly(m.value, where, path + "/" + m.key)) return false;
  }
  return true;
}

}  // namespace

// RapidJSON's builder counts each container's children before reading (brackets and commas outside
// strings), so each vector is made once at its size: no reallocation while reading, no slack after
// (but for an object with a duplicate key, whose dropped value had room counted).
TEST(JsonLoaderSizes, each_container_is_made_at_its_size) {
  for (const char* text : {
           R"({"a": [1, 2, 3], "b": {}, "c": [], "d": {"x": [[], [1], [1, 2]], "y": null}})",
           R"({"s": "a, b, [c], {d}", "t": ["x,y", "]", "}", "[{"]})",
           R"({"q": "say \"a, b\"", "r": ["\\", 1, "\\\"", 2, "\\\\", 3], "u": "\u002c,"})",
           R"([{"k": [1, 2, 3]}, 4, [[{"a": {"b": [5, 6]}}]]])",
           " [ 1 ,\t2 ,\r\n3 ] ",
       }) {
    detail::set_json_direct_reader(false);
    Document d = detail::load_text(text, Format::json, "t.json", "sandbox", Limits{}, detail::TextRole::json_record);
    detail::set_json_direct_reader(true);
    ASSERT_TRUE(d.loaded) << text;
    std::string where;
    EXPECT_TRUE(sized_exactly(d.root, where)) << text << "\n" << where;
  }
}
