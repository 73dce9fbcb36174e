// Whether two trees are the same to the last bit: values (a NaN equals a NaN, -0.0 differs from
// 0.0), literals, styles and the marks of every value and key, which Node's operator== ignores.
// For the tests and fuzzers that hold two readers of one text to the same tree.
#pragma once

#include <cstring>
#include <string>

#include "sandgate/node.h"

namespace sandgate::detail {

// False with `why` saying where the first difference is (a JSON Pointer into `a`).
inline bool identical(const Node& a, const Node& b, std::string& why, const std::string& at = "") {
  auto mark = [](Mark m) { return std::to_string(m.line) + ":" + std::to_string(m.column); };
  if (a.kind != b.kind || a.style != b.style || a.int_overflow != b.int_overflow || a.yaml11_word != b.yaml11_word ||
      a.given_as != b.given_as || a.boolean != b.boolean || a.integer != b.integer ||
      std::memcmp(&a.number, &b.number, sizeof a.number) != 0 || a.text != b.text || a.items.size() != b.items.size() ||
      a.members.size() != b.members.size()) {
    why = at + ": the values differ";
    return false;
  }
  if (a.mark.line != b.mark.line || a.mark.column != b.mark.column) {
    why = at + ": marked " + mark(a.mark) + " and " + mark(b.mark);
    return false;
  }
  for (std::size_t i = 0; i < a.items.size(); ++i) {
    if (!identical(a.items[i], b.items[i], why, at + "/" + std::to_string(i))) return false;
  }
  for (std::size_t i = 0; i < a.members.size(); ++i) {
    const Member &x = a.members[i], &y = b.members[i];
    if (x.key != y.key || x.original_key != y.original_key || x.key_mark.line != y.key_mark.line ||
        x.key_mark.column != y.key_mark.column) {
      why = at + ": key \"" + x.key + "\" at " + mark(x.key_mark) + ", \"" + y.key + "\" at " + mark(y.key_mark);
      return false;
    }
    if (!identical(x.value, y.value, why, at + "/" + x.key)) return false;
  }
  return true;
}

}  // namespace sandgate::detail
