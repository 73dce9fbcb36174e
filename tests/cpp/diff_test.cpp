// Policy diff internals (SPEC §10.3): field names, matching an error's policy location to a static
// change, comparing resolutions, the summary's bounded groups, and the JSON object's shape.
#include <gtest/gtest.h>

#include "util/rapidjson.h"

#include "rules/policy_diff.h"
#include "sandgate/diff.h"

using namespace sandgate;

namespace {

StaticChange change(std::string pointer, StaticChange::Kind kind = StaticChange::Kind::changed, bool item = false) {
  StaticChange c;
  c.pointer = std::move(pointer);
  c.field = field_name(c.pointer);
  c.kind = kind;
  c.list_item = item;
  return c;
}

PolicyLoad policy(const std::string& text, const std::string& file) { return Policy::parse(text, Format::yaml, file); }

}  // namespace

TEST(DiffFieldName, dotted_with_quoted_keys_and_indexes) {
  EXPECT_EQ(field_name("/constraints/resources/max_cpu"), "constraints.resources.max_cpu");
  EXPECT_EQ(field_name("/base/metadata/annotations/example.com~1owner"), "base.metadata.annotations[\"example.com/owner\"]");
  EXPECT_EQ(field_name("/constraints/network/allowed_egress/2/cidr"), "constraints.network.allowed_egress[2].cidr");
  EXPECT_EQ(field_name(""), "");
  // a quote or a backslash inside a quoted key is escaped, so the name reads back unambiguously
  EXPECT_EQ(field_name("/base/metadata/annotations/a\"b"), "base.metadata.annotations[\"a\\\"b\"]");
  EXPECT_EQ(field_name("/base/metadata/labels/a\\b"), "base.metadata.labels[\"a\\\\b\"]");
  // a key may start with an underscore and stay a dotted name; one starting with a digit is quoted
  EXPECT_EQ(field_name("/base/metadata/labels/_team"), "base.metadata.labels._team");
  EXPECT_EQ(field_name("/base/metadata/labels/1a"), "base.metadata.labels[\"1a\"]");
}

// The class names of SPEC §10.3 read back to their class, and nothing else reads as one.
TEST(DiffClassName, every_class_reads_back_by_its_name) {
  for (std::size_t i = 0; i < k_diff_classes; ++i) {
    auto cls = static_cast<DiffClass>(i);
    EXPECT_EQ(diff_class_from_name(to_string(cls)), cls) << to_string(cls);
  }
  for (const char* other : {"", "newly-rejected", "Unchanged", "changed"}) EXPECT_FALSE(diff_class_from_name(other)) << other;
}

TEST(DiffAttribution, a_location_matches_the_field_its_parent_or_an_item) {
  using K = StaticChange::Kind;
  EXPECT_TRUE(diff::location_matches("/constraints/resources/max_cpu", change("/constraints/resources/max_cpu")));
  EXPECT_FALSE(diff::location_matches("/constraints/resources/max_cpu", change("/constraints/resources/max_memory")));
  EXPECT_FALSE(diff::location_matches("/constraints/resources/max_cpu", change("/constraints/resources/max_cpu_x")));
  // a whole group added or removed explains an error about a field inside it
  EXPECT_TRUE(diff::location_matches("/constraints/resources/max_cpu", change("/constraints/resources", K::added)));
  // an error naming the list is explained by each added item; naming one item, only that one
  auto added1 = change("/constraints/metadata/denied_annotation_prefixes/1", K::added, true);
  auto added2 = change("/constraints/metadata/denied_annotation_prefixes/2", K::added, true);
  EXPECT_TRUE(diff::location_matches("/constraints/metadata/denied_annotation_prefixes", added1));
  EXPECT_TRUE(diff::location_matches("/constraints/metadata/denied_annotation_prefixes/2", added2));
  EXPECT_FALSE(diff::location_matches("/constraints/metadata/denied_annotation_prefixes/2", added1));
  // a removed item's index is OLD's: NEW's item at that index is another value
  auto removed2 = change("/constraints/metadata/denied_annotation_prefixes/2", K::removed, true);
  EXPECT_FALSE(diff::location_matches("/constraints/metadata/denied_annotation_prefixes/2", removed2));
  EXPECT_TRUE(diff::location_matches("/constraints/metadata/denied_annotation_prefixes", removed2));
  // a removed field that is not a list item is named by its own pointer (a rule's fallback field)
  EXPECT_TRUE(diff::location_matches("/constraints/resources/default_memory",
                                     change("/constraints/resources/default_memory", K::removed)));
}

