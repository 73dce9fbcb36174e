// Exact resource quantities (SPEC §2). Everything here is integer arithmetic on a BigUnsigned
// mantissa and a power-of-ten exponent: no floating point, so "0.1" + "0.2" is exactly "300m" and
// comparisons never suffer rounding. Nothing in this file throws on any input; errors are returned.
#include "sandgate/quantity.h"

#include <algorithm>
#include <array>
#include <cstddef>
#include <limits>
#include <utility>

namespace sandgate {

// ---------------------------------------------------------------------------------------------
// BigUnsigned
// ---------------------------------------------------------------------------------------------

namespace {

constexpr std::uint32_t kLimbBase = 1000000000;  // 10^9: one limb holds nine decimal digits
constexpr int kLimbDigits = 9;
constexpr std::array<std::uint32_t, 10> kPow10 = {
    1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000, 1000000000};

}  // namespace

BigUnsigned::BigUnsigned(std::uint64_t v) { assign(v); }

void BigUnsigned::assign(std::uint64_t v) {
  std::fill_n(limbs_.begin(), size_, 0u);  // limbs past size_ stay zero (operator==)
  size_ = 0;
  while (v != 0) {
    push_limb(static_cast<std::uint32_t>(v % kLimbBase));
    v /= kLimbBase;
  }
}

void BigUnsigned::push_limb(std::uint32_t limb) {
  if (size_ < k_max_limbs) {
    limbs_[size_++] = limb;
    return;
  }
  // Past the capacity (never reached by values the grammars admit): saturate at the largest value.
  limbs_.fill(kLimbBase - 1);
  size_ = static_cast<std::uint8_t>(k_max_limbs);
}

void BigUnsigned::drop_leading_zero_limbs() {
  while (size_ > 0 && limbs_[size_ - 1] == 0) --size_;
}

std::optional<BigUnsigned> BigUnsigned::from_decimal(std::string_view digits) {
  if (digits.empty()) return std::nullopt;
  for (char c : digits) {
    if (c < '0' || c > '9') return std::nullopt;
  }
  // Leading zeros carry no value; what is left must fit.
  while (digits.size() > 1 && digits.front() == '0') digits.remove_prefix(1);
  if (digits.size() > k_max_limbs * kLimbDigits) return std::nullopt;
  BigUnsigned result;
  // Nine-digit chunks from the right become limbs, least significant first.
  std::size_t end = digits.size();
  while (end > 0) {
    const std::size_t begin = end >= kLimbDigits ? end - kLimbDigits : 0;
    std::uint32_t limb = 0;
    for (std::size_t i = begin; i < end; ++i) {
      limb = limb * 10 + static_cast<std::uint32_t>(digits[i] - '0');
    }
    result.push_limb(limb);
    end = begin;
  }
  result.drop_leading_zero_limbs();
  return result;
}

void BigUnsigned::multiply(std::uint32_t factor) {
  if (factor == 0) {
    *this = BigUnsigned();
    return;
  }
  // limb × factor + carry < 10^9 × 2^32 + 2^32, well inside uint64.
  std::uint64_t carry = 0;
  for (std::size_t i = 0; i < size_; ++i) {
    const std::uint64_t cur = static_cast<std::uint64_t>(limbs_[i]) * factor + carry;
    limbs_[i] = static_cast<std::uint32_t>(cur % kLimbBase);
    carry = cur / kLimbBase;
  }
  while (carry != 0) {
    push_limb(static_cast<std::uint32_t>(carry % kLimbBase));
    carry /= kLimbBase;
  }
}

void BigUnsigned::add(const BigUnsigned& other) {
  // Read other's limbs by value first: `other` may be *this.
  const std::size_t n = std::max<std::size_t>(size_, other.size_);
  std::uint32_t carry = 0;
  for (std::size_t i = 0; i < n; ++i) {
    std::uint32_t sum = limbs_[i] + carry + other.limbs_[i];  // < 2 × 10^9 + 1; unused limbs are 0
    carry = sum >= kLimbBase ? 1 : 0;
    if (carry != 0) sum -= kLimbBase;
    limbs_[i] = sum;
  }
  size_ = static_cast<std::uint8_t>(n);
  if (carry != 0) push_limb(carry);
}

std::uint32_t BigUnsigned::divide(std::uint32_t divisor) {
  if (divisor == 0) return 0;
  // remainder × 10^9 + limb < 2^32 × 10^9 + 10^9, inside uint64.
  std::uint64_t remainder = 0;
  for (std::size_t i = size_; i-- > 0;) {
    const std::uint64_t cur = remainder * kLimbBase + limbs_[i];
    limbs_[i] = static_cast<std::uint32_t>(cur / divisor);
    remainder = cur % divisor;
  }
  drop_leading_zero_limbs();
  return static_cast<std::uint32_t>(remainder);
}

bool BigUnsigned::divide_u64(std::uint64_t divisor) {
  if (divisor == 0) return false;
  // remainder < divisor < 2^64, so remainder × 10^9 + limb < 2^94: inside 128 bits.
  __extension__ using u128 = unsigned __int128;
  u128 remainder = 0;
  for (std::size_t i = size_; i-- > 0;) {
    const u128 cur = remainder * kLimbBase + limbs_[i];
    limbs_[i] = static_cast<std::uint32_t>(cur / divisor);
    remainder = cur % divisor;
  }
  drop_leading_zero_limbs();
  return remainder != 0;
}

std::size_t BigUnsigned::digits() const {
  if (size_ == 0) return 0;
  std::size_t top = 1;
  for (std::uint32_t v = limbs_[size_ - 1]; v >= 10; v /= 10) ++top;
  return (size_ - 1) * static_cast<std::size_t>(kLimbDigits) + top;
}

std::string BigUnsigned::to_string() const {
  if (size_ == 0) return "0";
  std::string out = std::to_string(limbs_[size_ - 1]);
  for (std::size_t i = size_ - 1; i-- > 0;) {
    const std::string chunk = std::to_string(limbs_[i]);
    out.append(kLimbDigits - chunk.size(), '0');  // inner limbs are zero-padded to nine digits
    out += chunk;
  }
  return out;
}

std::optional<std::int64_t> BigUnsigned::to_int64() const {
  constexpr auto kMax = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
  std::uint64_t acc = 0;
  for (std::size_t i = size_; i-- > 0;) {
    if (acc > (kMax - limbs_[i]) / kLimbBase) return std::nullopt;
    acc = acc * kLimbBase + limbs_[i];
  }
  return static_cast<std::int64_t>(acc);
}

std::strong_ordering BigUnsigned::operator<=>(const BigUnsigned& other) const {
  // No leading zero limbs, so more limbs means a larger number.
  if (size_ != other.size_) return size_ <=> other.size_;
  for (std::size_t i = size_; i-- > 0;) {
    if (limbs_[i] != other.limbs_[i]) return limbs_[i] <=> other.limbs_[i];
  }
  return std::strong_ordering::equal;
}

// ---------------------------------------------------------------------------------------------
// Decimal scaling helpers
// ---------------------------------------------------------------------------------------------

namespace {

// Exponents stay small by construction (a parsed text has at most 64 characters and an exponent
// of at most 30; from_int adds at most 19 digits), so these loops are short.

// value × 10^count.
void scale_up(BigUnsigned& value, std::int64_t count) {
  if (value.is_zero()) return;
  for (; count >= kLimbDigits; count -= kLimbDigits) value.multiply(kLimbBase);
  if (count > 0) value.multiply(kPow10[static_cast<std::size_t>(count)]);
}

// value = floor(value / 10^count); returns whether a non-zero remainder was dropped.
bool scale_down(BigUnsigned& value, std::int64_t count) {
  if (value.is_zero() || count <= 0) return false;
  // Dividing by more digits than the number has leaves only a remainder: skip the loop.
  if (count > static_cast<std::int64_t>(value.digits())) {
    value = BigUnsigned();
    return true;
  }
  bool inexact = false;
  for (; count >= kLimbDigits; count -= kLimbDigits) inexact |= value.divide(kLimbBase) != 0;
  if (count > 0) inexact |= value.divide(kPow10[static_cast<std::size_t>(count)]) != 0;
  return inexact;
}

// Moves trailing decimal zeros of the mantissa into the exponent, so every value has one
// representation (zero is 0 × 10^0).
void strip_trailing_zeros(BigUnsigned& mantissa, std::int64_t& exponent) {
  if (mantissa.is_zero()) {
    exponent = 0;
    return;
  }
  while (mantissa.last_digit() == 0) {
    mantissa.divide(10);
    ++exponent;
  }
}

// mantissa × 10^exponent rounded up to an integer (the ceiling, as Kubernetes' Value and
// MilliValue round; nothing here rounds down).
BigUnsigned to_integer_rounding_up(BigUnsigned mantissa, std::int64_t exponent) {
  if (exponent >= 0) {
    scale_up(mantissa, exponent);
    return mantissa;
  }
  if (scale_down(mantissa, -exponent)) mantissa.add(BigUnsigned(1));
  return mantissa;
}

// ---------------------------------------------------------------------------------------------
// Error messages
// ---------------------------------------------------------------------------------------------

// Length of the well-formed UTF-8 sequence starting at s[i], or 0 when the bytes are not one.
std::size_t utf8_sequence_length(std::string_view s, std::size_t i) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char lead = byte(i);
  std::size_t length = 0;
  unsigned char low = 0x80;
  unsigned char high = 0xBF;  // allowed range of the second byte (rejects overlongs, surrogates)
  if (lead >= 0xC2 && lead <= 0xDF) {
    length = 2;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    length = 3;
    if (lead == 0xE0) low = 0xA0;
    if (lead == 0xED) high = 0x9F;
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    length = 4;
    if (lead == 0xF0) low = 0x90;
    if (lead == 0xF4) high = 0x8F;
  } else {
    return 0;
  }
  if (i + length > s.size()) return 0;
  if (byte(i + 1) < low || byte(i + 1) > high) return 0;
  for (std::size_t k = i + 2; k < i + length; ++k) {
    if (byte(k) < 0x80 || byte(k) > 0xBF) return 0;
  }
  return length;
}

// Quotes `s` the way Python's repr() quotes a str, because the SDK's messages use repr: single
// quotes unless the text holds a ' and no ", backslash escapes for \, the quote, \t \n \r and
// other control characters. Well-formed UTF-8 is kept as is; stray bytes become \xNN so the
// message is always valid UTF-8. (Python also escapes non-printable non-ASCII code points such
// as U+00A0; those are kept here.)
std::string python_repr(std::string_view s) {
  const bool has_single = s.find('\'') != std::string_view::npos;
  const bool has_double = s.find('"') != std::string_view::npos;
  const char quote = has_single && !has_double ? '"' : '\'';
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out(1, quote);
  for (std::size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c == '\\' || c == static_cast<unsigned char>(quote)) {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c == '\t') {
      out += "\\t";
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c >= 0x20 && c < 0x7F) {
      out += static_cast<char>(c);
    } else if (const std::size_t length = c >= 0x80 ? utf8_sequence_length(s, i) : 0; length > 0) {
      out.append(s.substr(i, length));
      i += length;
      continue;
    } else {
      out += "\\x";
      out += kHex[c >> 4];
      out += kHex[c & 0xF];
    }
    ++i;
  }
  out += quote;
  return out;
}

