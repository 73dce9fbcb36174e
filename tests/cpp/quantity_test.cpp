// Tests for sandgate/quantity.h: the SDK and Kubernetes grammars (SPEC §2), exact arithmetic,
// and Kubernetes' canonical form (tables ported from apimachinery's quantity_test.go).
#include "sandgate/quantity.h"

#include <gtest/gtest.h>

#include <chrono>
#include <compare>
#include <cstdint>
#include <limits>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace {

using sandgate::BigUnsigned;
using sandgate::Quantity;
using sandgate::QuantityError;
using sandgate::QuantityErrorKind;
using sandgate::QuantityGrammar;
using Format = Quantity::Format;

constexpr auto kSdk = QuantityGrammar::sdk;
constexpr auto kK8s = QuantityGrammar::kubernetes;
constexpr std::int64_t kInt64Max = std::numeric_limits<std::int64_t>::max();
constexpr std::uint64_t kUint64Max = std::numeric_limits<std::uint64_t>::max();

const char* kind_name(QuantityErrorKind kind) {
  switch (kind) {
    case QuantityErrorKind::empty: return "empty";
    case QuantityErrorKind::negative: return "negative";
    case QuantityErrorKind::exponent_with_suffix: return "exponent_with_suffix";
    case QuantityErrorKind::format: return "format";
    case QuantityErrorKind::too_long: return "too_long";
    case QuantityErrorKind::exponent_too_large: return "exponent_too_large";
    case QuantityErrorKind::too_large: return "too_large";
  }
  return "?";
}

// Parses text that must be valid; a failure is reported with the parser's message.
Quantity parse_ok(std::string_view text, QuantityGrammar grammar = kSdk) {
  QuantityError error{QuantityErrorKind::format, ""};
  std::optional<Quantity> q = Quantity::parse(text, grammar, &error);
  EXPECT_TRUE(q.has_value()) << "'" << text << "' was rejected: " << error.message;
  return q.value_or(Quantity::from_int(0));
}

// Parses text that must be rejected and returns the error.
QuantityError parse_error(std::string_view text, QuantityGrammar grammar = kSdk) {
  QuantityError error{QuantityErrorKind::empty, "<no error reported>"};
  std::optional<Quantity> q = Quantity::parse(text, grammar, &error);
  EXPECT_FALSE(q.has_value()) << "'" << text << "' was accepted as " << q->decimal();
  EXPECT_FALSE(error.message.empty()) << text;
  return error;
}

void expect_error(std::string_view text, QuantityGrammar grammar, QuantityErrorKind kind) {
  const QuantityError error = parse_error(text, grammar);
  EXPECT_EQ(error.kind, kind) << "'" << text << "' gave " << kind_name(error.kind) << ", wanted "
                              << kind_name(kind) << ": " << error.message;
}

void expect_decimal(std::string_view text, QuantityGrammar grammar, std::string_view decimal) {
  EXPECT_EQ(parse_ok(text, grammar).decimal(), decimal) << "input '" << text << "'";
}

void expect_canonical(std::string_view text, std::string_view canonical) {
  EXPECT_EQ(parse_ok(text, kK8s).canonical(), canonical) << "input '" << text << "'";
}

// Fewer than ten fractional digits: the value lies on Kubernetes' nano grid, so the canonical
// form must hold it exactly.
bool is_on_nano_grid(const Quantity& q) {
  const std::string d = q.decimal();
  const auto dot = d.find('.');
  return dot == std::string::npos || d.size() - dot - 1 <= 9;
}

// ---------------------------------------------------------------------------------------------
// BigUnsigned
// ---------------------------------------------------------------------------------------------

TEST(BigUnsigned, reads_and_prints_decimal_digits) {
  EXPECT_EQ(BigUnsigned::from_decimal("0")->to_string(), "0");
  EXPECT_TRUE(BigUnsigned::from_decimal("0000")->is_zero());
  EXPECT_EQ(BigUnsigned::from_decimal("000123")->to_string(), "123");
  EXPECT_EQ(BigUnsigned::from_decimal("1000000000")->to_string(), "1000000000");
  EXPECT_EQ(BigUnsigned::from_decimal("123456789012345678901234567890")->to_string(),
            "123456789012345678901234567890");
  EXPECT_EQ(BigUnsigned::from_decimal("1000000000000000000000000000001")->to_string(),
            "1000000000000000000000000000001");
  EXPECT_EQ(BigUnsigned().to_string(), "0");
  EXPECT_EQ(BigUnsigned(kUint64Max).to_string(), "18446744073709551615");
}

TEST(BigUnsigned, rejects_empty_and_non_digit_text) {
  EXPECT_FALSE(BigUnsigned::from_decimal(""));
  EXPECT_FALSE(BigUnsigned::from_decimal("12a"));
  EXPECT_FALSE(BigUnsigned::from_decimal("-1"));
  EXPECT_FALSE(BigUnsigned::from_decimal("1.5"));
  EXPECT_FALSE(BigUnsigned::from_decimal(" 1"));
}

TEST(BigUnsigned, arithmetic_carries_across_limbs) {
  BigUnsigned v(999999999);
  v.add(BigUnsigned(1));
  EXPECT_EQ(v.to_string(), "1000000000");
  v.multiply(4294967295U);
  EXPECT_EQ(v.to_string(), "4294967295000000000");
  v.add(v);  // adding itself must not read a half-updated value
  EXPECT_EQ(v.to_string(), "8589934590000000000");
  EXPECT_EQ(v.divide(7), 8589934590000000000ULL % 7);
  EXPECT_EQ(v.to_string(), std::to_string(8589934590000000000ULL / 7));
  v.multiply(0);
  EXPECT_TRUE(v.is_zero());
}

// A sum that is exactly one limb base (10^9) carries into a new limb: the value must equal the
// one built directly (member-wise equality; no limb may hold 10^9 itself) and count ten digits.
TEST(BigUnsigned, a_sum_of_exactly_the_limb_base_carries) {
  BigUnsigned v(999999999);
  v.add(BigUnsigned(1));
  EXPECT_EQ(v, BigUnsigned(1000000000));
  EXPECT_EQ(v.digits(), 10U);
  BigUnsigned w = *BigUnsigned::from_decimal("1999999999");
  w.add(BigUnsigned(1));
  EXPECT_EQ(w, *BigUnsigned::from_decimal("2000000000"));
}

// digits() counts the top limb's digits exactly at each power of ten.
TEST(BigUnsigned, digits_counts_at_powers_of_ten) {
  EXPECT_EQ(BigUnsigned().digits(), 0U);
  EXPECT_EQ(BigUnsigned(9).digits(), 1U);
  EXPECT_EQ(BigUnsigned(10).digits(), 2U);
  EXPECT_EQ(BigUnsigned(99).digits(), 2U);
  EXPECT_EQ(BigUnsigned(100).digits(), 3U);
  EXPECT_EQ(BigUnsigned(999999999).digits(), 9U);
  EXPECT_EQ(BigUnsigned(1000000000).digits(), 10U);
  EXPECT_EQ(BigUnsigned(10000000000ULL).digits(), 11U);
}

// The capacity is k_max_limbs × 9 = 360 digits: that many read, one more does not; leading zeros
// do not count against it.
TEST(BigUnsigned, from_decimal_reads_up_to_360_digits) {
  const std::size_t max_digits = BigUnsigned::k_max_limbs * 9;
  ASSERT_EQ(max_digits, 360U);
  const std::string nines(max_digits, '9');
  const auto full = BigUnsigned::from_decimal(nines);
  ASSERT_TRUE(full);
  EXPECT_EQ(full->to_string(), nines);
  EXPECT_EQ(full->digits(), max_digits);
  EXPECT_FALSE(BigUnsigned::from_decimal("1" + nines));
  const auto padded = BigUnsigned::from_decimal("0000" + nines);
  ASSERT_TRUE(padded);
  EXPECT_EQ(*padded, *full);
}

