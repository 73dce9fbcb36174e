// P-14 for image allowlists: which entries can match no image reference, what each is told, and
// when the list as a whole lets no sandbox pass.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "sandgate/policy.h"

using namespace sandgate;

namespace {

std::vector<std::string> messages(const std::string& registries) {
  Result r = validate_policy("constraints: {image: {allowed_registries: " + registries + "}}", Format::yaml, "p.yaml");
  std::vector<std::string> out;
  for (const auto& d : r.diagnostics()) {
    EXPECT_EQ(d.code, Code::IMAGE_ENTRY_UNMATCHABLE) << d.message;
    out.push_back(d.message);
  }
  return out;
}

}  // namespace

TEST(ImageAllowlist, usable_entries_say_nothing) {
  // A host with a port, a bare Docker Hub name, a path under a registry, a trailing slash.
  EXPECT_TRUE(messages("[localhost:5000, python, ghcr.io/acme/, \"registry.example.com:443/team\", docker.io/library]").empty());
}

TEST(ImageAllowlist, a_dead_entry_beside_a_usable_one_is_only_dead) {
  auto m = messages("[\"https://ghcr.io/acme\", ghcr.io/other]");
  ASSERT_EQ(m.size(), 1u);
  EXPECT_EQ(m[0], "allowed_registries entry \"https://ghcr.io/acme\" can match no image: image references have no URL scheme");
}

TEST(ImageAllowlist, when_no_entry_can_match_no_sandbox_can_pass) {
  auto one = messages("[\"ghcr.io/acme/app:1.2\"]");
  ASSERT_EQ(one.size(), 1u);
  EXPECT_EQ(one[0], "allowed_registries entry \"ghcr.io/acme/app:1.2\" can match no image: a registry prefix is matched "
                    "against repositories, which have no tag; it is the only entry, so no sandbox can pass");
  auto two = messages("[\"a b\", \"x@sha256:00\"]");
  ASSERT_EQ(two.size(), 2u);
  EXPECT_NE(two[0].find("; no entry of allowed_registries can, so no sandbox can pass"), std::string::npos) << two[0];
  EXPECT_NE(two[1].find("; no entry of allowed_registries can, so no sandbox can pass"), std::string::npos) << two[1];
}

TEST(ImageAllowlist, an_empty_list_allows_any_registry) { EXPECT_TRUE(messages("[]").empty()); }