std::nullopt_t fail(QuantityError* error, QuantityErrorKind kind, std::string message) {
  if (error != nullptr) *error = QuantityError{kind, std::move(message)};
  return std::nullopt;
}

// ---------------------------------------------------------------------------------------------
// Lexing
// ---------------------------------------------------------------------------------------------

constexpr std::size_t kMaxLength = 64;
constexpr std::int64_t kMaxExponent = 30;

// The mantissa of a quantity whose digits (and 1024-suffix) fit one machine word — "500m", "4Gi",
// nearly every quantity written — computed there, trailing zeros moved into `exponent`; false for
// the rest, which take the arbitrary-precision path. The digits are the lexer's: ASCII 0-9 only.
bool small_mantissa(std::string_view integer, std::string_view fraction, int pow1024, BigUnsigned& out,
                    std::int64_t& exponent) {
  if (integer.size() + fraction.size() > 19) return false;  // 19 nines are below 2^64
  std::uint64_t v = 0;
  for (char c : integer) v = v * 10 + static_cast<std::uint64_t>(c - '0');
  for (char c : fraction) v = v * 10 + static_cast<std::uint64_t>(c - '0');
  for (int i = 0; i < pow1024; ++i) {
    if (__builtin_mul_overflow(v, std::uint64_t{1024}, &v)) return false;
  }
  if (v == 0) {
    out.assign(0);
    exponent = 0;
    return true;
  }
  while (v % 10 == 0) {
    v /= 10;
    ++exponent;
  }
  out.assign(v);
  return true;
}

