// UTF-8 validation (RFC 3629): no overlong forms, no surrogates, nothing above U+10FFFF, no NUL.
// Runs before any parser or validator sees the text, because valijson reads out of bounds on
// invalid UTF-8 under minLength/maxLength.
#include <cstdint>
#include <cstring>

#include "sandgate/document.h"

namespace sandgate {

std::size_t find_invalid_utf8(std::string_view text, bool& is_nul) {
  is_nul = false;
  const auto* s = reinterpret_cast<const unsigned char*>(text.data());
  const std::size_t n = text.size();
  std::size_t i = 0;
  while (i < n) {
    // Eight ASCII bytes without a NUL at a time (most text): a byte is NUL exactly when
    // (b - 1) & ~b has its high bit set, and no byte of an ASCII word has one of its own.
    while (i + 8 <= n) {
      std::uint64_t w;
      std::memcpy(&w, s + i, 8);
      if ((w | ((w - 0x0101010101010101ull) & ~w)) & 0x8080808080808080ull) break;
      i += 8;
    }
    if (i >= n) break;
    unsigned char c = s[i];
    if (c < 0x80) {
      if (c == 0) {
        is_nul = true;
        return i;
      }
      ++i;
      continue;
    }
    std::size_t len;
    unsigned char lo = 0x80, hi = 0xBF;  // allowed range of the second byte
    if (c >= 0xC2 && c <= 0xDF) {
      len = 2;
    } else if (c == 0xE0) {
      len = 3, lo = 0xA0;
    } else if ((c >= 0xE1 && c <= 0xEC) || c == 0xEE || c == 0xEF) {
      len = 3;
    } else if (c == 0xED) {
      len = 3, hi = 0x9F;  // excludes UTF-16 surrogates
    } else if (c == 0xF0) {
      len = 4, lo = 0x90;
    } else if (c >= 0xF1 && c <= 0xF3) {
      len = 4;
    } else if (c == 0xF4) {
      len = 4, hi = 0x8F;  // nothing above U+10FFFF
    } else {
      return i;
    }
    if (i + len > n) return i;
    if (s[i + 1] < lo || s[i + 1] > hi) return i;
    for (std::size_t k = 2; k < len; ++k) {
      if (s[i + k] < 0x80 || s[i + k] > 0xBF) return i;
    }
    i += len;
  }
  return std::string_view::npos;
}

}  // namespace sandgate
