// Spelling suggestions: the bounded edit distance (which stops once a candidate cannot beat the
// best so far) picks exactly what the full distance would.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "util/text.h"

namespace {

std::size_t full_distance(const std::string& a, const std::string& b) {
  auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; };
  std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
  for (std::size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    for (std::size_t j = 1; j <= b.size(); ++j) {
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (lower(a[i - 1]) == lower(b[j - 1]) ? 0 : 1)});
    }
  }
  return d[a.size()][b.size()];
}

std::string full_closest(const std::string& word, const std::vector<std::string>& candidates) {
  std::string best;
  std::size_t best_d = 64;
  for (const auto& c : candidates) {
    std::size_t dist = std::min<std::size_t>(full_distance(word, c), 64);
    if (dist < best_d) {
      best_d = dist;
      best = c;
    }
  }
  std::size_t allowed = std::max<std::size_t>(2, std::max(word.size(), best.size()) / 3);
  return best_d <= allowed ? best : std::string();
}

}  // namespace

TEST(Spelling, suggestions_for_typos_of_real_fields) {
  std::vector<std::string> fields = {"container_image", "resources", "max_lifetime_seconds", "annotations", "tags"};
  EXPECT_EQ(sandgate::closest_match("container_imag", fields), "container_image");
  EXPECT_EQ(sandgate::closest_match("resorces", fields), "resources");
  EXPECT_EQ(sandgate::closest_match("tag", fields), "tags");
  EXPECT_EQ(sandgate::closest_match("completely_different", fields), "");
  EXPECT_EQ(sandgate::closest_match("x", {}), "");
}

TEST(Spelling, names_with_a_word_of_the_key) {
  using V = std::vector<std::string>;
  V fields = {"max_cpu", "min_cpu", "cpu_ceiling", "environment_variables", "runner_ids", "max_memory"};
  EXPECT_EQ(sandgate::names_with_words("cpu", fields), (V{"max_cpu", "min_cpu", "cpu_ceiling"}));
  EXPECT_EQ(sandgate::names_with_words("max_cpu_cpu", fields), (V{"max_cpu"}));  // every word, repeats too
  EXPECT_EQ(sandgate::names_with_words("variable", fields), (V{"environment_variables"}));  // singular
  EXPECT_EQ(sandgate::names_with_words("cpus", fields), (V{"max_cpu", "min_cpu", "cpu_ceiling"}));  // plural
  EXPECT_EQ(sandgate::names_with_words("maxes", fields), V{});  // "es" is not the plural matched
  EXPECT_EQ(sandgate::names_with_words("cpux", fields), V{});   // nor any letter but "s"
  EXPECT_EQ(sandgate::names_with_words("cpu_memory", fields), V{});  // no name has both
  EXPECT_EQ(sandgate::names_with_words("id", fields), V{});  // under 3 letters: too common
  EXPECT_EQ(sandgate::names_with_words("id", fields, 1), (V{"runner_ids"}));  // among few candidates
  EXPECT_EQ(sandgate::names_with_words("i", fields, 1), V{});  // still a whole word, or three letters of one
  // A word's first letters, three or more, stand for it; not fewer, not letters from its middle.
  EXPECT_EQ(sandgate::names_with_words("env", fields), (V{"environment_variables"}));
  EXPECT_EQ(sandgate::names_with_words("env_var", fields), (V{"environment_variables"}));
  EXPECT_EQ(sandgate::names_with_words("ceil", fields), (V{"cpu_ceiling"}));
  EXPECT_EQ(sandgate::names_with_words("en", fields), V{});
  EXPECT_EQ(sandgate::names_with_words("iron", fields), V{});
  EXPECT_EQ(sandgate::names_with_words("environmentx", fields), V{});  // longer than the word
  EXPECT_EQ(sandgate::names_with_words("_cpu__", fields), (V{"max_cpu", "min_cpu", "cpu_ceiling"}));
  EXPECT_EQ(sandgate::names_with_words("__", fields), V{});
  // Longer than any name: a pasted value, not read word by word (each word would be compared
  // with every name's words).
  std::string pasted;
  while (pasted.size() <= 64) pasted += "cpu_";
  EXPECT_EQ(sandgate::names_with_words(pasted, fields), V{});
  EXPECT_EQ(sandgate::names_with_words(pasted.substr(0, 63), fields), (V{"max_cpu", "min_cpu", "cpu_ceiling"}));
}

TEST(Spelling, durations_for_fields_counted_in_seconds) {
  EXPECT_EQ(sandgate::duration_seconds("90s"), 90);
  EXPECT_EQ(sandgate::duration_seconds("15m"), 900);
  EXPECT_EQ(sandgate::duration_seconds("1h"), 3600);
  EXPECT_EQ(sandgate::duration_seconds("2d"), 172800);
  EXPECT_EQ(sandgate::duration_seconds("9999999d"), 863999913600);  // 8 characters: the most read
  for (std::string_view t : {"", "h", "1", "1w", "1.5h", "-1h", "+1h", "1hh", "99999999d", " 1h"}) {
    EXPECT_FALSE(sandgate::duration_seconds(t)) << t;
  }
  EXPECT_EQ(sandgate::seconds_hint("max_lifetime_seconds", "\"2h\"", "2h"), "write the number of seconds: \"2h\" is 7200");
  EXPECT_EQ(sandgate::seconds_hint("defaultLifetimeSeconds", "\"1m\"", "1m"), "write the number of seconds: \"1m\" is 60");
  EXPECT_EQ(sandgate::seconds_hint("max_cpu", "\"2h\"", "2h"), "");
  EXPECT_EQ(sandgate::seconds_hint("timeout_seconds", "\"2x\"", "2x"), "");
}

