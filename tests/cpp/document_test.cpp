// Document loading: YAML 1.1 typing, positions, duplicate keys, tags, JSON exactness.
#include <gtest/gtest.h>

#include "sandgate/document.h"

using namespace sandgate;

namespace {

Document yaml(std::string_view text) { return load_document(text, Format::yaml, "t.yaml", "policy"); }
Document json(std::string_view text) { return load_document(text, Format::json, "t.json", "policy"); }

bool has_code(const Document& d, Code c) {
  for (const auto& x : d.diagnostics) {
    if (x.code == c) return true;
  }
  return false;
}

}  // namespace

TEST(YamlTyping, yes_and_on_are_yaml11_booleans) {
  Document d = yaml("a: yes\nb: On\nc: true\nd: 'yes'\n");
  ASSERT_TRUE(d.loaded);
  EXPECT_TRUE(d.root.find("a")->is_bool());
  EXPECT_TRUE(d.root.find("a")->yaml11_word);
  EXPECT_TRUE(d.root.find("b")->boolean);
  EXPECT_FALSE(d.root.find("c")->yaml11_word);
  EXPECT_TRUE(d.root.find("d")->is_string());
}

TEST(YamlTyping, numbers_follow_yaml11_readers) {
  Document d = yaml("hex: 0x1F\noctal: 012\ndec: 2\nfloat: 1.5\nexp_without_dot: 1e3\nunderscored: 1_000\nsexagesimal: 1:30\n");
  ASSERT_TRUE(d.loaded);
  EXPECT_EQ(d.root.find("hex")->integer, 31);
  EXPECT_EQ(d.root.find("octal")->integer, 10);
  EXPECT_EQ(d.root.find("dec")->integer, 2);
  EXPECT_EQ(d.root.find("float")->kind, NodeKind::number);
  EXPECT_TRUE(d.root.find("exp_without_dot")->is_string()) << "PyYAML reads 1e3 (no dot) as a string";
  EXPECT_EQ(d.root.find("underscored")->integer, 1000);
  EXPECT_EQ(d.root.find("sexagesimal")->integer, 90);
}

// YAML 1.1's octal is 0[0-7_]+: `0_` is the integer 0 to PyYAML and Kubernetes, not a string. A
// base prefix with only underscores after it has no digit: Kubernetes reads it as a string (PyYAML
// fails on it), and so does sandgate.
TEST(YamlTyping, a_zero_with_underscores_is_zero) {
  Document d = yaml("a: 0_\nb: 0__\nc: -0_\nd: 0b_\ne: 0x_\n");
  ASSERT_TRUE(d.loaded);
  for (const char* key : {"a", "b", "c"}) {
    ASSERT_TRUE(d.root.find(key)->is_int()) << key;
    EXPECT_EQ(d.root.find(key)->integer, 0) << key;
  }
  EXPECT_TRUE(d.root.find("d")->is_string());
  EXPECT_TRUE(d.root.find("e")->is_string());
}

TEST(YamlTyping, integer_overflow_keeps_the_exact_text) {
  Document d = yaml("n: 99999999999999999999\n");
  ASSERT_TRUE(d.loaded);
  const Node* n = d.root.find("n");
  EXPECT_TRUE(n->is_int());
  EXPECT_TRUE(n->int_overflow);
  EXPECT_EQ(n->text, "99999999999999999999");
}

