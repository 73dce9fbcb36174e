#include "util/path_overlap.h"

#include <algorithm>
#include <cstdint>
#include <unordered_map>

namespace sandgate {
namespace {

constexpr std::uint64_t k_base = 1099511628211ULL;  // any odd multiplier; collisions are checked

// Key of a prefix: its rolling hash and its length.
struct Key {
  std::uint64_t hash;
  std::size_t size;
  bool operator==(const Key& o) const { return hash == o.hash && size == o.size; }
};
struct KeyHash {
  std::size_t operator()(const Key& k) const { return static_cast<std::size_t>(k.hash ^ (k.size * 0x9E3779B97F4A7C15ULL)); }
};

std::uint64_t step(std::uint64_t h, char c) { return h * k_base + static_cast<unsigned char>(c) + 1; }

std::uint64_t hash_of(std::string_view s) {
  std::uint64_t h = 0;
  for (char c : s) h = step(h, c);
  return h;
}

// The first index of each distinct non-empty path of `list`, by key (several on a hash collision).
std::unordered_multimap<Key, std::size_t, KeyHash> index_of(const std::vector<std::string_view>& list) {
  std::unordered_multimap<Key, std::size_t, KeyHash> out;
  out.reserve(list.size());
  for (std::size_t i = 0; i < list.size(); ++i) {
    if (list[i].empty()) continue;
    Key k{hash_of(list[i]), list[i].size()};
    auto [lo, hi] = out.equal_range(k);
    bool repeat = std::any_of(lo, hi, [&](const auto& e) { return list[e.second] == list[i]; });
    if (!repeat) out.emplace(k, i);
  }
  return out;
}

// Calls found(i, j) for each first-of-its-path x[i] and each indexed y[j] that is x[i] itself
// (when `self`) or one of its ancestors.
template <class F>
void ancestors(const std::vector<std::string_view>& x, const std::unordered_multimap<Key, std::size_t, KeyHash>& x_index,
               const std::vector<std::string_view>& y, const std::unordered_multimap<Key, std::size_t, KeyHash>& y_index,
               bool self, F found) {
  for (const auto& [key, i] : x_index) {
    (void)key;
    std::string_view p = x[i];
    std::uint64_t h = 0;
    for (std::size_t k = 0; k <= p.size(); ++k) {
      bool boundary = k == p.size() ? self : p[k] == '/';
      if (boundary && k > 0) {
        auto [lo, hi] = y_index.equal_range(Key{h, k});
        for (auto it = lo; it != hi; ++it) {
          if (y[it->second] == p.substr(0, k)) found(i, it->second);
        }
      }
      if (k < p.size()) h = step(h, p[k]);
    }
  }
}

}  // namespace

bool path_under(std::string_view path, std::string_view root) {
  return path == root || (path.size() > root.size() && path.compare(0, root.size(), root) == 0 && path[root.size()] == '/');
}

std::vector<std::pair<std::size_t, std::size_t>> overlapping_paths(const std::vector<std::string_view>& a,
                                                                   const std::vector<std::string_view>& b) {
  auto a_index = index_of(a), b_index = index_of(b);
  std::vector<std::pair<std::size_t, std::size_t>> out;
  // b[j] is a[i] or an ancestor of it; then a[i] is a proper ancestor of b[j].
  ancestors(a, a_index, b, b_index, true, [&](std::size_t i, std::size_t j) { out.emplace_back(i, j); });
  ancestors(b, b_index, a, a_index, false, [&](std::size_t j, std::size_t i) { out.emplace_back(i, j); });
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace sandgate