TEST(BigUnsigned, divide_returns_remainder_and_ignores_zero_divisor) {
  BigUnsigned v = *BigUnsigned::from_decimal("1000000000000000000000");  // 10^21 = 2^21 × 5^21
  EXPECT_EQ(v.divide(1024), 0U);
  EXPECT_EQ(v.to_string(), "976562500000000000");
  EXPECT_EQ(v.divide(1000000007U), 976562500000000000ULL % 1000000007ULL);
  EXPECT_EQ(v.to_string(), std::to_string(976562500000000000ULL / 1000000007ULL));
  BigUnsigned w(12345);
  EXPECT_EQ(w.divide(0), 0U);
  EXPECT_EQ(w.to_string(), "12345");
  BigUnsigned one(1);
  EXPECT_EQ(one.divide(2), 1U);
  EXPECT_TRUE(one.is_zero());
}

TEST(BigUnsigned, to_int64_stops_at_int64_max) {
  EXPECT_EQ(BigUnsigned(9223372036854775807ULL).to_int64(), kInt64Max);
  EXPECT_FALSE(BigUnsigned(9223372036854775808ULL).to_int64());
  EXPECT_FALSE(BigUnsigned(kUint64Max).to_int64());
  EXPECT_FALSE(BigUnsigned::from_decimal("100000000000000000000000000000")->to_int64());
  EXPECT_EQ(BigUnsigned().to_int64(), 0);
}

TEST(BigUnsigned, orders_by_value) {
  const BigUnsigned small(999999999);
  const BigUnsigned large(1000000000);
  EXPECT_LT(small, large);
  EXPECT_GT(large, small);
  EXPECT_EQ(BigUnsigned(5), *BigUnsigned::from_decimal("0005"));
  EXPECT_LT(BigUnsigned(), BigUnsigned(1));
  EXPECT_LT(*BigUnsigned::from_decimal("1000000000000000000"),
            *BigUnsigned::from_decimal("1000000000000000001"));
}

// ---------------------------------------------------------------------------------------------
// Grammar: numbers and suffixes
// ---------------------------------------------------------------------------------------------

TEST(Quantity, plain_numbers_parse_exactly) {
  for (const auto grammar : {kSdk, kK8s}) {
    expect_decimal("1", grammar, "1");
    expect_decimal("1.5", grammar, "1.5");
    expect_decimal("1.", grammar, "1");
    expect_decimal(".5", grammar, "0.5");
    expect_decimal("0.50", grammar, "0.5");
    expect_decimal("007", grammar, "7");
    expect_decimal("0.1", grammar, "0.1");
    expect_decimal("123456789012345678.9m", grammar, "123456789012345.6789");
    expect_decimal("0.000000000000000000000000000001", grammar, "0.000000000000000000000000000001");
  }
}

TEST(Quantity, decimal_suffixes_are_powers_of_1000) {
  for (const auto grammar : {kSdk, kK8s}) {
    expect_decimal("1m", grammar, "0.001");
    expect_decimal("100m", grammar, "0.1");
    expect_decimal("1k", grammar, "1000");
    expect_decimal("1M", grammar, "1000000");
    expect_decimal("1G", grammar, "1000000000");
    expect_decimal("1T", grammar, "1000000000000");
    expect_decimal("1P", grammar, "1000000000000000");
    expect_decimal("0.001E", grammar, "1000000000000000");
    expect_decimal("2.5k", grammar, "2500");
    expect_decimal(".5M", grammar, "500000");
    expect_decimal("1.G", grammar, "1000000000");
    expect_decimal("1E", grammar, "1000000000000000000");  // 10^18 units: past int64 milli-units, exact
  }
}

TEST(Quantity, binary_suffix_is_power_of_1024) {
  for (const auto grammar : {kSdk, kK8s}) {
    expect_decimal("1Ki", grammar, "1024");
    expect_decimal("1Mi", grammar, "1048576");
    expect_decimal("1Gi", grammar, "1073741824");
    expect_decimal("1Ti", grammar, "1099511627776");
    expect_decimal("1Pi", grammar, "1125899906842624");
    expect_decimal("8Pi", grammar, "9007199254740992");
    expect_decimal("0.001Ei", grammar, "1152921504606846.976");
    expect_decimal("1.5Gi", grammar, "1610612736");
    expect_decimal("0.5Ki", grammar, "512");
    expect_decimal("1Ei", grammar, "1152921504606846976");  // 2^60 units
  }
}

TEST(Quantity, n_u_and_plus_are_kubernetes_only) {
  expect_decimal("1n", kK8s, "0.000000001");
  expect_decimal("1u", kK8s, "0.000001");
  expect_decimal("1.5u", kK8s, "0.0000015");
  expect_decimal("+1", kK8s, "1");
  expect_decimal("+1.5Gi", kK8s, "1610612736");
  expect_decimal("+.5e1", kK8s, "5");
  expect_error("1n", kSdk, QuantityErrorKind::format);
  expect_error("1u", kSdk, QuantityErrorKind::format);
  expect_error("+1", kSdk, QuantityErrorKind::format);
  expect_error("+1Gi", kSdk, QuantityErrorKind::format);
}

TEST(Quantity, exponent_forms_scale_by_powers_of_ten) {
  for (const auto grammar : {kSdk, kK8s}) {
    expect_decimal("1e3", grammar, "1000");
    expect_decimal("1E3", grammar, "1000");
    expect_decimal("1e+3", grammar, "1000");
    expect_decimal("1e-3", grammar, "0.001");
    expect_decimal("1E-3", grammar, "0.001");
    expect_decimal("1.5e3", grammar, "1500");
    expect_decimal("1.e3", grammar, "1000");
    expect_decimal(".5e1", grammar, "5");
    expect_decimal("1e0", grammar, "1");
    expect_decimal("1e-0", grammar, "1");
    expect_decimal("25e-1", grammar, "2.5");
    expect_decimal("1e003", grammar, "1000");
    EXPECT_EQ(parse_ok("1e3", grammar).format(), Format::decimal_exponent);
    EXPECT_EQ(parse_ok("1E3", grammar).format(), Format::decimal_exponent);
  }
}

TEST(Quantity, kubernetes_capital_E_alone_is_exa) {
  expect_decimal("1E", kK8s, "1000000000000000000");  // past int64 milli-units, exact (SPEC §9)
  expect_decimal("0.001E", kK8s, "1000000000000000");
  EXPECT_EQ(parse_ok("0.001E", kK8s).format(), Format::decimal_si);
  expect_decimal("1E3", kK8s, "1000");
  EXPECT_EQ(parse_ok("1E3", kK8s).format(), Format::decimal_exponent);
  expect_decimal("1E+3", kK8s, "1000");
  expect_decimal("1E-3", kK8s, "0.001");
  expect_error("1e", kK8s, QuantityErrorKind::format);  // lower-case e is not a suffix
  expect_error("1E+", kK8s, QuantityErrorKind::format);
}

