// The sub-quadratic algorithms behind P-12 (find_covered_prefixes), R-ANN-2 (PrefixSet), R-NET
// (AddressSet) and R-VOL-1 (overlapping_paths), checked against the pairwise definitions they
// replace, on hand-picked and on random inputs.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "sandgate/engine.h"
#include "sandgate/policy.h"
#include "util/address_set.h"
#include "util/net.h"
#include "util/path_overlap.h"
#include "util/prefix_set.h"

using namespace sandgate;

namespace {

Prefix prefix(const std::string& text) {
  auto p = parse_prefix(text);
  EXPECT_EQ(p.problem, PrefixProblem::none) << text;
  return p.prefix;
}

// The old pairwise P-12: for each entry, the first entry (in list order) covering it, where an
// equal entry counts only when it comes earlier.
std::vector<CoveredPrefix> covered_pairwise(const std::vector<Prefix>& ps) {
  std::vector<CoveredPrefix> out;
  for (std::size_t a = 0; a < ps.size(); ++a) {
    for (std::size_t b = 0; b < ps.size(); ++b) {
      if (a == b) continue;
      bool equal = ps[a].covers(ps[b]) && ps[b].covers(ps[a]);
      if (ps[b].covers(ps[a]) && (!equal || b < a)) {
        out.push_back(CoveredPrefix{a, b});
        break;
      }
    }
  }
  return out;
}

std::string show(const std::vector<CoveredPrefix>& v) {
  std::string s;
  for (const auto& c : v) s += std::to_string(c.index) + "<" + std::to_string(c.by) + " ";
  return s;
}

// The old pairwise R-ANN-2, except that of nested matching entries the shortest is named.
std::optional<std::size_t> denied_linear(const std::vector<std::string>& entries, const std::string& key) {
  std::optional<std::size_t> best;
  for (std::size_t i = 0; i < entries.size(); ++i) {
    if (key.compare(0, entries[i].size(), entries[i]) != 0) continue;
    if (!best || entries[i].size() < entries[*best].size()) best = i;
  }
  return best;
}

}  // namespace

TEST(CoveredPrefixes, nested_equal_and_disjoint) {
  std::vector<Prefix> ps = {prefix("10.1.0.0/16"), prefix("10.0.0.0/8"), prefix("10.1.2.0/24"),
                            prefix("192.168.0.0/16"), prefix("10.1.0.0/16"), prefix("2001:db8::/32"),
                            prefix("2001:db8:1::/48"), prefix("0.0.0.0/0"), prefix("11.0.0.0/8")};
  // 10.1/16 (0) is covered by 10/8 (1) — but 0.0.0.0/0 (7) covers it too and the first in list
  // order is named: 1. The IPv6 entries are not covered by 0.0.0.0/0.
  auto got = find_covered_prefixes(ps);
  EXPECT_EQ(show(got), show(covered_pairwise(ps)));
  EXPECT_EQ(show(got), "0<1 1<7 2<0 3<7 4<0 6<5 8<7 ");
}

TEST(CoveredPrefixes, equal_entries_name_the_earlier_one) {
  std::vector<Prefix> ps = {prefix("10.0.0.0/8"), prefix("10.0.0.0/8"), prefix("10.0.0.0/8")};
  EXPECT_EQ(show(find_covered_prefixes(ps)), "1<0 2<0 ");
}

TEST(CoveredPrefixes, a_popped_level_does_not_hide_a_later_cover) {
  // 10.0/16 sorts between 10/8 and 10.1/16; it must not stop 10/8 from covering 10.1/16.
  std::vector<Prefix> ps = {prefix("10.1.0.0/16"), prefix("10.0.0.0/16"), prefix("10.0.0.0/8"), prefix("10.0.5.0/24")};
  EXPECT_EQ(show(find_covered_prefixes(ps)), show(covered_pairwise(ps)));
}

TEST(CoveredPrefixes, random_lists_agree_with_the_pairwise_definition) {
  std::mt19937 rng(12345);
  for (int round = 0; round < 300; ++round) {
    std::vector<Prefix> ps;
    std::size_t n = 1 + rng() % 60;
    for (std::size_t i = 0; i < n; ++i) {
      Prefix p;
      p.v6 = rng() % 4 == 0;
      // Few distinct leading bits, so that nesting and equal entries are common.
      p.addr[0] = static_cast<std::uint8_t>(10 + rng() % 2);
      p.addr[1] = static_cast<std::uint8_t>(rng() % 4);
      p.addr[2] = static_cast<std::uint8_t>(rng() % 2 ? 0 : rng() % 256);
      p.bits = static_cast<int>(rng() % 25) + (p.v6 ? static_cast<int>(rng() % 2) * 100 : 0);
      // Masked to its length, as every entry that reaches P-12's check is canonical.
      ParsedPrefix parsed = parse_prefix(format_prefix(p));
      ps.push_back(parsed.problem == PrefixProblem::none ? parsed.prefix : prefix(parsed.canonical));
    }
    ASSERT_EQ(show(find_covered_prefixes(ps)), show(covered_pairwise(ps))) << "round " << round;
  }
}

