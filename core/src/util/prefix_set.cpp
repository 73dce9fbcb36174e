#include "util/prefix_set.h"

#include <algorithm>
#include <numeric>

namespace sandgate {
namespace {

bool starts_with(std::string_view s, std::string_view prefix) {
  return s.size() >= prefix.size() && s.compare(0, prefix.size(), prefix) == 0;
}

}  // namespace

PrefixSet::PrefixSet(const std::vector<std::string>& entries) {
  // Sort indices by (text, index): equal texts are then in list order, and every entry comes
  // after the entries that are its prefixes.
  std::vector<std::size_t> order(entries.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    int c = entries[a].compare(entries[b]);
    return c != 0 ? c < 0 : a < b;
  });
  // Sweep: an entry with a kept entry as prefix is dropped. The kept entries that are prefixes of
  // the current one can only be the last kept entry: a kept p <= q <= current with p a prefix of
  // current has p as a prefix of q too, so q would not have been kept unless q == p.
  for (std::size_t i : order) {
    const std::string& text = entries[i];
    if (!kept_.empty() && starts_with(text, kept_.back().text)) continue;
    kept_.push_back(Entry{text, i});
  }
}

std::optional<PrefixSet::Match> PrefixSet::find(std::string_view key) const {
  // The greatest kept entry <= key.
  auto it = std::upper_bound(kept_.begin(), kept_.end(), key,
                             [](std::string_view k, const Entry& e) { return k < std::string_view(e.text); });
  if (it == kept_.begin()) return std::nullopt;
  --it;
  if (!starts_with(key, it->text)) return std::nullopt;
  return Match{it->text, it->index};
}

}  // namespace sandgate