TEST(Quantity, format_is_remembered_from_the_suffix) {
  EXPECT_EQ(parse_ok("1").format(), Format::decimal_si);
  EXPECT_EQ(parse_ok("1m").format(), Format::decimal_si);
  EXPECT_EQ(parse_ok("1k").format(), Format::decimal_si);
  EXPECT_EQ(parse_ok("1Ki").format(), Format::binary_si);
  EXPECT_EQ(parse_ok("0Gi").format(), Format::binary_si);
  EXPECT_EQ(parse_ok("1e3").format(), Format::decimal_exponent);
  EXPECT_EQ(parse_ok("1n", kK8s).format(), Format::decimal_si);
  EXPECT_EQ(parse_ok("0.5Ki").format(), Format::binary_si);
  // Kubernetes turns a binary quantity below one unit into a decimal one.
  EXPECT_EQ(parse_ok("0.0005Ki").format(), Format::decimal_si);
  EXPECT_EQ(parse_ok(".000000000001Ki", kK8s).format(), Format::decimal_si);
}

TEST(Quantity, zero_is_valid_in_every_form) {
  for (const auto* text : {"0", "0m", "0k", "0Gi", "0Ei", "0E", "0.0", ".0", "0.", "0e5", "0e-30",
                           "000"}) {
    for (const auto grammar : {kSdk, kK8s}) {
      const Quantity q = parse_ok(text, grammar);
      EXPECT_TRUE(q.is_zero()) << text;
      EXPECT_EQ(q.decimal(), "0") << text;
      EXPECT_EQ(q.canonical(), "0") << text;
      EXPECT_EQ(q.milli(), 0) << text;
      EXPECT_EQ(q, Quantity::from_int(0)) << text;
    }
  }
  for (const auto* text : {"0n", "0u", "+0", "+0Ki"}) EXPECT_TRUE(parse_ok(text, kK8s).is_zero()) << text;
}

// ---------------------------------------------------------------------------------------------
// Grammar: errors
// ---------------------------------------------------------------------------------------------

TEST(Quantity, sdk_error_messages_match_the_sdk) {
  QuantityError e = parse_error("");
  EXPECT_EQ(e.kind, QuantityErrorKind::empty);
  EXPECT_EQ(e.message, "empty quantity string");

  e = parse_error(" \t\n\r\f\v ");
  EXPECT_EQ(e.kind, QuantityErrorKind::empty);
  EXPECT_EQ(e.message, "empty quantity string");

  e = parse_error("-1");
  EXPECT_EQ(e.kind, QuantityErrorKind::negative);
  EXPECT_EQ(e.message, "negative quantities are not allowed: '-1'");

  e = parse_error("  -5Gi\n");  // the message quotes the trimmed text
  EXPECT_EQ(e.kind, QuantityErrorKind::negative);
  EXPECT_EQ(e.message, "negative quantities are not allowed: '-5Gi'");

  e = parse_error("1e3Mi");
  EXPECT_EQ(e.kind, QuantityErrorKind::exponent_with_suffix);
  EXPECT_EQ(e.message, "scientific notation with suffix is not allowed: '1e3Mi'");

  e = parse_error("abc");
  EXPECT_EQ(e.kind, QuantityErrorKind::format);
  EXPECT_EQ(e.message, "unrecognized quantity format: 'abc'");

  e = parse_error(" 1 Gi ");
  EXPECT_EQ(e.kind, QuantityErrorKind::format);
  EXPECT_EQ(e.message, "unrecognized quantity format: '1 Gi'");
}

TEST(Quantity, kubernetes_error_messages_quote_the_text) {
  QuantityError e = parse_error("", kK8s);
  EXPECT_EQ(e.kind, QuantityErrorKind::empty);
  EXPECT_EQ(e.message, "empty quantity string");

  e = parse_error("-1Gi", kK8s);
  EXPECT_EQ(e.kind, QuantityErrorKind::negative);
  EXPECT_EQ(e.message, "negative quantities are not allowed: '-1Gi'");

  e = parse_error(" 1Gi", kK8s);
  EXPECT_EQ(e.kind, QuantityErrorKind::format);
  EXPECT_EQ(e.message, "unrecognized quantity format: ' 1Gi'");

  e = parse_error("1e3Mi", kK8s);  // not a named error here: just not a Kubernetes suffix
  EXPECT_EQ(e.kind, QuantityErrorKind::format);
  EXPECT_EQ(e.message, "unrecognized quantity format: '1e3Mi'");
}

TEST(Quantity, sdk_rejects_malformed_text_as_format) {
  for (const auto* text :
       {"abc", "1.2.3Gi", "m", "1e", "Ki", "1gi", "1K", "1 Gi", "+1", "1_000", "inf", "nan",
        "0x10", ".", ".m", ".e3", "e3", "1e3.5", "1..", "1Mm", "1 000", "Infinity", "1e+",
        "1e-", "1ee3", "1e3e3", "1k3", "1KiB", "1Kib", "1i", "Mi", "1mi", "0.1am", "1.1.M",
        "1+1.0M", "1,5", "１", "1\xff", "1\t5"}) {
    expect_error(text, kSdk, QuantityErrorKind::format);
  }
}

TEST(Quantity, kubernetes_rejects_malformed_text_as_format) {
  for (const auto* text :
       {"abc", "1.2.3Gi", "m", "1e", "Ki", "1gi", "1K", "1 Gi", "1_000", "inf", "nan", "0x10",
        ".", "+", "++1", "+-1", "1e3.5", "1Mm", "1k3", "1KiB", "1i", ".5i", "1mi", "0.1am",
        "1.1.M", "1+1.0M", " 1", "1 ", "\t1", "1\n", "1e3Mi", "1e3m", "1E+", "1e-", "1N", "1U",
        "1nn", "1Eii"}) {
    expect_error(text, kK8s, QuantityErrorKind::format);
  }
}

TEST(Quantity, leading_minus_is_negative_in_both_grammars) {
  for (const auto grammar : {kSdk, kK8s}) {
    for (const auto* text : {"-1", "-0", "-", "-1Gi", "-abc", "-3.01e-", "-1e999999"}) {
      expect_error(text, grammar, QuantityErrorKind::negative);
    }
  }
}

TEST(Quantity, sdk_rejects_exponent_with_suffix_by_name) {
  for (const auto* text : {"1e3m", "1E2k", "1.5e3Gi", "1e3Mi", "1eM", "1e-3Ki", "2E6E"}) {
    expect_error(text, kSdk, QuantityErrorKind::exponent_with_suffix);
  }
}

TEST(Quantity, sdk_trims_ascii_white_space) {
  const Quantity q = parse_ok(" \t1Gi\r\n\f\v");
  EXPECT_TRUE(q.trimmed());
  EXPECT_EQ(q.decimal(), "1073741824");
  EXPECT_FALSE(parse_ok("1Gi").trimmed());
  EXPECT_TRUE(parse_ok("1 ").trimmed());
  EXPECT_TRUE(parse_ok("\n500m").trimmed());
  // Non-ASCII white space (U+00A0) is not trimmed.
  expect_error("\xc2\xa0" "1", kSdk, QuantityErrorKind::format);
  // The Kubernetes grammar never trims.
  expect_error(" 1Gi", kK8s, QuantityErrorKind::format);
  EXPECT_FALSE(parse_ok("1Gi", kK8s).trimmed());
}

