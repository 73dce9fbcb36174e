// NameMap (schema/name_map.h): the schema's property lookup finds every name it holds, and no other.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "schema/name_map.h"

namespace sandgate::schema {
namespace {

TEST(NameMap, finds_each_name_it_holds_and_no_other) {
  // axbxc, aybyc and azbzc share their length and first, middle and last bytes: one slot, so the
  // second and third are found only by probing past the first.
  std::vector<std::string> names = {"", "a", "axbxc", "aybyc", "azbzc", "cpu", "memory", "requests", "limits"};
  for (int i = 0; i < 300; ++i) names.push_back("field_" + std::to_string(i));
  NameMap<int> map;
  for (std::size_t i = 0; i < names.size(); ++i) map.emplace(names[i], static_cast<int>(i));
  map.emplace("cpu", 999);  // already there: kept as it was
  EXPECT_EQ(map.size(), names.size());
  for (std::size_t i = 0; i < names.size(); ++i) {
    const auto* e = map.find(names[i]);
    ASSERT_NE(e, nullptr) << names[i];
    EXPECT_EQ(e->value, static_cast<int>(i));
    EXPECT_EQ(e->key, names[i]);
  }
  for (std::string absent : {"cpus", "awbwc", "field_300", "Cpu", "memor", "b"}) EXPECT_EQ(map.find(absent), nullptr) << absent;
  EXPECT_EQ(NameMap<int>{}.find("x"), nullptr);
}

}  // namespace
}  // namespace sandgate::schema
