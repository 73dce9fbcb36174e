#include "util/net.h"

#include <algorithm>
#include <charconv>
#include <numeric>
#include <vector>

#include "util/text.h"

namespace sandgate {
namespace {

bool parse_decimal(std::string_view s, int max, int& out) {
  if (s.empty() || s.size() > 3) return false;
  if (s.size() > 1 && s[0] == '0') return false;  // no leading zeros (netip rejects them too)
  int v = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
    v = v * 10 + (c - '0');
  }
  if (v > max) return false;
  out = v;
  return true;
}

bool parse_ipv4(std::string_view s, std::uint8_t* out) {
  for (int i = 0; i < 4; ++i) {
    auto dot = s.find('.');
    std::string_view part = i < 3 ? s.substr(0, dot) : s;
    if (i < 3 && dot == std::string_view::npos) return false;
    int v = 0;
    if (!parse_decimal(part, 255, v)) return false;
    out[i] = static_cast<std::uint8_t>(v);
    if (i < 3) s.remove_prefix(dot + 1);
  }
  return true;
}

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

bool parse_ipv6(std::string_view s, std::uint8_t* out) {
  std::vector<std::uint16_t> head, tail;
  bool gap = false;
  auto dbl = s.find("::");
  if (dbl != std::string_view::npos && s.find("::", dbl + 1) != std::string_view::npos) return false;
  auto parse_groups = [&](std::string_view part, std::vector<std::uint16_t>& groups, bool allow_v4) -> bool {
    if (part.empty()) return true;
    std::size_t start = 0;
    while (true) {
      auto colon = part.find(':', start);
      std::string_view g = part.substr(start, colon == std::string_view::npos ? std::string_view::npos : colon - start);
      if (colon == std::string_view::npos && allow_v4 && g.find('.') != std::string_view::npos) {
        std::uint8_t v4[4];
        if (!parse_ipv4(g, v4)) return false;
        groups.push_back(static_cast<std::uint16_t>(v4[0] << 8 | v4[1]));
        groups.push_back(static_cast<std::uint16_t>(v4[2] << 8 | v4[3]));
        return true;
      }
      if (g.empty() || g.size() > 4) return false;
      unsigned v = 0;
      for (char c : g) {
        int h = hex_value(c);
        if (h < 0) return false;
        v = v * 16 + static_cast<unsigned>(h);
      }
      groups.push_back(static_cast<std::uint16_t>(v));
      if (colon == std::string_view::npos) return true;
      start = colon + 1;
    }
  };
  if (dbl != std::string_view::npos) {
    gap = true;
    if (!parse_groups(s.substr(0, dbl), head, false)) return false;
    if (!parse_groups(s.substr(dbl + 2), tail, true)) return false;
  } else {
    if (!parse_groups(s, head, true)) return false;
  }
  std::size_t total = head.size() + tail.size();
  if (gap ? total > 7 : total != 8) return false;
  std::vector<std::uint16_t> groups = head;
  groups.resize(8 - tail.size(), 0);
  groups.insert(groups.end(), tail.begin(), tail.end());
  for (int i = 0; i < 8; ++i) {
    out[2 * i] = static_cast<std::uint8_t>(groups[static_cast<std::size_t>(i)] >> 8);
    out[2 * i + 1] = static_cast<std::uint8_t>(groups[static_cast<std::size_t>(i)] & 0xFF);
  }
  return true;
}

Prefix masked(Prefix p) {
  for (int i = 0; i < 16; ++i) {
    int keep = p.bits - i * 8;
    if (keep >= 8) continue;
    if (keep <= 0) {
      p.addr[static_cast<std::size_t>(i)] = 0;
    } else {
      p.addr[static_cast<std::size_t>(i)] &= static_cast<std::uint8_t>(0xFF << (8 - keep));
    }
  }
  return p;
}

}  // namespace

bool Prefix::covers(const Prefix& other) const {
  if (v6 != other.v6 || other.bits < bits) return false;
  Prefix a = masked(*this);
  Prefix b = other;
  b.bits = bits;
  b = masked(b);
  return a.addr == b.addr;
}