TEST(Quantity, messages_quote_like_python_repr) {
  EXPECT_EQ(parse_error("it's").message, "unrecognized quantity format: \"it's\"");
  EXPECT_EQ(parse_error("a'b\"c").message, R"(unrecognized quantity format: 'a\'b"c')");
  EXPECT_EQ(parse_error("1\t5").message, R"(unrecognized quantity format: '1\t5')");
  EXPECT_EQ(parse_error("1\n5").message, R"(unrecognized quantity format: '1\n5')");
  EXPECT_EQ(parse_error("a\\b").message, R"(unrecognized quantity format: 'a\\b')");
  EXPECT_EQ(parse_error(std::string_view("1\x01", 2)).message,
            R"(unrecognized quantity format: '1\x01')");
  EXPECT_EQ(parse_error(std::string_view("1\0", 2)).message,
            R"(unrecognized quantity format: '1\x00')");
  EXPECT_EQ(parse_error("1\x7f").message, R"(unrecognized quantity format: '1\x7f')");
  // Stray bytes are escaped so the message stays valid UTF-8; real UTF-8 is kept.
  EXPECT_EQ(parse_error("1\xff").message, R"(unrecognized quantity format: '1\xff')");
  EXPECT_EQ(parse_error("1\xc3").message, R"(unrecognized quantity format: '1\xc3')");
  EXPECT_EQ(parse_error("\xed\xa0\x80").message,  // an encoded surrogate is not UTF-8
            R"(unrecognized quantity format: '\xed\xa0\x80')");
  EXPECT_EQ(parse_error("1\xc3\xa9").message, "unrecognized quantity format: '1\xc3\xa9'");
  EXPECT_EQ(parse_error("\xe2\x82\xac" "5").message, "unrecognized quantity format: '\xe2\x82\xac" "5'");
}

// The ends of each UTF-8 lead range and of each second-byte range (overlongs, surrogates and code
// points past U+10FFFF excluded): a well-formed sequence is kept, a byte of an ill-formed one is
// escaped, as Python's repr shows what decoding with surrogateescape gave it.
TEST(Quantity, messages_keep_exactly_the_well_formed_utf8) {
  const auto shown = [](std::string_view text) {
    const std::string m = parse_error(text).message;
    const std::string_view prefix = "unrecognized quantity format: '";
    EXPECT_EQ(m.compare(0, prefix.size(), prefix), 0) << m;
    return m.substr(prefix.size(), m.size() - prefix.size() - 1);
  };
  for (const char* kept : {"\xc2\x80", "\xdf\xbf", "\xe0\xa0\x80", "\xe1\x80\x80", "\xed\x9f\xbf",
                           "\xef\xbf\xbf", "\xf0\x90\x80\x80", "\xf0\xbf\xbf\xbf", "\xf4\x80\x80\x80",
                           "\xf4\x8f\xbf\xbf", "\xf1\x80\xbf\x80"}) {
    EXPECT_EQ(shown(std::string("1") + kept), std::string("1") + kept) << "kept";
  }
  EXPECT_EQ(shown("1\xc1\xbf"), R"(1\xc1\xbf)");          // a lead below C2 is an overlong
  EXPECT_EQ(shown("1\xe0\x9f\xbf"), R"(1\xe0\x9f\xbf)");  // E0 needs A0 or more
  EXPECT_EQ(shown("1\xed\xa0\x80"), R"(1\xed\xa0\x80)");  // ED A0: a surrogate
  EXPECT_EQ(shown("1\xf0\x8f\xbf\xbf"), R"(1\xf0\x8f\xbf\xbf)");  // F0 needs 90 or more
  EXPECT_EQ(shown("1\xf4\x90\x80\x80"), R"(1\xf4\x90\x80\x80)");  // past U+10FFFF
  EXPECT_EQ(shown("1\xf5\x80\x80\x80"), R"(1\xf5\x80\x80\x80)");  // no lead past F4
  EXPECT_EQ(shown("1\xe1\x80\x7f"), R"(1\xe1\x80\x7f)");  // a third byte below 80
  EXPECT_EQ(shown("1\xe1\x80\xc0"), R"(1\xe1\x80\xc0)");  // a third byte past BF
  EXPECT_EQ(shown("1\xc2\x7f"), R"(1\xc2\x7f)");          // a second byte below 80
  EXPECT_EQ(shown("1\xdf\xc0"), R"(1\xdf\xc0)");          // a second byte past BF
}

TEST(Quantity, length_limit_is_64_characters) {
  const std::string ok64 = "0." + std::string(61, '0') + "1";  // 64 characters
  ASSERT_EQ(ok64.size(), 64U);
  for (const auto grammar : {kSdk, kK8s}) {
    EXPECT_EQ(parse_ok(ok64, grammar).decimal(), ok64);
    const std::string long65 = ok64 + "0";
    const QuantityError e = parse_error(long65, grammar);
    EXPECT_EQ(e.kind, QuantityErrorKind::too_long);
    EXPECT_EQ(e.message, "quantity is longer than 64 characters: '" + long65.substr(0, 64) + "...'");
  }
  // The SDK counts the white space it would trim.
  const std::string padded = std::string(61, ' ') + "1Gi";
  ASSERT_EQ(padded.size(), 64U);
  EXPECT_TRUE(parse_ok(padded).trimmed());
  expect_error(padded + " ", kSdk, QuantityErrorKind::too_long);
  expect_error(std::string(65, ' '), kSdk, QuantityErrorKind::too_long);
  expect_error(std::string(1000000, '1'), kSdk, QuantityErrorKind::too_long);
}

TEST(Quantity, exponent_magnitude_limit_is_30) {
  for (const auto grammar : {kSdk, kK8s}) {
    expect_decimal("1e-30", grammar, "0." + std::string(29, '0') + "1");
    expect_decimal("1e-030", grammar, "0." + std::string(29, '0') + "1");
    expect_decimal("0.000000000000000000000000000001e30", grammar, "1");
    expect_decimal("1e30", grammar, "1" + std::string(30, '0'));  // in range, and a huge value
    expect_decimal("1e+30", grammar, "1" + std::string(30, '0'));
    expect_error("1e31", grammar, QuantityErrorKind::exponent_too_large);
    expect_error("1e-31", grammar, QuantityErrorKind::exponent_too_large);
    expect_error("0e31", grammar, QuantityErrorKind::exponent_too_large);
    expect_error("1e+0000031", grammar, QuantityErrorKind::exponent_too_large);
    const QuantityError e = parse_error("1e-31", grammar);
    EXPECT_EQ(e.message, "exponent -31 is out of range (magnitude at most 30): '1e-31'");
  }
  EXPECT_EQ(parse_error("2.5E+031", kK8s).message,
            "exponent +031 is out of range (magnitude at most 30): '2.5E+031'");
}

TEST(Quantity, hostile_exponents_are_rejected_quickly) {
  const auto start = std::chrono::steady_clock::now();
  for (const auto grammar : {kSdk, kK8s}) {
    for (const auto* text :
         {"2E6024865272343", "1e4294967297", "1e-2147483647", "1e2147483648", "1e-9223372036854775809",
          "1e18446744073709551617", "1e99999999999999999999999999999999999999999999999999999999999"}) {
      expect_error(text, grammar, QuantityErrorKind::exponent_too_large);
    }
  }
  const auto elapsed = std::chrono::steady_clock::now() - start;
  EXPECT_LT(elapsed, std::chrono::seconds(1));
}

TEST(Quantity, values_above_int64_milli_units_are_exact) {
  // SPEC §9: the SDK's Decimal has no upper bound, and neither has the parse; only the integer
  // views (milli, ceil_units, ceil_div) say nullopt past int64.
  for (const auto grammar : {kSdk, kK8s}) {
    EXPECT_EQ(parse_ok("9223372036854775807m", grammar).milli(), kInt64Max);
    EXPECT_EQ(parse_ok("9223372036854775.807", grammar).milli(), kInt64Max);
    EXPECT_EQ(parse_ok("9223372036854775.8069999999999", grammar).milli(), kInt64Max);
    EXPECT_EQ(parse_ok("9223372036854775808m", grammar).milli(), std::nullopt);
    EXPECT_EQ(parse_ok("9223372036854775.8071", grammar).milli(), std::nullopt);
    expect_decimal("9223372036854775808m", grammar, "9223372036854775.808");
    expect_decimal("9223372036854776", grammar, "9223372036854776");
    expect_decimal("9E", grammar, "9000000000000000000");
    expect_decimal("1e16", grammar, "10000000000000000");
    EXPECT_EQ(parse_ok("8Pi", grammar).ceil_units(), 9007199254740992);
    EXPECT_EQ(parse_ok("9.223372036854775807e15", grammar).milli(), kInt64Max);
    // Exact comparisons past int64: one milli-unit apart, and 1Ei against 1E.
    EXPECT_LT(parse_ok("9223372036854775807m", grammar), parse_ok("9223372036854775808m", grammar));
    EXPECT_GT(parse_ok("1Ei", grammar), parse_ok("1E", grammar));
    EXPECT_EQ(parse_ok("1024Pi", grammar), parse_ok("1Ei", grammar));
    EXPECT_EQ(parse_ok("1Ei", grammar).canonical(), "1Ei");
    EXPECT_EQ(parse_ok("1E", grammar).canonical(), "1E");
    EXPECT_EQ(parse_ok("1E", grammar).ceil_units(), 1000000000000000000);  // units still fit
    EXPECT_EQ(parse_ok("10E", grammar).ceil_units(), std::nullopt);
  }
  // The largest the SDK grammar admits (64 characters), exact: (10^62 - 1) × 2^60.
  expect_decimal(std::string(62, '9') + "Ei", kSdk, "115292150460684697599999999999999999999999999999999999999999998847078495393153024");
  EXPECT_EQ(parse_ok(std::string(62, '9') + "Ei").milli(), std::nullopt);
}

// ---------------------------------------------------------------------------------------------
// Comparison and arithmetic
// ---------------------------------------------------------------------------------------------

TEST(Quantity, comparisons_are_exact) {
  EXPECT_GT(parse_ok("1Gi"), parse_ok("1000Mi"));
  EXPECT_LT(parse_ok("1G"), parse_ok("1Gi"));
  EXPECT_EQ(parse_ok("0.1"), parse_ok("100m"));
  EXPECT_EQ(parse_ok("1000m"), parse_ok("1"));
  EXPECT_EQ(parse_ok("0.5"), parse_ok("500m"));
  EXPECT_EQ(parse_ok("1k"), parse_ok("1000"));
  EXPECT_EQ(parse_ok("1k"), parse_ok("1e3"));
  EXPECT_EQ(parse_ok("1024"), parse_ok("1Ki"));
  EXPECT_NE(parse_ok("1Ki"), parse_ok("1k"));
  EXPECT_GT(parse_ok("1Ki"), parse_ok("1k"));
  EXPECT_GT(parse_ok("100m"), parse_ok("50m"));  // from k8s TestQuantityCmp
  EXPECT_LT(parse_ok("50m"), parse_ok("100m"));
  EXPECT_GT(parse_ok("1000T"), parse_ok("100Gi"));  // k8s uses 10000T, above our limit
  EXPECT_GT(parse_ok("1e-30"), parse_ok("0"));
  EXPECT_EQ(parse_ok("1e-30"), parse_ok("0.000000000000000000000000000001"));
  EXPECT_GT(parse_ok("1.0000000000000000000000000000001"), parse_ok("1"));
  EXPECT_LT(parse_ok("0.9999999999999999999999999999999"), parse_ok("1"));
  EXPECT_EQ(parse_ok("1.5Gi") <=> parse_ok("1536Mi"), std::strong_ordering::equal);
  EXPECT_EQ(parse_ok("0.8") <=> parse_ok("0.79"), std::strong_ordering::greater);
  EXPECT_EQ(Quantity::from_int(kUint64Max) <=> parse_ok("1e-30"), std::strong_ordering::greater);
}

TEST(Quantity, equality_ignores_format_and_trimming) {
  const Quantity a = parse_ok(" 1Ki ");
  const Quantity b = parse_ok("1024");
  EXPECT_NE(a.format(), b.format());
  EXPECT_NE(a.trimmed(), b.trimmed());
  EXPECT_EQ(a, b);
  EXPECT_EQ(parse_ok("1e3"), Quantity::from_int(1000, Format::binary_si));
}

TEST(Quantity, plus_is_exact_and_keeps_left_format) {
  const Quantity sum = parse_ok("0.1").plus(parse_ok("0.2"));
  EXPECT_EQ(sum, parse_ok("300m"));
  EXPECT_EQ(sum.canonical(), "300m");
  const Quantity memory = parse_ok("1Gi").plus(parse_ok("512Mi"));
  EXPECT_EQ(memory, parse_ok("1.5Gi"));
  EXPECT_EQ(memory.format(), Format::binary_si);
  EXPECT_EQ(memory.canonical(), "1536Mi");
  const Quantity mixed = parse_ok("1").plus(parse_ok("1Ki"));
  EXPECT_EQ(mixed.format(), Format::decimal_si);
  EXPECT_EQ(mixed.canonical(), "1025");
  EXPECT_EQ(parse_ok("1e-30").plus(parse_ok("1k")).decimal(), "1000." + std::string(29, '0') + "1");
  EXPECT_EQ(parse_ok("0").plus(parse_ok("100m")).canonical(), "100m");
  EXPECT_FALSE(parse_ok(" 1").plus(parse_ok("1")).trimmed());
}

TEST(Quantity, times_multiplies_exactly) {
  EXPECT_EQ(parse_ok("1.5Gi").times(2), parse_ok("3Gi"));
  EXPECT_EQ(parse_ok("1.5Gi").times(2).format(), Format::binary_si);
  EXPECT_EQ(parse_ok("100m").times(10), parse_ok("1"));
  EXPECT_TRUE(parse_ok("5Gi").times(0).is_zero());
  EXPECT_EQ(Quantity::from_int(kUint64Max).times(4294967295U).decimal(), "79228162495817593515539431425");
}

TEST(Quantity, fraction_floor_takes_whole_units) {
  const Quantity quarter = parse_ok("4Gi").fraction_floor(25, 100);
  EXPECT_EQ(quarter.ceil_units(), 1073741824);
  EXPECT_EQ(quarter.format(), Format::binary_si);
  EXPECT_EQ(quarter.canonical(), "1Gi");
  EXPECT_EQ(parse_ok("3").fraction_floor(50, 100).decimal(), "1");
  EXPECT_EQ(parse_ok("1.5").fraction_floor(1, 1).decimal(), "1");
  EXPECT_EQ(parse_ok("999m").fraction_floor(1, 1).decimal(), "0");
  EXPECT_EQ(parse_ok("2.5").fraction_floor(3, 2).decimal(), "3");  // 3.75
  EXPECT_EQ(parse_ok("1k").fraction_floor(1, 3).decimal(), "333");
  EXPECT_EQ(parse_ok("1e-30").fraction_floor(1, 1).decimal(), "0");
  EXPECT_EQ(parse_ok("10Gi").fraction_floor(4294967295U, 4294967295U), parse_ok("10Gi"));
  EXPECT_EQ(parse_ok("7").fraction_floor(1, 0).decimal(), "0");
  EXPECT_EQ(parse_ok("1.999999999999").fraction_floor(2, 1).decimal(), "3");
}

// ---------------------------------------------------------------------------------------------
// Integer views
// ---------------------------------------------------------------------------------------------

TEST(Quantity, milli_rounds_up) {
  EXPECT_EQ(parse_ok("1").milli(), 1000);
  EXPECT_EQ(parse_ok("100m").milli(), 100);
  EXPECT_EQ(parse_ok("1.5").milli(), 1500);
  EXPECT_EQ(parse_ok("0.1m").milli(), 1);
  EXPECT_EQ(parse_ok("1n", kK8s).milli(), 1);
  EXPECT_EQ(parse_ok("1.0001").milli(), 1001);
  EXPECT_EQ(parse_ok("0").milli(), 0);
  EXPECT_EQ(parse_ok("1Gi").milli(), 1073741824000);
  EXPECT_EQ(Quantity::from_int(9223372036854775ULL).milli(), 9223372036854775000);
  EXPECT_FALSE(Quantity::from_int(9223372036854776ULL).milli());
  EXPECT_FALSE(Quantity::from_int(kUint64Max).milli());
}

TEST(Quantity, ceil_units_rounds_up) {
  EXPECT_EQ(parse_ok("500m").ceil_units(), 1);
  EXPECT_EQ(parse_ok("1").ceil_units(), 1);
  EXPECT_EQ(parse_ok("1.2").ceil_units(), 2);
  EXPECT_EQ(parse_ok("0").ceil_units(), 0);
  EXPECT_EQ(parse_ok("1e-30").ceil_units(), 1);
  EXPECT_EQ(parse_ok("1.0000000001").ceil_units(), 2);
  EXPECT_EQ(parse_ok("1000m").ceil_units(), 1);
  EXPECT_EQ(parse_ok("1Gi").ceil_units(), 1073741824);
  EXPECT_EQ(parse_ok("1.5Ki").ceil_units(), 1536);
  EXPECT_EQ(Quantity::from_int(9223372036854775807ULL).ceil_units(), kInt64Max);
  EXPECT_FALSE(Quantity::from_int(9223372036854775808ULL).ceil_units());
}

TEST(Quantity, ceil_div_rounds_the_quotient_up) {
  EXPECT_EQ(parse_ok("1G").ceil_div(1048576), 954);
  EXPECT_EQ(parse_ok("512Mi").ceil_div(1048576), 512);
  EXPECT_EQ(parse_ok("1Gi").ceil_div(1048576), 1024);
  EXPECT_EQ(parse_ok("1").ceil_div(1048576), 1);
  EXPECT_EQ(parse_ok("1m").ceil_div(1048576), 1);
  EXPECT_EQ(parse_ok("0").ceil_div(1048576), 0);
  EXPECT_EQ(parse_ok("1.5").ceil_div(1), 2);
  EXPECT_EQ(parse_ok("2.5").ceil_div(2), 2);   // ceil(1.25)
  EXPECT_EQ(parse_ok("4.5").ceil_div(2), 3);   // ceil(2.25)
  EXPECT_EQ(parse_ok("1Gi").ceil_div(1024), 1048576);
  EXPECT_FALSE(parse_ok("1").ceil_div(0));
  // Divisors beyond 32 bits.
  EXPECT_EQ(parse_ok("8Pi").ceil_div(1099511627776ULL), 8192);
  EXPECT_EQ(parse_ok("9007199254740993").ceil_div(1099511627776ULL), 8193);
  EXPECT_EQ(parse_ok("1").ceil_div(kUint64Max), 1);
  EXPECT_EQ(Quantity::from_int(kUint64Max).ceil_div(kUint64Max), 1);
  EXPECT_EQ(Quantity::from_int(kUint64Max - 1).ceil_div(kUint64Max), 1);
  EXPECT_EQ(Quantity::from_int(kUint64Max).ceil_div(kUint64Max - 1), 2);
  EXPECT_EQ(Quantity::from_int(9223372036854775807ULL).times(4).ceil_div(4), kInt64Max);
  EXPECT_EQ(Quantity::from_int(kUint64Max).times(1000).ceil_div(1000ULL * 1000 * 1000 * 1000),
            18446744074);  // ceil(18446744073.709551615)
  EXPECT_FALSE(Quantity::from_int(kUint64Max).ceil_div(1));
}

// ---------------------------------------------------------------------------------------------
// Printing
// ---------------------------------------------------------------------------------------------

TEST(Quantity, decimal_prints_the_plain_exact_value) {
  const std::vector<std::pair<const char*, const char*>> table = {
      {"1.5Gi", "1610612736"}, {"100m", "0.1"},     {"1e3", "1000"},       {"0.50", "0.5"},
      {"0", "0"},              {"1n", "0.000000001"}, {"1500m", "1.5"},    {"2000m", "2"},
      {"10", "10"},            {"1.10", "1.1"},     {"00.0100", "0.01"},   {"1e-3", "0.001"},
      {"12.5e-1", "1.25"},     {"0.001k", "1"},     {"3.14159", "3.14159"}, {"1P", "1000000000000000"},
      {"100.035Ki", "102435.84"}, {"1.2056318359375Ki", "1234.567"}};
  for (const auto& [text, decimal] : table) expect_decimal(text, kK8s, decimal);
  EXPECT_EQ(Quantity::from_int(kUint64Max).decimal(), "18446744073709551615");
  EXPECT_EQ(Quantity::from_int(1000).decimal(), "1000");
}

// Kubernetes' TestQuantityString table (non-negative rows within our limits), written as the
// text that yields each decQuantity(value, format), plus its "alternate" spellings.
TEST(Quantity, canonical_matches_kubernetes_string_table) {
  const std::vector<std::pair<const char*, const char*>> table = {
      // BinarySI
      {"1Gi", "1Gi"}, {"1024Mi", "1Gi"}, {"300Mi", "300Mi"}, {"307200Ki", "300Mi"},
      {"6Ki", "6Ki"}, {"1001Gi", "1001Gi"}, {"1025024Mi", "1001Gi"}, {"1Ti", "1Ti"},
      {"1024Gi", "1Ti"}, {"0.0048828125Ki", "5"}, {"0.00048828125Ki", "500m"},
      {"1.2056318359375Ki", "1234567m"}, {"1.0009765625Ki", "1025"},
      // DecimalSI
      {"1G", "1G"}, {"1000M", "1G"}, {"0.001T", "1G"}, {"1000000k", "1G"}, {"1000000000", "1G"},
      {"1m", "1m"}, {"1000u", "1m"}, {"80m", "80m"}, {"1080m", "1080m"}, {"1.08", "1080m"},
      {"1080000000n", "1080m"}, {"1.0800", "1080m"}, {"300M", "300M"}, {"1T", "1T"},
      {"1234567M", "1234567M"}, {"3k", "3k"}, {"0", "0"}, {"1n", "1n"}, {"80n", "80n"},
      {"1080n", "1080n"}, {"0.00000108", "1080n"}, {"0.0000010800", "1080n"}, {"1u", "1u"},
      {"80u", "80u"}, {"1080u", "1080u"},
      // DecimalExponent
      {"1e9", "1e9"}, {".001e12", "1e9"}, {"1e-3", "1e-3"}, {"0.001e0", "1e-3"},
      {"1e-9", "1e-9"}, {"1000e-12", "1e-9"}, {"80e-3", "80e-3"}, {"300e6", "300e6"},
      {"1e12", "1e12"}, {"1e3", "1e3"}, {"3e3", "3e3"}, {"0e0", "0"}, {"00", "0"},
  };
  for (const auto& [text, canonical] : table) expect_canonical(text, canonical);
}

// Kubernetes' TestQuantityParse table: what each text reads as, printed canonically.
TEST(Quantity, canonical_of_kubernetes_parse_table) {
  const std::vector<std::pair<const char*, const char*>> table = {
      {"0n", "0"}, {"0Ki", "0"}, {"1", "1"}, {"1Ki", "1Ki"}, {"8Ki", "8Ki"}, {"7Mi", "7Mi"},
      {"6Gi", "6Gi"}, {"5Ti", "5Ti"}, {"4Pi", "4Pi"}, {"10Ti", "10Ti"}, {"100Ti", "100Ti"},
      {"5n", "5n"}, {"4u", "4u"}, {"3m", "3m"}, {"9", "9"}, {"8k", "8k"}, {"50k", "50k"},
      {"7M", "7M"}, {"6G", "6G"}, {"5T", "5T"}, {"40T", "40T"}, {"300T", "300T"}, {"2P", "2P"},
      {"1E-3", "1e-3"}, {"1E6", "1e6"}, {"1E12", "1e12"}, {"1e15", "1e15"}, {"1e14", "100e12"},
      {"1e13", "10e12"}, {"100.035k", "100035"}, {"0.001", "1m"}, {"0.0005k", "500m"},
      {"0.005", "5m"}, {"0.05", "50m"}, {"0.5", "500m"}, {"0.00050k", "500m"},
      {"0.5e0", "500e-3"}, {"0.5e-1", "50e-3"}, {"0.5e-2", "5e-3"}, {"10.035M", "10035k"},
      {"1.2e3", "1200"}, {"1.3E+6", "1300e3"}, {"1.40e9", "1400e6"}, {"1.53E12", "1530e9"},
      {"1.6e15", "1600e12"}, {"9.01", "9010m"}, {"8.1k", "8100"}, {"7.123456M", "7123456"},
      {"6.987654321G", "6987654321"}, {"5.444T", "5444G"}, {"40.1T", "40100G"},
      {"300.2T", "300200G"}, {"2.5P", "2500T"},
      // Things that round up to a nano.
      {"3.001n", "4n"}, {"1.1E-9", "2e-9"}, {"0.0000000001", "1n"}, {"0.0000000005", "1n"},
      {"0.00000000050", "1n"}, {"0.5e-9", "1e-9"}, {"0.9n", "1n"}, {"0.00000012345", "124n"},
      {"0.00000012354", "124n"}, {"1e-30", "1e-9"}, {"0.000000000000000000000000000001", "1n"},
      // Fractional binary values fall back to the decimal form.
      {"100.035Ki", "102435840m"}, {"0.5Mi", "512Ki"}, {"0.05Gi", "53687091200m"},
      {"0.025Ti", "27487790694400m"}, {"0.000000000001Ki", "2n"}, {".001", "1m"},
      {".0001k", "100m"}, {"1.", "1"}, {"1.G", "1G"},
      // TestQuantityParseEmit.
      {"1Mi", "1Mi"}, {".001Ki", "1024m"}, {".000001Ki", "1024u"}, {".000000001Ki", "1024n"},
      {".000000000001Ki", "2n"},
  };
  for (const auto& [text, canonical] : table) expect_canonical(text, canonical);
}

TEST(Quantity, canonical_examples_from_the_spec) {
  const std::vector<std::pair<const char*, const char*>> table = {
      {"1.5Gi", "1536Mi"}, {"1Gi", "1Gi"}, {"1025Ki", "1025Ki"}, {"1536", "1536"},
      {"1024", "1024"},    {"1.5Ki", "1536"}, {"0.1", "100m"},  {"1.5", "1500m"},
      {"1000", "1k"},      {"1500", "1500"}, {"100m", "100m"}, {"1500m", "1500m"},
      {"2000m", "2"},      {"1G", "1G"},     {"1000M", "1G"},  {"1e3", "1e3"},
      {"1.5e3", "1500"},   {"1e6", "1e6"},   {"100e-3", "100e-3"}, {"1023.9999999999Ki", "1048575999999898n"},
      {"1023Ki", "1023Ki"}, {"1024Ki", "1Mi"}, {"1Ki", "1Ki"}, {"1023", "1023"},
  };
  for (const auto& [text, canonical] : table) expect_canonical(text, canonical);
  // Rounding up to a nano happens before the binary check, as in Kubernetes (which rounds when
  // it parses): just below 1024 becomes a whole 1024 and so prints as binary.
  expect_canonical("0.9999999999999Ki", "1Ki");
  expect_canonical("1023.9999999999", "1024");
}

TEST(Quantity, canonical_of_large_whole_numbers) {
  EXPECT_EQ(Quantity::from_int(1000000000000000000ULL).canonical(), "1E");
  EXPECT_EQ(Quantity::from_int(10000000000000000000ULL).canonical(), "10E");
  // DecimalSI has no suffix above E: like current Kubernetes, fall back to an exponent.
  EXPECT_EQ(Quantity::from_int(10000000000000000000ULL).times(100).canonical(), "1e21");
  EXPECT_EQ(Quantity::from_int(5000000000000000000ULL).times(1000).canonical(), "5e21");
  EXPECT_EQ(Quantity::from_int(1000000000000000000ULL).times(1000000).canonical(), "1e24");
  EXPECT_EQ(Quantity::from_int(kUint64Max).canonical(), "18446744073709551615");
  EXPECT_EQ(Quantity::from_int(kUint64Max, Format::binary_si).canonical(), "18446744073709551615");
  EXPECT_EQ(Quantity::from_int(1ULL << 60, Format::binary_si).canonical(), "1Ei");
  EXPECT_EQ(Quantity::from_int(3ULL << 60, Format::binary_si).canonical(), "3Ei");
  // No binary suffix above Ei: the mantissa grows instead.
  EXPECT_EQ(Quantity::from_int(1ULL << 60, Format::binary_si).times(1024).canonical(), "1024Ei");
  EXPECT_EQ(Quantity::from_int(1000000000000000000ULL, Format::decimal_exponent).times(1000).canonical(),
            "1e21");
}

TEST(Quantity, from_int_builds_whole_units) {
  EXPECT_TRUE(Quantity::from_int(0).is_zero());
  EXPECT_EQ(Quantity::from_int(0).canonical(), "0");
  EXPECT_EQ(Quantity::from_int(7).format(), Format::decimal_si);
  EXPECT_FALSE(Quantity::from_int(7).trimmed());
  // Kubernetes' TestNewSet table.
  EXPECT_EQ(Quantity::from_int(1).canonical(), "1");
  EXPECT_EQ(Quantity::from_int(1000).canonical(), "1k");
  EXPECT_EQ(Quantity::from_int(1234000).canonical(), "1234k");
  EXPECT_EQ(Quantity::from_int(1024, Format::binary_si).canonical(), "1Ki");
  EXPECT_EQ(Quantity::from_int(1000000, Format::decimal_exponent).canonical(), "1e6");
  EXPECT_EQ(Quantity::from_int(1024 * 1024, Format::binary_si).canonical(), "1Mi");
  EXPECT_EQ(Quantity::from_int(1500, Format::binary_si).canonical(), "1500");
  EXPECT_EQ(Quantity::from_int(5, Format::binary_si).canonical(), "5");
  EXPECT_EQ(Quantity::from_int(1000, Format::decimal_exponent).canonical(), "1e3");
  EXPECT_EQ(Quantity::from_int(1073741824).decimal(), "1073741824");
}

// ---------------------------------------------------------------------------------------------
// Round trips and robustness
// ---------------------------------------------------------------------------------------------

// parse → canonical → parse gives the same value (rounded up to a nano when finer), the
// canonical form is stable, and the format survives.
void expect_round_trip(std::string_view text, QuantityGrammar grammar) {
  SCOPED_TRACE(std::string("input '") + std::string(text) + "'");
  const Quantity q = parse_ok(text, grammar);
  const std::string canonical = q.canonical();
  const Quantity again = parse_ok(canonical, kK8s);
  if (is_on_nano_grid(q)) {
    EXPECT_EQ(again, q) << canonical;
  } else {
    EXPECT_GT(again, q) << canonical;
    EXPECT_TRUE(is_on_nano_grid(again)) << canonical;
  }
  EXPECT_EQ(again.milli(), q.milli()) << canonical;
  EXPECT_EQ(again.canonical(), canonical);
}

TEST(Quantity, canonical_round_trips_to_an_equal_value) {
  for (const auto* text :
       {"1", "1.5", "0.1", "100m", "1500m", "2000m", "1k", "1500", "1G", "1000M", "1.5Gi", "1Gi",
        "1025Ki", "0.5Ki", "1.5Ki", "100.035Ki", "0.05Gi", "0.025Ti", "1.2056318359375Ki",
        "1.0009765625Ki", "8Pi", "0.001Ei", "1e3", "1.5e3", "1e6", "100e-3", "1.3E+6", "1e-9",
        "1e-30", "3.001n", "0.00000012345", "0.000000000001Ki", "9223372036854775807m",
        "9223372036854775.8069999999999", "1023.9999999999Ki", "7.123456M", "2.5P", "1e15",
        "0", "0Gi", "123456789.123456789", "0.000000001", "999999999999999.999"}) {
    expect_round_trip(text, kK8s);
  }
  for (const auto* text : {" 1Gi ", "1.5Gi", "500m", "1e3", "2.5E2", "0.3", "4Ti"}) {
    expect_round_trip(text, kSdk);
  }
  // Many generated values across every suffix, including binary ones that fall back to decimal.
  const std::vector<std::string> suffixes = {"", "n", "u", "m", "k", "M", "G", "T", "P",
                                             "Ki", "Mi", "Gi", "Ti", "Pi", "e-7", "e2", "e5"};
  const std::vector<std::string> numbers = {"1", "3", "7", "10", "25", "100", "999", "1000", "1023",
                                            "1024", "1536", "4096", "12345", "0.5", "0.125",
                                            "1.75", "2.0625", "33.3", "0.001", "0.0009765625",
                                            "123.456789", "0.000123"};
  int checked = 0;
  for (const auto& number : numbers) {
    for (const auto& suffix : suffixes) {
      if (!Quantity::parse(number + suffix, kK8s)) continue;  // e.g. "12345P" is too large
      expect_round_trip(number + suffix, kK8s);
      ++checked;
    }
  }
  EXPECT_GT(checked, 300);
}

TEST(Quantity, no_input_crashes_or_throws) {
  // Random texts over the grammar's alphabet plus junk, in both grammars: each either parses to a
  // value whose outputs are consistent or fails with a message.
  const std::string alphabet = "0123456789.eE+-mkKMGTPEinu \t\n_x\xff";
  std::mt19937 rng(20240611);
  std::uniform_int_distribution<std::size_t> length(0, 70);
  std::uniform_int_distribution<std::size_t> pick(0, alphabet.size() - 1);
  int parsed = 0;
  for (int i = 0; i < 20000; ++i) {
    std::string text;
    const std::size_t n = length(rng) % (i % 3 == 0 ? 71 : 8);
    for (std::size_t k = 0; k < n; ++k) text += alphabet[pick(rng)];
    for (const auto grammar : {kSdk, kK8s}) {
      QuantityError error{QuantityErrorKind::empty, ""};
      std::optional<Quantity> q;
      ASSERT_NO_THROW(q = Quantity::parse(text, grammar, &error)) << text;
      if (!q) {
        EXPECT_FALSE(error.message.empty()) << text;
        continue;
      }
      ++parsed;
      ASSERT_NO_THROW({
        const std::string canonical = q->canonical();
        const std::optional<Quantity> again = Quantity::parse(canonical, kK8s);
        ASSERT_TRUE(again.has_value()) << text << " -> " << canonical;
        EXPECT_EQ(again->milli(), q->milli()) << text;
        if (is_on_nano_grid(*q)) {
          EXPECT_EQ(*again, *q) << text;
        }
        // milli() is nullopt only past 2^63-1 milli-units (SPEC §9: the value itself is exact).
        if (!q->milli()) {
          EXPECT_GT(*q, *Quantity::parse("9223372036854775807m", kK8s)) << text;
        }
        (void)q->decimal();
        (void)q->ceil_units();
        (void)q->ceil_div(3);
        (void)q->fraction_floor(1, 3);
        (void)q->plus(*q).times(7);
      }) << text;
    }
  }
  EXPECT_GT(parsed, 100);
}

TEST(Quantity, parse_without_error_out_parameter) {
  EXPECT_FALSE(Quantity::parse("abc"));
  EXPECT_FALSE(Quantity::parse("abc", kK8s, nullptr));
  EXPECT_TRUE(Quantity::parse("1Gi"));
}

}  // namespace

