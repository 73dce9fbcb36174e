// The JSON loader reads a text in one pass (document/json_direct_reader.h) and with RapidJSON only
// what that refuses. Both must make the same Document: the same tree (values, literals, marks of
// values and keys) and the same diagnostics. Held here over every request of examples/requests.jsonl,
// every JSON text of the conformance vectors, and edits of each (seeded), read both ways.
#include <gtest/gtest.h>

#include <filesystem>
#include <random>
#include <sstream>

#include "conformance_inputs.h"
#include "document/loaders.h"
#include "document/node_identity.h"
#include "sandgate/document.h"

using namespace sandgate;
namespace fs = std::filesystem;

namespace {


std::string diagnostics_text(const Diagnostics& ds) {
  std::string out;
  for (const auto& d : ds) {
    out += std::string(code_info(d.code).name) + " " + d.path + " " +
           (d.source ? std::to_string(d.source->line) + ":" + std::to_string(d.source->column) : "-") + " " + d.message +
           "\n";
  }
  return out;
}

struct Tally {
  int direct = 0;  // read by the direct reader (both ways gave a tree)
  int texts = 0;
};

void expect_same(const std::string& text, Tally& tally, Mark origin = Mark{1, 1}) {
  Limits limits;
  limits.max_depth = 12;  // small enough that some edits reach them
  limits.max_nodes = 400;
  detail::set_json_direct_reader(false);
  Document slow = detail::load_text(text, Format::json, "t.json", "sandbox", limits, detail::TextRole::json_record, origin);
  detail::set_json_direct_reader(true);
  Document fast = detail::load_text(text, Format::json, "t.json", "sandbox", limits, detail::TextRole::json_record, origin);
  ++tally.texts;
  ASSERT_EQ(fast.loaded, slow.loaded) << text;
  EXPECT_EQ(diagnostics_text(fast.diagnostics), diagnostics_text(slow.diagnostics)) << text;
  std::string why;
  EXPECT_TRUE(detail::identical(fast.root, slow.root, why)) << why << "\n" << text;
  tally.direct += fast.loaded && fast.diagnostics.empty();
}

std::vector<std::string> corpus() {
  std::vector<std::string> texts;
  std::istringstream lines(test::read_file(fs::path(SANDGATE_SOURCE_DIR) / "examples" / "requests.jsonl"));
  for (std::string line; std::getline(lines, line);) texts.push_back(line);
  // The conformance vectors' inputs that are JSON (most are YAML, which this reader never sees).
  for (const auto& in : test::conformance_inputs()) {
    if (!in.text.empty() && (in.text[0] == '{' || in.text[0] == '[')) texts.push_back(in.text);
  }
  return texts;
}

}  // namespace

TEST(JsonDirectReader, reads_what_rapidjson_reads_as_it_does) {
  Tally tally;
  for (const auto& t : corpus()) expect_same(t, tally, Mark{7, 3});
  EXPECT_GT(tally.texts, 340);
  EXPECT_GT(tally.direct, 330) << "the direct reader should read the clean texts";
}

TEST(JsonDirectReader, edited_texts_are_read_or_refused_as_rapidjson_reads_them) {
  const std::vector<std::string> texts = corpus();
  const char alphabet[] = "{}[]\":,\\u0123456789abcdefABCDEF-+.eEtrunlsx \n\t\r\x7f\xc3\xa9";
  std::mt19937_64 rng(20261205);
  Tally tally;
  for (int round = 0; round < 8; ++round) {
    for (const auto& t : texts) {
      std::string m = t;
      for (int e = 0, edits = 1 + static_cast<int>(rng() % 3); e < edits; ++e) {
        const std::size_t at = rng() % (m.size() + 1);
        const char c = alphabet[rng() % (sizeof alphabet - 1)];
        switch (rng() % 3) {
          case 0: if (at < m.size()) m.erase(at, 1); break;
          case 1: m.insert(at, 1, c); break;
          default: if (at < m.size()) m[at] = c; break;
        }
      }
      expect_same(m, tally);
    }
  }
  EXPECT_GT(tally.direct, 200);
}

TEST(JsonDirectReader, corners_agree) {
  Tally tally;
  for (const char* t : {
           "{}", "[]", "0", "-0", "-0.0", "1e3", "1E+3", "1.5e-7", "5e-324", "1e-400", "1e400", "0.1e309", " 0E3243", "0e309", "0.0e308", "1.5e309",
           "1e308", "-0E+400", "0e-999",
           "9223372036854775807", "9223372036854775808", "-9223372036854775809", "123456789012345678901234567890",
           "\"\\u0000\"", "\"\\ud800\"", "\"\\udc00\"", "\"\\ud83d\\ude00\"", "\"\\u00e9 \\/\\b\\f\\n\\r\\t\\\"\\\\\"",
           "{\"a\":1,\"a\":2}", "{\"a\":{\"b\":[1,{\"c\":null}]},\"d\":true,\"e\":false}", " \t\r\n{ \"k\" : [ 1 , 2 ] } \n",
           "{\"é\":\"日本語\",\"x\":{\"é\":1}}", "{\n  \"a\": 1,\n  \"b\": [\n    \"x\"\n  ]\n}", "[1,]", "{\"a\":1,}", "01",
           "[[[[[[[[[[[[[[1]]]]]]]]]]]]]]", "\xef\xbb\xbf{}", "", "   ", "{} {}", "nul", "[\"a\x01\"]",
       }) {
    expect_same(t, tally);
  }
  EXPECT_GT(tally.direct, 15);
}

// A literal's mark is where it begins, both ways (RapidJSON's reader had taken `true`, `false` and
// `null` before it said so, and their marks pointed past them, at the next token).
TEST(JsonDirectReader, literals_are_marked_where_they_begin) {
  for (bool direct : {true, false}) {
    detail::set_json_direct_reader(direct);
    Document d = load_document(R"({"a": true, "bb": null, "c": [false, 1]})", Format::json, "t.json", "sandbox");
    detail::set_json_direct_reader(true);
    ASSERT_TRUE(d.loaded);
    EXPECT_EQ(d.root.members[0].value.mark.column, 7) << direct;
    EXPECT_EQ(d.root.members[1].value.mark.column, 19) << direct;
    EXPECT_EQ(d.root.members[2].value.items[0].mark.column, 31) << direct;
    EXPECT_EQ(d.root.members[2].value.items[1].mark.column, 38) << direct;
  }
}

// Under a raised depth limit (`--max-depth` is the user's) deep texts read the same both ways,
// around the depth where the direct reader hands over to RapidJSON (json_value_test checks that).
TEST(JsonDirectReader, deep_texts_under_a_raised_limit_read_the_same) {
  Limits limits;
  limits.max_depth = 100000;
  for (int depth : {255, 256, 257, 1000}) {
    const std::string text = std::string(static_cast<std::size_t>(depth), '[') + std::string(static_cast<std::size_t>(depth), ']');
    detail::set_json_direct_reader(false);
    Document slow = detail::load_text(text, Format::json, "t.json", "sandbox", limits, detail::TextRole::json_record);
    detail::set_json_direct_reader(true);
    Document fast = detail::load_text(text, Format::json, "t.json", "sandbox", limits, detail::TextRole::json_record);
    ASSERT_TRUE(fast.loaded && slow.loaded) << depth;
    std::string why;
    EXPECT_TRUE(detail::identical(fast.root, slow.root, why)) << depth << ": " << why;
  }
}
