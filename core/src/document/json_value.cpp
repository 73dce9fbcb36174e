// node_from_json_value (sandgate/json_value.h): RapidJSON's DOM, parsed in place, turned into a
// tree without positions. Unlike the text loader (json_loader.cpp) it reports nothing: whatever it
// cannot represent exactly as the binding's converter would, it refuses, and that converter
// reports it.
//
// Why a DOM and not SAX events, as the text loader: the loader needs each value's position, which
// only the events give; this reader needs none. With the DOM every object's and array's size is
// known before its children are built, so each child is made in place in a vector of the exact
// size; from events, children wait on scratch stacks and move into their container when it
// closes (a Member is 184 bytes). RapidJSON's DOM costs little in place: its strings point into
// the text, its values live in one pool, which starts in a buffer on the stack. On the README's
// prod-ok request from Node (callgrind, 1,000 Checker.check calls) the reader went from 25,000
// instructions a call to 17,000. RapidJSON's recursive parser, behind a scan bounding the depth,
// measured no faster than the iterative one, which needs no such scan.
#include "sandgate/json_value.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <string_view>
#include <unordered_set>

#include "util/rapidjson.h"

namespace sandgate {
namespace {

constexpr std::uint64_t k_two53 = std::uint64_t{1} << 53;

class TreeReader {
 public:
  TreeReader(const Limits& limits, bool escapes)
      : max_depth_(static_cast<std::size_t>(limits.max_depth / 2)),
        max_nodes_(limits.max_nodes / 2),
        unicode_escapes_(escapes) {}

  // `depth`: the containers around `v`. Recursion is bounded by the depth limit, checked before
  // each container is entered (the DOM itself was parsed iteratively, however deep the text).
  bool read(const rapidjson::Value& v, Node& out, std::size_t depth) {
    if (++nodes_ > max_nodes_) return false;
    switch (v.GetType()) {
      case rapidjson::kNullType: return true;
      case rapidjson::kFalseType:
      case rapidjson::kTrueType:
        out.kind = NodeKind::boolean;
        out.boolean = v.IsTrue();
        return true;
      case rapidjson::kNumberType: return number(v, out);
      case rapidjson::kStringType: {
        std::string_view text(v.GetString(), v.GetStringLength());
        if (!clean(text)) return false;
        out.kind = NodeKind::string;
        out.text.assign(text);
        return true;
      }
      case rapidjson::kArrayType: {
        if (depth >= max_depth_ || too_many(v.Size())) return false;
        out.kind = NodeKind::array;
        out.items.resize(v.Size());
        for (rapidjson::SizeType i = 0; i < v.Size(); ++i) {
          if (!read(v[i], out.items[i], depth + 1)) return false;
        }
        return true;
      }
      case rapidjson::kObjectType: return object(v, out, depth);
    }
    return false;
  }

 private:
  std::size_t max_depth_;
  std::size_t max_nodes_;
  bool unicode_escapes_;
  std::size_t nodes_ = 0;

  // Each child is a node: a container with more than the limit leaves is refused before room is
  // made for them (a 2 MB text can hold a million-item array).
  bool too_many(std::size_t children) const { return children > max_nodes_ - std::min(nodes_, max_nodes_); }

  // Integers that a double holds exactly stay as they are; the others round as a JS number does.
  // RapidJSON types a number by the first of int, uint, int64, uint64, double that holds it.
  bool number(const rapidjson::Value& v, Node& out) {
    if (v.IsInt64()) {
      std::int64_t i = v.GetInt64();
      if (i >= -static_cast<std::int64_t>(k_two53) && i <= static_cast<std::int64_t>(k_two53)) return integer(i, out);
      return real(static_cast<double>(i), out);
    }
    if (v.IsUint64()) return real(static_cast<double>(v.GetUint64()), out);  // past int64, so past 2^53
    return real(v.GetDouble(), out);
  }

  static bool integer(std::int64_t i, Node& out) {
    out.kind = NodeKind::integer;
    out.integer = i;
    return true;
  }

