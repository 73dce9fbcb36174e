// `provenance` (SPEC §7) for the values the request compiler decides on its own: where
// placement_mode came from, and which layer an entry of a merged map came from. The conformance
// vectors compare `resolved` values, not their provenance.
#include <gtest/gtest.h>

#include <string>

#include "sandgate/sandgate.h"

namespace {

using namespace sandgate;

// The provenance of `pointer` in the JSON result of checking the layers (YAML texts; "" = absent).
std::string provenance_of(const std::string& pointer, const std::string& sandbox_text, const std::string& defaults_text = "",
                          const std::string& overrides_text = "", CheckOptions options = {}) {
  Document sandbox = load_document(sandbox_text, Format::yaml, "sandbox.yaml", "sandbox");
  Document defaults = load_document(defaults_text, Format::yaml, "defaults.yaml", "defaults");
  Document overrides = load_document(overrides_text, Format::yaml, "overrides.yaml", "overrides");
  Result r = Engine().check(sandbox, defaults_text.empty() ? nullptr : &defaults,
                            overrides_text.empty() ? nullptr : &overrides, options);
  EXPECT_TRUE(r.checked());
  Document json = load_document(result_to_json(r, false), Format::json, "result.json", "result");
  EXPECT_TRUE(json.loaded);
  const Node* provenance = json.root.find("provenance");
  if (!provenance) return "(no provenance)";
  const Node* value = provenance->find(pointer);
  return value && value->is_string() ? value->text : "(none)";
}

TEST(RequestProvenance, placement_mode_left_to_the_platform_default) {
  EXPECT_EQ(provenance_of("/placement_mode", "resources: {cpu: \"1\", memory: 1Gi}\n"), "platform");
}

TEST(RequestProvenance, placement_mode_chosen_by_the_sdk_for_a_spillover_without_runner_ids) {
  // N-PL: serverless_then_cks starts on serverless, but it is the SDK that sends the mode, not
  // the platform's default (a mutant that took only runner_ids into account survived).
  EXPECT_EQ(provenance_of("/placement_mode", "placement_spillover: serverless_then_cks\nresources: {cpu: \"1\", memory: 1Gi}\n"),
            "sdk");
}

TEST(RequestProvenance, placement_mode_written_in_the_defaults_layer) {
  EXPECT_EQ(provenance_of("/placement_mode", "resources: {cpu: \"1\", memory: 1Gi}\n", "placement_mode: serverless\n"),
            "defaults");
}

TEST(RequestProvenance, placement_mode_from_the_option) {
  CheckOptions options;
  options.placement = "serverless";
  EXPECT_EQ(provenance_of("/placement_mode", "placement_mode: cks\nresources: {cpu: \"1\", memory: 1Gi}\n", "", "", options),
            "option");
}

TEST(RequestProvenance, a_map_entry_a_later_layer_overrides_comes_from_that_layer) {
  // SPEC §5.1: the later layer wins per key of annotations; its provenance says so, and an entry
  // only the earlier layer sets keeps the earlier layer.
  const std::string defaults = "annotations: {team: a, cost: x}\n";
  const std::string sandbox = "annotations: {team: b}\nresources: {cpu: \"1\", memory: 1Gi}\n";
  EXPECT_EQ(provenance_of("/annotations/team", sandbox, defaults), "sandbox");
  EXPECT_EQ(provenance_of("/annotations/cost", sandbox, defaults), "defaults");
}

}  // namespace