TEST(PrefixSet, the_shortest_matching_entry_is_found) {
  std::vector<std::string> entries = {"acme.io/x", "kubernetes.io/", "acme.io/", "b", "acme.io/", "zz/"};
  PrefixSet set(entries);
  EXPECT_EQ(set.size(), 4u);  // acme.io/x and the second acme.io/ are dropped
  auto hit = set.find("acme.io/xy");
  ASSERT_TRUE(hit);
  EXPECT_EQ(hit->prefix, "acme.io/");
  EXPECT_EQ(hit->index, 2u);  // the first occurrence
  EXPECT_FALSE(set.find("acme.i"));
  EXPECT_FALSE(set.find("a"));
  EXPECT_TRUE(set.find("b"));
  EXPECT_TRUE(set.find("bz/q"));
  EXPECT_FALSE(set.find("kubernetes.io"));
  EXPECT_TRUE(set.find("kubernetes.io/name"));
  EXPECT_TRUE(set.find("zz/"));
  EXPECT_FALSE(set.find("zz"));
  EXPECT_FALSE(set.find(""));
}

TEST(PrefixSet, the_empty_entry_is_a_prefix_of_every_key) {
  PrefixSet set(std::vector<std::string>{"x/", "", "a"});
  EXPECT_EQ(set.size(), 1u);
  for (const char* key : {"", "a", "x/y", "\xff"}) {
    auto hit = set.find(key);
    ASSERT_TRUE(hit) << key;
    EXPECT_EQ(hit->index, 1u);
  }
  EXPECT_FALSE(PrefixSet(std::vector<std::string>{}).find("a"));
}

TEST(PrefixSet, random_sets_agree_with_the_linear_scan) {
  std::mt19937 rng(777);
  auto word = [&](std::size_t max_len) {
    std::string s(rng() % (max_len + 1), 'a');
    for (auto& c : s) c = "ab/."[rng() % 4];
    return s;
  };
  for (int round = 0; round < 300; ++round) {
    std::vector<std::string> entries;
    std::size_t n = rng() % 30;
    for (std::size_t i = 0; i < n; ++i) entries.push_back(word(round % 7 == 0 ? 1 : 4));
    PrefixSet set(entries);
    for (int k = 0; k < 50; ++k) {
      std::string key = word(6);
      auto want = denied_linear(entries, key);
      auto got = set.find(key);
      ASSERT_EQ(bool(got), bool(want)) << "round " << round << " key " << key;
      if (got) {
        EXPECT_EQ(std::string(got->prefix), entries[*want]);
        // The first occurrence of that text in the list.
        std::size_t first = 0;
        while (entries[first] != entries[*want]) ++first;
        EXPECT_EQ(got->index, first);
      }
    }
  }
}

// P-12 through the public API: under the limit every problem is listed; over it, the first 100 of
// each code are listed and the rest counted at the first entry left out.
namespace {

std::string policy_with_cidrs(const std::vector<std::string>& cidrs) {
  std::string text = "control_plane_access:\n  source_ip_allowlist:\n    cidrs:\n";
  for (const auto& c : cidrs) text += "      - \"" + c + "\"\n";
  return text;
}

std::vector<const Diagnostic*> with_code(const Result& r, Code c) {
  std::vector<const Diagnostic*> out;
  for (const auto& d : r.diagnostics()) {
    if (d.code == c) out.push_back(&d);
  }
  return out;
}

}  // namespace

TEST(SourceIpAllowlist, under_the_limit_every_covered_entry_is_listed) {
  std::vector<std::string> cidrs = {"10.0.0.0/8"};
  for (int i = 0; i < 200; ++i) cidrs.push_back("10.0." + std::to_string(i) + ".0/24");
  cidrs.push_back("10.0.0.0/8");
  cidrs.push_back("10.0.0.1/8");
  Result r = validate_policy(policy_with_cidrs(cidrs), Format::yaml, "p.yaml");
  EXPECT_TRUE(with_code(r, Code::SOURCE_IP_TOO_MANY).empty());
  auto redundant = with_code(r, Code::SOURCE_IP_REDUNDANT);
  ASSERT_EQ(redundant.size(), 201u);
  EXPECT_EQ(redundant[0]->path, "/control_plane_access/source_ip_allowlist/cidrs/1");
  EXPECT_EQ(redundant[0]->message, "source IP prefix 10.0.0.0/24 is already covered by 10.0.0.0/8");
  EXPECT_EQ(redundant[200]->path, "/control_plane_access/source_ip_allowlist/cidrs/201");
  auto invalid = with_code(r, Code::SOURCE_IP_INVALID);
  ASSERT_EQ(invalid.size(), 1u);
  EXPECT_EQ(invalid[0]->path, "/control_plane_access/source_ip_allowlist/cidrs/202");
}

