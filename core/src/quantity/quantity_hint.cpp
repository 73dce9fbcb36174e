#include "quantity/quantity_hint.h"

#include <algorithm>
#include <array>
#include <cctype>

#include "sandgate/quantity.h"
#include "util/text.h"

namespace sandgate {
namespace {

// The suffixes by power: kilo … exa. Kubernetes writes kilo in lower case and the rest in upper.
constexpr std::array<std::string_view, 6> k_decimal = {"k", "M", "G", "T", "P", "E"};
constexpr std::array<std::string_view, 6> k_binary = {"Ki", "Mi", "Gi", "Ti", "Pi", "Ei"};
constexpr std::string_view k_powers = "kmgtpe";
constexpr std::array<std::string_view, 6> k_decimal_sizes = {"10^3", "10^6", "10^9", "10^12", "10^15", "10^18"};
constexpr std::array<std::string_view, 6> k_binary_sizes = {"2^10", "2^20", "2^30", "2^40", "2^50", "2^60"};

std::string both(std::string_view number, std::size_t power) {
  return quoted(std::string(number) + std::string(k_binary[power])) + " (" + std::string(k_binary_sizes[power]) +
         ") or " + quoted(std::string(number) + std::string(k_decimal[power])) + " (" +
         std::string(k_decimal_sizes[power]) + ")";
}

// The hint for a familiar mistake, or "".
std::string familiar_mistake(std::string_view text) {
  std::size_t digits = 0;
  auto in_number = [](char ch) { return std::isdigit(static_cast<unsigned char>(ch)) || ch == '.'; };
  while (digits < text.size() && in_number(text[digits])) ++digits;
  const std::string_view number = text.substr(0, digits), suffix = text.substr(digits);
  const std::size_t dots = static_cast<std::size_t>(std::count(number.begin(), number.end(), '.'));
  // The number must stand as written: the hint only respells the suffix.
  if (number.size() == dots || dots > 1 || suffix.empty() || suffix.size() > 3) return {};
  const std::string lower = ascii_lower(suffix);
  const std::size_t power = k_powers.find(lower[0]);
  if (power == std::string_view::npos) return {};
  const std::string shown = quoted(suffix);
  if (lower.size() == 2 && lower[1] == 'b') {  // GB, mb, …: bytes in another system's units
    return "Kubernetes has no suffix " + shown + ": write " + both(number, power);
  }
  if (lower.size() == 3 && lower[1] == 'i' && lower[2] == 'b') {  // GiB
    return "Kubernetes writes " + shown + " as " + quoted(k_binary[power]) + ": write " +
           quoted(std::string(number) + std::string(k_binary[power]));
  }
  if (lower.size() == 2 && lower[1] == 'i' && suffix != k_binary[power]) {  // gi, MI: the right suffix in the wrong case
    return "suffixes are case-sensitive: write " + quoted(std::string(number) + std::string(k_binary[power]));
  }
  // g, t, K: a decimal suffix in the wrong case (m is milli, and e starts an exponent).
  if (lower.size() == 1 && suffix != k_decimal[power] && lower != "m" && lower != "e") {
    return "suffixes are case-sensitive: write " + both(number, power);
  }
  return {};
}

}  // namespace

std::string quantity_hint(std::string_view text, std::string_view otherwise) {
  std::string fix = familiar_mistake(text);
  if (!fix.empty()) return fix;
  // Spaces ("16 " in a policy, "1 Gi"): the text without them, when that is a quantity everywhere.
  std::string packed;
  for (char ch : text) {
    if (ch != ' ' && ch != '\t') packed.push_back(ch);
  }
  if (packed.size() != text.size() && !packed.empty()) {
    if (Quantity::parse(packed, QuantityGrammar::sdk) && Quantity::parse(packed, QuantityGrammar::kubernetes)) {
      return "a quantity has no spaces: write " + quoted(packed);
    }
    fix = familiar_mistake(packed);
    if (!fix.empty()) return fix;
  }
  return std::string(otherwise);
}

}  // namespace sandgate
