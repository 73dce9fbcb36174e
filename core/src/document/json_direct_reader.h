// One JSON value read in a single pass straight into a tree: strict RFC 8259 (no comments, no
// trailing commas, no NaN), refusing — false, the tree unspecified — whatever it cannot represent
// exactly as the reader behind it would: a duplicate key, a \u escape that decodes to a NUL or a
// lone surrogate, a number past the double range, the depth or node limit. Its two users:
//   - node_from_json_value (json_value.cpp): a binding's value as JSON.stringify wrote it, numbers
//     as JS holds them, no positions. Refused, the binding walks the value itself.
//   - load_json (json_loader.cpp): JSON text with positions and numbers as written. Refused, the
//     RapidJSON reader there reads the text again and reports what is wrong.
// Why not RapidJSON for both: its reader took a byte at a time through every string (its SIMD
// scan is compiled in only with flags that also make it read past the end of a buffer), and the
// DOM or the handler made each value twice. Here a string's end is found a word at a time (the
// scan of the JSON writers, util/json_writers.h) and each value is made once, in place.
// Recursive, bounded by the depth limit, checked before each container is entered. The text is
// valid UTF-8 (the caller checks it): a plain run of a string is copied as it is.
#pragma once

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include "document/line_index.h"
#include "document/scalar_resolver.h"
#include "sandgate/node.h"
#include "util/json_writers.h"

namespace sandgate::detail {

class JsonDirectReader {
 public:
  // Numbers as a JS value holds them (js_numbers: JSON.stringify's text of a binding's value) or
  // as their literals (the text loader's, resolve_json_number); positions from `lines`, or none.
  enum class Numbers : std::uint8_t { js, literal };
  JsonDirectReader(std::string_view text, std::size_t max_depth, std::size_t max_nodes, Numbers numbers,
                   const LineIndex* lines = nullptr)
      : begin_(text.data()),
        p_(text.data()),
        end_(text.data() + text.size()),
        max_depth_(std::min(max_depth, k_max_recursion)),
        max_nodes_(max_nodes),
        numbers_(numbers),
        lines_(lines) {}

  bool document(Node& root) {
    skip_space();
    if (!value(root, 0)) return false;
    skip_space();
    return p_ == end_;
  }

 private:
  const char* begin_;
  const char* p_;
  const char* end_;
  std::size_t max_depth_;
  std::size_t max_nodes_;
  Numbers numbers_;
  const LineIndex* lines_;
  std::size_t nodes_ = 0;

  Mark here() const { return lines_ ? lines_->at_offset(static_cast<std::size_t>(p_ - begin_)) : Mark{}; }

  // Room made when a container opens, before its size is known: growing from 1 by doubling moved
  // each member (184 bytes) about once. A request's root holds about a dozen fields, the objects
  // and arrays under it a few; a text of many one-member objects then takes at most twice the room
  // it needs, not eight times. An object that outgrows its two members jumps to eight (a record's
  // sandbox: growing 2 → 4 → 8 cost a stream record 900 of its 52,000 instructions); three
  // members in room for eight is the most that wastes.
  // Recursion stays shallow whatever depth limit a caller sets (`--max-depth` is the user's): a
  // deeper text is refused here and read by the caller's iterative reader (RapidJSON's, or the
  // binding's walk), which applies the limit itself.
  static constexpr std::size_t k_max_recursion = 256;
  static constexpr std::size_t k_root_room = 16;
  static constexpr std::size_t k_first_room = 2;
  static constexpr std::size_t k_second_room = 8;
  static std::size_t room(std::size_t depth) { return depth == 0 ? k_root_room : k_first_room; }

  void skip_space() {
    while (p_ != end_ && (*p_ == ' ' || *p_ == '\n' || *p_ == '\r' || *p_ == '\t')) ++p_;
  }

  bool take(char c) {
    skip_space();
    if (p_ == end_ || *p_ != c) return false;
    ++p_;
    return true;
  }

  // `depth`: the containers around the value.
  bool value(Node& out, std::size_t depth) {
    if (p_ == end_ || ++nodes_ > max_nodes_) return false;
    out.mark = here();
    switch (*p_) {
      case '{': return object(out, depth);
      case '[': return array(out, depth);
      case '"':
        out.kind = NodeKind::string;
        return string(out.text);
      case 't': return literal("true", out, NodeKind::boolean, true);
      case 'f': return literal("false", out, NodeKind::boolean, false);
      case 'n': return literal("null", out, NodeKind::null, false);
      default: return number(out);
    }
  }

