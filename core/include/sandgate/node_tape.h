// A Node tree without positions, written flat into one string: what a binding writes from a native
// value on the thread that may read it (Python's, under the GIL), for a worker to build the tree
// from. Building the tree on the worker means the worker also frees it later, on its own allocator
// arena (check_many on several threads); a tape costs one allocation to write and no parsing to
// read, where JSON text cost a tokenizer, an escaper and a validator. The layout is private to this
// process (host byte order) and is read only by node_from_tape.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "sandgate/node.h"

namespace sandgate {

// Appends to `out`. Each object() is followed by `members` pairs of key() and a value, each
// array() by `items` values: the counts come first, so the reader reserves exactly.
class NodeTapeWriter {
 public:
  explicit NodeTapeWriter(std::string& out) : out_(out) {}
  void null() { tag('n'); }
  void boolean(bool v) { tag(v ? 't' : 'f'); }
  void integer(std::int64_t v) {
    tag('i');
    raw(&v, sizeof v);
  }
  void number(double v) {
    tag('d');
    raw(&v, sizeof v);
  }
  void string(std::string_view s) {
    tag('s');
    bytes(s);
  }
  void object(std::uint32_t members) {
    tag('o');
    raw(&members, sizeof members);
  }
  void key(std::string_view k) { bytes(k); }
  void array(std::uint32_t items) {
    tag('a');
    raw(&items, sizeof items);
  }

 private:
  void tag(char t) { out_.push_back(t); }
  void raw(const void* p, std::size_t n) { out_.append(static_cast<const char*>(p), n); }
  void bytes(std::string_view s) {
    auto n = static_cast<std::uint32_t>(s.size());
    raw(&n, sizeof n);
    out_.append(s);
  }
  std::string& out_;
};

// The tree a NodeTapeWriter wrote: values as a binding's (ScalarStyle::native, no marks). A tape
// that ends early, holds an unknown tag or nests deeper than 64 yields what was read up to there,
// with nulls for the rest (tapes come from this process only, but reading one never fails).
Node node_from_tape(std::string_view tape);

}  // namespace sandgate