std::vector<CoveredPrefix> find_covered_prefixes(const std::vector<Prefix>& prefixes) {
  constexpr std::size_t k_none = static_cast<std::size_t>(-1);
  std::vector<Prefix> net(prefixes.size());
  for (std::size_t i = 0; i < prefixes.size(); ++i) net[i] = masked(prefixes[i]);
  // Sorted by (family, network address, length, list position): a prefix comes before every
  // prefix it covers, and equal prefixes are adjacent, in list order.
  std::vector<std::size_t> order(net.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    const Prefix &pa = net[a], &pb = net[b];
    if (pa.v6 != pb.v6) return !pa.v6;
    if (pa.addr != pb.addr) return pa.addr < pb.addr;
    if (pa.bits != pb.bits) return pa.bits < pb.bits;
    return a < b;
  });
  // The stack holds the chain of nested distinct prefixes that covers the current one; each level
  // keeps the first list position among its own entries and those of every level below it.
  struct Level {
    std::size_t at;     // a position in `net` holding this level's prefix
    std::size_t first;  // the smallest list position in this level and the levels below
  };
  std::vector<Level> stack;
  std::vector<CoveredPrefix> out;
  for (std::size_t k = 0; k < order.size();) {
    const Prefix& p = net[order[k]];
    std::size_t end = k + 1;
    while (end < order.size() && net[order[end]].v6 == p.v6 && net[order[end]].bits == p.bits &&
           net[order[end]].addr == p.addr) {
      ++end;
    }
    // A level that does not cover p covers nothing after it either: whatever it covers sorts
    // between it and the first prefix past its range.
    while (!stack.empty() && !net[stack.back().at].covers(p)) stack.pop_back();
    std::size_t below = stack.empty() ? k_none : stack.back().first;
    std::size_t group_first = order[k];  // equal entries are in list order
    for (std::size_t j = k; j < end; ++j) {
      std::size_t by = std::min(below, j == k ? k_none : group_first);
      if (by != k_none) out.push_back(CoveredPrefix{order[j], by});
    }
    stack.push_back(Level{order[k], std::min(below, group_first)});
    k = end;
  }
  std::sort(out.begin(), out.end(), [](const CoveredPrefix& a, const CoveredPrefix& b) { return a.index < b.index; });
  return out;
}

// std::to_chars rather than snprintf: a policy formats every CIDR it reads, and snprintf's format
// parsing was 8 % of compiling one.
std::string format_prefix(const Prefix& p) {
  char buf[64];
  if (!p.v6) {
    std::string out;
    out.reserve(18);  // "255.255.255.255/32"
    for (std::size_t i = 0; i < 4; ++i) {
      if (i) out += '.';
      out.append(buf, std::to_chars(buf, buf + sizeof buf, p.addr[i]).ptr);
    }
    out += '/';
    out.append(buf, std::to_chars(buf, buf + sizeof buf, p.bits).ptr);
    return out;
  }
  // RFC 5952: lowercase, longest run (≥ 2) of zero groups compressed.
  std::array<unsigned, 8> g{};
  for (int i = 0; i < 8; ++i) g[static_cast<std::size_t>(i)] = static_cast<unsigned>(p.addr[static_cast<std::size_t>(2 * i)] << 8 | p.addr[static_cast<std::size_t>(2 * i + 1)]);
  int best = -1, best_len = 0;
  for (int i = 0; i < 8;) {
    if (g[static_cast<std::size_t>(i)] != 0) {
      ++i;
      continue;
    }
    int j = i;
    while (j < 8 && g[static_cast<std::size_t>(j)] == 0) ++j;
    if (j - i > best_len && j - i >= 2) {
      best = i;
      best_len = j - i;
    }
    i = j;
  }
  std::string out;
  for (int i = 0; i < 8; ++i) {
    if (i == best) {
      out += "::";
      i += best_len - 1;
      continue;
    }
    if (!out.empty() && out.back() != ':') out += ':';
    out.append(buf, std::to_chars(buf, buf + sizeof buf, g[static_cast<std::size_t>(i)], 16).ptr);
  }
  return out + "/" + std::to_string(p.bits);
}