// The pieces of a well-formed quantity text, before any arithmetic.
struct Lexed {
  std::string_view integer_digits;
  std::string_view fraction_digits;
  bool exponent_negative = false;
  std::string_view exponent_text;    // as written after e/E, sign included: "-3", "+031"
  std::string_view exponent_digits;  // empty when there is no e/E exponent
  std::int32_t suffix_pow10 = 0;     // from n u m k M G T P E
  int suffix_pow1024 = 0;            // from Ki .. Ei
  Quantity::Format format = Quantity::Format::decimal_si;
};

bool is_digit(char c) { return c >= '0' && c <= '9'; }

std::string_view take_digits(std::string_view s, std::size_t& pos) {
  const std::size_t start = pos;
  while (pos < s.size() && is_digit(s[pos])) ++pos;
  return s.substr(start, pos - start);
}

// digits [ "." digits ], with at least one digit in all: "1", "1.5", "1.", ".5".
bool lex_number(std::string_view s, std::size_t& pos, Lexed& out) {
  out.integer_digits = take_digits(s, pos);
  if (pos < s.size() && s[pos] == '.') {
    ++pos;
    out.fraction_digits = take_digits(s, pos);
  }
  return !out.integer_digits.empty() || !out.fraction_digits.empty();
}

// [eE] [+-]? digits, which must run to the end of `s`.
bool lex_exponent_to_end(std::string_view s, std::size_t pos, Lexed& out) {
  if (pos >= s.size() || (s[pos] != 'e' && s[pos] != 'E')) return false;
  ++pos;
  const std::size_t sign_pos = pos;
  if (pos < s.size() && (s[pos] == '+' || s[pos] == '-')) {
    out.exponent_negative = s[pos] == '-';
    ++pos;
  }
  out.exponent_digits = take_digits(s, pos);
  out.exponent_text = s.substr(sign_pos);
  out.format = Quantity::Format::decimal_exponent;
  return !out.exponent_digits.empty() && pos == s.size();
}