TEST(DiffAttribution, rules_without_a_policy_location_fall_back_to_the_fields_they_read) {
  const auto& f = diff::policy_fields_for(Code::RESOURCE_ABOVE_MAX);
  EXPECT_NE(std::find(f.begin(), f.end(), "/constraints/resources/max_cpu"), f.end());
  EXPECT_TRUE(diff::policy_fields_for(Code::SYNTAX).empty());
  // every field named there exists in the policy schema's groups (a typo would never match)
  for (std::size_t i = 0; i < all_codes().size(); ++i) {
    for (auto field : diff::policy_fields_for(all_codes()[i].code)) {
      EXPECT_TRUE(field.rfind("/constraints/", 0) == 0 || field.rfind("/base/", 0) == 0) << field;
    }
  }
}

TEST(DiffAttribution, policy_diagnostics_are_located_relative_to_the_policy_object) {
  Diagnostic d;
  d.input = "policy";
  d.path = "/policy/constraints/resources/max_cpu";
  EXPECT_EQ(stream::policy_locations(d, "/policy"), std::vector<std::string>{"/constraints/resources/max_cpu"});
  d.input = "sandbox";
  EXPECT_TRUE(stream::policy_locations(d, "").empty());
}

TEST(DiffResolution, pointers_then_derived_values) {
  stream::ResultView a, b;
  a.resolved = Node::make_object();
  a.resolved.add("max_lifetime_seconds", Node::make_int(3600));
  a.resolved.add("tags", Node::make_array()).items.push_back(Node::make_string("x"));
  b.resolved = Node::make_object();
  b.resolved.add("max_lifetime_seconds", Node::make_int(1800));
  b.resolved.add("tags", Node::make_array()).items = {Node::make_string("x"), Node::make_string("y")};
  a.qos_class = b.qos_class = "Burstable";
  a.runtime_class = "kata-qemu";
  b.runtime_class = "runc";
  a.slurm = {{"CPUsPerTask", "1"}};
  b.slurm = {{"CPUsPerTask", "2"}};
  auto changes = diff::compare_resolutions(a, b);
  ASSERT_EQ(changes.size(), 4u);
  EXPECT_EQ(changes[0].pointer, "/max_lifetime_seconds");
  EXPECT_EQ(changes[0].old_value->integer, 3600);
  EXPECT_EQ(changes[1].pointer, "/tags/1");
  EXPECT_FALSE(changes[1].old_value.has_value());
  EXPECT_EQ(changes[2].pointer, "runtime_class");
  EXPECT_EQ(changes[3].pointer, "slurm.CPUsPerTask");
  EXPECT_TRUE(diff::compare_resolutions(a, a).empty());
}

TEST(DiffSummary, groups_keep_counts_and_at_most_k_examples) {
  DiffSummary s;
  s.examples = 2;
  for (int i = 1; i <= 5; ++i) {
    RecordDiff r;
    r.line = i;
    r.cls = DiffClass::resolution_changed;
    r.changes.push_back(ValueChange{"/max_lifetime_seconds", Node::make_int(1), Node::make_int(2)});
    s.add(r);
  }
  RecordDiff u;
  u.cls = DiffClass::unchanged;
  s.add(u);
  EXPECT_EQ(s.total(), 6u);
  ASSERT_EQ(s.resolution_changed_by_pointer.size(), 1u);
  EXPECT_EQ(s.resolution_changed_by_pointer[0].count, 5u);
  EXPECT_EQ(s.resolution_changed_by_pointer[0].examples.size(), 2u);
  EXPECT_EQ(s.class_examples[static_cast<std::size_t>(DiffClass::resolution_changed)].size(), 2u);
  EXPECT_TRUE(s.class_examples[static_cast<std::size_t>(DiffClass::unchanged)].empty());
}

// SPEC §10.3 counts records per error code: a record with the same code twice counts once there,
// and is one example, not two.
TEST(DiffSummary, a_record_counts_once_per_error_code) {
  DiffSummary s;
  s.examples = 5;
  RecordDiff r;
  r.line = 1;
  r.cls = DiffClass::newly_rejected;
  for (int i = 0; i < 2; ++i) {
    Diagnostic d;
    d.code = Code::VOLUME_TOO_LARGE;
    d.severity = Severity::error;
    r.errors.push_back(d);
  }
  s.add(r);
  ASSERT_EQ(s.newly_rejected_by_code.size(), 1u);
  EXPECT_EQ(s.newly_rejected_by_code[0].count, 1u);
  EXPECT_EQ(s.newly_rejected_by_code[0].examples.size(), 1u);
}

