#include "util/address_set.h"

#include <algorithm>

namespace sandgate {
namespace {

using Addr = AddressSet::Addr;
using Interval = AddressSet::Interval;

Interval range_of(const Prefix& p) {
  std::uint64_t hi = 0, lo = 0;
  if (p.v6) {
    for (int i = 0; i < 8; ++i) hi = hi << 8 | p.addr[static_cast<std::size_t>(i)];
    for (int i = 8; i < 16; ++i) lo = lo << 8 | p.addr[static_cast<std::size_t>(i)];
  } else {
    for (int i = 0; i < 4; ++i) lo = lo << 8 | p.addr[static_cast<std::size_t>(i)];
  }
  // Host bits: the low (width - bits) bits of the 128- or 32-bit address.
  int host = p.width() - std::clamp(p.bits, 0, p.width());
  std::uint64_t host_lo = host >= 64 ? ~0ULL : (host == 0 ? 0 : (~0ULL >> (64 - host)));
  std::uint64_t host_hi = host > 64 ? (host >= 128 ? ~0ULL : ~0ULL >> (128 - host)) : 0;
  Interval r;
  r.first = Addr{p.v6, hi & ~host_hi, lo & ~host_lo};
  r.last = Addr{p.v6, hi | host_hi, lo | host_lo};
  if (!p.v6) r.last.lo &= 0xFFFFFFFFULL, r.first.lo &= 0xFFFFFFFFULL;
  return r;
}

bool is_max(const Addr& a) { return a.v6 ? a.hi == ~0ULL && a.lo == ~0ULL : a.lo == 0xFFFFFFFFULL; }
Addr next(Addr a) {  // a must not be the family's last address
  if (++a.lo == 0) ++a.hi;
  return a;
}
Addr prev(Addr a) {  // a must not be the family's first address
  if (a.lo-- == 0) --a.hi;
  return a;
}

// Sorts and merges overlapping or adjacent intervals (of one family at a time).
std::vector<Interval> merged(std::vector<Interval> v) {
  std::sort(v.begin(), v.end(), [](const Interval& a, const Interval& b) { return a.first < b.first; });
  std::vector<Interval> out;
  for (const auto& r : v) {
    if (!out.empty() && out.back().first.v6 == r.first.v6 &&
        (r.first <= out.back().last || (!is_max(out.back().last) && r.first == next(out.back().last)))) {
      if (out.back().last < r.last) out.back().last = r.last;
    } else {
      out.push_back(r);
    }
  }
  return out;
}

// `range` minus the (merged) intervals of `cuts`, appended to `out`.
void subtract(const Interval& range, const std::vector<Interval>& cuts, std::vector<Interval>& out) {
  Addr cursor = range.first;
  bool done = false;
  for (const auto& c : cuts) {
    if (c.last < cursor || range.last < c.first) continue;
    if (cursor < c.first) out.push_back(Interval{cursor, prev(c.first)});
    if (is_max(c.last) || !(c.last < range.last)) {
      done = true;
      break;
    }
    cursor = next(c.last);
  }
  if (!done) out.push_back(Interval{cursor, range.last});
}

}  // namespace

void AddressSet::add(const Prefix& range, const std::vector<Prefix>& except) {
  Interval r = range_of(range);
  if (except.empty()) {
    intervals_.push_back(r);
    return;
  }
  std::vector<Interval> cuts;
  for (const auto& x : except) {
    if (x.v6 == range.v6) cuts.push_back(range_of(x));
  }
  subtract(r, merged(std::move(cuts)), intervals_);
}

void AddressSet::build() { intervals_ = merged(std::move(intervals_)); }

bool AddressSet::covers(const Prefix& p, const std::vector<Prefix>& holes) const {
  std::vector<Interval> cuts;
  for (const auto& h : holes) {
    if (h.v6 == p.v6) cuts.push_back(range_of(h));
  }
  std::vector<Interval> pieces;
  subtract(range_of(p), merged(std::move(cuts)), pieces);
  for (const auto& piece : pieces) {
    // The interval that starts at or before the piece must reach past its end (intervals are
    // maximal, so one interval holds the piece or none does).
    auto it = std::upper_bound(intervals_.begin(), intervals_.end(), piece.first,
                               [](const Addr& a, const Interval& r) { return a < r.first; });
    if (it == intervals_.begin()) return false;
    --it;
    if (it->first.v6 != piece.first.v6 || it->last < piece.last) return false;
  }
  return true;
}

}  // namespace sandgate
