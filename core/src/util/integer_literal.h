// The exact decimal of an integer literal, for the integers outside int64 (Node::int_overflow,
// whose `text` keeps the literal as the input wrote it): JSON must write the decimal, and two
// literals are the same value when their decimals are.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace sandgate {

// The exact decimal of an integer literal too large for int64, as JSON must write it: the literal
// may be YAML 1.1 (0x…, 0b…, 0… octal, a:b:c sexagesimal, underscores, a sign), which is not JSON
// (fuzz_policy_yaml: `maxGpuCount: 0x8000000000000000` rendered as invalid JSON). "" when `text`
// is not such a literal.
inline std::string integer_literal_decimal(std::string_view text) {
  bool negative = false;
  if (!text.empty() && (text[0] == '+' || text[0] == '-')) {
    negative = text[0] == '-';
    text.remove_prefix(1);
  }
  std::uint32_t base = 10;
  if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'b')) {
    base = text[1] == 'x' ? 16 : 2;
    text.remove_prefix(2);
  } else if (text.size() > 1 && text[0] == '0' && text.find(':') == std::string_view::npos) {
    base = 8;
    text.remove_prefix(1);
  }
  // Base 1e9 limbs, least significant first, as long as the literal needs: the value is exact at
  // any length (BigUnsigned, sized for quantities, saturated past 360 digits and wrote 999…9).
  std::vector<std::uint32_t> limbs;
  auto multiply_add = [&limbs](std::uint32_t factor, std::uint32_t addend) {
    std::uint64_t carry = addend;
    for (auto& limb : limbs) {
      std::uint64_t v = static_cast<std::uint64_t>(limb) * factor + carry;
      limb = static_cast<std::uint32_t>(v % 1000000000u);
      carry = v / 1000000000u;
    }
    while (carry) {
      limbs.push_back(static_cast<std::uint32_t>(carry % 1000000000u));
      carry /= 1000000000u;
    }
  };
  bool any = false;
  std::uint32_t group = 0;  // the current base-60 group after the first ':'
  bool sexagesimal = false;
  for (char c : text) {
    if (c == '_') continue;
    if (c == ':' && base == 10) {
      if (sexagesimal) multiply_add(1, group);
      multiply_add(60, 0);
      sexagesimal = true;
      group = 0;
      continue;
    }
    std::uint32_t d = c >= '0' && c <= '9' ? static_cast<std::uint32_t>(c - '0')
                      : (c | 0x20) >= 'a' && (c | 0x20) <= 'f' ? static_cast<std::uint32_t>((c | 0x20) - 'a' + 10)
                                                               : 99;
    if (d >= base || (sexagesimal && group > 5)) return {};
    if (sexagesimal) {
      group = group * 10 + d;
    } else {
      multiply_add(base, d);
    }
    any = true;
  }
  if (sexagesimal) multiply_add(1, group);
  if (!any) return {};
  while (!limbs.empty() && limbs.back() == 0) limbs.pop_back();
  if (limbs.empty()) return "0";
  std::string out = negative ? "-" : "";
  out += std::to_string(limbs.back());
  for (std::size_t i = limbs.size() - 1; i-- > 0;) {
    std::string part = std::to_string(limbs[i]);
    out.append(9 - part.size(), '0');
    out += part;
  }
  return out;
}

}  // namespace sandgate