// Below the cap every distinct pointer keeps its own group: nothing is folded into "(other)".
TEST(DiffSummary, a_hundred_distinct_pointers_each_keep_their_group) {
  DiffSummary s;
  for (int i = 0; i < 100; ++i) {
    RecordDiff r;
    r.cls = DiffClass::resolution_changed;
    r.changes.push_back(ValueChange{"/annotations/k" + std::to_string(i), std::nullopt, Node::make_string("v")});
    s.add(r);
  }
  ASSERT_EQ(s.resolution_changed_by_pointer.size(), 100u);
  for (const auto& g : s.resolution_changed_by_pointer) {
    EXPECT_NE(g.key, "(other)");
    EXPECT_EQ(g.count, 1u);
  }
}

TEST(DiffSummary, distinct_pointers_are_capped) {
  DiffSummary s;
  for (int i = 0; i < 2000; ++i) {
    RecordDiff r;
    r.cls = DiffClass::resolution_changed;
    r.changes.push_back(ValueChange{"/annotations/k" + std::to_string(i), std::nullopt, Node::make_string("v")});
    s.add(r);
  }
  EXPECT_LE(s.resolution_changed_by_pointer.size(), 501u) << "memory stays bounded whatever the records hold";
  EXPECT_EQ(s.resolution_changed_by_pointer.back().key, "(other)");
}

TEST(DiffJson, the_object_has_the_spec_shape_and_counts_add_up) {
  PolicyLoad o = policy("constraints:\n  resources: {max_cpu: \"8\"}\n", "old.yaml");
  PolicyLoad n = policy("constraints:\n  resources: {max_cpu: \"4\"}\n", "new.yaml");
  auto reader = RequestReader::from_text(
      "{\"resources\":{\"cpu\":\"6\"}}\n{\"resources\":{\"cpu\":\"2\"}}\n{\"id\":\"x\",\"sandbox\":{\"resources\":{\"cpu\":\"7\"}}}\nnope\n",
      "r.jsonl");
  PolicyDiff d = diff_policies(o, n, reader.get());
  EXPECT_FALSE(d.ok());
  std::string json = diff_to_json(d);
  rapidjson::Document doc;
  doc.Parse(json.c_str(), json.size());
  ASSERT_FALSE(doc.HasParseError()) << json;
  EXPECT_FALSE(doc["ok"].GetBool());
  ASSERT_EQ(doc["static_changes"].Size(), 1u);
  const auto& sc = doc["static_changes"][0];
  EXPECT_STREQ(sc["field"].GetString(), "constraints.resources.max_cpu");
  EXPECT_STREQ(sc["old"].GetString(), "8");
  EXPECT_STREQ(sc["new"].GetString(), "4");
  EXPECT_STREQ(sc["old_source"].GetString(), "old.yaml:2");
  EXPECT_STREQ(sc["new_source"].GetString(), "new.yaml:2");
  std::uint64_t total = 0;
  for (const char* k : {"newly_rejected", "newly_accepted", "rejection_changed", "resolution_changed", "unchanged", "unreadable"}) {
    ASSERT_TRUE(doc["counts"].HasMember(k)) << k;
    total += doc["counts"][k].GetUint64();
  }
  EXPECT_EQ(total, 4u) << "the counts always add up to the number of records";
  EXPECT_EQ(doc["counts"]["newly_rejected"].GetUint64(), 2u);
  const auto& records = doc["records"];
  ASSERT_EQ(records.Size(), 3u) << "every record that is not unchanged";
  EXPECT_EQ(records[0]["record"].GetInt(), 1);
  EXPECT_STREQ(records[0]["class"].GetString(), "newly_rejected");
  EXPECT_STREQ(records[0]["errors"][0]["code"].GetString(), "SG_RESOURCE_ABOVE_MAX");
  EXPECT_STREQ(records[0]["caused_by"][0]["field"].GetString(), "constraints.resources.max_cpu");
  EXPECT_FALSE(records[0].HasMember("id"));
  EXPECT_STREQ(records[1]["id"].GetString(), "x");
  EXPECT_STREQ(records[2]["class"].GetString(), "unreadable");
  EXPECT_EQ(records[2]["record"].GetInt(), 4);
}

