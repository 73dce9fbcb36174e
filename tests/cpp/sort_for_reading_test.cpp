// sort_for_reading (result.h): inputs in order of first mention, then line:col, ties and
// diagnostics without a position in their given order — with any number of inputs.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "sandgate/result.h"

namespace {

using sandgate::Diagnostic;
using sandgate::Diagnostics;
using sandgate::SourceLocation;

Diagnostic at(std::string input, int line, int column, std::string message) {
  Diagnostic d;
  d.input = std::move(input);
  if (line > 0) d.source = SourceLocation{"f.yaml", line, column};
  d.message = std::move(message);
  return d;
}

std::vector<std::string> messages(const Diagnostics& ds) {
  std::vector<std::string> out;
  for (const auto& d : ds) out.push_back(d.message);
  return out;
}

TEST(SortForReading, orders_by_first_mention_then_position_and_keeps_ties_in_order) {
  Diagnostics ds = {at("sandbox", 5, 1, "a"), at("policy", 2, 1, "b"), at("sandbox", 1, 3, "c"),
                    at("sandbox", 0, 0, "d"), at("policy", 1, 1, "e"), at("sandbox", 1, 3, "f")};
  sandgate::sort_for_reading(ds);
  EXPECT_EQ(messages(ds), (std::vector<std::string>{"d", "c", "f", "a", "e", "b"}));
}

TEST(SortForReading, leaves_diagnostics_in_reading_order_as_they_are) {
  Diagnostics ds = {at("sandbox", 1, 1, "a"), at("sandbox", 2, 1, "b"), at("runners", 1, 1, "c")};
  sandgate::sort_for_reading(ds);
  EXPECT_EQ(messages(ds), (std::vector<std::string>{"a", "b", "c"}));
}

TEST(SortForReading, ranks_more_inputs_than_it_keeps_on_the_stack) {
  // Twelve inputs, each mentioned first in this order, then once more at an earlier line.
  Diagnostics ds;
  for (int i = 0; i < 12; ++i) ds.push_back(at("input" + std::to_string(i), 10, 1, "late" + std::to_string(i)));
  for (int i = 11; i >= 0; --i) ds.push_back(at("input" + std::to_string(i), 1, 1, "early" + std::to_string(i)));
  sandgate::sort_for_reading(ds);
  std::vector<std::string> want;
  for (int i = 0; i < 12; ++i) {
    want.push_back("early" + std::to_string(i));
    want.push_back("late" + std::to_string(i));
  }
  EXPECT_EQ(messages(ds), want);
}

}  // namespace
