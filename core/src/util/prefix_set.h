// A set of string prefixes (denied annotation prefixes, R-ANN-2) that answers "which entry is a
// prefix of this key?" in O(log n · |key|) instead of comparing the key with every entry.
//
// Built once from a list: sorted, duplicates and every entry that has a shorter entry as prefix
// dropped, so no kept entry is a prefix of another. Then the only kept entry that can be a prefix
// of a key is the key's predecessor in sorted order (the greatest entry <= key): every string
// between a prefix p of the key and the key itself starts with p, so a second candidate would have
// p as a prefix and would have been dropped. "" is a prefix of every key.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sandgate {

class PrefixSet {
 public:
  PrefixSet() = default;
  explicit PrefixSet(const std::vector<std::string>& entries);

  struct Match {
    std::string_view prefix;  // the shortest entry that is a prefix of the key
    std::size_t index;        // where that entry is in the original list (its first occurrence)
  };
  // The entry the key starts with (plain, case-sensitive starts_with), if any. When several
  // entries are prefixes of the key they are nested; the shortest one is returned.
  std::optional<Match> find(std::string_view key) const;

  bool empty() const { return kept_.empty(); }
  std::size_t size() const { return kept_.size(); }  // entries kept (prefix-free)

 private:
  struct Entry {
    std::string text;
    std::size_t index;
  };
  std::vector<Entry> kept_;  // sorted by text, prefix-free
};

}  // namespace sandgate
