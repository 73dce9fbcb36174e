// Engine's input errors: taken from the policy, runners and org, or given by the caller (a
// binding's copies, which may carry a hint only the binding can write); every result carries them.
#include <gtest/gtest.h>

#include "sandgate/sandgate.h"

namespace {

TEST(EngineInputErrors, every_result_carries_the_policys_errors_or_the_callers_copies_of_them) {
  auto load = sandgate::Policy::parse("policy.yaml", sandgate::Format::auto_detect, "<policy>");
  ASSERT_TRUE(load.policy);
  ASSERT_FALSE(load.policy->valid());  // a bare string: SG_POLICY_NOT_OBJECT
  sandgate::Document sandbox = sandgate::load_document("{}", sandgate::Format::json, "s.json", "sandbox");

  sandgate::Engine plain(load.policy);
  sandgate::Result from_policy = plain.check(sandbox);
  ASSERT_FALSE(from_policy.errors().empty());
  EXPECT_EQ(from_policy.errors().at(0)->name(), "SG_POLICY_NOT_OBJECT");
  EXPECT_EQ(from_policy.errors().at(0)->hint.find("pathlib"), std::string::npos);

  sandgate::Diagnostics copies;
  for (auto d : load.policy->diagnostics()) {
    if (d.severity != sandgate::Severity::error) continue;
    d.hint = "a str is read as text: pass pathlib.Path(\"policy.yaml\") for the file";
    copies.push_back(std::move(d));
  }
  sandgate::Engine hinted(load.policy, nullptr, nullptr, copies);
  sandgate::Result r = hinted.check(sandbox);
  EXPECT_FALSE(r.ok());
  ASSERT_EQ(r.errors().size(), from_policy.errors().size());
  EXPECT_EQ(r.errors().at(0)->hint, copies.at(0).hint);
}

}  // namespace
