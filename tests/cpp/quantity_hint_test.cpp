// quantity_hint: the familiar mistakes respelt, anything else left to the caller's examples.
#include "quantity/quantity_hint.h"

#include <gtest/gtest.h>

namespace {

std::string hint(std::string_view text) { return sandgate::quantity_hint(text, "EXAMPLES"); }

TEST(QuantityHint, units_of_other_systems) {
  EXPECT_EQ(hint("32GB"), "Kubernetes has no suffix \"GB\": write \"32Gi\" (2^30) or \"32G\" (10^9)");
  EXPECT_EQ(hint("1.5kb"), "Kubernetes has no suffix \"kb\": write \"1.5Ki\" (2^10) or \"1.5k\" (10^3)");
  EXPECT_EQ(hint("2EB"), "Kubernetes has no suffix \"EB\": write \"2Ei\" (2^60) or \"2E\" (10^18)");
  EXPECT_EQ(hint("4GiB"), "Kubernetes writes \"GiB\" as \"Gi\": write \"4Gi\"");
  EXPECT_EQ(hint("4tib"), "Kubernetes writes \"tib\" as \"Ti\": write \"4Ti\"");
}

TEST(QuantityHint, suffixes_in_the_wrong_case) {
  EXPECT_EQ(hint("2gi"), "suffixes are case-sensitive: write \"2Gi\"");
  EXPECT_EQ(hint("512MI"), "suffixes are case-sensitive: write \"512Mi\"");
  EXPECT_EQ(hint("8g"), "suffixes are case-sensitive: write \"8Gi\" (2^30) or \"8G\" (10^9)");
  EXPECT_EQ(hint("1K"), "suffixes are case-sensitive: write \"1Ki\" (2^10) or \"1k\" (10^3)");
  EXPECT_EQ(hint("3p"), "suffixes are case-sensitive: write \"3Pi\" (2^50) or \"3P\" (10^15)");
}

TEST(QuantityHint, spaces_are_taken_out_when_what_is_left_is_a_quantity) {
  EXPECT_EQ(hint("16 "), "a quantity has no spaces: write \"16\"");
  EXPECT_EQ(hint("2 Gi"), "a quantity has no spaces: write \"2Gi\"");
  EXPECT_EQ(hint("\t500m"), "a quantity has no spaces: write \"500m\"");
  EXPECT_EQ(hint("2 gi"), "suffixes are case-sensitive: write \"2Gi\"");
  EXPECT_EQ(hint("32 GB"), "Kubernetes has no suffix \"GB\": write \"32Gi\" (2^30) or \"32G\" (10^9)");
}

TEST(QuantityHint, anything_else_keeps_the_examples) {
  for (std::string_view text : {"1e", "1E", "5m", "5M", "", "Gi", ".gi", "1.5.5gi", "500mcpu", "2xb", "2gib0",
                                "-2gi", "2GBs", "1.5.5 Gi", "   ", " x ", "2Gi", "5Mi",
                                // three letters that are not <x>ib; spaces around what one grammar only reads
                                "2gix", "2gxb", "5 u", "+ 5"}) {
    EXPECT_EQ(hint(text), "EXAMPLES") << text;
  }
}

}  // namespace
