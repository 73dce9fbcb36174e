// CIDR and hostname syntax in network rules (SPEC P-7, P-8, P-12). A CIDR is read as Go's
// netip.ParsePrefix reads it (the provider's check, reference/coreweave-policy-model.md §2): no
// leading zeros, exactly four IPv4 octets, IPv6 groups of at most four hex digits in either case,
// one `::` standing for at least one zero group, an IPv4 tail only at the end; canonical means
// `prefix.Masked() == prefix`; IPv4-mapped IPv6 (::ffff:a.b.c.d) is refused. The canonical text
// shown in hints is RFC 5952's.
#include <gtest/gtest.h>

#include <string>

#include "util/net.h"

using namespace sandgate;

namespace {

const char* problem_name(PrefixProblem p) {
  switch (p) {
    case PrefixProblem::none: return "none";
    case PrefixProblem::syntax: return "syntax";
    case PrefixProblem::not_canonical: return "not_canonical";
    case PrefixProblem::ipv4_mapped: return "ipv4_mapped";
  }
  return "?";
}

}  // namespace

TEST(CidrSyntax, prefixes_read_as_netip_reads_them) {
  struct Case {
    const char* text;
    const char* problem;
  };
  const Case cases[] = {
      {"10.0.0.0/8", "none"},
      {"0.0.0.0/0", "none"},
      {"255.255.255.255/32", "none"},
      {"010.0.0.0/8", "syntax"},       // leading zero in an octet
      {"10.0.0.0/08", "syntax"},       // leading zero in the length
      {"10.0.0.0/33", "syntax"},
      {"10.0.0/8", "syntax"},          // three octets
      {"10.0.0.0.0/8", "syntax"},      // five octets
      {"10.0.0.0", "syntax"},          // no length
      {"10.0.0.0/", "syntax"},         // an empty length
      {"10..0.0/8", "syntax"},         // an empty octet
      {"1a.0.0.0/8", "syntax"},        // a letter in an octet
      {"10.0.0.0/3a", "syntax"},       // a letter in the length
      {"1000.0.0.0/8", "syntax"},      // four digits
      {"10.192.0.0/9", "not_canonical"},
      {"10.128.0.0/9", "none"},
      {"10.0.0.1/8", "not_canonical"},
      {"2001:db8::/32", "none"},
      {"2001:DB8::/32", "none"},       // netip takes either case
      {"::/0", "none"},
      {"1:2:3:4:5:6:7:8/128", "none"},
      {"1:2:3:4:5:6:7/128", "syntax"},      // seven groups, no ::
      {"1:2:3:4:5:6::7/128", "none"},       // seven groups, :: standing for one
      {"1:2:3:4:5:6:7:8:g/128", "syntax"},  // a bad ninth group after eight good ones
      {"A::/16", "none"},                   // the ends of the uppercase hex digits
      {"F::/16", "none"},
      {"G::/16", "syntax"},
      {"g::/16", "syntax"},
      {"::g/128", "syntax"},
      {"1::g/128", "syntax"},
      {"::1.2.3.256/128", "syntax"},        // a bad IPv4 tail
      {"1:2:3:4::5:6:7:8/128", "syntax"},   // :: must stand for at least one group
      {"1::2::3/128", "syntax"},            // two ::
      {"2001:0db80::/32", "syntax"},        // five hex digits
      {"2001:db8::/129", "syntax"},
      {"::1.2.3.4/128", "none"},            // an IPv4 tail, not IPv4-mapped
      {"1.2.3.4::/128", "syntax"},          // an IPv4 part before ::
      {"::ffff:10.0.0.0/104", "ipv4_mapped"},
      {"::ffff:a00:0/104", "ipv4_mapped"},  // the same address in hex groups
      {"0:0:0:0:0:ffff:a00:0/104", "ipv4_mapped"},
      {"::fffe:a00:0/104", "none"},
      {"0:0:0:0:1:ffff:a00:0/128", "none"},  // a non-zero group before ffff: not mapped
      {"::ff00:1.2.3.4/128", "none"},         // an IPv4 tail after ff00, not ffff: not mapped (Is4In6)
      {"1::ffff:1.2.3.4/128", "none"},        // ffff after a non-zero group, spelled with a tail
      {"1::ffff:102:304/128", "none"},        // the same address in hex groups
      {"2001:db8::1/32", "not_canonical"},
  };
  for (const Case& c : cases) EXPECT_STREQ(problem_name(parse_prefix(c.text).problem), c.problem) << c.text;
}