// An integer past int64 is equal to the same value however it is written: YAML 1.1's octal, hex or
// underscores and the decimal JSON writes (fuzz_sandbox: a resolved `request_timeout_seconds`
// written as octal, sent again as the decimal the JSON output holds, compared unequal).
TEST(YamlTyping, integers_past_int64_are_equal_by_value_not_by_spelling) {
  // 2^75 − 1 as octal, hex, underscored decimal and plain decimal; 2^75 as a different value.
  Document y = yaml("octal: 07777777777777777777777777\nhex: 0x7FFFFFFFFFFFFFFFFFF\nunderscored: 37_778_931_862_957_161_709_567\n");
  Document j = json("{\"octal\": 37778931862957161709567, \"next\": 37778931862957161709568, \"max\": 9223372036854775807}");
  ASSERT_TRUE(y.loaded && j.loaded);
  const Node& value = *j.root.find("octal");
  ASSERT_TRUE(value.int_overflow);
  for (const char* key : {"octal", "hex", "underscored"}) {
    ASSERT_TRUE(y.root.find(key)->int_overflow) << key;
    EXPECT_TRUE(*y.root.find(key) == value) << key;
    EXPECT_TRUE(value == *y.root.find(key)) << key;
    EXPECT_FALSE(*y.root.find(key) == *j.root.find("next")) << key;
  }
  // int64's largest value is not a value past it, though the clamped `integer`s agree.
  const Node& max = *j.root.find("max");
  ASSERT_FALSE(max.int_overflow);
  EXPECT_FALSE(max == value);
  EXPECT_FALSE(value == max);
}

TEST(YamlTyping, null_words_and_empty_values_are_null) {
  Document d = yaml("a: ~\nb: null\nc:\n");
  ASSERT_TRUE(d.loaded);
  EXPECT_TRUE(d.root.find("a")->is_null());
  EXPECT_TRUE(d.root.find("b")->is_null());
  EXPECT_TRUE(d.root.find("c")->is_null());
}

TEST(Positions, yaml_values_have_one_based_line_and_code_point_column) {
  Document d = yaml("a:\n  b: \"é\"\n  c: x\n");
  ASSERT_TRUE(d.loaded);
  const Node* b = d.root.find("a")->find("b");
  EXPECT_EQ(b->mark.line, 2);
  EXPECT_EQ(b->mark.column, 6);
  const Member* c = d.root.find("a")->find_member("c");
  EXPECT_EQ(c->key_mark.line, 3);
  EXPECT_EQ(c->key_mark.column, 3);
}

TEST(Positions, json_values_have_line_and_column) {
  Document d = json("{\n  \"a\": {\"b\": 1,\n    \"c\": [true, \"x\"]}\n}\n");
  ASSERT_TRUE(d.loaded);
  const Node* c = d.root.find("a")->find("c");
  EXPECT_EQ(c->mark.line, 3);
  EXPECT_EQ(c->mark.column, 10);
  EXPECT_EQ(c->items[1].mark.column, 17);
}

// The JSON reader decodes each string in place, over the text it came from (json_loader.cpp):
// every escape at every offset of keys and values up to 40 bytes long must decode exactly, and
// the value after them keep its column.
TEST(Json, strings_decode_in_place_with_an_escape_at_any_offset) {
  struct Escape {
    std::string_view written;
    std::string_view meant;
  };
  const Escape escapes[] = {{"\\n", "\n"}, {"\\\"", "\""}, {"\\\\", "\\"}, {"\\u00e9", "\xc3\xa9"}, {"\\t", "\t"}};
  for (const Escape& e : escapes) {
    for (std::size_t len = 0; len <= 40; ++len) {
      for (std::size_t at = 0; at <= len; ++at) {
        std::string before(at, 'a'), after(len - at, 'b');
        std::string written = before + std::string(e.written) + after;
        std::string meant = before + std::string(e.meant) + after;
        std::string text = "{\"k" + written + "\": \"" + written + "\", \"next\": 1}";
        Document d = json(text);
        ASSERT_TRUE(d.loaded) << text;
        ASSERT_EQ(d.root.members.size(), 2u) << text;
        EXPECT_EQ(d.root.members[0].key, "k" + meant) << text;
        EXPECT_EQ(d.root.members[0].value.text, meant) << text;
        const Node* next = d.root.find("next");
        ASSERT_NE(next, nullptr) << text;
        EXPECT_EQ(next->mark.column, static_cast<int>(text.size()) - 1) << text;
      }
    }
  }
}