TEST(Spelling, bounded_distance_agrees_with_the_full_one) {
  std::mt19937 rng(7);
  auto word = [&](std::size_t max_len) {
    std::string s(rng() % (max_len + 1), 'a');
    for (char& c : s) c = "abcdeAB_"[rng() % 8];
    return s;
  };
  for (int round = 0; round < 2000; ++round) {
    std::string a = word(12), b = word(12);
    std::size_t cap = 1 + rng() % 10;
    EXPECT_EQ(sandgate::edit_distance(a, b, cap), std::min(full_distance(a, b), cap)) << a << " / " << b << " cap " << cap;
    std::vector<std::string> candidates;
    for (std::size_t i = rng() % 8; i > 0; --i) candidates.push_back(word(14));
    EXPECT_EQ(sandgate::closest_match(a, candidates), full_closest(a, candidates)) << a;
  }
  // Longer words and caps past the band's width: the diagonal band must give the same values.
  for (int round = 0; round < 2000; ++round) {
    std::string a = word(60), b = word(60);
    std::size_t cap = 1 + rng() % 70;
    EXPECT_EQ(sandgate::edit_distance(a, b, cap), std::min(full_distance(a, b), cap)) << a << " / " << b << " cap " << cap;
    // Near-misses: b is a with a few edits, so small distances inside the band are exercised.
    std::string c = a;
    for (std::size_t e = rng() % 6; e > 0 && !c.empty(); --e) c.erase(rng() % c.size(), 1);
    for (std::size_t e = rng() % 4; e > 0; --e) c.insert(c.begin() + static_cast<long>(rng() % (c.size() + 1)), 'x');
    EXPECT_EQ(sandgate::edit_distance(a, c, cap), std::min(full_distance(a, c), cap)) << a << " / " << c << " cap " << cap;
    std::vector<std::string> candidates = {c};
    for (std::size_t i = rng() % 8; i > 0; --i) candidates.push_back(word(60));
    EXPECT_EQ(sandgate::closest_match(a, candidates), full_closest(a, candidates)) << a;
  }
}

TEST(Spelling, the_allowed_value_a_refused_one_meant) {
  using V = std::vector<std::string>;
  V classes = {"kata-qemu", "kata-clh", "gvisor"};
  EXPECT_EQ(sandgate::nearest_allowed(" Kata-Qemu\t", classes), "kata-qemu");  // case and spaces
  EXPECT_EQ(sandgate::nearest_allowed("kata-qemy", classes), "kata-qemu");     // a typo
  EXPECT_EQ(sandgate::nearest_allowed("gvisor.v2", classes), "gvisor");         // close enough already
  EXPECT_EQ(sandgate::nearest_allowed("kata", classes), "");                    // starts two: neither
  EXPECT_EQ(sandgate::nearest_allowed("kata", V{"kata-qemu", "gvisor"}), "kata-qemu");
  EXPECT_EQ(sandgate::nearest_allowed("kata", V{"kata_qemu"}), "kata_qemu");
  EXPECT_EQ(sandgate::nearest_allowed("kat", V{"kata.qemu.long"}), "");  // not at a separator
  EXPECT_EQ(sandgate::nearest_allowed("kata", V{"katarina"}), "");      // nor inside a word
  EXPECT_EQ(sandgate::nearest_allowed("runc", classes), "");
  EXPECT_EQ(sandgate::nearest_allowed("  ", classes), "");
  EXPECT_EQ(sandgate::nearest_allowed("x", V{}), "");
}

TEST(Spelling, whole_numbers_written_with_an_exponent) {
  EXPECT_EQ(sandgate::exponent_integer("36e2"), 3600);
  EXPECT_EQ(sandgate::exponent_integer("1.5E3"), 1500);
  EXPECT_EQ(sandgate::exponent_integer("+2e+1"), 20);
  EXPECT_EQ(sandgate::exponent_integer("-2e1"), -20);
  EXPECT_EQ(sandgate::exponent_integer("3600e-2"), 36);
  EXPECT_EQ(sandgate::exponent_integer("0e5"), 0);
  EXPECT_EQ(sandgate::exponent_integer("1e17"), 100000000000000000);  // 18 digits: the most written
  for (const char* t : {"1e-3", "1.25e1", "1e18", "1e", "e3", "1e+", "3600", "1.5", "1e3x", "1..5e3", "1e400", "", "-"}) {
    EXPECT_FALSE(sandgate::exponent_integer(t)) << t;
  }
  EXPECT_EQ(sandgate::exponent_hint("36e2"),
            "write 3600: YAML 1.1 readers such as PyYAML read 36e2 as a string (their floats need a point and a signed exponent)");
  EXPECT_EQ(sandgate::exponent_hint("2h"), "");
}