  template <std::size_t N>
  bool literal(const char (&word)[N], Node& out, NodeKind kind, bool b) {
    constexpr std::size_t n = N - 1;
    if (static_cast<std::size_t>(end_ - p_) < n || std::memcmp(p_, word, n) != 0) return false;
    p_ += n;
    out.kind = kind;
    out.boolean = b;
    return true;
  }

  // Past a container's opening bracket: true when it closes at once (`[]`, `{}`).
  bool closes_at_once(char close) {
    skip_space();
    if (p_ == end_ || *p_ != close) return false;
    ++p_;
    return true;
  }

  bool array(Node& out, std::size_t depth) {
    if (depth >= max_depth_) return false;
    ++p_;
    out.kind = NodeKind::array;
    if (closes_at_once(']')) return true;
    out.items.reserve(room(depth));
    do {
      skip_space();
      if (!value(out.items.emplace_back(), depth + 1)) return false;
    } while (take(','));
    return p_ != end_ && *p_++ == ']';
  }

  bool object(Node& out, std::size_t depth) {
    if (depth >= max_depth_) return false;
    ++p_;
    out.kind = NodeKind::object;
    if (closes_at_once('}')) return true;
    out.members.reserve(room(depth));
    do {
      skip_space();
      if (p_ == end_ || *p_ != '"') return false;
      if (out.members.size() == k_first_room && out.members.capacity() == k_first_room) out.members.reserve(k_second_room);
      Member& m = out.members.emplace_back();
      m.key_mark = here();
      if (!string(m.key) || !take(':')) return false;
      skip_space();
      if (!value(m.value, depth + 1)) return false;
    } while (take(','));
    return p_ != end_ && *p_++ == '}' && unique_keys(out.members);
  }

  // A linear scan in small objects; sorted views past that, or an object of thousands of members
  // (a big annotations map) costs quadratic time.
  static bool unique_keys(const std::vector<Member>& members) {
    constexpr std::size_t k_linear = 16;
    if (members.size() <= k_linear) {
      for (std::size_t i = 1; i < members.size(); ++i) {
        for (std::size_t j = 0; j < i; ++j) {
          if (members[i].key == members[j].key) return false;
        }
      }
      return true;
    }
    std::vector<std::string_view> keys;
    keys.reserve(members.size());
    for (const Member& m : members) keys.push_back(m.key);
    std::sort(keys.begin(), keys.end());
    return std::adjacent_find(keys.begin(), keys.end()) == keys.end();
  }

  // At the opening quote. The text is valid UTF-8 (checked first): a plain run is copied as it is.
  bool string(std::string& out) {
    const char* start = ++p_;
    p_ += json_detail::first_special(p_, static_cast<std::size_t>(end_ - p_));
    if (p_ == end_) return false;
    if (*p_ == '"') {
      out.assign(start, p_);
      ++p_;
      return true;
    }
    out.assign(start, p_);
    return escaped(out);
  }

  // The rest of a string from its first escape (or control character, which JSON does not allow).
  bool escaped(std::string& out) {
    while (p_ != end_) {
      const auto c = static_cast<unsigned char>(*p_);
      if (c == '"') {
        ++p_;
        return true;
      }
      if (c < 0x20) return false;
      if (c != '\\') {
        const char* run = p_;
        p_ += json_detail::first_special(p_, static_cast<std::size_t>(end_ - p_));
        out.append(run, p_);
        continue;
      }
      if (++p_ == end_) return false;
      switch (*p_++) {
        case '"': out += '"'; break;
        case '\\': out += '\\'; break;
        case '/': out += '/'; break;
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'n': out += '\n'; break;
        case 'r': out += '\r'; break;
        case 't': out += '\t'; break;
        case 'u':
          if (!unicode_escape(out)) return false;
          break;
        default: return false;
      }
    }
    return false;
  }

