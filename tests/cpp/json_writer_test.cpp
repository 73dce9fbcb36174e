// Numbers as JSON: the exact decimal of an integer literal beyond int64, at any length and in
// every YAML 1.1 form (a 1,300-digit timeout was written as 360 nines: the quantity bignum
// saturates there), and doubles a YAML 1.1 reader reads back as floats.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "render/json_writer.h"
#include "util/json_writers.h"
#include "sandgate/sandgate.h"

namespace {

using sandgate::render::double_literal;
using sandgate::render::integer_literal_decimal;

// Every double is written so that JSON and a YAML 1.1 reader both read it as the same float.
TEST(DoubleLiteral, exponents_are_signed_and_mantissas_have_a_point) {
  EXPECT_EQ(double_literal(8.88888888888889e66), "8.88888888888889e+66");
  EXPECT_EQ(double_literal(1e100), "1.0e+100");
  EXPECT_EQ(double_literal(-1e100), "-1.0e+100");
  EXPECT_EQ(double_literal(1.5e-7), "1.5e-7");
  EXPECT_EQ(double_literal(1e-7), "1.0e-7");
  EXPECT_EQ(double_literal(2.5), "2.5");
  EXPECT_EQ(double_literal(0.0), "0.0");
  EXPECT_EQ(double_literal(3600.0), "3600.0");
  for (double v : {8.88888888888889e66, 1e100, -1e-300, 1.7976931348623157e308, 5e-324, 0.1, 123456.789}) {
    EXPECT_EQ(std::strtod(double_literal(v).c_str(), nullptr), v) << double_literal(v);
  }
}

TEST(IntegerLiteralDecimal, long_literals_are_exact) {
  const std::string decimal = "1" + std::string(1300, '0');
  EXPECT_EQ(integer_literal_decimal(decimal), decimal);
  EXPECT_EQ(integer_literal_decimal("-1_000_000_000_000_000_000_000"), "-1000000000000000000000");
  EXPECT_EQ(integer_literal_decimal("0xffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff"),
            "17218479456385750618067377696052635483579924745448689921733236816400740691241745619397484537236046173286370919031961587788584927290816661024991609882728717344659503471655990880884679896520055123906467064419056526231345685268240569209892573766037966584735183775739433978714578587782701380797240772477647874555986712746271362892227516205318914435913511141036261375");
  EXPECT_EQ(integer_literal_decimal("-07777777777777777777777777777777777777777777777777777777777777777777777777777777777777777777777777777777777777777777777777777777777777777777777777777777777777777777777777777777777777777777777777777777777777777777777777777777777777777777777777777777777777777777777777777777777777777777777777777777777777777777777777777777777777777777777777777777777777777777777777777777777777777777777777777777777777777"),
            "-17218479456385750618067377696052635483579924745448689921733236816400740691241745619397484537236046173286370919031961587788584927290816661024991609882728717344659503471655990880884679896520055123906467064419056526231345685268240569209892573766037966584735183775739433978714578587782701380797240772477647874555986712746271362892227516205318914435913511141036261375");
  EXPECT_EQ(integer_literal_decimal("190:20:30"), "685230");
  EXPECT_EQ(integer_literal_decimal("0x8000000000000000"), "9223372036854775808");
  EXPECT_EQ(integer_literal_decimal("0"), "0");
  EXPECT_EQ(integer_literal_decimal("-0"), "0");
}

TEST(IntegerLiteralDecimal, what_is_not_an_integer_literal_gives_nothing) {
  EXPECT_EQ(integer_literal_decimal(""), "");
  EXPECT_EQ(integer_literal_decimal("0x"), "");
  EXPECT_EQ(integer_literal_decimal("12a"), "");
  EXPECT_EQ(integer_literal_decimal("09"), "");
  EXPECT_EQ(integer_literal_decimal("1:60"), "");
}

}  // namespace

