// A map from names to values built once and then only read: a schema object's properties, looked
// up for every member of every input, twice (shaping, then the fast validity check).
// std::unordered_map hashed each key whole (murmur) and compared it through a bucket list: about a
// twentieth of compiling a request. Here the slot comes from a key's length and three of its bytes
// (the names of one object rarely share all four), found by linear probing in a table at most half
// full, and the key is compared once.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

namespace sandgate::schema {

template <typename V>
class NameMap {
 public:
  struct Entry {
    std::string_view key;
    V value;
  };

  // Adds `key` unless it is there already (as unordered_map::emplace). `key` must outlive the map.
  void emplace(std::string_view key, V value) {
    if (find(key)) return;
    entries_.push_back({key, value});
    if (entries_.size() * 2 > slots_.size()) {
      rehash(slots_.empty() ? 8 : slots_.size() * 2);
    } else {
      place(static_cast<std::uint32_t>(entries_.size()));
    }
  }

  const Entry* find(std::string_view key) const {
    if (slots_.empty()) return nullptr;
    const std::size_t mask = slots_.size() - 1;
    for (std::size_t i = slot_of(key) & mask;; i = (i + 1) & mask) {
      std::uint32_t at = slots_[i];
      if (at == 0) return nullptr;
      const Entry& e = entries_[at - 1];
      if (e.key == key) return &e;
    }
  }

  std::size_t size() const { return entries_.size(); }

 private:
  std::vector<Entry> entries_;
  std::vector<std::uint32_t> slots_;  // index + 1 into entries_, 0 for a free slot

  static std::size_t slot_of(std::string_view k) {
    if (k.empty()) return 0;
    auto byte = [&](std::size_t i) { return static_cast<std::size_t>(static_cast<unsigned char>(k[i])); };
    std::size_t h = k.size() * 0x9E3779B97F4A7C15ull;
    h ^= byte(0) | byte(k.size() / 2) << 8 | byte(k.size() - 1) << 16;
    return h ^ (h >> 29);
  }

  void place(std::uint32_t at) {
    const std::size_t mask = slots_.size() - 1;
    std::size_t i = slot_of(entries_[at - 1].key) & mask;
    while (slots_[i] != 0) i = (i + 1) & mask;
    slots_[i] = at;
  }

  void rehash(std::size_t size) {
    slots_.assign(size, 0);
    for (std::uint32_t at = 1; at <= entries_.size(); ++at) place(at);
  }
};

}  // namespace sandgate::schema
