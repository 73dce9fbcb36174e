// Walking a shaped Node tree by canonical keys while keeping the input pointer for diagnostics.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "sandgate/node.h"
#include "sandgate/request.h"
#include "sandgate/small_vector.h"

namespace sandgate::model {

// The cursor's JSON Pointer is built only when asked for (a diagnostic or an Origin): most
// cursors are steps on the way to a value, and building every intermediate path cost a policy
// compile a fifth of its instructions. `base` is where the walk started; it must outlive the
// cursor (a policy's or a merged field's stored path, or a literal).
struct Cursor {
  struct Step {
    const Member* member;  // null for an array index
    std::size_t index;
  };

  const Node* node = nullptr;
  const Member* member = nullptr;
  std::string_view base;
  Layer layer = Layer::sandbox;  // for request values: the layer the value came from
  // The tree and `base` belong to the compiled model (a Policy's root, a request's merged
  // fields), which keeps them unchanged for as long as it lives: origins recorded from this cursor
  // may defer writing their pointer (origin_of, input_pointer.h).
  bool model_owned = false;
  SmallVector<Step, 7> steps;  // from `base` to here; deeper walks go to the heap

  // User-provided for the same reason as SmallVector's: `return {};` (an absent value, the most
  // common answer of a lookup) must not zero the 112-byte step buffer.
  Cursor() {}  // NOLINT(modernize-use-equals-default)
  Cursor(const Node* n, const Member* m, std::string_view start, Layer l = Layer::sandbox, bool owned = false)
      : node(n), member(m), base(start), layer(l), model_owned(owned) {}

  std::string path() const {
    std::size_t size = base.size();
    for (const Step& s : steps) size += 1 + (s.member ? s.member->input_key().size() : 20);
    std::string out;
    out.reserve(size);  // one allocation; a token with "~" or "/" to escape may add another
    out.append(base);
    for (const Step& s : steps) {
      if (s.member) {
        pointer_append(out, s.member->input_key());
      } else {
        pointer_append(out, s.index);
      }
    }
    return out;
  }

  explicit operator bool() const { return node != nullptr; }
  Mark mark() const { return node && node->mark.placed() ? node->mark : (member ? member->key_mark : Mark{}); }

  // One named result each (NRVO): an absent value's cursor is returned as it was made, not moved.
  Cursor operator[](std::string_view key) const {
    Cursor c;
    const Member* m = node && node->is_object() ? node->find_member(key) : nullptr;
    if (m) step_into(c, &m->value, m, {m, 0});
    return c;
  }
  // The cursor of one of this object's members, found by reference: iterating a map and looking
  // each key up again by name would be quadratic.
  Cursor member_of(const Member& m) const {
    Cursor c;
    step_into(c, &m.value, &m, {&m, 0});
    return c;
  }
  Cursor at(std::size_t i) const {
    Cursor c;
    if (node && node->is_array() && i < node->items.size()) step_into(c, &node->items[i], nullptr, {nullptr, i});
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

 private:
  // Makes `c` this cursor one step further, on `n` (from `base`, as this cursor started).
  void step_into(Cursor& c, const Node* n, const Member* m, Step step) const {
    c.node = n;
    c.member = m;
    c.base = base;
    c.layer = layer;
    c.model_owned = model_owned;
    c.steps = steps;
    c.steps.push_back(step);
  }
};

}  // namespace sandgate::model
