// A set of IP addresses given as CIDR ranges minus carve-outs, kept as sorted, disjoint, maximal
// intervals (IPv4 and IPv6 apart), so that "is every address of this prefix, outside these holes,
// in the set?" costs O((holes + 1) · log n) instead of a pass over every range (R-NET: declared
// CIDR rules inside the policy's CIDR envelope).
#pragma once

#include <cstdint>
#include <tuple>
#include <vector>

#include "util/net.h"

namespace sandgate {

class AddressSet {
 public:
  // Adds every address of `range` except those of `except` (each carve-out applies to this range
  // only). Call build() after the last add().
  void add(const Prefix& range, const std::vector<Prefix>& except = {});
  void build();
  // Whether every address of `p` that is in no hole lies in the set.
  bool covers(const Prefix& p, const std::vector<Prefix>& holes = {}) const;

  struct Addr {
    bool v6 = false;
    std::uint64_t hi = 0, lo = 0;  // IPv4 uses lo's low 32 bits
    bool operator<(const Addr& o) const { return std::tie(v6, hi, lo) < std::tie(o.v6, o.hi, o.lo); }
    bool operator==(const Addr& o) const { return v6 == o.v6 && hi == o.hi && lo == o.lo; }
    bool operator<=(const Addr& o) const { return !(o < *this); }
  };
  struct Interval {
    Addr first, last;  // inclusive
  };

 private:
  std::vector<Interval> intervals_;
};

}  // namespace sandgate