TEST(DiffText, names_the_change_and_the_cause) {
  PolicyLoad o = policy("constraints:\n  metadata: {denied_annotation_prefixes: [a.io/]}\n", "old.yaml");
  PolicyLoad n = policy("constraints:\n  metadata: {denied_annotation_prefixes: [a.io/, b.io/]}\n", "new.yaml");
  auto reader = RequestReader::from_text("{\"annotations\":{\"b.io/x\":\"1\"}}\n", "r.jsonl");
  PolicyDiff d = diff_policies(o, n, reader.get());
  std::string text = diff_to_text(d);
  EXPECT_NE(text.find("constraints.metadata.denied_annotation_prefixes: added \"b.io/\""), std::string::npos) << text;
  EXPECT_NE(text.find("SG_ANNOTATION_DENIED_PREFIX: 1 record(s), caused by constraints.metadata.denied_annotation_prefixes added \"b.io/\""),
            std::string::npos)
      << text;
  std::string md = diff_to_markdown(d);
  EXPECT_NE(md.find("**NEW would reject 1 of 1 replayed requests that OLD accepts.**"), std::string::npos) << md;
  EXPECT_NE(md.find("| `SG_ANNOTATION_DENIED_PREFIX` | 1 |"), std::string::npos) << md;
}

// A record's causes, and a code's, come in the order of static_changes (docs/batch.md), whatever
// order the errors or the records came in: NEW lists max_memory before max_cpu, the record's errors
// and the records come cpu first.
TEST(DiffReplay, causes_come_in_the_order_of_the_static_changes) {
  PolicyLoad o = policy("constraints:\n  resources: {max_memory: 8Gi, max_cpu: \"8\"}\n", "old.yaml");
  PolicyLoad n = policy("constraints:\n  resources: {max_memory: 4Gi, max_cpu: \"4\"}\n", "new.yaml");
  auto reader = RequestReader::from_text(
      "{\"resources\":{\"cpu\":\"6\",\"memory\":\"6Gi\"}}\n{\"resources\":{\"cpu\":\"6\"}}\n"
      "{\"resources\":{\"memory\":\"6Gi\"}}\n",
      "r.jsonl");
  PolicyDiff d = diff_policies(o, n, reader.get());
  ASSERT_EQ(d.static_changes.size(), 2u);
  EXPECT_EQ(d.static_changes[0].field, "constraints.resources.max_memory");
  EXPECT_EQ(d.static_changes[1].field, "constraints.resources.max_cpu");
  ASSERT_EQ(d.records.size(), 3u);
  EXPECT_EQ(d.records[0].caused_by, (std::vector<std::size_t>{0, 1}));
  EXPECT_EQ(d.records[1].caused_by, (std::vector<std::size_t>{1}));
  std::string json = diff_to_json(d);
  rapidjson::Document doc;
  doc.Parse(json.c_str(), json.size());
  ASSERT_FALSE(doc.HasParseError()) << json;
  const auto& groups = doc["newly_rejected_by_code"];
  ASSERT_EQ(groups.Size(), 1u) << json;
  ASSERT_EQ(groups[0]["caused_by"].Size(), 2u) << json;
  EXPECT_EQ(groups[0]["caused_by"][0]["change"].GetUint64(), 0u) << json;
  EXPECT_EQ(groups[0]["caused_by"][1]["change"].GetUint64(), 1u) << json;
}

TEST(DiffReplay, records_from_native_values_as_a_binding_passes_them) {
  PolicyLoad o = policy("constraints:\n  resources: {max_cpu: \"8\"}\n", "old.yaml");
  PolicyLoad n = policy("constraints:\n  resources: {max_cpu: \"4\"}\n", "new.yaml");
  PolicyDiff d = start_diff(o, n);
  PolicyDiffer differ(o.policy, n.policy);
  int i = 0;
  auto next = [&](PendingRecord& p) {
    if (i == 3) return false;
    Node sandbox = Node::make_object();
    Node& resources = sandbox.add("resources", Node::make_object());
    resources.add("cpu", Node::make_string(std::to_string(3 * i + 2)));  // 2, 5, 8
    Node record = Node::make_object();
    record.add("id", Node::make_string("r" + std::to_string(i)));
    record.add("sandbox", std::move(sandbox));
    p = PendingRecord{};
    p.index = static_cast<std::size_t>(++i);
    p.tree = std::move(record);
    return true;
  };
  DiffOptions options;
  options.jobs = 2;
  replay(d, differ, next, "<records>", Limits{}, options);
  EXPECT_EQ(d.summary.counts[static_cast<std::size_t>(DiffClass::newly_rejected)], 2u);
  ASSERT_EQ(d.records.size(), 2u);
  EXPECT_EQ(d.records[0].id, "r1");
  EXPECT_EQ(d.records[1].id, "r2");
  EXPECT_EQ(d.records[1].index, 3u);
}