namespace {

// The writers copy a string with nothing to escape in one go (util/json_writers.h); the text must
// be byte for byte what RapidJSON's own writers make, for every string.
template <typename Ours, typename Theirs>
void expect_same_text(const std::vector<std::string>& strings) {
  rapidjson::StringBuffer a, b;
  Ours ours(a);
  Theirs theirs(b);
  ours.StartObject();
  theirs.StartObject();
  for (const auto& s : strings) {
    ours.Key(s.data(), static_cast<rapidjson::SizeType>(s.size()));
    theirs.Key(s.data(), static_cast<rapidjson::SizeType>(s.size()));
    ours.StartArray();
    theirs.StartArray();
    ours.String(s.data(), static_cast<rapidjson::SizeType>(s.size()));
    theirs.String(s.data(), static_cast<rapidjson::SizeType>(s.size()));
    ours.String("literal");
    theirs.String("literal");
    ours.EndArray();
    theirs.EndArray();
  }
  ours.Key("a_literal_key");  // the literal overload: no length or escape scan
  theirs.Key("a_literal_key");
  ours.String("");
  theirs.String("");
  ours.EndObject();
  theirs.EndObject();
  ASSERT_EQ(std::string(a.GetString(), a.GetSize()), std::string(b.GetString(), b.GetSize()));
}

std::vector<std::string> strings_to_write() {
  std::vector<std::string> out = {"", "a", "plain text of some length", "ünïcödé ✓ 😀", "/annotations/example.com~1owner",
                                  "the key \"a\\b\" is quoted\n\tand\r\b\f \x01\x1F end", "\"\"\\\\\n\n"};
  // Each character that needs an escape, and its neighbours, at every position of a 19-byte
  // string (both 8-byte words and the tail), among plain ASCII and among bytes ≥ 0x80.
  for (int c : {0x00, 0x01, 0x0A, 0x1F, 0x20, 0x21, 0x22, 0x23, 0x5B, 0x5C, 0x5D, 0x7F, 0x80, 0xA2, 0xDC, 0xFF}) {
    for (std::size_t at = 0; at < 19; ++at) {
      std::string plain(19, 'x');
      plain[at] = static_cast<char>(c);
      out.push_back(plain);
      std::string high(19, '\xC3');
      high[at] = static_cast<char>(c);
      out.push_back(high);
    }
  }
  return out;
}

TEST(JsonWriters, write_every_string_as_rapidjson_does) {
  auto strings = strings_to_write();
  for (const auto& s : strings) {  // a string as the whole document, too (no separator, no level)
    rapidjson::StringBuffer a, b;
    sandgate::JsonWriter<rapidjson::StringBuffer> ours(a);
    rapidjson::Writer<rapidjson::StringBuffer> theirs(b);
    ours.String(s.data(), static_cast<rapidjson::SizeType>(s.size()));
    theirs.String(s.data(), static_cast<rapidjson::SizeType>(s.size()));
    ASSERT_EQ(std::string(a.GetString(), a.GetSize()), std::string(b.GetString(), b.GetSize()));
  }
  expect_same_text<sandgate::JsonWriter<rapidjson::StringBuffer>, rapidjson::Writer<rapidjson::StringBuffer>>(strings);
  expect_same_text<sandgate::PrettyJsonWriter<rapidjson::StringBuffer>, rapidjson::PrettyWriter<rapidjson::StringBuffer>>(
      strings);
}

// Not only as RapidJSON does: no control character leaves raw, wherever it is in a long string
// (RapidJSON's SSE2 writer let 0x1A-0x1F through unescaped: util/rapidjson.h).
TEST(JsonWriters, write_every_control_character_escaped) {
  for (int c = 0x00; c < 0x20; ++c) {
    for (std::size_t at = 0; at < 40; ++at) {
      std::string s(40, 'x');
      s[at] = static_cast<char>(c);
      rapidjson::StringBuffer buffer;
      sandgate::JsonWriter<rapidjson::StringBuffer> writer(buffer);
      writer.String(s.data(), static_cast<rapidjson::SizeType>(s.size()));
      std::string text(buffer.GetString(), buffer.GetSize());
      for (char t : text) EXPECT_GE(static_cast<unsigned char>(t), 0x20) << c << " at " << at << ": " << text;
    }
  }
}

TEST(JsonWriters, find_what_needs_an_escape_in_any_lane) {
  for (std::size_t n = 1; n <= 24; ++n) {
    for (std::size_t at = 0; at < n; ++at) {
      for (char c : {'\0', '\x1F', '"', '\\', '\n'}) {
        std::string s(n, '\xE2');
        s[at] = c;
        EXPECT_FALSE(sandgate::json_detail::needs_no_escape(s.data(), s.size())) << n << " " << at << " " << int(c);
        // The escape path copies this prefix unread: it must end at or before the escape.
        EXPECT_LE(sandgate::json_detail::plain_prefix(s.data(), s.size()), at) << n << " " << at << " " << int(c);
        // The JSON reader's scan for a string's end: exactly the first, whatever follows it (a
        // borrow out of a lane with 0x00, 0x22 or 0x5C flags nothing before it).
        std::string two = s;
        if (at + 1 < n) two[at + 1] = c == '"' ? '\\' : '"';
        EXPECT_EQ(sandgate::json_detail::first_special(two.data(), two.size()), at) << n << " " << at << " " << int(c);
        EXPECT_EQ(sandgate::json_detail::first_special(two.data(), at), at) << n << " " << at << " " << int(c);
      }
      std::string fine(n, ' ');
      fine[at] = '\x7F';
      EXPECT_TRUE(sandgate::json_detail::needs_no_escape(fine.data(), fine.size())) << n << " " << at;
      for (char c : {'\x21', '\x23', '\x5B', '\x5D', '\x20', '\x80', '\xFF', '\x01'}) {  // neighbours of the three
        std::string near(n, 'a');
        near[at] = c;
        EXPECT_EQ(sandgate::json_detail::first_special(near.data(), near.size()), c == '\x01' ? at : n) << n << " " << at << " " << int(c);
      }
    }
  }
}

}  // namespace