struct SuffixEntry {
  std::string_view text;
  std::int32_t pow10;
  int pow1024;
};

constexpr SuffixEntry kMilli = {"m", -3, 0};
constexpr std::array<SuffixEntry, 3> kSubUnitSuffixes = {{{"n", -9, 0}, {"u", -6, 0}, kMilli}};
constexpr std::array<SuffixEntry, 6> kLargeDecimalSuffixes = {{
    {"k", 3, 0}, {"M", 6, 0}, {"G", 9, 0}, {"T", 12, 0}, {"P", 15, 0}, {"E", 18, 0}}};
constexpr std::array<SuffixEntry, 6> kBinarySuffixes = {{
    {"Ki", 0, 1}, {"Mi", 0, 2}, {"Gi", 0, 3}, {"Ti", 0, 4}, {"Pi", 0, 5}, {"Ei", 0, 6}}};

// Suffixes are one or two characters: compared as characters (a memcmp call per entry cost a
// parse a fifth of its instructions).
template <std::size_t N>
const SuffixEntry* find_suffix(const std::array<SuffixEntry, N>& table, std::string_view text) {
  if (text.empty() || text.size() > 2) return nullptr;
  for (const auto& entry : table) {
    if (entry.text.size() == text.size() && entry.text[0] == text[0] && (text.size() == 1 || entry.text[1] == text[1])) {
      return &entry;
    }
  }
  return nullptr;
}