// Only a \u escape can put a NUL or a lone surrogate into a JSON string (json_loader.cpp skips
// both checks in a text without one): each is still found, in a key or a value, after other escapes.
TEST(Json, an_escaped_nul_or_lone_surrogate_is_found_wherever_it_is) {
  EXPECT_TRUE(has_code(json("{\"a\": \"x\\u0000y\"}"), Code::NUL_BYTE));
  EXPECT_TRUE(has_code(json("{\"a\\u0000\": 1}"), Code::NUL_BYTE));
  EXPECT_TRUE(has_code(json("{\"a\": \"\\\\\", \"b\": \"\\ude00\"}"), Code::INVALID_UTF8));
  EXPECT_TRUE(has_code(json("{\"\\udc00\": 1}"), Code::INVALID_UTF8));
  Document fine = json("{\"a\": \"\\\\u0000 \\u00e9\"}");  // an escaped backslash, then u0000; é
  ASSERT_TRUE(fine.loaded);
  EXPECT_FALSE(has_code(fine, Code::NUL_BYTE));
  EXPECT_EQ(fine.root.find("a")->text, "\\u0000 \xc3\xa9");
}

// JSON has no raw control characters in strings: each of U+0001-U+001F, at any offset of a
// string up to 40 bytes long, is a syntax error (RapidJSON's SSE2 scan let 0x1A-0x1F through:
// util/rapidjson.h).
TEST(Json, a_raw_control_character_in_a_string_is_a_syntax_error) {
  for (char c = 0x01; c < 0x20; ++c) {
    if (c == '\n' || c == '\r' || c == '\t') continue;  // white space; inside a string still an error, below
    for (std::size_t at = 0; at <= 40; ++at) {
      std::string text = "{\"k\": \"" + std::string(at, 'a') + c + std::string(40 - at, 'b') + "\"}";
      Document d = json(text);
      EXPECT_FALSE(d.loaded) << int(c) << " at " << at;
      EXPECT_TRUE(has_code(d, Code::SYNTAX)) << int(c) << " at " << at;
    }
  }
  for (char c : {'\n', '\r', '\t'}) {
    EXPECT_FALSE(json(std::string("{\"k\": \"a") + c + "b\"}").loaded) << int(c);
  }
}

TEST(Json, an_unterminated_string_of_any_length_is_a_syntax_error) {
  for (std::size_t len = 0; len <= 40; ++len) {
    Document d = json("{\"k\": \"" + std::string(len, 'x'));
    EXPECT_FALSE(d.loaded);
    EXPECT_TRUE(has_code(d, Code::SYNTAX)) << len;
  }
}

TEST(Duplicates, a_duplicate_yaml_key_is_an_error_and_the_first_value_is_kept) {
  Document d = yaml("a: 1\na: 2\n");
  ASSERT_TRUE(d.loaded);
  ASSERT_TRUE(has_code(d, Code::DUPLICATE_KEY));
  EXPECT_EQ(d.root.members.size(), 1u);
  EXPECT_EQ(d.diagnostics.front().source->line, 2);
}

TEST(Duplicates, a_duplicate_json_key_is_an_error) {
  Document d = json(R"({"a": 1, "b": {"x": 1, "x": 2}})");
  EXPECT_TRUE(has_code(d, Code::DUPLICATE_KEY));
  EXPECT_EQ(d.diagnostics.front().path, "/b/x");
}

