// Exact resource quantities ("500m", "1.5Gi", "2e3"): parsed without floating point, compared
// exactly, and printed as an exact decimal or in Kubernetes' canonical form.
#pragma once

#include <array>
#include <compare>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sandgate {

// Which grammar a quantity is read with (SPEC §2).
enum class QuantityGrammar {
  sdk,         // what the Python SDK accepts in a sandbox request: trims white space
  kubernetes,  // what an admin writes in a policy: also n, u, a leading +, e/E exponent suffixes
};

enum class QuantityErrorKind {
  empty,               // "empty quantity string"
  negative,            // "negative quantities are not allowed: '-1'"
  exponent_with_suffix,// "scientific notation with suffix is not allowed: '1e3Mi'"
  format,              // "unrecognized quantity format: 'abc'"
  too_long,            // more than 64 characters
  exponent_too_large,  // exponent magnitude above 30
  too_large,           // no longer reported (SPEC §9: quantities are exact over the SDK's whole range)
};

struct QuantityError {
  QuantityErrorKind kind;
  std::string message;
};

// An unsigned integer of up to 360 decimal digits with its limbs stored inline: quantities are
// copied, added and compared on every check, and a heap-free value type keeps that cheap and
// allocation-free. 360 digits cover every value the grammars admit (64 characters, exponent
// magnitude 30, a 1024^6 suffix) with the exponents of two such values aligned for a comparison
// or a sum; an operation that would need more saturates instead of growing (internal detail,
// public so that Quantity can be a value type).
class BigUnsigned {
 public:
  static constexpr std::size_t k_max_limbs = 40;
  BigUnsigned() = default;
  explicit BigUnsigned(std::uint64_t v);
  // Becomes `v` in place (no temporary of 164 bytes to copy in).
  void assign(std::uint64_t v);
  // Reads ASCII digits (leading zeros allowed); nullopt when empty, too long, or any other
  // character is present.
  static std::optional<BigUnsigned> from_decimal(std::string_view digits);
  bool is_zero() const { return size_ == 0; }
  void multiply(std::uint32_t factor);
  void add(const BigUnsigned& other);
  // Divides in place by `divisor`, returning the remainder. Dividing by zero leaves the value
  // unchanged and returns 0 (no exception, no trap).
  std::uint32_t divide(std::uint32_t divisor);
  // Divides in place by a 64-bit `divisor` (non-zero), returning whether a remainder was dropped.
  bool divide_u64(std::uint64_t divisor);
  // Number of decimal digits (0 for zero).
  std::size_t digits() const;
  // The last decimal digit (0 for zero).
  std::uint32_t last_digit() const { return size_ == 0 ? 0 : limbs_[0] % 10; }
  std::string to_string() const;
  std::optional<std::int64_t> to_int64() const;
  std::strong_ordering operator<=>(const BigUnsigned& other) const;
  // Limbs past size_ are always zero, so member-wise equality is value equality.
  bool operator==(const BigUnsigned& other) const = default;

 private:
  std::array<std::uint32_t, k_max_limbs> limbs_{};  // base 1e9, least significant first
  std::uint8_t size_ = 0;                           // limbs in use; no leading zero limbs
  void push_limb(std::uint32_t limb);
  void drop_leading_zero_limbs();
};

class Quantity {
 public:
  enum class Format { decimal_si, binary_si, decimal_exponent };

  // Parses `text`. On failure returns nullopt and fills `error` (when given).
  static std::optional<Quantity> parse(std::string_view text,
                                       QuantityGrammar grammar = QuantityGrammar::sdk,
                                       QuantityError* error = nullptr);
  // A whole number of units.
  static Quantity from_int(std::uint64_t units, Format format = Format::decimal_si);

  // The exact value as a plain decimal: "1.5Gi" → "1610612736", "100m" → "0.1".
  std::string decimal() const;
  // Kubernetes' canonical form: "1.5Gi" → "1536Mi", "0.1" → "100m", "1000" → "1k".
  std::string canonical() const;
  // The value in milli-units, rounded up; nullopt when it exceeds int64.
  std::optional<std::int64_t> milli() const;
  // The value in whole units, rounded up (500m → 1); nullopt when it exceeds int64.
  std::optional<std::int64_t> ceil_units() const;
  // ceil(value / divisor) in whole numbers, e.g. bytes → MiB with divisor 1048576; nullopt when
  // divisor is 0 or the result exceeds int64.
  std::optional<std::int64_t> ceil_div(std::uint64_t divisor) const;
  // The text was surrounded by white space that the SDK grammar trimmed.
  bool trimmed() const { return trimmed_; }
  bool is_zero() const { return mantissa_.is_zero(); }
  Format format() const { return format_; }

  Quantity plus(const Quantity& other) const;
  Quantity times(std::uint32_t factor) const;
  // floor(value × numerator / denominator) to whole units, e.g. a "25%" volume of a memory request.
  // A zero denominator yields zero. plus, times and fraction_floor keep this quantity's format.
  Quantity fraction_floor(std::uint32_t numerator, std::uint32_t denominator) const;

  // Exact comparison of values; format and trimmed() are ignored ("1000m" == "1").
  std::strong_ordering operator<=>(const Quantity& other) const;
  bool operator==(const Quantity& other) const;

 private:
  BigUnsigned mantissa_;  // value = mantissa_ × 10^exponent_
  std::int32_t exponent_ = 0;
  Format format_ = Format::decimal_si;
  bool trimmed_ = false;
  void normalize();
};

}  // namespace sandgate
