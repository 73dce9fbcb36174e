// Walking a shaped Node tree by canonical keys while keeping the input pointer for diagnostics.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "sandgate/node.h"
#include "sandgate/request.h"

namespace sandgate::model {

struct Cursor {
  const Node* node = nullptr;
  const Member* member = nullptr;
  std::string path;
  Layer layer = Layer::sandbox;  // for request values: the layer the value came from

  explicit operator bool() const { return node != nullptr; }
  Mark mark() const { return node && node->mark.known() ? node->mark : (member ? member->key_mark : Mark{}); }

  Cursor operator[](std::string_view key) const {
    Cursor c;
    if (!node || !node->is_object()) return c;
    const Member* m = node->find_member(key);
    if (!m) return c;
    c.node = &m->value;
    c.member = m;
    c.path = pointer_join(path, m->input_key());
    c.layer = layer;
    return c;
  }
  // The cursor of one of this object's members, found by reference: iterating a map and looking
  // each key up again by name would be quadratic.
  Cursor member_of(const Member& m) const {
    Cursor c;
    c.node = &m.value;
    c.member = &m;
    c.path = pointer_join(path, m.input_key());
    c.layer = layer;
    return c;
  }
  Cursor at(std::size_t i) const {
    Cursor c;
    if (!node || !node->is_array() || i >= node->items.size()) return c;
    c.node = &node->items[i];
    c.path = pointer_join(path, i);
    c.layer = layer;
    return c;
  }
  std::size_t size() const { return node && node->is_array() ? node->items.size() : 0; }

  // Typed reads that return the fallback for an absent or mistyped value (the schema has
  // reported a mistyped one already).
  std::string str(std::string fallback = {}) const { return node && node->is_string() ? node->text : fallback; }
  bool boolean(bool fallback = false) const { return node && node->is_bool() ? node->boolean : fallback; }
  std::int64_t integer(std::int64_t fallback = 0) const {
    return node && node->is_int() && !node->int_overflow ? node->integer : fallback;
  }
  bool is_int() const { return node && node->is_int() && !node->int_overflow; }
  std::vector<std::string> strings() const {
    std::vector<std::string> out;
    if (!node || !node->is_array()) return out;
    for (const auto& item : node->items) {
      if (item.is_string()) out.push_back(item.text);
    }
    return out;
  }
};

}  // namespace sandgate::model