// Past 16 keys the JSON loader looks duplicates up in a set built on demand (json_loader.cpp).
TEST(Duplicates, a_duplicate_json_key_is_found_among_many_keys_and_the_first_value_is_kept) {
  std::string text = "{";
  for (int i = 0; i < 20; ++i) text += "\"k" + std::to_string(i) + "\": " + std::to_string(i) + ", ";
  text += "\"k3\": 99, \"k19\": 98, \"k20\": 20}";
  Document d = json(text);
  ASSERT_TRUE(d.loaded);
  std::vector<std::string> paths;
  for (const auto& diag : d.diagnostics) {
    if (diag.code == Code::DUPLICATE_KEY) paths.push_back(diag.path);
  }
  EXPECT_EQ(paths, (std::vector<std::string>{"/k3", "/k19"}));
  EXPECT_EQ(d.root.members.size(), 21u);
  EXPECT_EQ(d.root.find("k3")->integer, 3);
  EXPECT_EQ(d.root.find("k19")->integer, 19);
  EXPECT_EQ(d.root.find("k20")->integer, 20);
}


// The JSON loader builds each container in its place as it opens (json_loader.cpp), so a path
// into an open container is read from what is placed: a duplicate inside a list item is named by
// its full path. Nothing inside a duplicate key's dropped value is reported (its duplicates, a
// NUL), as the YAML loader does: the outer duplicate is the error to fix, and a path into the
// dropped value would name no value of the document (fuzz_policy_json found /constraints/...
// paths that resolved nowhere).
TEST(Duplicates, json_duplicates_inside_containers_have_full_paths_and_a_dropped_value_is_not_read) {
  Document d = json(R"({"a": {"k": "v"}, "z": 0, "a": {"b": {"c": 1, "y": "\u0000", "c": [1, {"d": 1, "d": 2}]}}, "l": [0, {"e": 1, "e": 2}]})");
  ASSERT_TRUE(d.loaded);
  std::vector<std::string> paths;
  for (const auto& diag : d.diagnostics) paths.push_back(diag.path);
  EXPECT_EQ(paths, (std::vector<std::string>{"/a", "/l/1/e"}));
  ASSERT_EQ(d.root.members.size(), 3u);
  EXPECT_EQ(d.root.find("a")->find("k")->text, "v") << "the first value is kept";
  EXPECT_EQ(d.root.find("l")->items.at(1).find("e")->integer, 1);
  Document y = yaml("a: {k: v}\nz: 0\na: {b: {c: 1, y: \"\\0\", c: [1, {d: 1, d: 2}]}}\nl: [0, {e: 1, e: 2}]\n");
  ASSERT_TRUE(y.loaded);
  std::vector<std::string> yaml_paths;
  for (const auto& diag : y.diagnostics) yaml_paths.push_back(diag.path);
  EXPECT_EQ(yaml_paths, paths) << "YAML and JSON report the same";
}
TEST(Tags, non_core_tags_are_rejected_and_str_forces_a_string) {
  Document bad = yaml("a: !!python/object:os.system x\n");
  EXPECT_TRUE(has_code(bad, Code::YAML_TAG));
  Document ok = yaml("a: !!str 2\n");
  ASSERT_TRUE(ok.loaded);
  EXPECT_TRUE(ok.root.find("a")->is_string());
  EXPECT_FALSE(has_code(ok, Code::YAML_TAG));
}

TEST(Json, big_numbers_are_flagged_not_wrapped) {
  Document d = json(R"({"a": 9223372036854775808, "b": -9223372036854775808, "c": 1.25})");
  ASSERT_TRUE(d.loaded);
  EXPECT_TRUE(d.root.find("a")->int_overflow);
  EXPECT_FALSE(d.root.find("b")->int_overflow);
  EXPECT_EQ(d.root.find("b")->integer, INT64_MIN);
  EXPECT_DOUBLE_EQ(d.root.find("c")->number, 1.25);
}

TEST(Json, nan_and_comments_are_syntax_errors) {
  EXPECT_TRUE(has_code(json(R"({"a": NaN})"), Code::SYNTAX));
  EXPECT_TRUE(has_code(json("{\"a\": 1 // x\n}"), Code::SYNTAX));
}

TEST(Detect, flow_yaml_that_is_not_json_falls_back_to_yaml) {
  Document d = load_document("{a: 1, b: [x]}", Format::auto_detect, "-", "policy");
  ASSERT_TRUE(d.loaded);
  EXPECT_EQ(d.format, Format::yaml);
  EXPECT_EQ(d.root.find("a")->integer, 1);
}

