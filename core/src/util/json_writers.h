// RapidJSON's Writer and PrettyWriter, with strings that need no escape copied in one go.
//
// RapidJSON writes a string a character at a time, each looked up in its escape table and
// transcoded (its SIMD scan is compiled in only with RAPIDJSON_SSE2/SSE42, which also turn on the
// reader's aligned loads past the end of the text: ASan and valgrind report those). Nearly every
// string sandgate writes (keys, codes, paths, messages) has nothing to escape, and writing them
// was half of turning a result into JSON text. A string with something to escape (a control
// character, `"` or `\`) still goes through RapidJSON's own code, so the output is byte for byte
// what RapidJSON writes.
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "util/rapidjson.h"

namespace sandgate {
namespace json_detail {

// RapidJSON's escape table, without kWriteValidateEncodingFlag (bytes ≥ 0x80 are copied as they
// are): a control character, `"` or `\`. Eight bytes at a time: the word tests say exactly
// whether some byte matches (a borrow may flag a further lane, never a word without a match).
inline bool needs_no_escape(const char* s, std::size_t n) {
  constexpr std::uint64_t ones = 0x0101010101010101ULL, highs = 0x8080808080808080ULL;
  auto has_zero = [](std::uint64_t v) { return ((v - ones) & ~v & highs) != 0; };
  std::size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    std::uint64_t w;
    std::memcpy(&w, s + i, 8);
    // Bytes below 0x20 (only lanes without the high bit can be), `"` and `\`.
    if ((((w - 0x20 * ones) & ~w & highs) != 0) || has_zero(w ^ (0x22 * ones)) || has_zero(w ^ (0x5C * ones))) {
      return false;
    }
  }
  for (; i < n; ++i) {
    auto c = static_cast<unsigned char>(s[i]);
    if (c < 0x20 || c == '"' || c == '\\') return false;
  }
  return true;
}

template <typename OS>
void put_quoted(OS& os, const char* s, std::size_t n) {
  if constexpr (std::is_same_v<OS, rapidjson::StringBuffer>) {
    char* out = os.Push(n + 2);
    out[0] = '"';
    if (n) std::memcpy(out + 1, s, n);
    out[n + 1] = '"';
  } else {
    rapidjson::PutReserve(os, n + 2);
    rapidjson::PutUnsafe(os, '"');
    for (std::size_t i = 0; i < n; ++i) rapidjson::PutUnsafe(os, s[i]);
    rapidjson::PutUnsafe(os, '"');
  }
}

}  // namespace json_detail

// RapidJSON's writer `Base` with the one-go copy; `Pretty` says which RapidJSON String it stands
// for (PrettyWriter's writes its own prefix and does not end the value).
template <typename Base, bool Pretty>
class FastStringWriter : public Base {
 public:
  using Base::Base;
  bool String(const char* s, rapidjson::SizeType n, bool copy = false) {
    if (!json_detail::needs_no_escape(s, n)) return Base::String(s, n, copy);
    if constexpr (Pretty) {
      this->PrettyPrefix(rapidjson::kStringType);
    } else {
      this->Prefix(rapidjson::kStringType);
    }
    json_detail::put_quoted(*this->os_, s, n);
    if constexpr (Pretty) {
      return true;
    } else {
      return this->EndValue(true);
    }
  }
  bool String(const char* s) { return String(s, static_cast<rapidjson::SizeType>(std::strlen(s))); }
  bool Key(const char* s, rapidjson::SizeType n, bool copy = false) { return String(s, n, copy); }
  bool Key(const char* s) { return String(s); }
};

template <typename OS>
using JsonWriter = FastStringWriter<rapidjson::Writer<OS>, false>;
template <typename OS>
using PrettyJsonWriter = FastStringWriter<rapidjson::PrettyWriter<OS>, true>;

}  // namespace sandgate
