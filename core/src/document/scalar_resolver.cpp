#include "document/scalar_resolver.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace sandgate {
namespace {

constexpr std::array k_true_words = {"true", "True", "TRUE"};
constexpr std::array k_false_words = {"false", "False", "FALSE"};
constexpr std::array k_yaml11_true = {"yes", "Yes", "YES", "on", "On", "ON"};
constexpr std::array k_yaml11_false = {"no", "No", "NO", "off", "Off", "OFF"};
constexpr std::array k_null_words = {"", "~", "null", "Null", "NULL"};

template <typename Words>
bool one_of(std::string_view s, const Words& words) {
  for (std::string_view w : words) {
    if (s == w) return true;
  }
  return false;
}

bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_hex(char c) { return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }

// Accumulates digits of `base` into a magnitude, tracking overflow beyond uint64.
struct Magnitude {
  std::uint64_t value = 0;
  bool overflow = false;
  void push(unsigned digit, unsigned base) {
    if (overflow) return;
    if (value > (std::numeric_limits<std::uint64_t>::max() - digit) / base) {
      overflow = true;
      return;
    }
    value = value * base + digit;
  }
};

void set_integer(Node& node, bool negative, const Magnitude& m) {
  node.kind = NodeKind::integer;
  constexpr std::uint64_t k_max = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
  if (m.overflow || (!negative && m.value > k_max) || (negative && m.value > k_max + 1)) {
    node.int_overflow = true;
    node.integer = negative ? std::numeric_limits<std::int64_t>::min() : std::numeric_limits<std::int64_t>::max();
    return;
  }
  node.integer = negative ? static_cast<std::int64_t>(0 - m.value) : static_cast<std::int64_t>(m.value);
}

// [-+]? then the body of one YAML 1.1 integer form; underscores are digit separators.
bool parse_yaml11_int(std::string_view s, Node& node) {
  bool negative = false;
  if (!s.empty() && (s[0] == '-' || s[0] == '+')) {
    negative = s[0] == '-';
    s.remove_prefix(1);
  }
  if (s.empty()) return false;
  Magnitude m;
  auto digits = [&](std::string_view body, unsigned base, auto valid) {
    bool any = false;
    for (char c : body) {
      if (c == '_') continue;
      if (!valid(c)) return false;
      unsigned d = is_digit(c) ? static_cast<unsigned>(c - '0')
                               : static_cast<unsigned>((c | 0x20) - 'a' + 10);
      m.push(d, base);
      any = true;
    }
    return any;
  };
  if (s.size() > 2 && s[0] == '0' && s[1] == 'b') {
    if (!digits(s.substr(2), 2, [](char c) { return c == '0' || c == '1'; })) return false;
  } else if (s.size() > 2 && s[0] == '0' && s[1] == 'x') {
    if (!digits(s.substr(2), 16, is_hex)) return false;
  } else if (s.size() > 1 && s[0] == '0') {
    // 0[0-7_]+: the leading 0 is a digit, so `0_` is 0 (PyYAML and Kubernetes both read it so).
    // 0b_ and 0x_ above stay strings: Kubernetes reads them so, and PyYAML fails on them.
    std::string_view body = s.substr(1);
    const bool only_separators = body.find_first_not_of('_') == std::string_view::npos;
    if (!only_separators && !digits(body, 8, [](char c) { return c >= '0' && c <= '7'; })) return false;
  } else if (s == "0") {
    // zero
  } else if (s.find(':') != std::string_view::npos) {
    // Sexagesimal (base 60), e.g. 1:30 = 90: [1-9][0-9_]*(:[0-5]?[0-9])+
    std::size_t colon = s.find(':');
    std::string_view head = s.substr(0, colon);
    if (head.empty() || head[0] < '1' || head[0] > '9') return false;
    if (!digits(head, 10, is_digit)) return false;
    std::string_view rest = s.substr(colon);
    while (!rest.empty()) {
      if (rest[0] != ':') return false;
      rest.remove_prefix(1);
      std::size_t len = 0;
      while (len < rest.size() && len < 2 && is_digit(rest[len])) ++len;
      if (len == 0 || (len == 2 && rest[0] > '5')) return false;
      unsigned part = 0;
      for (std::size_t i = 0; i < len; ++i) part = part * 10 + static_cast<unsigned>(rest[i] - '0');
      rest.remove_prefix(len);
      if (!rest.empty() && rest[0] != ':') return false;
      // value = value * 60 + part
      Magnitude next;
      next.value = m.value;
      next.overflow = m.overflow;
      next.push(part, 60);
      m = next;
    }
  } else {
    if (s[0] < '1' || s[0] > '9') return false;
    if (!digits(s, 10, is_digit)) return false;
  }
  set_integer(node, negative, m);
  return true;
}

// A decimal number past the double range: ±inf when it is too large, ±0 when too small, as PyYAML's
// float() and Python's json read it. `clean` has no underscores and no leading '+'; it is the form
// from_chars read whole but could not represent.
double beyond_double_range(std::string_view clean) {
  const bool negative = !clean.empty() && clean[0] == '-';
  if (negative) clean.remove_prefix(1);
  const std::size_t e = std::min(clean.find_first_of("eE"), clean.size());
  const std::string_view mantissa = clean.substr(0, e);
  const std::size_t point = std::min(mantissa.find('.'), mantissa.size());
  // The decimal exponent of the first significant digit (from_chars saw one: zero is in range).
  const std::size_t lead = mantissa.find_first_of("123456789");
  std::int64_t first = 0;
  if (lead < point) {
    first = static_cast<std::int64_t>(point - lead) - 1;
  } else if (lead != std::string_view::npos) {
    first = -static_cast<std::int64_t>(lead - point);
  }
  std::int64_t exponent = 0;
  if (e < clean.size()) {
    std::size_t j = e + 1;
    const bool minus = j < clean.size() && clean[j] == '-';
    if (j < clean.size() && (clean[j] == '-' || clean[j] == '+')) ++j;
    for (; j < clean.size(); ++j) exponent = std::min<std::int64_t>(exponent * 10 + (clean[j] - '0'), 1'000'000'000);
    if (minus) exponent = -exponent;
  }
  // Beyond the range with the first digit at 10^1 or above it overflowed; otherwise it underflowed.
  const double magnitude = first + exponent > 0 ? std::numeric_limits<double>::infinity() : 0.0;
  return negative ? -magnitude : magnitude;
}

bool parse_double(std::string_view s, double& out) {
  std::string clean;
  for (char c : s) {
    if (c != '_') clean += c;
  }
  if (!clean.empty() && clean[0] == '+') clean.erase(0, 1);
  const char* b = clean.data();
  const char* e = b + clean.size();
  auto r = std::from_chars(b, e, out);
  if (r.ec == std::errc::result_out_of_range && r.ptr == e) {
    out = beyond_double_range(clean);
    return true;
  }
  return r.ec == std::errc{} && r.ptr == e;
}

// A sexagesimal float, [0-9][0-9_]*(:[0-5]?[0-9])+\.[0-9_]* after the sign: `1:30.5` is 90.5 and
// `1:0.` is 60.0 to PyYAML. Summed as PyYAML's constructor sums it (each part's float times its
// power of 60, from the last), so the double is the same.
bool parse_sexagesimal_float(std::string_view body, bool negative, Node& node) {
  std::size_t i = 0;
  if (body.empty() || !is_digit(body[0])) return false;
  while (i < body.size() && (is_digit(body[i]) || body[i] == '_')) ++i;
  int groups = 0;
  while (i < body.size() && body[i] == ':') {
    ++i;
    std::size_t digits = 0;
    while (i + digits < body.size() && digits < 2 && is_digit(body[i + digits])) ++digits;
    if (digits == 0 || (digits == 2 && body[i] > '5')) return false;
    i += digits;
    ++groups;
  }
  if (groups == 0 || i >= body.size() || body[i] != '.') return false;
  for (++i; i < body.size(); ++i) {
    if (!is_digit(body[i]) && body[i] != '_') return false;
  }
  std::vector<double> parts;
  for (std::size_t start = 0; start <= body.size();) {
    std::size_t colon = std::min(body.find(':', start), body.size());
    double part = 0;
    if (!parse_double(body.substr(start, colon - start), part)) return false;
    parts.push_back(part);
    start = colon + 1;
  }
  double value = 0, base = 1;
  for (auto it = parts.rbegin(); it != parts.rend(); ++it) {
    value += *it * base;
    base *= 60;
  }
  node.kind = NodeKind::number;
  node.number = negative ? -value : value;
  return true;
}

// YAML 1.1 floats need a dot: [-+]?[0-9][0-9_]*\.[0-9_]*([eE][-+][0-9]+)? | \.[0-9_]+(...)?
// plus .inf/.nan, and the sexagesimal form above.
bool parse_yaml11_float(std::string_view s, Node& node) {
  std::string_view body = s;
  bool negative = false;
  if (!body.empty() && (body[0] == '-' || body[0] == '+')) {
    negative = body[0] == '-';
    body.remove_prefix(1);
  }
  if (body == ".inf" || body == ".Inf" || body == ".INF") {
    node.kind = NodeKind::number;
    node.number = negative ? -std::numeric_limits<double>::infinity() : std::numeric_limits<double>::infinity();
    return true;
  }
  if (s == ".nan" || s == ".NaN" || s == ".NAN") {
    node.kind = NodeKind::number;
    node.number = std::numeric_limits<double>::quiet_NaN();
    return true;
  }
  if (body.find(':') != std::string_view::npos) return parse_sexagesimal_float(body, negative, node);
  std::size_t i = 0;
  bool lead_digits = false;
  while (i < body.size() && (is_digit(body[i]) || (lead_digits && body[i] == '_'))) {
    lead_digits = true;
    ++i;
  }
  if (i >= body.size() || body[i] != '.') return false;
  if (!lead_digits && (s.size() != body.size())) return false;  // "-.5" is not a 1.1 float
  ++i;
  if (!lead_digits && (i >= body.size() || !is_digit(body[i]))) return false;  // \.[0-9][0-9_]*: "._5" is not
  bool frac_digits = false;
  while (i < body.size() && (is_digit(body[i]) || body[i] == '_')) {
    frac_digits = frac_digits || is_digit(body[i]);
    ++i;
  }
  if (!lead_digits && !frac_digits) return false;
  if (i < body.size()) {
    if (body[i] != 'e' && body[i] != 'E') return false;
    ++i;
    if (i >= body.size() || (body[i] != '+' && body[i] != '-')) return false;
    ++i;
    if (i >= body.size()) return false;
    for (; i < body.size(); ++i) {
      if (!is_digit(body[i])) return false;
    }
  }
  double v = 0;
  if (!parse_double(s, v)) return false;
  node.kind = NodeKind::number;
  node.number = v;
  return true;
}

}  // namespace

void resolve_plain_scalar(std::string_view text, Node& node) {
  node.style = ScalarStyle::plain;
  node.text.assign(text);
  if (one_of(text, k_null_words)) {
    node.kind = NodeKind::null;
    return;
  }
  if (one_of(text, k_true_words) || one_of(text, k_false_words)) {
    node.kind = NodeKind::boolean;
    node.boolean = one_of(text, k_true_words);
    return;
  }
  if (one_of(text, k_yaml11_true) || one_of(text, k_yaml11_false)) {
    node.kind = NodeKind::boolean;
    node.boolean = one_of(text, k_yaml11_true);
    node.yaml11_word = true;
    return;
  }
  if (!text.empty() && (is_digit(text[0]) || text[0] == '-' || text[0] == '+' || text[0] == '.')) {
    Node tmp;
    if (parse_yaml11_int(text, tmp) || parse_yaml11_float(text, tmp)) {
      node.kind = tmp.kind;
      node.integer = tmp.integer;
      node.number = tmp.number;
      node.int_overflow = tmp.int_overflow;
      return;
    }
  }
  node.kind = NodeKind::string;
}

bool resolve_tagged_scalar(std::string_view tag, std::string_view text, Node& node) {
  node.text.assign(text);
  if (tag == "str") {
    node.kind = NodeKind::string;
    node.style = ScalarStyle::quoted;
    return true;
  }
  node.style = ScalarStyle::plain;
  Node tmp;
  resolve_plain_scalar(text, tmp);
  bool ok = (tag == "int" && tmp.kind == NodeKind::integer) ||
            (tag == "float" && tmp.is_number()) ||
            (tag == "bool" && tmp.kind == NodeKind::boolean) || (tag == "null" && tmp.is_null());
  if (!ok) return false;
  node.kind = tmp.kind;
  node.boolean = tmp.boolean;
  node.integer = tmp.integer;
  node.number = tmp.number;
  if (tmp.kind == NodeKind::integer && tag == "float") {
    // A float tag on an integer's text reads its digits as a decimal float, as PyYAML's float()
    // and go-yaml do: `!!float 0777` is 777.0, not the octal 511; hexadecimal and binary are no
    // float's text (PyYAML fails on them).
    std::string_view digits = text;
    if (!digits.empty() && (digits[0] == '-' || digits[0] == '+')) digits.remove_prefix(1);
    if (digits.size() > 1 && digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'b')) return false;
    if (text.find(':') != std::string_view::npos || !parse_double(text, node.number)) {
      node.number = static_cast<double>(tmp.integer);  // sexagesimal: 1:30 is 90.0
    }
  }
  if (tag == "float") node.kind = NodeKind::number;
  node.int_overflow = tmp.int_overflow;
  node.yaml11_word = tmp.yaml11_word;
  return true;
}

void resolve_json_number(std::string_view text, Node& node) {
  node.style = ScalarStyle::native;
  node.text.assign(text);
  bool integral = text.find_first_of(".eE") == std::string_view::npos;
  if (integral) {
    bool negative = !text.empty() && text[0] == '-';
    std::string_view digits = negative ? text.substr(1) : text;
    Magnitude m;
    for (char c : digits) m.push(static_cast<unsigned>(c - '0'), 10);
    set_integer(node, negative, m);
    return;
  }
  node.kind = NodeKind::number;
  double v = 0;
  if (!parse_double(text, v)) v = std::numeric_limits<double>::quiet_NaN();  // not reached: the loaders read only JSON numbers
  node.number = v;
}

}  // namespace sandgate