namespace {

// The head of a result (what the Node binding hands over before `resolved` is read) is the whole
// result with the output fields, and only they, written as 0 in their places.
TEST(ResultHead, is_the_result_with_the_output_fields_as_zero) {
  using namespace sandgate;
  auto policy = Policy::parse("constraints:\n  resources:\n    max_cpu: \"2\"\n", Format::yaml, "p.yaml").policy;
  for (std::string_view sandbox : {"resources: {cpu: \"4\", memory: 1Gi}\n", "container_image: python:3.12\n"}) {
    Document doc = load_document(sandbox, Format::yaml, "s.yaml", "sandbox");
    Result r = Engine(policy).check(doc, nullptr, nullptr, CheckOptions{});
    rapidjson::Document head, full;
    head.Parse(result_head_to_json(r).c_str());
    full.Parse(result_to_json(r, false).c_str());
    ASSERT_TRUE(head.IsObject() && full.IsObject());
    ASSERT_EQ(head.MemberCount(), full.MemberCount());
    auto h = head.MemberBegin();
    for (auto f = full.MemberBegin(); f != full.MemberEnd(); ++f, ++h) {
      std::string name = f->name.GetString();
      EXPECT_EQ(name, h->name.GetString());
      if (name == "resolved" || name == "provenance" || name == "rules_applied") {
        EXPECT_TRUE(h->value.IsInt() && h->value.GetInt() == 0) << name;
        EXPECT_TRUE(f->value.IsObject() && f->value.MemberCount() > 0) << name;
      } else {
        EXPECT_TRUE(h->value == f->value) << name;
      }
    }
  }
}

}  // namespace