  // As the Node converter reads a JS number (bindings/node/src/js_to_node.cc, read_number).
  static bool real(double d, Node& out) {
    if (!std::isfinite(d)) return false;  // not from JSON text; refused rather than guessed
    if (std::trunc(d) != d) {
      out.kind = NodeKind::number;
      out.number = d;
      return true;
    }
    constexpr double k_two63 = 9223372036854775808.0;
    if (d >= -k_two63 && d < k_two63) return integer(static_cast<std::int64_t>(d), out);
    char buf[400];
    std::snprintf(buf, sizeof buf, "%.0f", d);
    integer(d < 0 ? std::numeric_limits<std::int64_t>::min() : std::numeric_limits<std::int64_t>::max(), out);
    out.int_overflow = true;
    out.text = buf;
    return true;
  }

  bool object(const rapidjson::Value& v, Node& out, std::size_t depth) {
    const rapidjson::SizeType count = v.MemberCount();
    if (depth >= max_depth_ || too_many(count)) return false;
    out.kind = NodeKind::object;
    out.members.reserve(count);
    // A linear scan for duplicates in small objects; a set past that, or an object of thousands
    // of members (a big annotations map) costs quadratic time. The keys are views of the text.
    constexpr rapidjson::SizeType k_linear = 16;
    std::unordered_set<std::string_view> keys;
    for (auto it = v.MemberBegin(); it != v.MemberEnd(); ++it) {
      std::string_view key(it->name.GetString(), it->name.GetStringLength());
      if (!clean(key)) return false;
      if (count <= k_linear) {
        for (const Member& m : out.members) {
          if (m.key == key) return false;
        }
      } else if (!keys.insert(key).second) {
        return false;
      }
      Member& m = out.members.emplace_back();
      m.key.assign(key);
      if (!read(it->value, m.value, depth + 1)) return false;
    }
    return true;
  }

  // The text is valid UTF-8 without NUL (checked first): only a \u escape can decode to a NUL or a
  // lone surrogate (RapidJSON writes a lone low surrogate as bytes that are not UTF-8).
  bool clean(std::string_view s) const {
    if (!unicode_escapes_) return true;
    bool is_nul = false;
    return find_invalid_utf8(s, is_nul) == std::string_view::npos;
  }
};


}  // namespace

std::optional<Node> node_from_json_value(std::string text, const Limits& limits) {
  return node_from_json_in_place(text.data(), text.size(), limits);
}

std::optional<Node> node_from_json_in_place(char* data, std::size_t size, const Limits& limits) {
  const std::string_view text(data, size);
  // The converter counts the bytes of strings and keys; the text is never shorter than those.
  if (text.size() > limits.max_bytes / 2) return std::nullopt;
  bool is_nul = false;
  if (find_invalid_utf8(text, is_nul) != std::string_view::npos) return std::nullopt;
  // Before the parse: decoding in place overwrites the escapes.
  TreeReader reader(limits, text.find("\\u") != std::string_view::npos);
  // Full precision: a double comes back exactly as the value's own (JSON.stringify writes the
  // shortest text that reads back as it). Iterative: no recursion, however the text nests. The
  // DOM's values and the parser's stack start in buffers here; only a large value takes memory
  // from the heap.
  constexpr unsigned k_flags = rapidjson::kParseInsituFlag | rapidjson::kParseIterativeFlag | rapidjson::kParseFullPrecisionFlag;
  using Pool = rapidjson::MemoryPoolAllocator<>;
  alignas(8) char values[4096], stack[1024];
  Pool value_pool(values, sizeof values), stack_pool(stack, sizeof stack);
  try {
    rapidjson::GenericDocument<rapidjson::UTF8<>, Pool, Pool> doc(&value_pool, sizeof stack / 2, &stack_pool);
    if (doc.ParseInsitu<k_flags>(data).HasParseError()) return std::nullopt;
    Node root;
    if (!reader.read(doc, root, 0)) return std::nullopt;
    return root;
  } catch (const std::exception&) {  // RapidJSON's assertion (util/rapidjson.h), or memory
    return std::nullopt;
  }
}

}  // namespace sandgate