ParsedPrefix parse_prefix(std::string_view text) {
  ParsedPrefix r;
  auto slash = text.find('/');
  if (slash == std::string_view::npos) {
    r.problem = PrefixProblem::syntax;
    return r;
  }
  std::string_view addr = text.substr(0, slash);
  std::string_view bits = text.substr(slash + 1);
  bool v6 = addr.find(':') != std::string_view::npos;
  r.prefix.v6 = v6;
  bool ok = v6 ? parse_ipv6(addr, r.prefix.addr.data()) : parse_ipv4(addr, r.prefix.addr.data());
  int b = 0;
  if (!ok || !parse_decimal(bits, v6 ? 128 : 32, b)) {
    r.problem = PrefixProblem::syntax;
    return r;
  }
  r.prefix.bits = b;
  if (v6) {
    bool mapped = true;
    for (int i = 0; i < 10; ++i) mapped = mapped && r.prefix.addr[static_cast<std::size_t>(i)] == 0;
    mapped = mapped && r.prefix.addr[10] == 0xFF && r.prefix.addr[11] == 0xFF;
    // Go's Is4In6: ::ffff:0:0/96 however it is spelled (::ffff:1.2.3.4 and ::ffff:102:304 alike);
    // ::ff00:1.2.3.4 or 1::ffff:1.2.3.4 written with an IPv4 tail is not one.
    if (mapped) {
      r.problem = PrefixProblem::ipv4_mapped;
      return r;
    }
  }
  Prefix m = masked(r.prefix);
  r.canonical = format_prefix(m);
  if (m.addr != r.prefix.addr) r.problem = PrefixProblem::not_canonical;
  return r;
}

bool is_dns1123_label(std::string_view s) {
  if (s.empty() || s.size() > 63) return false;
  auto alnum = [](char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); };
  if (!alnum(s.front()) || !alnum(s.back())) return false;
  for (char c : s) {
    if (!alnum(c) && c != '-') return false;
  }
  return true;
}

bool is_dns1123_subdomain(std::string_view s) {
  if (s.empty() || s.size() > 253) return false;
  std::size_t start = 0;
  while (true) {
    auto dot = s.find('.', start);
    std::string_view label = s.substr(start, dot == std::string_view::npos ? std::string_view::npos : dot - start);
    // Kubernetes' IsDNS1123Subdomain checks the overall pattern, not the 63-character label cap.
    if (label.empty()) return false;
    auto alnum = [](char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); };
    if (!alnum(label.front()) || !alnum(label.back())) return false;
    for (char c : label) {
      if (!alnum(c) && c != '-') return false;
    }
    if (dot == std::string_view::npos) return true;
    start = dot + 1;
  }
}

HostnameForm classify_hostname(std::string_view s) {
  if (s == "*") return HostnameForm::any;
  if (s.size() > 2 && s[0] == '*' && s[1] == '.') {
    return s.size() <= 253 && is_dns1123_subdomain(s.substr(2)) ? HostnameForm::wildcard : HostnameForm::invalid;
  }
  return is_dns1123_subdomain(s) ? HostnameForm::exact : HostnameForm::invalid;
}

namespace {

// The authority of a URL-like text: without the scheme, the path, query and fragment.
std::string_view authority(std::string_view s) {
  if (auto p = s.find("://"); p != std::string_view::npos) s = s.substr(p + 3);
  s = s.substr(0, s.find_first_of("/?#"));
  if (auto at = s.rfind('@'); at != std::string_view::npos) s = s.substr(at + 1);
  return s;
}

}  // namespace

std::string host_in_url(std::string_view s) {
  std::string_view t = authority(s);
  t = t.substr(0, t.rfind(':'));
  std::string host = ascii_lower(t);
  HostnameForm form = classify_hostname(host);
  if (t.size() == s.size() || (form != HostnameForm::exact && form != HostnameForm::wildcard)) return {};
  return host;
}

std::string host_in_url_hint(std::string_view s) {
  std::string host = host_in_url(s);
  if (host.empty()) return {};
  bool port = authority(s).find(':') != std::string_view::npos;
  return "write the host name alone: " + quoted(host) + (port ? "; a port goes in ports" : "");
}

}  // namespace sandgate
