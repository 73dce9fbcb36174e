// The lexical pre-check of YAML flow collections (document/yaml_flow_guard.h): it cuts the text at
// the shortest prefix whose flow collections alone break the depth or node limit, and nowhere
// when they do not. A wrong cut is not visible in the diagnostics (the loader then parses the
// whole text), only in memory and time, so its contract is pinned here.
#include <gtest/gtest.h>

#include <string>
#include <string_view>

#include "document/yaml_flow_guard.h"
#include "sandgate/document.h"

using namespace sandgate;
using sandgate::detail::find_flow_limit_breach;

namespace {

bool has_code(const Document& d, Code c) {
  for (const auto& x : d.diagnostics) {
    if (x.code == c) return true;
  }
  return false;
}

}  // namespace

// Four nested flow sequences under a depth limit of 3: the prefix ends with the fourth `[`, and
// the closers close all four, innermost first.
TEST(YamlFlowGuard, the_cut_keeps_the_bracket_one_level_too_deep) {
  Limits limits;
  limits.max_depth = 3;
  const std::string text = "k: [{a: [[x]]}]\n";
  auto breach = find_flow_limit_breach(text, limits);
  ASSERT_NE(breach.cut, std::string_view::npos);
  EXPECT_EQ(text.substr(0, breach.cut), "k: [{a: [[");
  EXPECT_EQ(breach.closers, "]]}]\n");
  Limits deeper;
  deeper.max_depth = 4;
  EXPECT_EQ(find_flow_limit_breach(text, deeper).cut, std::string_view::npos);
}

// A flow mapping's keys are not nodes: nine entries are ten nodes with the mapping, within a
// limit of ten (the loader agrees), so nothing is cut; with twelve entries the text is cut.
TEST(YamlFlowGuard, keys_of_a_flow_mapping_are_not_counted_as_nodes) {
  Limits limits;
  limits.max_nodes = 10;
  const std::string fits = "{a: 1, b: 2, c: 3, d: 4, e: 5, f: 6, g: 7, h: 8, i: 9}\n";
  Document d = load_document(fits, Format::yaml, "t.yaml", "policy", limits);
  ASSERT_FALSE(has_code(d, Code::DOC_TOO_MANY_NODES));
  EXPECT_EQ(find_flow_limit_breach(fits, limits).cut, std::string_view::npos);
  const std::string over = "[a, b, c, d, e, f, g, h, i, j, k, l, m, n, o, p]\n";
  EXPECT_NE(find_flow_limit_breach(over, limits).cut, std::string_view::npos);
}

// Within a flow collection, every `,` ends an entry that holds a node (`[,,]` holds nulls), and a
// node carries at most a few properties (`!tag`, `&anchor`, `? `): a flood of either under a small
// node limit is cut, even with no value written.
TEST(YamlFlowGuard, a_flood_of_commas_or_properties_is_cut) {
  Limits limits;
  limits.max_nodes = 10;
  const std::string commas = "[" + std::string(30, ',') + "]\n";
  EXPECT_NE(find_flow_limit_breach(commas, limits).cut, std::string_view::npos);
  std::string tags = "[";
  for (int i = 0; i < 60; ++i) tags += "!t ";
  tags += "x]\n";
  EXPECT_NE(find_flow_limit_breach(tags, limits).cut, std::string_view::npos);
}

// Brackets inside quoted scalars (past an escaped or doubled quote), block scalars and comments are
// text, not flow collections: under a depth limit of 2 none of these is cut.
TEST(YamlFlowGuard, brackets_in_scalars_and_comments_are_not_collections) {
  Limits limits;
  limits.max_depth = 2;
  for (const char* text : {"k: [\"a\\\" [[[[\"]\n", "k: ['a'' [[[[']\n", "k: |\n  [[[[\n", "k: [a, # [[[[\n  b]\n",
                           "k: |\n  a: [[[[\n"}) {
    Document d = load_document(text, Format::yaml, "t.yaml", "policy", limits);
    ASSERT_TRUE(d.loaded) << text;
    EXPECT_EQ(find_flow_limit_breach(text, limits).cut, std::string_view::npos) << text;
  }
}

// A doubled quote inside a single-quoted scalar is one quote of one scalar, not the end of one
// and the start of another: thirty of them are one node, within a limit of ten.
TEST(YamlFlowGuard, doubled_single_quotes_stay_in_one_scalar) {
  Limits limits;
  limits.max_nodes = 10;
  std::string text = "k: ['";
  for (int i = 0; i < 30; ++i) text += "a''";
  text += "']\n";
  Document d = load_document(text, Format::yaml, "t.yaml", "policy", limits);
  ASSERT_TRUE(d.loaded);
  ASSERT_TRUE(d.diagnostics.empty());
  EXPECT_EQ(find_flow_limit_breach(text, limits).cut, std::string_view::npos);
}