// The SDK's suffix at the end of `s`, tried in the SDK's order: m, then XXi (only when the text
// has at least three characters), then k M G T P E. nullptr when there is none.
const SuffixEntry* sdk_suffix(std::string_view s) {
  if (s.back() == 'm') return &kMilli;
  if (s.size() >= 3) {
    if (const SuffixEntry* binary = find_suffix(kBinarySuffixes, s.substr(s.size() - 2))) return binary;
  }
  return find_suffix(kLargeDecimalSuffixes, s.substr(s.size() - 1));
}

// A Kubernetes SI suffix that is exactly `text` (exponent suffixes are handled by the caller).
const SuffixEntry* kubernetes_suffix(std::string_view text) {
  if (const SuffixEntry* small = find_suffix(kSubUnitSuffixes, text)) return small;
  if (const SuffixEntry* large = find_suffix(kLargeDecimalSuffixes, text)) return large;
  return find_suffix(kBinarySuffixes, text);
}

void apply_suffix(const SuffixEntry& suffix, Lexed& out) {
  out.suffix_pow10 = suffix.pow10;
  out.suffix_pow1024 = suffix.pow1024;
  out.format = suffix.pow1024 > 0 ? Quantity::Format::binary_si : Quantity::Format::decimal_si;
}

enum class LexResult { ok, format, exponent_with_suffix };

// SDK grammar: find the suffix from the end, then read the number part before it; an e/E
// exponent is allowed only when there is no suffix.
LexResult lex_sdk(std::string_view s, Lexed& out) {
  std::string_view number = s;
  const SuffixEntry* suffix = sdk_suffix(s);
  if (suffix != nullptr) {
    apply_suffix(*suffix, out);
    number.remove_suffix(suffix->text.size());
    // The SDK rejects "1e3Mi" by name rather than as a format error.
    if (number.find_first_of("eE") != std::string_view::npos) return LexResult::exponent_with_suffix;
  }
  std::size_t pos = 0;
  if (!lex_number(number, pos, out)) return LexResult::format;
  if (pos == number.size()) return LexResult::ok;
  if (suffix != nullptr) return LexResult::format;
  return lex_exponent_to_end(number, pos, out) ? LexResult::ok : LexResult::format;
}

// Kubernetes grammar: [+] number, then exactly one of: nothing, n u m k M G T P E, Ki..Ei,
// or e/E followed by a signed integer ("1E" alone is exa, "1E3" is 1000).
LexResult lex_kubernetes(std::string_view s, Lexed& out) {
  std::size_t pos = 0;
  if (s.front() == '+') ++pos;
  if (!lex_number(s, pos, out)) return LexResult::format;
  const std::string_view rest = s.substr(pos);
  if (rest.empty()) return LexResult::ok;
  if (const SuffixEntry* suffix = kubernetes_suffix(rest)) {
    apply_suffix(*suffix, out);
    return LexResult::ok;
  }
  return lex_exponent_to_end(s, pos, out) ? LexResult::ok : LexResult::format;
}

