// Deferred origin pointers (core/src/model/input_pointer.h): an origin that keeps its walk must
// read as the pointer written at once would, however it is copied, and whatever the keys hold.
#include <gtest/gtest.h>

#include <vector>

#include "model/cursor.h"
#include "model/policy_model.h"
#include "sandgate/sandgate.h"

namespace {

using namespace sandgate;
using model::Cursor;
using model::InputPointer;

Node tree(std::string_view yaml) { return load_document(yaml, Format::yaml, "t.yaml", "policy").root; }

// Every value in the tree, as the cursor that reaches it.
void every_cursor(const Cursor& c, std::vector<Cursor>& out) {
  out.push_back(c);
  if (c.node->is_object()) {
    for (const auto& m : c.node->members) every_cursor(c.member_of(m), out);
  } else if (c.node->is_array()) {
    for (std::size_t i = 0; i < c.size(); ++i) every_cursor(c.at(i), out);
  }
}

TEST(InputPointer, a_deferred_pointer_reads_as_the_written_one_at_every_depth_and_key) {
  Node root = tree(
      "a/b: {\"c~d\": [1, {e: [[[[[[x]]]]]]}]}\n"
      "\"\": {\"~/~\": [y]}\n"
      "plain: {deep: {er: {than: {six: {steps: {here: z}}}}}}\n");
  std::vector<Cursor> all;
  for (std::string_view base : {"", "/policy", "/runners/3/policy"}) {
    all.clear();
    every_cursor(Cursor{&root, nullptr, base, Layer::sandbox, true}, all);
    ASSERT_EQ(all.size(), 22u);
    std::size_t deep = 0;
    for (const Cursor& c : all) {
      model::Origin o = model::origin_of(c);
      EXPECT_EQ(o.path.str(), c.path());
      EXPECT_EQ(std::string(o.path), c.path());
      EXPECT_EQ(o.path.empty(), c.path().empty());
      model::Origin copied = o;
      model::Origin moved = std::move(copied);
      model::Origin assigned;
      assigned = moved;
      EXPECT_EQ(assigned.path.str(), c.path());
      EXPECT_TRUE(assigned.path == moved.path);
      deep += c.steps.size() > InputPointer::k_steps;
    }
    EXPECT_GT(deep, 0u);  // the walk past k_steps is written out at once, and reads the same
  }
}

TEST(InputPointer, a_cursor_outside_the_model_writes_its_pointer_at_once) {
  Node root = tree("k: [v]\n");
  Cursor c = Cursor{&root, nullptr, ""}["k"].at(0);
  model::Origin o = model::origin_of(c);
  EXPECT_EQ(o.path.written(), "/k/0");  // written: readable without the tree
  Cursor owned = Cursor{&root, nullptr, "", Layer::sandbox, true}["k"].at(0);
  EXPECT_TRUE(model::origin_of(owned).path.written().empty());  // deferred: nothing written yet
  EXPECT_EQ(model::origin_of(owned).path.str(), "/k/0");
}

// A policy's origins are deferred; a request checked against it names the policy's fields as the
// policy spelled them (maxCpu), long after the text the policy was parsed from is gone.
TEST(InputPointer, related_locations_of_a_compiled_policy_name_its_fields_as_written) {
  std::shared_ptr<const Policy> policy;
  {
    std::string text = "policy:\n  constraints:\n    resources: {maxCpu: \"2\"}\n    metadata:\n"
                       "      denied_annotation_prefixes: [\"team.io/\"]\n";
    policy = Policy::parse(text, Format::yaml, "runner.yaml").policy;
  }
  ASSERT_TRUE(policy);
  Document sandbox = load_document("resources: {cpu: \"4\", memory: 1Gi}\nannotations: {\"team.io/owner\": v}\n",
                                   Format::yaml, "s.yaml", "sandbox");
  Result r = Engine(policy).check(sandbox, nullptr, nullptr, CheckOptions{});
  std::vector<std::string> related;
  for (const auto& d : r.diagnostics()) {
    for (const auto& rel : d.related) related.push_back(rel.path);
  }
  EXPECT_NE(std::find(related.begin(), related.end(), "/policy/constraints/resources/maxCpu"), related.end());
  EXPECT_NE(std::find(related.begin(), related.end(), "/policy/constraints/metadata/denied_annotation_prefixes/0"),
            related.end());
}

}  // namespace
