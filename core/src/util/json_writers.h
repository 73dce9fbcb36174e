// RapidJSON's Writer and PrettyWriter over a StringBuffer, with strings written in one go.
//
// RapidJSON writes a string a character at a time, each looked up in its escape table and
// transcoded (its SIMD scan is compiled in only with RAPIDJSON_SSE2/SSE42, which also turn on the
// reader's aligned loads past the end of the text: ASan and valgrind report those), and puts each
// separator with a call of its own. Writing strings that way was half of turning a result into
// JSON text. The output here is byte for byte what RapidJSON writes (tests/cpp compares them).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

#include "util/rapidjson.h"

namespace sandgate {
namespace json_detail {

// RapidJSON's escape table, without kWriteValidateEncodingFlag (bytes ≥ 0x80 are copied as they
// are): a control character, `"` or `\`.
inline bool needs_escape(unsigned char c) { return c < 0x20 || c == '"' || c == '\\'; }

// Whether some byte of the word `w` needs an escape: bytes below 0x20 (only lanes without the high
// bit can be), `"` and `\`. Exact about the word (a borrow may flag a further lane, never a word
// without a match).
inline bool word_needs_escape(std::uint64_t w) {
  constexpr std::uint64_t ones = 0x0101010101010101ULL, highs = 0x8080808080808080ULL;
  auto has_zero = [](std::uint64_t v) { return ((v - ones) & ~v & highs) != 0; };
  return (((w - 0x20 * ones) & ~w & highs) != 0) || has_zero(w ^ (0x22 * ones)) || has_zero(w ^ (0x5C * ones));
}

// How many bytes at the start of `s` need no escape: `n` when none does; otherwise at most the
// position of the first that does (the start of its 8-byte word, or of the tail). Eight bytes at a
// time; the tail of a string of 8 or more is the word that ends it (its bytes before the tail are
// clean), and a string of 4 to 7 is two overlapping 4-byte reads: most keys, codes and paths are
// short, and a byte at a time was most of the scan.
inline std::size_t plain_prefix(const char* s, std::size_t n) {
  std::size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    std::uint64_t w;
    std::memcpy(&w, s + i, 8);
    if (word_needs_escape(w)) return i;
  }
  if (i == n) return n;
  std::uint64_t w;
  if (n >= 8) {
    std::memcpy(&w, s + n - 8, 8);
  } else if (n >= 4) {
    std::uint32_t lo, hi;
    std::memcpy(&lo, s, 4);
    std::memcpy(&hi, s + n - 4, 4);
    w = lo | (std::uint64_t{hi} << 32);
  } else {
    for (; i < n; ++i) {
      if (needs_escape(static_cast<unsigned char>(s[i]))) return i;
    }
    return n;
  }
  return word_needs_escape(w) ? i : n;
}

inline bool needs_no_escape(const char* s, std::size_t n) { return plain_prefix(s, n) == n; }

// The position of the first byte of `s` that needs an escape (a quote, a backslash or a control
// character: what ends a plain run of JSON string text), or `n`: eight bytes at a time, the byte
// found in its word by the lowest flagged lane (exact: a borrow only flags lanes above a match).
inline std::size_t first_special(const char* s, std::size_t n) {
  constexpr std::uint64_t ones = 0x0101010101010101ULL, highs = 0x8080808080808080ULL;
  auto zero_lanes = [](std::uint64_t v) { return (v - ones) & ~v & highs; };
  std::size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    std::uint64_t w;
    std::memcpy(&w, s + i, 8);
    const std::uint64_t m = ((w - 0x20 * ones) & ~w & highs) | zero_lanes(w ^ (0x22 * ones)) | zero_lanes(w ^ (0x5C * ones));
    if (m != 0) return i + static_cast<std::size_t>(__builtin_ctzll(m) >> 3);
  }
  for (; i < n; ++i) {
    if (needs_escape(static_cast<unsigned char>(s[i]))) return i;
  }
  return n;
}

// Writes `s` quoted into `out`, which has room for escaped_room(n) characters, escaping exactly
// as RapidJSON's Writer does (its table: \" \\ \b \t \n \f \r, any other control character as
// \u00XX in upper-case hex; bytes ≥ 0x80 as they are); returns the end. The first `plain` bytes
// are known to need no escape (plain_prefix), and the runs between escapes are found a word at a
// time and copied in one go: messages quote the values they name, and RapidJSON's own writer,
// which took them a character at a time, was a fifth of writing a diagnostic.
inline constexpr std::size_t escaped_room(std::size_t n) { return n * 6 + 2; }
inline char* put_escaped(char* out, const char* s, std::size_t n, std::size_t plain) {
  static constexpr char hex[] = "0123456789ABCDEF";
  *out++ = '"';
  std::size_t run = 0;  // start of the characters not yet copied
  std::size_t i = plain;
  while (true) {
    // plain_prefix stops at most 8 bytes before the next escape; the bytes between are read one by one.
    i += plain_prefix(s + i, n - i);
    while (i < n && !needs_escape(static_cast<unsigned char>(s[i]))) ++i;
    std::memcpy(out, s + run, i - run);
    out += i - run;
    if (i == n) break;
    const auto c = static_cast<unsigned char>(s[i]);
    run = ++i;
    *out++ = '\\';
    switch (c) {
      case '"': *out++ = '"'; break;
      case '\\': *out++ = '\\'; break;
      case '\b': *out++ = 'b'; break;
      case '\t': *out++ = 't'; break;
      case '\n': *out++ = 'n'; break;
      case '\f': *out++ = 'f'; break;
      case '\r': *out++ = 'r'; break;
      default:
        *out++ = 'u';
        *out++ = '0';
        *out++ = '0';
        *out++ = hex[c >> 4];
        *out++ = hex[c & 15];
    }
  }
  *out++ = '"';
  return out;
}

