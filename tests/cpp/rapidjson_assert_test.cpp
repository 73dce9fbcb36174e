// RapidJSON's assertion (util/rapidjson.h) throws: a misuse of a RapidJSON value must never abort
// the host process, and valijson relies on it to report a schema error.
#include <gtest/gtest.h>

#include <stdexcept>

#include "util/rapidjson.h"

TEST(RapidJsonAssert, a_failed_assertion_throws_instead_of_aborting) {
  rapidjson::Document doc;
  doc.Parse("42");
  ASSERT_FALSE(doc.HasParseError());
  EXPECT_THROW((void)doc.GetArray(), std::runtime_error);
  EXPECT_THROW((void)doc.MemberCount(), std::runtime_error);
  EXPECT_EQ(doc.GetInt(), 42);  // a passing assertion is just a comparison
}

TEST(RapidJsonAssert, the_message_names_the_rapidjson_header) {
  rapidjson::Value v(true);
  try {
    (void)v.GetString();
    FAIL() << "GetString on a bool did not throw";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("rapidjson"), std::string::npos) << e.what();
  }
}
