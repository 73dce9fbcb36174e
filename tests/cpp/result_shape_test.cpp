// The JSON writer follows the one table of result and diagnostic fields (result_shape.def): every
// member, in the table's order, for a checked result with a related location and a source.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "sandgate/sandgate.h"

namespace {

using namespace sandgate;

std::vector<std::string> keys_of(const Node& object) {
  std::vector<std::string> out;
  for (const auto& m : object.members) out.push_back(m.key);
  return out;
}

const std::vector<std::string> k_result = {
#define SG_RESULT_FIELD(name, ts_type, py_type, doc) #name,
#include "sandgate/result_shape.def"
};
const std::vector<std::string> k_diagnostic = {
#define SG_DIAGNOSTIC_FIELD(name, ts_type, py_type, doc) #name,
#include "sandgate/result_shape.def"
};
const std::vector<std::string> k_related = {
#define SG_RELATED_FIELD(name, ts_type, py_type, doc) #name,
#include "sandgate/result_shape.def"
};
const std::vector<std::string> k_source = {
#define SG_SOURCE_FIELD(name, ts_type, py_type, doc) #name,
#include "sandgate/result_shape.def"
};

TEST(ResultShape, json_members_are_the_table_rows_in_order) {
  auto policy = Policy::parse("constraints:\n  resources:\n    max_cpu: \"2\"\n", Format::yaml, "policy.yaml").policy;
  Document sandbox = load_document("resources: {cpu: \"4\", memory: 1Gi}\n", Format::yaml, "sandbox.yaml", "sandbox");
  Result r = Engine(policy).check(sandbox, nullptr, nullptr, CheckOptions{});
  ASSERT_TRUE(r.checked());
  Document json = load_document(result_to_json(r, false), Format::json, "result.json", "result");
  ASSERT_TRUE(json.loaded);
  EXPECT_EQ(keys_of(json.root), k_result);
  const Node* diagnostics = json.root.find("diagnostics");
  ASSERT_TRUE(diagnostics && !diagnostics->items.empty());
  const Node* with_related = nullptr;
  for (const auto& d : diagnostics->items) {
    EXPECT_EQ(keys_of(d), k_diagnostic);
    const Node* related = d.find("related");
    if (related && !related->items.empty()) with_related = &d;
  }
  ASSERT_NE(with_related, nullptr) << "a bound above the policy's max names the policy line";
  const Node& related = with_related->find("related")->items.front();
  EXPECT_EQ(keys_of(related), k_related);
  EXPECT_EQ(keys_of(*related.find("source")), k_source);
  EXPECT_EQ(keys_of(*with_related->find("source")), k_source);
}

TEST(ResultShape, an_unchecked_result_has_ok_and_diagnostics_only) {
  Document sandbox = load_document("resources: [\n", Format::yaml, "sandbox.yaml", "sandbox");
  Result r = Engine().check(sandbox, nullptr, nullptr, CheckOptions{});
  ASSERT_FALSE(r.checked());
  Document json = load_document(result_to_json(r, false), Format::json, "result.json", "result");
  ASSERT_TRUE(json.loaded);
  EXPECT_EQ(keys_of(json.root), (std::vector<std::string>{"ok", "diagnostics"}));
}

}  // namespace