// A key given as a string literal. The constructor runs when the code compiles (consteval): a
// pointer or a runtime array does not compile, and neither does a literal with a character that
// would need escaping or an embedded NUL, so the writer may copy it as it is.
struct KeyName {
  template <std::size_t N>
  consteval KeyName(const char (&s)[N]) : data(s), size(N - 1) {  // NOLINT: converts implicitly
    for (std::size_t i = 0; i < size; ++i) {
      auto c = static_cast<unsigned char>(s[i]);
      if (c < 0x20 || c == '"' || c == '\\') throw "a key literal must need no escape";
    }
    if (s[size] != '\0') throw "a key literal ends with its NUL";
  }
  const char* data;
  std::size_t size;
};

}  // namespace json_detail

// RapidJSON's writer `Base` over a StringBuffer, with strings written in one reservation: the
// separator RapidJSON's Prefix would put, then the quoted string, copied in one go when nothing
// needs escaping (nearly every key, code, path and message) and escaped in runs otherwise. Keys
// written as literals (the field names) skip the length and escape scans. `Pretty` says which
// RapidJSON writer `Base` is (PrettyWriter's prefix is its own: indentation).
template <typename Base, bool Pretty>
class FastStringWriter : public Base {
 public:
  using Base::Base;
  bool String(const char* s, rapidjson::SizeType n, bool = false) {
    const std::size_t plain = json_detail::plain_prefix(s, n);
    if (plain == n) {
      put_plain(s, n);
    } else {
      const char sep = separator();
      rapidjson::StringBuffer& os = *this->os_;
      const std::size_t room = (sep ? 1 : 0) + json_detail::escaped_room(n);
      char* const start = os.Push(room);
      char* out = start;
      if (sep) *out++ = sep;
      out = json_detail::put_escaped(out, s, n, plain);
      os.Pop(room - static_cast<std::size_t>(out - start));
    }
    return end_value();
  }
  bool String(const char* s) { return String(s, static_cast<rapidjson::SizeType>(std::strlen(s))); }
  bool Key(const char* s, rapidjson::SizeType n, bool copy = false) { return String(s, n, copy); }
  // A key written as a literal (sandgate's own field names): its length and that it needs no
  // escape are known when it compiles.
  bool Key(json_detail::KeyName k) {
    put_plain(k.data, k.size);
    return end_value();
  }

 private:
  using Level = typename Base::Level;

  void put_plain(const char* s, std::size_t n) {
    const char sep = separator();
    char* out = this->os_->Push((sep ? 1 : 0) + n + 2);
    if (sep) *out++ = sep;
    *out++ = '"';
    if (n) std::memcpy(out, s, n);
    out[n] = '"';
  }

  // RapidJSON's Prefix for a string, but returning the separator to write (or 0) instead of
  // putting it in a call of its own. PrettyWriter writes its prefix itself (new lines, indent).
  char separator() {
    if constexpr (Pretty) {
      this->PrettyPrefix(rapidjson::kStringType);
      return 0;
    } else {
      if (this->level_stack_.GetSize() == 0) {
        this->hasRoot_ = true;
        return 0;
      }
      Level* level = this->level_stack_.template Top<Level>();
      const std::size_t count = level->valueCount++;
      if (count == 0) return 0;
      return level->inArray || count % 2 == 0 ? ',' : ':';
    }
  }

  bool end_value() {
    if constexpr (Pretty) {
      return true;  // PrettyWriter::String does not end the value either
    } else {
      return this->EndValue(true);
    }
  }
};

template <typename OS>
using JsonWriter = FastStringWriter<rapidjson::Writer<OS>, false>;
template <typename OS>
using PrettyJsonWriter = FastStringWriter<rapidjson::PrettyWriter<OS>, true>;

// A string value written in one go, whatever the writer; an empty one as null where a field's
// "not given" is the empty string.
template <typename W>
void write_string(W& w, std::string_view s) {
  w.String(s.data(), static_cast<rapidjson::SizeType>(s.size()));
}

template <typename W>
void write_string_or_null(W& w, std::string_view s) {
  if (s.empty()) {
    w.Null();
  } else {
    write_string(w, s);
  }
}

}  // namespace sandgate
