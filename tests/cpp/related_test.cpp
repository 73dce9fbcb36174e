// SPEC §3 `related`: a diagnostic about a request value checked against a policy field names that
// field (input, pointer, line:col, a note); a duplicate names its first occurrence.
#include <gtest/gtest.h>

#include "sandgate/sandgate.h"

namespace {

using namespace sandgate;

const Diagnostic* find(const Result& r, Code code) {
  for (const auto& d : r.diagnostics()) {
    if (d.code == code) return &d;
  }
  return nullptr;
}

Result check(std::string_view policy_text, std::string_view sandbox_text, CheckOptions options = {}) {
  auto policy = Policy::parse(policy_text, Format::yaml, "policy.yaml").policy;
  Document sandbox = load_document(sandbox_text, Format::yaml, "sandbox.yaml", "sandbox");
  return Engine(policy).check(sandbox, nullptr, nullptr, options);
}

// The diagnostic's one related location: where, in which file at which line:col, and its note.
void expect_related(const Diagnostic& d, std::string_view input, std::string_view path, std::string_view file, int line,
                    int column, std::string_view message) {
  ASSERT_EQ(d.related.size(), 1u) << d.message;
  const Related& rel = d.related.front();
  EXPECT_EQ(rel.input, input);
  EXPECT_EQ(rel.path, path);
  ASSERT_TRUE(rel.source);
  EXPECT_EQ(rel.source->file, file);
  EXPECT_EQ(rel.source->line, line);
  EXPECT_EQ(rel.source->column, column);
  EXPECT_EQ(rel.message, message);
}

void expect_first_occurrence(const Diagnostic& d, std::string_view input, std::string_view path, std::string_view file,
                             int line, int column) {
  expect_related(d, input, path, file, line, column, "the first occurrence");
}

TEST(Related, cpu_above_max_names_the_policy_bound_and_its_line) {
  Result r = check("constraints:\n  resources:\n    max_cpu: \"2\"\n", "resources: {cpu: \"4\", memory: 1Gi}\n");
  const Diagnostic* d = find(r, Code::RESOURCE_ABOVE_MAX);
  ASSERT_NE(d, nullptr);
  expect_related(*d, "policy", "/constraints/resources/max_cpu", "policy.yaml", 3, 14, "the limit is set here");
  // The JSON form carries it too.
  EXPECT_NE(diagnostic_to_json(*d).find("\"related\":[{\"input\":\"policy\",\"path\":\"/constraints/resources/max_cpu\""),
            std::string::npos);
}

TEST(Related, denied_prefix_names_the_entry_that_denies_it) {
  Result r = check("constraints:\n  metadata:\n    denied_annotation_prefixes: [a.example/, b.example/]\n",
                   "annotations: {b.example/x: \"1\"}\n");
  const Diagnostic* d = find(r, Code::ANNOTATION_DENIED_PREFIX);
  ASSERT_NE(d, nullptr);
  ASSERT_EQ(d->related.size(), 1u);
  EXPECT_EQ(d->related.front().path, "/constraints/metadata/denied_annotation_prefixes/1");
  EXPECT_EQ(d->related.front().source->column, 46);
}

TEST(Related, duplicate_tag_names_the_first_occurrence_in_its_layer) {
  Document defaults = load_document("tags: [nightly]\n", Format::yaml, "defaults.yaml", "defaults");
  Document sandbox = load_document("tags: [a, nightly]\n", Format::yaml, "sandbox.yaml", "sandbox");
  CheckOptions ts;
  ts.client = "typescript";
  Result r = Engine().check(sandbox, &defaults, nullptr, ts);
  const Diagnostic* d = find(r, Code::TAG_DUPLICATE);
  ASSERT_NE(d, nullptr);
  EXPECT_EQ(d->input, "sandbox");
  EXPECT_EQ(d->path, "/tags/1");
  ASSERT_EQ(d->related.size(), 1u);
  EXPECT_EQ(d->related.front().input, "defaults");
  EXPECT_EQ(d->related.front().path, "/tags/0");
}

TEST(Related, duplicate_key_names_the_first_occurrence_in_yaml_and_json) {
  Document yaml = load_document("a: 1\nb:\n  c: 1\n  c: 2\n", Format::yaml, "s.yaml", "sandbox");
  ASSERT_EQ(yaml.diagnostics.size(), 1u);
  EXPECT_EQ(yaml.diagnostics[0].code, Code::DUPLICATE_KEY);
  EXPECT_EQ(yaml.diagnostics[0].source->line, 4);
  expect_first_occurrence(yaml.diagnostics[0], "sandbox", "/b/c", "s.yaml", 3, 3);

  Document json = load_document("{\"a\": 1, \"b\": {\"c\": 1, \"c\": 2}}", Format::json, "s.json", "sandbox");
  ASSERT_EQ(json.diagnostics.size(), 1u);
  EXPECT_EQ(json.diagnostics[0].code, Code::DUPLICATE_KEY);
  EXPECT_EQ(json.diagnostics[0].source->column, 24);
  expect_first_occurrence(json.diagnostics[0], "sandbox", "/b/c", "s.json", 1, 16);
}

TEST(Related, duplicate_runner_id_names_the_first_runner) {
  RunnersLoad load = Runners::parse("runners:\n  - {runner_id: a, mode: cks}\n  - {runner_id: b}\n  - {runner_id: a}\n",
                                    Format::yaml, "runners.yaml");
  const Diagnostic* d = nullptr;
  for (const auto& x : load.diagnostics) {
    if (x.code == Code::DUPLICATE_KEY) d = &x;
  }
  ASSERT_NE(d, nullptr);
  EXPECT_EQ(d->path, "/runners/2/runner_id");
  expect_first_occurrence(*d, "runners", "/runners/0/runner_id", "runners.yaml", 2, 17);
}

TEST(Related, a_value_without_a_policy_bound_has_no_related_location) {
  Result r = check("{}\n", "tags: [\"bad tag!\"]\n");
  for (const auto& d : r.diagnostics()) EXPECT_TRUE(d.related.empty()) << d.message;
}

// SPEC §3 `related`: a value checked against the org's entitlement names the org file's line.
TEST(Related, gpu_count_above_the_org_limit_names_the_org_file_and_line) {
  auto org = Org::parse("gpu_allowed: true\nmax_gpus_per_sandbox: 2\n", Format::yaml, "org.yaml").org;
  ASSERT_TRUE(org);
  Document sandbox = load_document("placement_mode: cks\nresources: {cpu: \"1\", memory: 1Gi, gpu: {count: 4}}\n",
                                   Format::yaml, "sandbox.yaml", "sandbox");
  Result r = Engine(nullptr, nullptr, org).check(sandbox, nullptr, nullptr, {});
  const Diagnostic* found = find(r, Code::GPU_COUNT_EXCEEDED);
  ASSERT_NE(found, nullptr);
  expect_related(*found, "org", "/max_gpus_per_sandbox", "org.yaml", 2, 23, "the limit is set here");
}

}  // namespace
