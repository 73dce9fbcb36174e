// A native value has no text positions, but its diagnostics still read in the order its text
// would give them: each value and key gets its walk order (Mark, place_in_walk_order), and the
// result sorts by it as it sorts text by line:column.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "sandgate/json_value.h"
#include "sandgate/sandgate.h"

namespace {

using sandgate::Node;

std::vector<std::string> codes_of(const sandgate::Result& r) {
  std::vector<std::string> out;
  for (const auto& d : r.diagnostics()) out.push_back(std::string(d.name()) + " " + d.path);
  return out;
}

TEST(WalkOrder, numbers_keys_and_values_as_a_reader_meets_them) {
  Node root = *sandgate::node_from_json_value(R"({"a": {"b": 1}, "c": [true, {"d": null}]})");
  sandgate::place_in_walk_order(root);
  EXPECT_EQ(root.mark.walk_order(), 1);
  EXPECT_FALSE(root.mark.known());  // no text position: diagnostics still say source null
  const auto& a = root.members[0];
  EXPECT_EQ(a.key_mark.walk_order(), 2);
  EXPECT_EQ(a.value.mark.walk_order(), 3);
  EXPECT_EQ(a.value.members[0].key_mark.walk_order(), 4);
  EXPECT_EQ(a.value.members[0].value.mark.walk_order(), 5);
  const auto& c = root.members[1];
  EXPECT_EQ(c.key_mark.walk_order(), 6);
  EXPECT_EQ(c.value.mark.walk_order(), 7);
  EXPECT_EQ(c.value.items[0].mark.walk_order(), 8);
  EXPECT_EQ(c.value.items[1].mark.walk_order(), 9);
  EXPECT_EQ(c.value.items[1].members[0].key_mark.walk_order(), 10);
  EXPECT_EQ(c.value.items[1].members[0].value.mark.walk_order(), 11);
}

TEST(WalkOrder, leaves_a_tree_read_from_text_as_it_is) {
  sandgate::Document doc = sandgate::load_document("a:\n  b: 1\n");
  sandgate::place_in_walk_order(doc.root);
  EXPECT_TRUE(doc.root.members[0].key_mark.known());
  EXPECT_EQ(doc.root.members[0].key_mark.line, 1);
  EXPECT_EQ(doc.root.members[0].value.members[0].key_mark.line, 2);
  EXPECT_EQ(doc.root.members[0].value.members[0].key_mark.walk_order(), 0);
}

// The engine finds these in another order than the text reads them (the QoS class of /containers,
// found late, stands before /resources); the value must read as its JSON text does.
TEST(WalkOrder, a_native_request_reads_in_its_json_texts_order) {
  const std::string json = R"({"containers": [{"name": "main", "image": "python:3.12", "resources": {"cpu": "1", "memory": "1Gi"}}],)"
                           R"( "resources": {"cpu": "1", "memory": "1Gi"},)"
                           R"( "network": {"ingress_mode": "public", "exposed_ports": [8080]}})";
  sandgate::Engine engine;
  sandgate::Document text = sandgate::load_document(json, sandgate::Format::json, "r.json", "sandbox");
  sandgate::Result from_text = engine.check(text);
  sandgate::Result from_value = engine.check(sandgate::document_from_node(*sandgate::node_from_json_value(json), "sandbox"));
  ASSERT_GE(from_text.diagnostics().size(), 4u);
  EXPECT_EQ(codes_of(from_value), codes_of(from_text));
  for (const auto& d : from_value.diagnostics()) EXPECT_FALSE(d.source.has_value()) << d.path;
}

// validate_policy of a native policy: its diagnostics in the policy's own member order too.
TEST(WalkOrder, a_native_policy_reads_in_its_json_texts_order) {
  const std::string json = R"({"constraints": {"resources": "8", "network": []}})";
  sandgate::Result from_text = sandgate::validate_policy(json, sandgate::Format::json, "p.json");
  sandgate::Result from_value = sandgate::validate_policy(*sandgate::node_from_json_value(json), "");
  ASSERT_GE(from_text.diagnostics().size(), 2u);
  EXPECT_EQ(codes_of(from_value), codes_of(from_text));
}

}  // namespace