  // After `\u`: one code point, or a surrogate pair as two escapes. A NUL or a lone surrogate is
  // refused: the converter reports a NUL, and reads a lone surrogate as U+FFFD.
  bool unicode_escape(std::string& out) {
    std::uint32_t cp = 0;
    if (!hex4(cp)) return false;
    if (cp >= 0xDC00 && cp <= 0xDFFF) return false;
    if (cp >= 0xD800 && cp <= 0xDBFF) {
      std::uint32_t low = 0;
      if (end_ - p_ < 2 || p_[0] != '\\' || p_[1] != 'u') return false;
      p_ += 2;
      if (!hex4(low) || low < 0xDC00 || low > 0xDFFF) return false;
      cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
    }
    if (cp == 0) return false;
    char buf[4];
    std::size_t n = 0;
    if (cp < 0x80) {
      buf[n++] = static_cast<char>(cp);
    } else if (cp < 0x800) {
      buf[n++] = static_cast<char>(0xC0 | (cp >> 6));
      buf[n++] = static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
      buf[n++] = static_cast<char>(0xE0 | (cp >> 12));
      buf[n++] = static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      buf[n++] = static_cast<char>(0x80 | (cp & 0x3F));
    } else {
      buf[n++] = static_cast<char>(0xF0 | (cp >> 18));
      buf[n++] = static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
      buf[n++] = static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      buf[n++] = static_cast<char>(0x80 | (cp & 0x3F));
    }
    out.append(buf, n);
    return true;
  }

  bool hex4(std::uint32_t& v) {
    if (end_ - p_ < 4) return false;
    for (int i = 0; i < 4; ++i) {
      const char c = *p_++;
      v <<= 4;
      if (c >= '0' && c <= '9') v |= static_cast<std::uint32_t>(c - '0');
      else if (c >= 'a' && c <= 'f') v |= static_cast<std::uint32_t>(c - 'a' + 10);
      else if (c >= 'A' && c <= 'F') v |= static_cast<std::uint32_t>(c - 'A' + 10);
      else return false;
    }
    return true;
  }

  static bool exponent_above(const char* from, const char* to, int limit) {
    int v = 0;
    for (const char* q = from; q != to; ++q) {
      v = v * 10 + (*q - '0');
      if (v > limit) return true;
    }
    return false;
  }

  bool digits() {
    const char* start = p_;
    while (p_ != end_ && *p_ >= '0' && *p_ <= '9') ++p_;
    return p_ != start;
  }

  // -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?. As JS numbers: the IEEE double a JS value
  // holds, a whole number within int64 exactly (then rounded past 2^53, as a double is), anything
  // else by a correctly rounded parse (std::from_chars), as RapidJSON's full-precision reader did.
  bool number(Node& out) {
    const char* start = p_;
    if (*p_ == '-') ++p_;
    if (p_ == end_) return false;
    if (*p_ == '0') {
      ++p_;
    } else if (!digits()) {
      return false;
    }
    bool whole = true;
    if (p_ != end_ && *p_ == '.') {
      ++p_;
      if (!digits()) return false;
      whole = false;
    }
    if (p_ != end_ && (*p_ == 'e' || *p_ == 'E')) {
      ++p_;
      const bool negative_exponent = p_ != end_ && *p_ == '-';
      if (p_ != end_ && (*p_ == '+' || *p_ == '-')) ++p_;
      const char* exponent = p_;
      if (!digits()) return false;
      whole = false;
      // RapidJSON refuses a positive exponent past 308 by its digits alone, whatever the
      // significand (0E400 too, which is 0): such a number is left to it, so that both readers
      // answer alike.
      if (!negative_exponent && exponent_above(exponent, p_, 308)) return false;
    }
    if (numbers_ == Numbers::literal) {
      // As the loader, which keeps the literal (exact past int64); what RapidJSON refuses as past
      // the double range is refused, and so, to be safe, is anything from_chars does not read.
      double d = 0;
      if (std::from_chars(start, p_, d).ec != std::errc()) return false;
      resolve_json_number(std::string_view(start, static_cast<std::size_t>(p_ - start)), out);
      return true;
    }
    if (whole) {
      std::int64_t i = 0;
      if (std::from_chars(start, p_, i).ec == std::errc()) {
        if (i >= -static_cast<std::int64_t>(k_two53) && i <= static_cast<std::int64_t>(k_two53)) return integer(i, out);
        return real(static_cast<double>(i), out);
      }
    }
    double d = 0;
    if (std::from_chars(start, p_, d).ec != std::errc()) return false;  // beyond the double range
    return real(d, out);
  }

  static constexpr std::uint64_t k_two53 = std::uint64_t{1} << 53;

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
};

}  // namespace sandgate::detail