TEST(Limits, size_utf8_and_nul_are_checked_before_parsing) {
  Limits small;
  small.max_bytes = 8;
  EXPECT_TRUE(has_code(load_document("a: 123456789", Format::yaml, "", "", small), Code::DOC_TOO_LARGE));
  EXPECT_TRUE(has_code(yaml("a: \xC3\x28\n"), Code::INVALID_UTF8));
  EXPECT_TRUE(has_code(yaml(std::string_view("a: b\0c\n", 7)), Code::NUL_BYTE));
  Document bom = yaml("\xEF\xBB\xBF" "a: 1\n");
  EXPECT_TRUE(bom.loaded);
}

// The escape check reads a token eight bytes at a time: a '~' or '/' in any lane of any word, or in
// the overlapping last word, or in a short token's bytes, is escaped.
TEST(Pointers, join_escapes_a_tilde_or_slash_wherever_it_stands) {
  for (std::size_t n = 1; n <= 20; ++n) {
    for (std::size_t at = 0; at < n; ++at) {
      for (char c : {'~', '/'}) {
        std::string token(n, 'k');
        token[at] = c;
        std::string want = "/" + token.substr(0, at) + (c == '~' ? "~0" : "~1") + token.substr(at + 1);
        EXPECT_EQ(pointer_join("", token), want) << "length " << n << ", at " << at;
      }
    }
    EXPECT_EQ(pointer_join("", std::string(n, 'k')), "/" + std::string(n, 'k'));
  }
}

TEST(Pointers, join_escapes_and_resolve_follows_input_spelling) {
  EXPECT_EQ(pointer_join("/annotations", "sunk.coreweave.com/partition"), "/annotations/sunk.coreweave.com~1partition");
  EXPECT_EQ(pointer_join("", "a~b"), "/a~0b");
  Document d = yaml("annotations:\n  sunk.coreweave.com/partition: x\nlist: [a, b]\n");
  ASSERT_TRUE(d.loaded);
  const Node* v = pointer_resolve(d.root, "/annotations/sunk.coreweave.com~1partition");
  ASSERT_NE(v, nullptr);
  EXPECT_EQ(v->text, "x");
  EXPECT_EQ(pointer_resolve(d.root, "/list/1")->text, "b");
  EXPECT_EQ(pointer_resolve(d.root, "/list/01"), nullptr);
  EXPECT_EQ(pointer_resolve(d.root, "/list/2"), nullptr);
}

// yaml-cpp 0.7 decodes \N and \_ to the lone bytes 0x85 and 0xA0; the loader makes them UTF-8.
TEST(YamlEscapes, nel_and_nbsp_escapes_decode_to_utf8) {
  Document d = yaml("a: \"x\\N\\_y\\Lz\"\nb: \"\\x85\\xA0é\\N\"\n");
  ASSERT_TRUE(d.loaded);
  EXPECT_EQ(d.root.find("a")->text, "x\xC2\x85\xC2\xA0y\xE2\x80\xA8z");
  EXPECT_EQ(d.root.find("b")->text, "\xC2\x85\xC2\xA0\xC3\xA9\xC2\x85");
  bool is_nul = false;
  EXPECT_EQ(find_invalid_utf8(d.root.find("a")->text, is_nul), std::string_view::npos);
}

TEST(Display, a_float_from_a_binding_does_not_read_as_an_integer) {
  // "must be a whole number, not 3" for 3.0 contradicted itself.
  EXPECT_EQ(Node::make_number(3.0).display(), "3.0");
  EXPECT_EQ(Node::make_number(-2.0).display(), "-2.0");
  EXPECT_EQ(Node::make_number(2.5).display(), "2.5");
  EXPECT_EQ(Node::make_number(1e300).display(), "1e+300");
}
