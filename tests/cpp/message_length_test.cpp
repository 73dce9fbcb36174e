// A message names the value seen, but a megabyte key must not make a megabyte message: keys and
// values in messages are cut past 80 bytes (shown_text), as tags and unknown fields are.
#include <gtest/gtest.h>

#include <string>

#include "sandgate/sandgate.h"

namespace {

using namespace sandgate;

TEST(MessageLength, an_invalid_annotation_key_of_three_megabytes_is_cut) {
  std::string key(3 << 20, 'K');  // upper case: not a qualified name
  Document sandbox = load_document("{\"annotations\": {\"" + key + "\": \"v\"}}", Format::json, "s.json", "sandbox");
  Result r = Engine().check(sandbox, nullptr, nullptr, {});
  const Diagnostic* d = nullptr;
  for (const auto& x : r.diagnostics()) {
    if (x.code == Code::ANNOTATION_KEY_INVALID) d = &x;
  }
  ASSERT_NE(d, nullptr);
  EXPECT_LT(d->message.size(), 400u);
  EXPECT_NE(d->message.find("\"KKKK"), std::string::npos);
}

}  // namespace