TEST(SourceIpAllowlist, over_the_limit_the_rest_are_counted) {
  std::vector<std::string> cidrs = {"10.0.0.0/8"};
  for (int i = 0; i < 250; ++i) cidrs.push_back("10.0." + std::to_string(i) + ".0/24");
  for (int i = 0; i < 150; ++i) cidrs.push_back("11.0." + std::to_string(i) + ".1/24");
  Result r = validate_policy(policy_with_cidrs(cidrs), Format::yaml, "p.yaml");
  EXPECT_FALSE(r.ok());
  auto many = with_code(r, Code::SOURCE_IP_TOO_MANY);
  ASSERT_EQ(many.size(), 1u);
  EXPECT_EQ(many[0]->message, "source_ip_allowlist has 401 CIDRs; at most 256 are accepted (250 of them are covered by other entries)");
  auto redundant = with_code(r, Code::SOURCE_IP_REDUNDANT);
  ASSERT_EQ(redundant.size(), 101u);
  EXPECT_EQ(redundant[99]->path, "/control_plane_access/source_ip_allowlist/cidrs/100");
  EXPECT_EQ(redundant[100]->path, "/control_plane_access/source_ip_allowlist/cidrs/101");
  EXPECT_EQ(redundant[100]->message,
            "150 more entries covered by another entry are not listed (the list is over its limit of 256); the first is "
            "\"10.0.100.0/24\"");
  auto invalid = with_code(r, Code::SOURCE_IP_INVALID);
  ASSERT_EQ(invalid.size(), 101u);
  EXPECT_EQ(invalid[100]->path, "/control_plane_access/source_ip_allowlist/cidrs/351");
  EXPECT_NE(invalid[100]->message.find("50 more entries that are not canonical"), std::string::npos) << invalid[100]->message;
}

// R-ANN-2 through the public API: the key is reported at its own path, naming the shortest
// denied prefix it starts with.
TEST(DeniedAnnotationPrefixes, nested_prefixes_name_the_shortest) {
  auto policy = Policy::parse("constraints:\n  metadata:\n    denied_annotation_prefixes: [\"acme.io/x\", \"acme.io/\", \"b.io/\"]\n",
                              Format::yaml, "p.yaml");
  ASSERT_TRUE(policy.ok());
  Engine engine(policy.policy);
  Document doc = load_document("annotations:\n  acme.io/xy: \"1\"\n  ok.io/a: \"2\"\n  b.io/c: \"3\"\n", Format::yaml, "s.yaml", "sandbox");
  Result r = engine.check(doc);
  auto denied = with_code(r, Code::ANNOTATION_DENIED_PREFIX);
  ASSERT_EQ(denied.size(), 2u);
  EXPECT_EQ(denied[0]->path, "/annotations/acme.io~1xy");
  EXPECT_EQ(denied[0]->message, "annotation key \"acme.io/xy\" starts with the denied prefix \"acme.io/\"");
  EXPECT_EQ(denied[1]->path, "/annotations/b.io~1c");
}