// An exact value past int64 whose k8s canonical form would need an exponent above 30 (which no
// quantity may be written with) is written out in full, so the canonical form reads back.
TEST(Quantity, canonical_of_a_huge_exact_value_parses_back) {
  for (QuantityGrammar grammar : {QuantityGrammar::sdk, QuantityGrammar::kubernetes}) {
    for (std::string text : {std::string("1") + std::string(53, '0'), std::string("7") + std::string(40, '0') + "k",
                             std::string("123") + std::string(31, '0')}) {
      std::optional<Quantity> q = Quantity::parse(text, grammar);
      ASSERT_TRUE(q) << text;
      std::string canonical = q->canonical();
      std::optional<Quantity> back = Quantity::parse(canonical, grammar);
      ASSERT_TRUE(back) << canonical;
      EXPECT_EQ(*back, *q) << text << " -> " << canonical;
    }
  }
}

// Short quantities are computed in one machine word, longer ones (and any that overflow it once
// the 1024-suffix is applied) exactly in BigUnsigned: values either side of each edge must come
// out exact, and equal to the same value written another way.
TEST(Quantity, values_either_side_of_the_one_word_path_are_exact) {
  struct Case {
    const char* text;
    const char* decimal;
  };
  for (const Case& c : {Case{"9999999999999999999", "9999999999999999999"},        // 19 digits: one word
                        Case{"99999999999999999999", "99999999999999999999"},      // 20 digits: BigUnsigned
                        Case{"17179869183Gi", "18446744072635809792"},            // 2^64 - 2^30: fits
                        Case{"17179869184Gi", "18446744073709551616"},            // 2^64: overflows the word
                        Case{"16777216Ei", "19342813113834066795298816"},        // 2^84
                        Case{"1.5Gi", "1610612736"},                               // fraction digits, then 1024^3
                        Case{"0.0001024Ki", "0.1048576"},                          // below one unit
                        Case{"12000", "12000"},                                    // trailing zeros into the exponent
                        Case{"000", "0"},
                        Case{"100m", "0.1"}}) {
    std::optional<Quantity> q = Quantity::parse(c.text);
    ASSERT_TRUE(q) << c.text;
    EXPECT_EQ(q->decimal(), c.decimal) << c.text;
    std::optional<Quantity> plain = Quantity::parse(c.decimal);
    ASSERT_TRUE(plain) << c.decimal;
    EXPECT_EQ(*q, *plain) << c.text << " and " << c.decimal;
  }
}
