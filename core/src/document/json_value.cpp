// node_from_json_value (sandgate/json_value.h): RapidJSON's SAX reader building a tree without
// positions. Unlike the text loader (json_loader.cpp) it reports nothing: whatever it cannot
// represent exactly as the binding's converter would, it refuses, and that converter reports it.
#include "sandgate/json_value.h"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <iterator>
#include <limits>
#include <memory>
#include <unordered_set>

#include "util/rapidjson.h"

#include "document/node_stacks.h"

namespace sandgate {
namespace {

class ValueBuilder {
 public:
  ValueBuilder(const Limits& limits, bool escapes)
      : max_depth_(static_cast<std::size_t>(limits.max_depth / 2)),
        max_nodes_(limits.max_nodes / 2),
        unicode_escapes_(escapes) {
    stack_.reserve(8);
    members_.reserve(32);
    items_.reserve(16);
  }

  bool Null() { return scalar() != nullptr; }
  bool Bool(bool b) {
    Node* n = scalar();
    if (!n) return false;
    n->kind = NodeKind::boolean;
    n->boolean = b;
    return true;
  }
  // Integers that a double holds exactly stay as they are; the others round as a JS number does.
  bool Int(int i) { return integer(i); }
  bool Uint(unsigned u) { return integer(u); }
  bool Int64(std::int64_t i) { return exact(i) ? integer(i) : Double(static_cast<double>(i)); }
  bool Uint64(std::uint64_t u) {
    return u <= k_two53 ? integer(static_cast<std::int64_t>(u)) : Double(static_cast<double>(u));
  }
  // As the Node converter reads a JS number (bindings/node/src/js_to_node.cc, read_number).
  bool Double(double d) {
    Node* n = scalar();
    if (!n) return false;
    if (!std::isfinite(d)) return false;  // not from JSON text; refused rather than guessed
    if (std::trunc(d) != d) {
      *n = Node::make_number(d);
      return true;
    }
    constexpr double k_two63 = 9223372036854775808.0;
    if (d >= -k_two63 && d < k_two63) {
      *n = Node::make_int(static_cast<std::int64_t>(d));
      return true;
    }
    char buf[400];
    std::snprintf(buf, sizeof buf, "%.0f", d);
    *n = Node::make_int(d < 0 ? std::numeric_limits<std::int64_t>::min() : std::numeric_limits<std::int64_t>::max());
    n->int_overflow = true;
    n->text = buf;
    return true;
  }
  bool RawNumber(const char*, rapidjson::SizeType, bool) { return false; }  // not asked for
  bool String(const char* s, rapidjson::SizeType len, bool) {
    std::string_view text(s, len);
    if (!clean(text)) return false;
    Node* n = scalar();
    if (!n) return false;
    n->kind = NodeKind::string;
    n->text.assign(text);
    return true;
  }
  bool StartObject() { return open(NodeKind::object); }
  bool Key(const char* s, rapidjson::SizeType len, bool) {
    std::string_view key(s, len);
    if (!clean(key) || duplicate(key)) return false;
    stack_.back().key.assign(key);
    return true;
  }
  bool EndObject(rapidjson::SizeType) { return close(); }
  bool StartArray() { return open(NodeKind::array); }
  bool EndArray(rapidjson::SizeType) { return close(); }

  Node take_root() { return std::move(root_); }

 private:
  static constexpr std::uint64_t k_two53 = std::uint64_t{1} << 53;

  // An open container; its children collect on the scratch stacks and move into a vector of the
  // exact size when it closes (as json_loader.cpp does, for the same reason).
  struct Frame {
    Node node;
    std::size_t first = 0;
    std::string key;
    std::unique_ptr<std::unordered_set<std::string>> keys;  // past k_linear keys only: most objects never need one
  };

  std::size_t max_depth_;
  std::size_t max_nodes_;
  bool unicode_escapes_;
  std::size_t nodes_ = 0;
  std::vector<Frame> stack_;
  std::vector<Node> items_;
  std::vector<Member> members_;
  Node root_;

  static bool exact(std::int64_t i) { return i >= -static_cast<std::int64_t>(k_two53) && i <= static_cast<std::int64_t>(k_two53); }

  bool integer(std::int64_t i) {
    Node* n = scalar();
    if (!n) return false;
    *n = Node::make_int(i);
    return true;
  }

  // The text is valid UTF-8 without NUL (checked first): only a \u escape can decode to a NUL or a
  // lone surrogate (RapidJSON writes a lone low surrogate as bytes that are not UTF-8).
  bool clean(std::string_view s) const {
    if (!unicode_escapes_) return true;
    bool is_nul = false;
    return find_invalid_utf8(s, is_nul) == std::string_view::npos;
  }

  // A linear scan for small objects; a set past that, or an object of thousands of members (a big
  // annotations map) costs quadratic time.
  bool duplicate(std::string_view key) {
    constexpr std::size_t k_linear = 16;
    Frame& f = stack_.back();
    if (members_.size() - f.first < k_linear) {
      for (std::size_t i = f.first; i < members_.size(); ++i) {
        if (members_[i].key == key) return true;
      }
      return false;
    }
    if (!f.keys) {
      f.keys = std::make_unique<std::unordered_set<std::string>>();
      for (std::size_t i = f.first; i < members_.size(); ++i) f.keys->insert(members_[i].key);
    }
    return !f.keys->emplace(key).second;
  }

  Node* scalar() {
    if (++nodes_ > max_nodes_) return nullptr;
    return &slot();
  }

  bool open(NodeKind kind) {
    if (stack_.size() >= max_depth_ || ++nodes_ > max_nodes_) return false;
    Frame& f = stack_.emplace_back();
    f.node.kind = kind;
    f.first = kind == NodeKind::array ? items_.size() : members_.size();
    return true;
  }

  bool close() {
    Node node = detail::close_top(stack_, items_, members_);
    slot() = std::move(node);
    return true;
  }

  Node& slot() {
    if (stack_.empty()) return root_;
    Frame& f = stack_.back();
    if (f.node.is_array()) return items_.emplace_back();
    Member& m = members_.emplace_back();
    m.key = std::move(f.key);
    return m.value;
  }
};

}  // namespace

std::optional<Node> node_from_json_value(std::string text, const Limits& limits) {
  // The converter counts the bytes of strings and keys; the text is never shorter than those.
  if (text.size() > limits.max_bytes / 2) return std::nullopt;
  bool is_nul = false;
  if (find_invalid_utf8(text, is_nul) != std::string_view::npos) return std::nullopt;
  ValueBuilder builder(limits, text.find("\\u") != std::string::npos);
  rapidjson::InsituStringStream stream(text.data());
  rapidjson::Reader reader;
  // Full precision: a double comes back exactly as the value's own (JSON.stringify writes the
  // shortest text that reads back as it). Iterative: no recursion, however the text nests.
  constexpr unsigned k_flags = rapidjson::kParseInsituFlag | rapidjson::kParseIterativeFlag | rapidjson::kParseFullPrecisionFlag;
  try {
    if (reader.Parse<k_flags>(stream, builder).IsError()) return std::nullopt;
  } catch (const std::exception&) {  // RapidJSON's assertion (util/rapidjson.h)
    return std::nullopt;
  }
  return builder.take_root();
}

}  // namespace sandgate