// The canonical form a hint offers: the masked prefix, IPv6 in RFC 5952 text (lowercase, the
// longest run of two or more zero groups as ::, the first of equal runs, a single zero group kept).
TEST(CidrSyntax, the_canonical_text_is_masked_and_rfc5952) {
  struct Case {
    const char* text;
    const char* canonical;
  };
  const Case cases[] = {
      {"10.1.2.3/8", "10.0.0.0/8"},
      {"10.200.0.0/9", "10.128.0.0/9"},
      {"2001:DB8::1/32", "2001:db8::/32"},
      {"2001:db8:0:1:1:1:1:1/128", "2001:db8:0:1:1:1:1:1/128"},
      {"2001:db8:0:0:1:0:0:1/128", "2001:db8::1:0:0:1/128"},
      {"2001:0:0:1:0:0:0:1/128", "2001:0:0:1::1/128"},
      {"1:0:0:0:0:0:0:0/128", "1::/128"},
      {"0:0:0:0:0:0:0:1/128", "::1/128"},
      {"::/0", "::/0"},
  };
  for (const Case& c : cases) {
    ParsedPrefix p = parse_prefix(c.text);
    ASSERT_NE(p.problem, PrefixProblem::syntax) << c.text;
    EXPECT_EQ(p.canonical, c.canonical) << c.text;
  }
}

namespace {

// A valid DNS-1123 subdomain of exactly `n` characters: labels of up to 63 letters joined by dots.
std::string subdomain(std::size_t n) {
  std::string s;
  while (s.size() < n) {
    if (!s.empty()) s += '.';
    std::size_t label = std::min<std::size_t>(63, n - s.size());
    if (label > 1 && n - s.size() - label == 1) --label;  // never leave a lone dot at the end
    s.append(label, static_cast<char>('a' + s.size() % 26));
  }
  return s;
}

}  // namespace

// Kubernetes' IsDNS1123Label / IsDNS1123Subdomain / IsWildcardDNS1123Subdomain: a label is
// [a-z0-9]([-a-z0-9]*[a-z0-9])? of at most 63 characters; a subdomain is labels joined by dots, at
// most 253 characters in all; a wildcard is `*.` and a subdomain, at most 253 characters with the
// `*.`; `*` alone is "any name" (SPEC P-8).
TEST(HostnameSyntax, labels_subdomains_and_wildcards_follow_kubernetes) {
  EXPECT_TRUE(is_dns1123_label(std::string(63, 'a')));
  EXPECT_FALSE(is_dns1123_label(std::string(64, 'a')));
  EXPECT_TRUE(is_dns1123_label("a-1"));
  EXPECT_TRUE(is_dns1123_label("z-0"));  // the ends of both character ranges
  EXPECT_TRUE(is_dns1123_label("9"));
  for (const char* bad : {"", "-a", "a-", "A", "a_b", "a.b"}) EXPECT_FALSE(is_dns1123_label(bad)) << bad;

  ASSERT_EQ(subdomain(253).size(), 253u);
  EXPECT_TRUE(is_dns1123_subdomain(subdomain(253)));
  ASSERT_EQ(subdomain(254).size(), 254u);
  EXPECT_FALSE(is_dns1123_subdomain(subdomain(254)));
  EXPECT_TRUE(is_dns1123_subdomain("a-b.c"));
  EXPECT_TRUE(is_dns1123_subdomain("0.9"));  // labels that are digits alone, at both ends
  for (const char* bad : {"", "a..b", ".a", "a.", "a-.b", "a.-b", "a_b.c", "A.b"}) {
    EXPECT_FALSE(is_dns1123_subdomain(bad)) << bad;
  }

  EXPECT_EQ(classify_hostname("*"), HostnameForm::any);
  EXPECT_EQ(classify_hostname("pypi.org"), HostnameForm::exact);
  EXPECT_EQ(classify_hostname("*.pypi.org"), HostnameForm::wildcard);
  EXPECT_EQ(classify_hostname("*.a"), HostnameForm::wildcard);
  EXPECT_EQ(classify_hostname("*." + subdomain(251)), HostnameForm::wildcard);
  EXPECT_EQ(classify_hostname("*." + subdomain(252)), HostnameForm::invalid);
  for (const char* bad : {"*.", "**", "*a.b", "a.*.b", "a.*", "*.*.b"}) {
    EXPECT_EQ(classify_hostname(bad), HostnameForm::invalid) << bad;
  }
}

TEST(HostnameSyntax, the_host_name_in_a_url_for_a_hint) {
  EXPECT_EQ(host_in_url("https://pypi.org"), "pypi.org");
  EXPECT_EQ(host_in_url("https://PyPI.org/simple?x=1#y"), "pypi.org");
  EXPECT_EQ(host_in_url("pypi.org:443"), "pypi.org");
  EXPECT_EQ(host_in_url("pypi.org/simple"), "pypi.org");
  EXPECT_EQ(host_in_url("https://user:pw@*.example.com:8443/x"), "*.example.com");
  // A host name already, or nothing usable left: no hint.
  for (const char* none : {"pypi.org", "*.example.com", "*", "https://", "https://*", "http://[::1]:80", "bad host",
                           "https://bad host/x", ""}) {
    EXPECT_EQ(host_in_url(none), "") << none;
  }
  EXPECT_EQ(host_in_url_hint("https://pypi.org/simple"), "write the host name alone: \"pypi.org\"");
  EXPECT_EQ(host_in_url_hint("pypi.org:443"), "write the host name alone: \"pypi.org\"; a port goes in ports");
  EXPECT_EQ(host_in_url_hint("https://pypi.org/a:b"), "write the host name alone: \"pypi.org\"");  // not a port
  EXPECT_EQ(host_in_url_hint("bad host"), "");
}
