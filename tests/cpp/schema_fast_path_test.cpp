// The fast structural check may only say "valid" when valijson agrees (fast ⇒ valijson), since
// a "valid" skips valijson. Checked over every input text in the conformance vectors, for the
// schema each one is written against, plus hand-made edge cases.
#include <gtest/gtest.h>


#include "conformance_inputs.h"
#include "sandgate/document.h"
#include "schema/shape.h"
#include "schema/validate.h"

using namespace sandgate;

namespace {

int g_fast_valid = 0, g_checked = 0;

void expect_sound(const std::string& text, const char* schema_name, const std::string& where) {
  Document doc = load_document(text, Format::auto_detect, where, schema_name);
  if (!doc.loaded) return;
  Node root = std::move(doc.root);
  if (std::string_view(schema_name) == "policy" && root.is_object() && root.find("policy")) root = *root.find("policy");
  const auto& cs = schema::get(schema_name);
  Diagnostics diags;
  DiagnosticSink sink(diags, where, schema_name);
  schema::ReportedPaths reported;
  schema::shape(root, cs, "", sink, reported);
  bool fast = schema::fast_valid(root, cs.root);
  bool slow = schema::valijson_valid(root, cs);
  ++g_checked;
  g_fast_valid += fast;
  EXPECT_TRUE(!fast || slow) << where << ": the fast check accepts what valijson rejects:\n" << text;
}


}  // namespace

TEST(SchemaFastPath, never_accepts_what_valijson_rejects_in_the_conformance_vectors) {
  const std::pair<const char*, const char*> fields[] = {{"policy", "policy"},     {"sandbox", "sandbox"},
                                                        {"defaults", "sandbox"},  {"overrides", "sandbox"},
                                                        {"runners", "runners"},   {"org", "org"}};
  for (const auto& in : test::conformance_inputs()) {
    for (const auto& [field, schema_name] : fields) {
      if (in.field == field) expect_sound(in.text, schema_name, in.file + ":" + field);
    }
  }
  EXPECT_GT(g_checked, 500);
  EXPECT_GT(g_fast_valid, 100) << "the fast path should accept the valid inputs";
}

TEST(SchemaFastPath, edge_cases_agree_with_valijson) {
  for (const char* sandbox : {
           "max_lifetime_seconds: 1.0",     // a float where an integer is wanted
           "max_lifetime_seconds: 1",       //
           "tags: [a, 1]",                  // a number in a string list
           "resources: {gpu: 0}",           // below the minimum
           "resources: {gpu: {type: ''}}",  // minLength
           "services: [{name: x}]",         // a required field missing
           "network: {egress: [{tenant: same_org, ports: [80, {port: 81}]}]}",
           "annotations: {a: null}",
       }) {
    expect_sound(sandbox, "sandbox", sandbox);
  }
  for (const char* policy : {
           "constraints: {volumes: {allowed_media: [STORAGE_MEDIUM_RAM]}}",  // enum
           "constraints: {lifecycle: {default_lifetime_seconds: 2592001}}",  // maximum
           "constraints: {network: {allowed_egress: [{ports: [{}]}]}}",      // required port
           "base: 3",
       }) {
    expect_sound(policy, "policy", policy);
  }
}
