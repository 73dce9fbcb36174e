// Which paths of one list overlap paths of another — one is the other or lies under it
// ("/a/b" is under "/a", not under "/a/b2") — without comparing every pair (R-VOL-1: mounted
// files × volume mount paths). O(total length + pairs found): each path's ancestors are the
// prefixes that end before a '/', looked up by a rolling hash of the prefix and its length.
#pragma once

#include <cstddef>
#include <string_view>
#include <utility>
#include <vector>

namespace sandgate {

// Whether `path` is `root` or lies under it.
bool path_under(std::string_view path, std::string_view root);

// Every pair (i, j) with a[i] under b[j] or b[j] under a[i], sorted. Empty paths never overlap.
// Of equal paths within one list only the first takes part (its repeats are a separate problem),
// so the pairs found are at most (the paths of a and b) × (their '/' count).
std::vector<std::pair<std::size_t, std::size_t>> overlapping_paths(const std::vector<std::string_view>& a,
                                                                   const std::vector<std::string_view>& b);

}  // namespace sandgate
