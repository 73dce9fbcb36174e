// Unknown keys in great numbers: the first 100 are listed, the rest counted in one diagnostic, so
// a document of 100,000 typos costs neither gigabytes of output nor seconds.
#include <gtest/gtest.h>

#include <string>

#include "sandgate/policy.h"

using namespace sandgate;

namespace {

std::string unknown_keys(int count) {
  std::string text;
  for (int i = 0; i < count; ++i) text += "k" + std::to_string(i) + ": 1\n";
  return text;
}

int count_code(const Result& r, Code c) {
  int n = 0;
  for (const auto& d : r.diagnostics()) n += d.code == c ? 1 : 0;
  return n;
}

}  // namespace

TEST(UnknownKeys, all_are_listed_up_to_the_cap) {
  Result r = validate_policy(unknown_keys(100), Format::yaml, "p.yaml");
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(count_code(r, Code::UNKNOWN_KEY), 100);
  for (const auto& d : r.diagnostics()) EXPECT_EQ(d.message.find("more unknown fields"), std::string::npos);
}

TEST(UnknownKeys, beyond_the_cap_the_rest_are_counted_at_the_first_left_out) {
  Result r = validate_policy(unknown_keys(150), Format::yaml, "p.yaml");
  EXPECT_FALSE(r.ok());
  ASSERT_EQ(count_code(r, Code::UNKNOWN_KEY), 101);
  const Diagnostic* summary = nullptr;
  for (const auto& d : r.diagnostics()) {
    if (d.message.find("more unknown fields") != std::string::npos) summary = &d;
  }
  ASSERT_NE(summary, nullptr);
  EXPECT_EQ(summary->path, "/k100");
  EXPECT_NE(summary->message.find("50 more unknown fields are not listed"), std::string::npos) << summary->message;
  ASSERT_TRUE(summary->source.has_value());
  EXPECT_EQ(summary->source->line, 101);
}

TEST(UnknownKeys, a_megabyte_key_is_cut_in_the_message) {
  std::string key(1 << 20, 'k');
  Result r = validate_policy("{\"" + key + "\": 1}", Format::json, "p.json");  // YAML caps implicit keys at 1024
  ASSERT_EQ(count_code(r, Code::UNKNOWN_KEY), 1);
  const Diagnostic& d = r.diagnostics().front();
  EXPECT_LT(d.message.size(), 200u);
  EXPECT_NE(d.message.find("\"kkkk"), std::string::npos);
  EXPECT_NE(d.message.find("…"), std::string::npos);
}