// The exponent digits as a number, saturating just above the limit: hostile inputs such as
// "1e4294967297" must neither overflow nor wrap around to a small value.
std::int64_t saturated_exponent(std::string_view digits) {
  std::int64_t value = 0;
  for (char c : digits) value = std::min<std::int64_t>(value * 10 + (c - '0'), kMaxExponent + 1);
  return value;
}

bool is_ascii_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

std::string_view trim_ascii_space(std::string_view s) {
  while (!s.empty() && is_ascii_space(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_ascii_space(s.back())) s.remove_suffix(1);
  return s;
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// Quantity: parsing
// ---------------------------------------------------------------------------------------------

std::optional<Quantity> Quantity::parse(std::string_view text, QuantityGrammar grammar,
                                        QuantityError* error) {
  // Checked first and on the raw text, so nothing below ever works on a long input.
  if (text.size() > kMaxLength) {
    return fail(error, QuantityErrorKind::too_long,
                "quantity is longer than 64 characters: " +
                    python_repr(std::string(text.substr(0, kMaxLength)) + "..."));
  }
  const bool sdk = grammar == QuantityGrammar::sdk;
  // Only the SDK trims; a policy file with " 1Gi" is wrong and should be told so.
  const std::string_view s = sdk ? trim_ascii_space(text) : text;
  if (s.empty()) return fail(error, QuantityErrorKind::empty, "empty quantity string");
  if (s.front() == '-') {
    return fail(error, QuantityErrorKind::negative,
                "negative quantities are not allowed: " + python_repr(s));
  }

  Lexed lexed;
  switch (sdk ? lex_sdk(s, lexed) : lex_kubernetes(s, lexed)) {
    case LexResult::ok:
      break;
    case LexResult::exponent_with_suffix:
      return fail(error, QuantityErrorKind::exponent_with_suffix,
                  "scientific notation with suffix is not allowed: " + python_repr(s));
    case LexResult::format:
      return fail(error, QuantityErrorKind::format,
                  "unrecognized quantity format: " + python_repr(s));
  }

  const std::int64_t written_exponent = saturated_exponent(lexed.exponent_digits);
  if (written_exponent > kMaxExponent) {
    return fail(error, QuantityErrorKind::exponent_too_large,
                "exponent " + std::string(lexed.exponent_text) +
                    " is out of range (magnitude at most 30): " + python_repr(s));
  }

  std::optional<Quantity> result(std::in_place);  // built where it is returned
  Quantity& q = *result;
  q.trimmed_ = s.size() != text.size();
  q.format_ = lexed.format;
  // |exponent| ≤ 30 + 64 fraction digits + 9: far inside int32.
  std::int64_t exponent = (lexed.exponent_negative ? -written_exponent : written_exponent) -
                          static_cast<std::int64_t>(lexed.fraction_digits.size()) + lexed.suffix_pow10;
  if (!small_mantissa(lexed.integer_digits, lexed.fraction_digits, lexed.suffix_pow1024, q.mantissa_, exponent)) {
    std::string digits(lexed.integer_digits);
    digits += lexed.fraction_digits;
    q.mantissa_ = BigUnsigned::from_decimal(digits).value_or(BigUnsigned());
    for (int i = 0; i < lexed.suffix_pow1024; ++i) q.mantissa_.multiply(1024);
    strip_trailing_zeros(q.mantissa_, exponent);
  }
  q.exponent_ = static_cast<std::int32_t>(exponent);

  // No upper bound (SPEC §9): the SDK's Decimal takes 1E, 1Ei and larger, and so does this parse.
  // The grammar's limits (64 characters, exponent magnitude 30, 1024^6) keep every value inside
  // BigUnsigned; milli() and the other integer views say nullopt past int64 instead.
  // Kubernetes does the same: a binary quantity below one unit is really a decimal one.
  if (q.format_ == Format::binary_si && !q.is_zero() && q.exponent_ < 0 && q < from_int(1)) {
    q.format_ = Format::decimal_si;
  }
  return result;
}

Quantity Quantity::from_int(std::uint64_t units, Format format) {
  Quantity q;
  q.mantissa_ = BigUnsigned(units);
  q.format_ = format;
  q.normalize();
  return q;
}

void Quantity::normalize() {
  std::int64_t exponent = exponent_;
  strip_trailing_zeros(mantissa_, exponent);
  exponent_ = static_cast<std::int32_t>(exponent);
}

// ---------------------------------------------------------------------------------------------
// Quantity: printing
// ---------------------------------------------------------------------------------------------

std::string Quantity::decimal() const {
  std::string digits = mantissa_.to_string();
  if (is_zero()) return digits;
  if (exponent_ >= 0) {
    digits.append(static_cast<std::size_t>(exponent_), '0');
    return digits;
  }
  // normalize() stripped trailing zeros, so the fraction ends in a non-zero digit.
  const auto fraction = static_cast<std::size_t>(-static_cast<std::int64_t>(exponent_));
  if (digits.size() <= fraction) digits.insert(0, fraction - digits.size() + 1, '0');
  digits.insert(digits.size() - fraction, 1, '.');
  return digits;
}

namespace {

// Decimal SI and decimal exponent forms (k8s AsCanonicalBytes + constructBytes): an integer
// mantissa with an exponent that is a multiple of three.
std::string canonical_decimal(BigUnsigned mantissa, std::int64_t exponent, bool exponent_form) {
  // C++ and Go both truncate %, so a negative exponent also steps down to a multiple of three.
  while (exponent % 3 != 0) {
    mantissa.multiply(10);
    --exponent;
  }
  // Past the exponents a quantity may be written with (kMaxExponent, a multiple of three), k8s's
  // "<m>e<exp>" could not be read back: such a value (only an exact one beyond int64 gets there)
  // moves the excess into the mantissa and keeps "e30", the shortest form that reads back.
  if (exponent > kMaxExponent) {
    scale_up(mantissa, exponent - kMaxExponent);
    exponent = kMaxExponent;
  }
  std::string out = mantissa.to_string();
  if (exponent == 0) return out;
  static constexpr std::array<std::string_view, 10> kSiSuffixes = {"n", "u", "m", "",  "k",
                                                                    "M", "G", "T", "P", "E"};
  // Exponents above 18 have no SI suffix; like current k8s, fall back to "e<exp>" rather than
  // drop the magnitude.
  if (!exponent_form && exponent >= -9 && exponent <= 18) {
    out += kSiSuffixes[static_cast<std::size_t>((exponent + 9) / 3)];
  } else {
    out += 'e';
    out += std::to_string(exponent);
  }
  return out;
}

// Binary SI form (k8s AsCanonicalBase1024Bytes): the largest power of 1024 that divides the
// integer `units` exactly. k8s would run past Ei and then find no suffix; we stop at Ei.
std::string canonical_binary(BigUnsigned units) {
  static constexpr std::array<std::string_view, 7> kBinary = {"", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"};
  std::size_t power = 0;
  while (power + 1 < kBinary.size()) {
    BigUnsigned trial = units;
    if (trial.divide(1024) != 0) break;
    units = std::move(trial);
    ++power;
  }
  return units.to_string() + std::string(kBinary[power]);
}

}  // namespace

std::string Quantity::canonical() const {
  if (is_zero()) return "0";
  // Kubernetes keeps nothing below a nano and rounds a finer value up (ParseQuantity does this
  // when it reads the text; we keep the exact value and round only for printing).
  BigUnsigned mantissa = mantissa_;
  std::int64_t exponent = exponent_;
  if (exponent < -9) {
    if (scale_down(mantissa, -9 - exponent)) mantissa.add(BigUnsigned(1));
    exponent = -9;
    strip_trailing_zeros(mantissa, exponent);
  }
  // Binary form only for whole numbers of at least 1024 (k8s: |q| < 1024 or inexact → DecimalSI).
  if (format_ == Format::binary_si && exponent >= 0) {
    BigUnsigned units = mantissa;
    scale_up(units, exponent);
    if (units >= BigUnsigned(1024)) return canonical_binary(std::move(units));
  }
  return canonical_decimal(std::move(mantissa), exponent, format_ == Format::decimal_exponent);
}

// ---------------------------------------------------------------------------------------------
// Quantity: integer views
// ---------------------------------------------------------------------------------------------

std::optional<std::int64_t> Quantity::milli() const {
  return to_integer_rounding_up(mantissa_, static_cast<std::int64_t>(exponent_) + 3).to_int64();
}

std::optional<std::int64_t> Quantity::ceil_units() const {
  return to_integer_rounding_up(mantissa_, exponent_).to_int64();
}

std::optional<std::int64_t> Quantity::ceil_div(std::uint64_t divisor) const {
  if (divisor == 0) return std::nullopt;
  // ceil(x / d) == ceil(ceil(x) / d) for a positive integer d, so round to whole units first.
  const BigUnsigned units = to_integer_rounding_up(mantissa_, exponent_);
  BigUnsigned quotient = units;
  if (quotient.divide_u64(divisor)) quotient.add(BigUnsigned(1));
  return quotient.to_int64();
}

// ---------------------------------------------------------------------------------------------
// Quantity: arithmetic and comparison
// ---------------------------------------------------------------------------------------------

Quantity Quantity::plus(const Quantity& other) const {
  // Bring both mantissas to the smaller exponent, where both are integers, then add.
  const std::int32_t exponent = std::min(exponent_, other.exponent_);
  BigUnsigned a = mantissa_;
  BigUnsigned b = other.mantissa_;
  scale_up(a, static_cast<std::int64_t>(exponent_) - exponent);
  scale_up(b, static_cast<std::int64_t>(other.exponent_) - exponent);
  a.add(b);
  Quantity result;
  result.mantissa_ = std::move(a);
  result.exponent_ = exponent;
  result.format_ = format_;
  result.normalize();
  return result;
}

Quantity Quantity::times(std::uint32_t factor) const {
  Quantity result;
  result.mantissa_ = mantissa_;
  result.mantissa_.multiply(factor);
  result.exponent_ = exponent_;
  result.format_ = format_;
  result.normalize();
  return result;
}

Quantity Quantity::fraction_floor(std::uint32_t numerator, std::uint32_t denominator) const {
  Quantity result;
  result.format_ = format_;
  if (denominator == 0) return result;
  BigUnsigned m = mantissa_;
  if (exponent_ >= 0) {
    scale_up(m, exponent_);
    m.multiply(numerator);
    m.divide(denominator);
  } else {
    // floor(floor(x / a) / b) == floor(x / (a·b)) for integers, so two floor divisions are exact.
    m.multiply(numerator);
    m.divide(denominator);
    scale_down(m, -static_cast<std::int64_t>(exponent_));
  }
  result.mantissa_ = std::move(m);
  result.normalize();
  return result;
}

std::strong_ordering Quantity::operator<=>(const Quantity& other) const {
  const std::int32_t exponent = std::min(exponent_, other.exponent_);
  BigUnsigned a = mantissa_;
  BigUnsigned b = other.mantissa_;
  scale_up(a, static_cast<std::int64_t>(exponent_) - exponent);
  scale_up(b, static_cast<std::int64_t>(other.exponent_) - exponent);
  return a <=> b;
}

bool Quantity::operator==(const Quantity& other) const {
  // normalize() gives every value one (mantissa, exponent) pair.
  return mantissa_ == other.mantissa_ && exponent_ == other.exponent_;
}

}  // namespace sandgate
