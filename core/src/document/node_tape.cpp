// Reading a NodeTapeWriter's tape back into a tree, with every container reserved to its size.
#include "sandgate/node_tape.h"

#include <cstring>

namespace sandgate {
namespace {

// The document limit's depth (Limits::max_depth is 64); writers stay within half of it.
constexpr int k_max_depth = 64;

class TapeReader {
 public:
  explicit TapeReader(std::string_view tape) : p_(tape.data()), end_(tape.data() + tape.size()) {}

  Node value(int depth = 0) {
    if (p_ == end_) return Node::make_null();
    if (depth > k_max_depth) {  // no writer of ours nests this deep: stop rather than recurse on
      p_ = end_;
      return Node::make_null();
    }
    switch (*p_++) {
      case 'n': return Node::make_null();
      case 't': return Node::make_bool(true);
      case 'f': return Node::make_bool(false);
      case 'i': {
        std::int64_t v = 0;
        return fixed(&v, sizeof v) ? Node::make_int(v) : Node::make_null();
      }
      case 'd': {
        double v = 0;
        return fixed(&v, sizeof v) ? Node::make_number(v) : Node::make_null();
      }
      case 's': return Node::make_string(std::string(bytes()));
      case 'o': {
        std::uint32_t n = count();
        Node obj = Node::make_object();
        obj.members.reserve(n);
        for (std::uint32_t i = 0; i < n && p_ != end_; ++i) {
          std::string key(bytes());
          obj.add(std::move(key), value(depth + 1));
        }
        return obj;
      }
      case 'a': {
        std::uint32_t n = count();
        Node arr = Node::make_array();
        arr.items.reserve(n);
        for (std::uint32_t i = 0; i < n && p_ != end_; ++i) arr.items.push_back(value(depth + 1));
        return arr;
      }
      default: p_ = end_; return Node::make_null();
    }
  }

 private:
  const char* p_;
  const char* end_;

  bool fixed(void* out, std::size_t n) {
    if (static_cast<std::size_t>(end_ - p_) < n) {
      p_ = end_;
      return false;
    }
    std::memcpy(out, p_, n);
    p_ += n;
    return true;
  }
  std::uint32_t count() {
    std::uint32_t n = 0;
    if (!fixed(&n, sizeof n)) return 0;
    // Every member or item takes at least one byte: a count past what is left is no tape of ours.
    return n <= static_cast<std::size_t>(end_ - p_) ? n : 0;
  }
  std::string_view bytes() {
    std::uint32_t n = 0;
    if (!fixed(&n, sizeof n) || n > static_cast<std::size_t>(end_ - p_)) {
      p_ = end_;
      return {};
    }
    std::string_view s(p_, n);
    p_ += n;
    return s;
  }
};

}  // namespace

Node node_from_tape(std::string_view tape) { return TapeReader(tape).value(); }

}  // namespace sandgate
