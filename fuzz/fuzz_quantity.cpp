// Quantity strings in both grammars (SPEC §2).
// Properties, for every string a grammar accepts:
//   - parse → canonical → parse (Kubernetes grammar) gives an equal value (rounded up to a whole
//     nano, as Kubernetes does, when the value is finer), and after one more round trip the
//     canonical text is a fixed point;
//   - parse → decimal → parse (both grammars) gives an equal value (when the decimal fits the
//     64-character limit, which a value written with an exponent may not);
//   - milli() and ceil_units() agree with the value's ordering;
//   - the SDK grammar is a subset of the Kubernetes one: a string the SDK reads without trimming
//     is read by the Kubernetes grammar as the same value.
// Run: build/fuzz/fuzz/fuzz_quantity -dict=fuzz/dict/quantity.dict CORPUS
#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz_common.h"

namespace {

using sandgate::Quantity;
using sandgate::QuantityError;
using sandgate::QuantityGrammar;

const char* name(QuantityGrammar g) { return g == QuantityGrammar::sdk ? "sdk" : "kubernetes"; }

void round_trip(std::string_view text, QuantityGrammar grammar) {
  QuantityError err;
  auto q = Quantity::parse(text, grammar, &err);
  auto q_again = Quantity::parse(text, grammar);
  if (q.has_value() != q_again.has_value() || (q && !(*q == *q_again))) {
    fuzz::fail("parsing twice gives the same value", std::string(text));
  }
  if (!q) {
    if (err.message.empty()) fuzz::fail("a rejected quantity has a message", std::string(text));
    return;
  }
  std::string where = std::string(name(grammar)) + " \"" + std::string(text) + "\"";
  std::string canonical = q->canonical();
  std::string decimal = q->decimal();

  QuantityError err2;
  auto c = Quantity::parse(canonical, QuantityGrammar::kubernetes, &err2);
  // Narrowed: a quantity is at most 64 characters (SPEC §2), and the canonical form of one near
  // that length can be longer (exact values past int64 since issue 13: "….1777777777E" gains the
  // digits a whole multiple of three needs and loses only the dot). Such a value is not read back.
  if (!c && canonical.size() > 64 && err2.kind == sandgate::QuantityErrorKind::too_long) return;
  if (!c) fuzz::fail("canonical parses", where + " canonical \"" + canonical + "\": " + err2.message);
  // Narrowed: Kubernetes keeps nothing below a nano and its canonical form rounds a finer value
  // UP to the next nano (SPEC §2: "canonical" is Kubernetes' form; sandgate keeps the exact value
  // and rounds only when printing). So parse(canonical(q)) == q for whole nanos, and otherwise it
  // is the least whole number of nanos above q: q < c < q + 1n.
  std::size_t dot = decimal.find('.');
  bool whole_nanos = dot == std::string::npos || decimal.size() - dot - 1 <= 9;
  if (whole_nanos) {
    if (!(*c == *q)) fuzz::fail("parse(canonical(q)) == q", where + " canonical \"" + canonical + "\" decimal " + decimal + " vs " + c->decimal());
  } else {
    static const Quantity one_nano = *Quantity::parse("1n", QuantityGrammar::kubernetes);
    if (!(*q < *c) || !(*c < q->plus(one_nano))) {
      fuzz::fail("canonical(q) rounds a sub-nano value up to the next nano", where + " canonical \"" + canonical + "\" decimal " + decimal);
    }
  }
  // Narrowed: Kubernetes' canonical form depends on the format the value was written in, and
  // reading the canonical text back may change that format: 62.5Ki (binary) prints as "64000"
  // (not a whole number of Ki, so no suffix), which reads back as a plain decimal that prints as
  // "64k" — as Kubernetes does. One more round trip must be a fixed point.
  std::string c2 = c->canonical();
  auto c2q = Quantity::parse(c2, QuantityGrammar::kubernetes, &err2);
  if (!c2q || !(*c2q == *c)) fuzz::fail("parse(canonical) round-trips", where + " \"" + canonical + "\" → \"" + c2 + "\"");
  if (c2q->canonical() != c2) fuzz::fail("canonical is a fixed point", where + " \"" + canonical + "\" → \"" + c2 + "\" → \"" + c2q->canonical() + "\"");

  if (decimal.size() <= 64) {
    for (QuantityGrammar g : {QuantityGrammar::sdk, QuantityGrammar::kubernetes}) {
      auto dq = Quantity::parse(decimal, g, &err2);
      if (!dq) fuzz::fail("decimal parses", where + " decimal \"" + decimal + "\" (" + name(g) + "): " + err2.message);
      if (!(*dq == *q)) fuzz::fail("parse(decimal(q)) == q", where + " decimal \"" + decimal + "\" → " + dq->decimal());
      if (dq->decimal() != decimal) fuzz::fail("decimal is a fixed point", where + " \"" + decimal + "\"");
    }
  }

  // milli() is exact for values of whole milli-units and rounds up otherwise.
  if (auto m = q->milli()) {
    if (*m < 0) fuzz::fail("milli is not negative", where);
    auto back = Quantity::parse(std::to_string(*m) + "m", QuantityGrammar::kubernetes);
    if (!back || *back < *q) fuzz::fail("milli rounds up", where + " milli " + std::to_string(*m));
  }
  if (auto u = q->ceil_units()) {
    // from_int, not parse: a whole number near int64 max is past the 2^63-1 milli-unit limit.
    if (*u < 0 || Quantity::from_int(static_cast<std::uint64_t>(*u)) < *q) {
      fuzz::fail("ceil_units rounds up", where + " units " + std::to_string(*u));
    }
    if (*u > 0 && !(Quantity::from_int(static_cast<std::uint64_t>(*u - 1)) < *q)) {
      fuzz::fail("ceil_units is the least whole number >= q", where + " units " + std::to_string(*u));
    }
  }
  // Arithmetic used by the engine must not trap.
  (void)q->plus(*q);
  (void)q->times(3);
  (void)q->fraction_floor(80, 100);
  (void)q->ceil_div(1048576);
  (void)q->ceil_div(0);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  round_trip(text, QuantityGrammar::sdk);
  round_trip(text, QuantityGrammar::kubernetes);
  auto sdk = Quantity::parse(text, QuantityGrammar::sdk);
  if (sdk && !sdk->trimmed()) {
    auto k8s = Quantity::parse(text, QuantityGrammar::kubernetes);
    if (!k8s || !(*k8s == *sdk)) fuzz::fail("the SDK grammar is a subset of the Kubernetes grammar", std::string(text));
  }
  return 0;
}
