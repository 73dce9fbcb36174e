// Addresses and names in network rules: CIDR prefixes (canonical form, containment) and DNS names.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sandgate {

struct Prefix {
  bool v6 = false;
  std::array<std::uint8_t, 16> addr{};  // IPv4 uses the first 4 bytes
  int bits = 0;
  int width() const { return v6 ? 128 : 32; }
  // Whether every address of `other` is in this prefix (same family only).
  bool covers(const Prefix& other) const;
};

enum class PrefixProblem { none, syntax, not_canonical, ipv4_mapped };

struct ParsedPrefix {
  Prefix prefix;
  PrefixProblem problem = PrefixProblem::none;
  std::string canonical;  // the masked form, e.g. "10.0.0.0/8" for "10.1.2.3/8"
};

// Parses "a.b.c.d/n" or an IPv6 prefix. `problem` says why it is not acceptable in a policy.
ParsedPrefix parse_prefix(std::string_view text);
std::string format_prefix(const Prefix& p);

// The entries of a prefix list that another entry covers (P-12), in list order. For each, `by` is
// the entry to name: the first in list order among those that cover it, where an equal prefix
// counts only when it comes earlier (so of two equal entries the later one is reported).
// O(n log n): prefixes are nested or disjoint, so after a sort by (family, network address, length)
// every entry's covering entries are the chain of nested prefixes on a stack (see net.cpp).
struct CoveredPrefix {
  std::size_t index;
  std::size_t by;
};
std::vector<CoveredPrefix> find_covered_prefixes(const std::vector<Prefix>& prefixes);

// A DNS-1123 subdomain: lowercase labels [a-z0-9]([-a-z0-9]*[a-z0-9])? joined by dots, ≤ 253.
bool is_dns1123_subdomain(std::string_view s);
// A DNS-1123 label: [a-z0-9]([-a-z0-9]*[a-z0-9])?, ≤ 63.
bool is_dns1123_label(std::string_view s);

enum class HostnameForm { invalid, exact, wildcard, any };
// Classifies a hostname rule value (already lowercased): "pypi.org", "*.example.com", "*".
HostnameForm classify_hostname(std::string_view s);
// The host name in a URL-like text ("https://pypi.org/simple", "pypi.org:443", "user@pypi.org"),
// when the text is not a host name itself and what is left is an exact or wildcard one; else "".
std::string host_in_url(std::string_view s);
// The hint for a hostname rule value that holds more than a host name, or "".
std::string host_in_url_hint(std::string_view s);

}  // namespace sandgate