// R-NET's envelope as address intervals (util/address_set.h) against address-by-address truth.
namespace {

std::uint32_t v4_of(const Prefix& p) {
  return static_cast<std::uint32_t>(p.addr[0]) << 24 | static_cast<std::uint32_t>(p.addr[1]) << 16 |
         static_cast<std::uint32_t>(p.addr[2]) << 8 | p.addr[3];
}
bool v4_in(std::uint32_t a, const Prefix& p) {
  std::uint32_t mask = p.bits == 0 ? 0 : ~0u << (32 - p.bits);
  return (a & mask) == (v4_of(p) & mask);
}
Prefix random_v4(std::mt19937& rng, int min_bits, int max_bits) {
  Prefix p;
  p.bits = min_bits + static_cast<int>(rng() % static_cast<unsigned>(max_bits - min_bits + 1));
  std::uint32_t a = 0x0A000000u | (rng() & 0xFFFFu);  // inside 10.0.0.0/16
  a &= p.bits == 0 ? 0 : ~0u << (32 - p.bits);
  for (int i = 0; i < 4; ++i) p.addr[static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(a >> (24 - 8 * i));
  return p;
}

}  // namespace

TEST(AddressSet, random_envelopes_agree_with_every_address) {
  std::mt19937 rng(4242);
  int answers[2] = {0, 0};
  for (int round = 0; round < 100; ++round) {
    struct Range {
      Prefix p;
      std::vector<Prefix> except;
    };
    std::vector<Range> env(1 + rng() % 6);
    AddressSet set;
    for (auto& r : env) {
      r.p = random_v4(rng, 16, 22);
      for (std::size_t k = rng() % 4; k-- > 0;) r.except.push_back(random_v4(rng, 18, 26));
      set.add(r.p, r.except);
    }
    set.build();
    for (int q = 0; q < 20; ++q) {
      Prefix c = random_v4(rng, 22, 28);
      std::vector<Prefix> holes;
      for (std::size_t k = rng() % 3; k-- > 0;) holes.push_back(random_v4(rng, 22, 30));
      bool want = true;
      std::uint32_t first = v4_of(c), count = 1u << (32 - c.bits);
      for (std::uint32_t a = first; a < first + count && want; ++a) {
        bool hole = std::any_of(holes.begin(), holes.end(), [&](const Prefix& h) { return v4_in(a, h); });
        bool in = std::any_of(env.begin(), env.end(), [&](const Range& r) {
          return v4_in(a, r.p) && std::none_of(r.except.begin(), r.except.end(), [&](const Prefix& x) { return v4_in(a, x); });
        });
        want = hole || in;
      }
      ASSERT_EQ(set.covers(c, holes), want) << "round " << round << " query " << format_prefix(c);
      ++answers[want ? 1 : 0];
    }
  }
  EXPECT_GT(answers[0], 100);  // both answers are common, so the comparison means something
  EXPECT_GT(answers[1], 100);
}

TEST(AddressSet, families_and_whole_spaces) {
  AddressSet set;
  set.add(prefix("0.0.0.0/0"), {prefix("10.0.0.0/8")});
  set.add(prefix("2001:db8::/32"));
  set.add(prefix("2001:db9::/32"));  // adjacent: merged with the one before
  set.build();
  EXPECT_TRUE(set.covers(prefix("11.0.0.0/8")));
  EXPECT_FALSE(set.covers(prefix("10.1.0.0/16")));
  EXPECT_TRUE(set.covers(prefix("0.0.0.0/0"), {prefix("10.0.0.0/8")}));
  EXPECT_TRUE(set.covers(prefix("255.255.255.255/32")));
  EXPECT_TRUE(set.covers(prefix("2001:db8::/31")));
  EXPECT_FALSE(set.covers(prefix("2001:db8::/30")));
  EXPECT_FALSE(set.covers(prefix("::/0")));
  AddressSet all6;
  all6.add(prefix("::/0"));
  all6.build();
  EXPECT_TRUE(all6.covers(prefix("ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff/128")));
  EXPECT_FALSE(all6.covers(prefix("10.0.0.0/8")));
}

// R-VOL-1's files × mount paths (util/path_overlap.h) against the pairwise definition.
TEST(PathOverlap, random_paths_agree_with_every_pair) {
  std::mt19937 rng(99);
  auto path = [&]() {
    std::string p;
    for (std::size_t n = 1 + rng() % 3; n-- > 0;) p += std::string("/") + "ab"[rng() % 2] + (rng() % 3 ? "" : "b");
    if (rng() % 10 == 0) p += "/";
    return p;
  };
  for (int round = 0; round < 300; ++round) {
    std::vector<std::string> a_store, b_store;
    for (std::size_t n = rng() % 8; n-- > 0;) a_store.push_back(rng() % 9 ? path() : std::string());
    for (std::size_t n = rng() % 8; n-- > 0;) b_store.push_back(path());
    std::vector<std::string_view> a(a_store.begin(), a_store.end()), b(b_store.begin(), b_store.end());
    std::vector<std::pair<std::size_t, std::size_t>> want;
    for (std::size_t i = 0; i < a.size(); ++i) {
      if (a[i].empty() || std::find(a.begin(), a.begin() + static_cast<std::ptrdiff_t>(i), a[i]) != a.begin() + static_cast<std::ptrdiff_t>(i)) continue;
      for (std::size_t j = 0; j < b.size(); ++j) {
        if (b[j].empty() || std::find(b.begin(), b.begin() + static_cast<std::ptrdiff_t>(j), b[j]) != b.begin() + static_cast<std::ptrdiff_t>(j)) continue;
        if (path_under(a[i], b[j]) || path_under(b[j], a[i])) want.emplace_back(i, j);
      }
    }
    ASSERT_EQ(overlapping_paths(a, b), want) << "round " << round;
  }
}
