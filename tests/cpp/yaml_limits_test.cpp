// YAML aliases within the loading limits (SPEC §1.2): an alias counts as what it expands to, for
// the depth limit and for the size limit, neither more nor less.
#include <gtest/gtest.h>

#include <string>

#include "sandgate/document.h"

using namespace sandgate;

namespace {

bool has_code(const Document& d, Code c) {
  for (const auto& x : d.diagnostics) {
    if (x.code == c) return true;
  }
  return false;
}

Document yaml(const std::string& text, const Limits& limits) {
  return load_document(text, Format::yaml, "t.yaml", "policy", limits);
}

}  // namespace

// A document with an alias is too deep exactly when the same document written out is: at every
// depth limit around the boundary, an alias nested three levels down to a value three levels deep
// is judged as the six levels it stands for.
TEST(YamlAliasLimits, an_alias_is_as_deep_as_its_expansion) {
  const std::string aliased = "a: &x {b: {c: [1]}}\nd: {e: {f: *x}}\n";
  const std::string written = "a: {b: {c: [1]}}\nd: {e: {f: {b: {c: [1]}}}}\n";
  int deepest_rejected = 0;
  for (int depth = 1; depth <= 9; ++depth) {
    Limits limits;
    limits.max_depth = depth;
    Document w = yaml(written, limits);
    Document a = yaml(aliased, limits);
    EXPECT_EQ(has_code(a, Code::DOC_TOO_DEEP), has_code(w, Code::DOC_TOO_DEEP)) << "max_depth " << depth;
    if (has_code(w, Code::DOC_TOO_DEEP)) deepest_rejected = depth;
    if (!has_code(w, Code::DOC_TOO_DEEP)) {
      EXPECT_TRUE(a.loaded) << "max_depth " << depth;
      EXPECT_TRUE(a.diagnostics.empty()) << "max_depth " << depth;
    }
  }
  // The boundary is inside the range tried: both sides of it were compared.
  EXPECT_GT(deepest_rejected, 1);
  EXPECT_LT(deepest_rejected, 9);
}

// Aliases may expand the document by at most the size limit in bytes of text: three copies of a
// 300-byte value add 900 bytes under a 1,000-byte limit; four add 1,200, which is over it.
TEST(YamlAliasLimits, aliases_expand_the_text_by_at_most_the_size_limit) {
  Limits limits;
  limits.max_bytes = 1000;
  const std::string value(300, 'v');
  Document three = yaml("a: &x " + value + "\nb: [*x, *x, *x]\n", limits);
  EXPECT_TRUE(three.loaded);
  EXPECT_TRUE(three.diagnostics.empty());
  Document four = yaml("a: &x " + value + "\nb: [*x, *x, *x, *x]\n", limits);
  ASSERT_EQ(four.diagnostics.size(), 1u);
  EXPECT_EQ(four.diagnostics[0].code, Code::YAML_ALIAS_LIMIT);
  EXPECT_EQ(four.diagnostics[0].path, "/b/3");
}

// RFC 3629: a four-byte form of a code point below U+10000 (F0 followed by 80..8F) is an overlong
// encoding, invalid UTF-8 like the two- and three-byte overlongs (SPEC §1.2: text must be UTF-8).
TEST(Utf8, a_four_byte_overlong_form_is_invalid) {
  for (const char* text : {"a: \xF0\x8F\xBF\xBF\n", "a: \xF0\x80\x80\x80\n"}) {
    Document d = yaml(text, Limits{});
    ASSERT_EQ(d.diagnostics.size(), 1u);
    EXPECT_EQ(d.diagnostics[0].code, Code::INVALID_UTF8);
    ASSERT_TRUE(d.diagnostics[0].source.has_value());
    EXPECT_EQ(d.diagnostics[0].source->column, 4);
  }
  Document ok = yaml("a: \xF0\x90\x80\x80\n", Limits{});  // U+10000, the first four-byte code point
  EXPECT_TRUE(ok.loaded);
  EXPECT_TRUE(ok.diagnostics.empty());
}
