// JS → Node conversion. Raw napi_* calls (not the C++ wrappers) so that every failure is seen
// where it happens: a throwing getter or Proxy trap becomes a diagnostic at that value's pointer,
// and its pending exception is cleared before the walk goes on.
#include "js_to_node.h"

#include <bit>
#include <cmath>
#include <cstdio>
#include <limits>

#include "sandgate/quantity.h"

namespace sandgate_node {
namespace {

using sandgate::Code;
using sandgate::Node;
using sandgate::NodeKind;

// A napi call failed; `message` is what the JS exception said (it has been cleared).
struct JsFailure {
  std::string message;
};

// The message of a thrown value, read defensively: the value may itself be hostile.
std::string describe_thrown(napi_env env, napi_value e) {
  napi_valuetype t = napi_undefined;
  if (napi_typeof(env, e, &t) != napi_ok) return "an exception";
  napi_value text = nullptr;
  if (t == napi_object || t == napi_function) {
    napi_value msg = nullptr;
    if (napi_get_named_property(env, e, "message", &msg) != napi_ok) {
      napi_value ignored;
      napi_get_and_clear_last_exception(env, &ignored);
      return "an exception";
    }
    napi_valuetype mt = napi_undefined;
    if (napi_typeof(env, msg, &mt) == napi_ok && mt == napi_string) text = msg;
  } else if (t == napi_string) {
    text = e;
  }
  if (!text) return "an exception";
  char buf[200];
  std::size_t len = 0;
  if (napi_get_value_string_utf8(env, text, buf, sizeof buf, &len) != napi_ok) return "an exception";
  return std::string(buf, len);
}

// Throws JsFailure when a napi call did not succeed, clearing any pending JS exception.
void ok(napi_env env, napi_status status) {
  if (status == napi_ok) return;
  bool pending = false;
  napi_is_exception_pending(env, &pending);
  if (pending) {
    napi_value e = nullptr;
    napi_get_and_clear_last_exception(env, &e);
    throw JsFailure{describe_thrown(env, e)};
  }
  const napi_extended_error_info* info = nullptr;
  napi_get_last_error_info(env, &info);
  throw JsFailure{info && info->error_message ? info->error_message : "a Node-API call failed"};
}

// Replaces bytes that are not UTF-8 with U+FFFD (binary file contents are data, not text errors).
std::string lossy_utf8(std::string_view bytes) {
  std::string out;
  out.reserve(bytes.size());
  while (!bytes.empty()) {
    bool is_nul = false;
    std::size_t bad = sandgate::find_invalid_utf8(bytes, is_nul);
    if (bad == std::string_view::npos) {
      out.append(bytes);
      break;
    }
    out.append(bytes.substr(0, bad));
    out.append(is_nul ? std::string_view("\0", 1) : std::string_view("\xEF\xBF\xBD"));
    bytes.remove_prefix(bad + 1);
  }
  return out;
}

// The bytes of a Buffer, typed array, DataView or ArrayBuffer; false for anything else.
bool binary_bytes(napi_env env, napi_value v, std::string_view& out) {
  bool is = false;
  void* data = nullptr;
  std::size_t length = 0;
  if (napi_is_typedarray(env, v, &is) == napi_ok && is) {  // Buffer is a Uint8Array
    napi_typedarray_type type;
    napi_value ab;
    std::size_t offset = 0, count = 0;
    ok(env, napi_get_typedarray_info(env, v, &type, &count, &data, &ab, &offset));
    std::size_t width = 1;
    switch (type) {
      case napi_int16_array: case napi_uint16_array: width = 2; break;
      case napi_int32_array: case napi_uint32_array: case napi_float32_array: width = 4; break;
      case napi_float64_array: case napi_bigint64_array: case napi_biguint64_array: width = 8; break;
      default: break;
    }
    length = count * width;
  } else if (napi_is_dataview(env, v, &is) == napi_ok && is) {
    napi_value ab;
    std::size_t offset = 0;
    ok(env, napi_get_dataview_info(env, v, &length, &data, &ab, &offset));
  } else if (napi_is_arraybuffer(env, v, &is) == napi_ok && is) {
    ok(env, napi_get_arraybuffer_info(env, v, &data, &length));
  } else {
    return false;
  }
  out = data ? std::string_view(static_cast<const char*>(data), length) : std::string_view();
  return true;
}

// The UTF-8 of a JS string. Short strings take one copy; long ones are measured first.
std::string utf8(napi_env env, napi_value v) {
  char buf[256];
  std::size_t len = 0;
  ok(env, napi_get_value_string_utf8(env, v, buf, sizeof buf, &len));
  // V8 never splits a character: with 4 bytes to spare, whatever followed would have fitted.
  if (len + 4 < sizeof buf - 1) return std::string(buf, len);
  ok(env, napi_get_value_string_utf8(env, v, nullptr, 0, &len));
  std::string s(len + 1, '\0');
  ok(env, napi_get_value_string_utf8(env, v, s.data(), s.size(), &len));
  s.resize(len);
  return s;
}

// The decimal digits of the unsigned integer held in `words` (least significant first; the first
// `count` are used), by repeated division by 10^9. Quadratic, and bounded by the caller's limit.
// (sandgate::BigUnsigned is sized for quantities: it saturates at 360 digits.)
std::string decimal_digits(std::vector<std::uint64_t> words, std::size_t count) {
  std::vector<std::uint32_t> halves;  // base 2^32, most significant first
  for (std::size_t k = count; k-- > 0;) {
    halves.push_back(static_cast<std::uint32_t>(words[k] >> 32));
    halves.push_back(static_cast<std::uint32_t>(words[k]));
  }
  std::vector<std::uint32_t> chunks;  // base 10^9, least significant first
  std::size_t start = 0;
  while (start < halves.size()) {
    std::uint64_t rem = 0;
    for (std::size_t i = start; i < halves.size(); ++i) {
      std::uint64_t cur = (rem << 32) | halves[i];
      halves[i] = static_cast<std::uint32_t>(cur / 1000000000u);
      rem = cur % 1000000000u;
    }
    chunks.push_back(static_cast<std::uint32_t>(rem));
    while (start < halves.size() && halves[start] == 0) ++start;
  }
  if (chunks.empty()) return "0";
  std::string out = std::to_string(chunks.back());
  char buf[16];
  for (std::size_t i = chunks.size() - 1; i-- > 0;) {
    std::snprintf(buf, sizeof buf, "%09u", static_cast<unsigned>(chunks[i]));
    out += buf;
  }
  return out;
}

class Reader {
 public:
  Reader(napi_env env, const std::string& input, const std::string& base, const sandgate::Limits& limits)
      : env_(env), input_(input), base_(base), limits_(limits) {}

  Converted run(napi_value value) {
    Converted out;
    diags_ = &out.diagnostics;
    try {
      Outcome o = read(value, out.root, 0);
      if (o == Outcome::omit) out.root = Node::make_null();
    } catch (const JsFailure& f) {
      // Nothing of the value was read: there is no document (as for text with a syntax error),
      // not a null one, which would add "the policy is null" or "must be an object, not null".
      report(Code::VALUE_READ_FAILED, "the value could not be read: " + f.message, "pass plain objects, arrays and primitives");
      out.root = Node::make_null();
      stopped_ = true;
    }
    out.usable = !stopped_;
    return out;
  }

 private:
  enum class Outcome { value, omit, stop };

  napi_env env_;
  const std::string& input_;
  const std::string& base_;
  const sandgate::Limits& limits_;
  sandgate::Diagnostics* diags_ = nullptr;
  std::vector<std::string> tokens_;     // the pointer of the value being read, token by token
  std::vector<napi_value> ancestors_;   // the objects that enclose it, to see cycles
  std::size_t nodes_ = 0;
  std::size_t bytes_ = 0;
  bool stopped_ = false;
  napi_value object_prototype_ = nullptr;

  std::string pointer(std::size_t depth) const {
    std::string p = base_;
    for (std::size_t i = 0; i < depth && i < tokens_.size(); ++i) p = sandgate::pointer_join(p, tokens_[i]);
    return p;
  }

  void report_at(std::string path, Code code, std::string message, std::string hint) {
    sandgate::Diagnostic d;
    d.code = code;
    d.severity = sandgate::code_info(code).severity;
    d.path = std::move(path);
    d.input = input_;
    d.message = std::move(message);
    d.hint = std::move(hint);
    diags_->push_back(std::move(d));
  }
  void report(Code code, std::string message, std::string hint = {}) {
    report_at(pointer(tokens_.size()), code, std::move(message), std::move(hint));
  }
  Outcome stop(Code code, std::string message, std::string hint) {
    report(code, std::move(message), std::move(hint));
    stopped_ = true;
    return Outcome::stop;
  }
  Outcome reject(std::string what, std::string hint = "pass plain objects, arrays and primitives") {
    report(Code::VALUE_UNSUPPORTED, what + " has no JSON form", std::move(hint));
    return Outcome::omit;
  }

  bool count(std::size_t more = 1) {
    nodes_ += more;
    return nodes_ <= limits_.max_nodes;
  }
  Outcome too_many() {
    return stop(Code::DOC_TOO_MANY_NODES, "the value has more than " + std::to_string(limits_.max_nodes) + " nodes",
                "split the input");
  }

  bool add_bytes(std::size_t n) {
    bytes_ += n;
    return bytes_ <= limits_.max_bytes;
  }
  Outcome too_large() {
    return stop(Code::DOC_TOO_LARGE,
                "the strings in the value add up to more than " + std::to_string(limits_.max_bytes) + " bytes",
                "split the input");
  }

  // Reads one string (value or key) within the byte budget, then checks its text.
  bool read_string(napi_value v, std::string& out) {
    out = utf8(env_, v);
    if (!add_bytes(out.size())) return false;
    check_text(v, out);
    return true;
  }

  // NUL and unpaired surrogates, reported at the current pointer.
  void check_text(napi_value v, const std::string& out) {
    if (out.find('\0') != std::string::npos) {
      report(Code::NUL_BYTE, "the string contains a NUL character", "remove it; C and many tools cut the text there");
    }
    if (lone_surrogate(v, out)) {
      report(Code::INVALID_UTF8, "the string holds an unpaired UTF-16 surrogate, which is not Unicode text",
             "the server receives U+FFFD in its place; fix the string");
    }
  }

  // Whether the string `v`, read as `utf8`, holds an unpaired surrogate. V8 writes U+FFFD for one,
  // so the UTF-16 is looked at only when that character is there.
  bool lone_surrogate(napi_value v, const std::string& utf8) {
    return utf8.find("\xEF\xBF\xBD") != std::string::npos && has_lone_surrogate(v);
  }

  bool has_lone_surrogate(napi_value v) {
    std::size_t len = 0;
    ok(env_, napi_get_value_string_utf16(env_, v, nullptr, 0, &len));
    std::u16string s(len + 1, u'\0');
    ok(env_, napi_get_value_string_utf16(env_, v, s.data(), s.size(), &len));
    for (std::size_t i = 0; i < len; ++i) {
      char16_t c = s[i];
      if (c >= 0xD800 && c <= 0xDBFF) {
        if (i + 1 < len && s[i + 1] >= 0xDC00 && s[i + 1] <= 0xDFFF) {
          ++i;
          continue;
        }
        return true;
      }
      if (c >= 0xDC00 && c <= 0xDFFF) return true;
    }
    return false;
  }

  Outcome read_number(napi_value v, Node& out) {
    double d = 0;
    ok(env_, napi_get_value_double(env_, v, &d));
    if (!std::isfinite(d)) {
      // A number like any other, as YAML's .inf/.nan and Python's float('inf') are: the engine's
      // rules decide (a timeout must be finite, an integer field is not a whole number, ...).
      // The text is the JS spelling, for messages.
      out = Node::make_number(d);
      out.text = std::isnan(d) ? "NaN" : d > 0 ? "Infinity" : "-Infinity";
      return Outcome::value;
    }
    if (std::trunc(d) != d) {
      out = Node::make_number(d);
      return Outcome::value;
    }
    // A whole number is an integer, as in JSON text (2 and 2.0 are one value in JS anyway).
    constexpr double k_two63 = 9223372036854775808.0;
    if (d >= -k_two63 && d < k_two63) {
      out = Node::make_int(static_cast<std::int64_t>(d));
      return Outcome::value;
    }
    char buf[400];
    std::snprintf(buf, sizeof buf, "%.0f", d);
    out = Node::make_int(d < 0 ? std::numeric_limits<std::int64_t>::min() : std::numeric_limits<std::int64_t>::max());
    out.int_overflow = true;
    out.text = buf;
    return Outcome::value;
  }

  Outcome read_bigint(napi_value v, Node& out) {
    std::int64_t i = 0;
    bool lossless = false;
    ok(env_, napi_get_value_bigint_int64(env_, v, &i, &lossless));
    if (lossless) {
      out = Node::make_int(i);
      return Outcome::value;
    }
    int sign = 0;
    std::size_t words = 0;
    ok(env_, napi_get_value_bigint_words(env_, v, nullptr, &words, nullptr));  // both null: count only
    // Python's limit, so a value gets one answer from both bindings (and from text, whose loader
    // keeps every digit, up to that size): an integer of more than 4,300 decimal digits (CPython's
    // default int_max_str_digits) is refused at conversion, anything smaller reaches the engine
    // with its exact digits. 225 words (14,400 bits) always exceed 4,300 digits.
    constexpr std::size_t k_max_digits = 4300;
    constexpr std::size_t k_max_words = 225;
    constexpr std::size_t k_max_words_read = 1 << 16;  // past 512 KiB the exact size is not worth reading
    auto too_big = [&](const std::string& bits) {
      report(Code::INTEGER_RANGE, "an integer of " + bits + " bits does not fit any field",
             "use a value within the field's range");
      return Outcome::omit;
    };
    if (words > k_max_words_read) return too_big("more than " + std::to_string(k_max_words_read * 64));
    std::vector<std::uint64_t> w(words);
    ok(env_, napi_get_value_bigint_words(env_, v, &sign, &words, w.data()));
    while (words > 0 && w[words - 1] == 0) --words;
    std::size_t bits = words ? (words - 1) * 64 + static_cast<std::size_t>(std::bit_width(w[words - 1])) : 0;
    if (words > k_max_words) return too_big(std::to_string(bits));
    std::string digits = decimal_digits(std::move(w), words);
    if (digits.size() > k_max_digits) return too_big(std::to_string(bits));
    // Outside int64: `integer` is clamped and flagged, `text` keeps the exact value (node.h).
    out = Node::make_int(sign ? std::numeric_limits<std::int64_t>::min() : std::numeric_limits<std::int64_t>::max());
    out.int_overflow = true;
    out.text = (sign ? "-" : "") + digits;
    return Outcome::value;
  }

  napi_value global_member(const char* name) {
    napi_value global = nullptr, v = nullptr;
    ok(env_, napi_get_global(env_, &global));
    ok(env_, napi_get_named_property(env_, global, name, &v));
    return v;
  }

  bool strict_equals(napi_value a, napi_value b) {
    bool eq = false;
    ok(env_, napi_strict_equals(env_, a, b, &eq));
    return eq;
  }

  // Objects whose own properties would not say what they hold: name them instead of reading {}.
  const char* exotic_kind(napi_value obj) {
    bool is = false;
    if (napi_is_date(env_, obj, &is) == napi_ok && is) return "a Date";
    if (napi_is_promise(env_, obj, &is) == napi_ok && is) return "a Promise";
    static const char* const k_classes[][2] = {
        {"Map", "a Map"}, {"Set", "a Set"}, {"WeakMap", "a WeakMap"}, {"WeakSet", "a WeakSet"},
        {"RegExp", "a RegExp"}, {"Error", "an Error"}, {"String", "a String object"},
        {"Number", "a Number object"}, {"Boolean", "a Boolean object"},
    };
    for (const auto& c : k_classes) {
      napi_value ctor = global_member(c[0]);
      napi_valuetype t = napi_undefined;
      if (napi_typeof(env_, ctor, &t) != napi_ok || t != napi_function) continue;
      bool instance = false;
      ok(env_, napi_instanceof(env_, obj, ctor, &instance));
      if (instance) return c[1];
    }
    return nullptr;
  }

  bool is_plain(napi_value obj) {
    napi_value proto = nullptr;
    ok(env_, napi_get_prototype(env_, obj, &proto));
    napi_valuetype t = napi_undefined;
    ok(env_, napi_typeof(env_, proto, &t));
    if (t == napi_null) return true;  // Object.create(null)
    if (!object_prototype_) object_prototype_ = prototype_of_object();
    return strict_equals(proto, object_prototype_);
  }
  napi_value prototype_of_object() {
    napi_value ctor = global_member("Object"), proto = nullptr;
    ok(env_, napi_get_named_property(env_, ctor, "prototype", &proto));
    return proto;
  }

  // A cycle would nest without end: report it where it closes, naming the ancestor.
  bool closes_cycle(napi_value obj) {
    for (std::size_t i = 0; i < ancestors_.size(); ++i) {
      if (strict_equals(ancestors_[i], obj)) {
        std::string target = pointer(i);
        report(Code::VALUE_CYCLE, "the value refers back to its enclosing object at \"" + target + "\" (a cycle)",
               "pass a copy without the circular reference");
        return true;
      }
    }
    return false;
  }

  Outcome read_array(napi_value arr, Node& out, int depth) {
    std::uint32_t length = 0;
    ok(env_, napi_get_array_length(env_, arr, &length));
    if (length > limits_.max_nodes || !count(length)) return too_many();
    nodes_ -= length;  // each element counts itself when read
    out = Node::make_array();
    out.items.reserve(length);
    for (std::uint32_t i = 0; i < length; ++i) {
      tokens_.push_back(std::to_string(i));
      Node item;
      Outcome o = Outcome::value;
      try {
        napi_value v = nullptr;
        ok(env_, napi_get_element(env_, arr, i, &v));
        o = read(v, item, depth + 1);
      } catch (const JsFailure& f) {
        report(Code::VALUE_READ_FAILED, "reading this element threw: " + f.message);
        o = Outcome::omit;
      }
      tokens_.pop_back();
      if (o == Outcome::stop) return o;
      // A hole, undefined or a dropped value stays in place as null, so indexes keep their meaning.
      out.items.push_back(o == Outcome::omit ? Node::make_null() : std::move(item));
    }
    return Outcome::value;
  }

  Outcome read_object(napi_value obj, Node& out, int depth) {
    napi_value keys = nullptr;
    ok(env_, napi_get_all_property_names(env_, obj, napi_key_own_only,
                                         static_cast<napi_key_filter>(napi_key_enumerable),
                                         napi_key_numbers_to_strings, &keys));
    std::uint32_t length = 0;
    ok(env_, napi_get_array_length(env_, keys, &length));
    if (length > limits_.max_nodes || nodes_ + length > limits_.max_nodes) return too_many();
    out = Node::make_object();
    out.members.reserve(length);
    bool symbol_reported = false;
    for (std::uint32_t i = 0; i < length; ++i) {
      napi_value key = nullptr;
      ok(env_, napi_get_element(env_, keys, i, &key));
      napi_valuetype kt = napi_undefined;
      ok(env_, napi_typeof(env_, key, &kt));
      if (kt != napi_string) {
        if (!symbol_reported) report(Code::VALUE_UNSUPPORTED, "a Symbol key has no JSON form", "use string keys");
        symbol_reported = true;
        continue;
      }
      std::string name = utf8(env_, key);
      if (!add_bytes(name.size())) return too_large();
      // A key with an unpaired surrogate has no UTF-8 form, so no pointer of its own: it is
      // reported at its object and its member is left out, as the text loaders and Python do.
      if (lone_surrogate(key, name)) {
        report(Code::INVALID_UTF8, "a key holds an unpaired UTF-16 surrogate, which is not Unicode text",
               "fix the key");
        continue;
      }
      tokens_.push_back(name);
      check_text(key, name);  // a key with a NUL is reported at its own member's pointer
      Node value;
      Outcome o = Outcome::value;
      try {
        napi_value v = nullptr;
        ok(env_, napi_get_property(env_, obj, key, &v));
        o = read(v, value, depth + 1);
      } catch (const JsFailure& f) {
        report(Code::VALUE_READ_FAILED, "reading this property threw: " + f.message, "pass a plain copy of the object");
        o = Outcome::omit;
      }
      tokens_.pop_back();
      if (o == Outcome::stop) return o;
      if (o == Outcome::omit) continue;  // undefined (an option not given), or a reported value
      out.add(std::move(name), std::move(value));
    }
    return Outcome::value;
  }

  Outcome read_container(napi_value v, Node& out, int depth) {
    std::string_view bytes;
    if (binary_bytes(env_, v, bytes)) {
      if (!add_bytes(bytes.size())) return too_large();
      out = Node::make_string(lossy_utf8(bytes));
      return Outcome::value;
    }
    if (depth >= limits_.max_depth) {
      return stop(Code::DOC_TOO_DEEP, "objects and lists are nested deeper than " + std::to_string(limits_.max_depth) + " levels",
                  "flatten the value, or raise the depth limit");
    }
    if (closes_cycle(v)) return Outcome::omit;
    bool is_array = false;
    ok(env_, napi_is_array(env_, v, &is_array));
    if (!is_array && !is_plain(v)) {
      if (const char* kind = exotic_kind(v)) {
        return reject(kind, std::string_view(kind) == "a Map" ? "pass Object.fromEntries(map)" : "pass plain objects, arrays and primitives");
      }
      // Any other class instance is read like JSON.stringify reads it: its own enumerable fields.
    }
    napi_handle_scope scope = nullptr;
    ok(env_, napi_open_handle_scope(env_, &scope));
    ancestors_.push_back(v);
    Outcome o = Outcome::omit;
    try {
      o = is_array ? read_array(v, out, depth) : read_object(v, out, depth);
    } catch (...) {
      ancestors_.pop_back();
      napi_close_handle_scope(env_, scope);
      throw;
    }
    ancestors_.pop_back();
    napi_close_handle_scope(env_, scope);
    return o;
  }

  Outcome read(napi_value v, Node& out, int depth) {
    napi_valuetype t = napi_undefined;
    ok(env_, napi_typeof(env_, v, &t));
    if (t == napi_undefined) return Outcome::omit;
    if (!count()) return too_many();
    switch (t) {
      case napi_null: out = Node::make_null(); return Outcome::value;
      case napi_boolean: {
        bool b = false;
        ok(env_, napi_get_value_bool(env_, v, &b));
        out = Node::make_bool(b);
        return Outcome::value;
      }
      case napi_number: return read_number(v, out);
      case napi_bigint: return read_bigint(v, out);
      case napi_string: {
        std::string s;
        if (!read_string(v, s)) return too_large();
        out = Node::make_string(std::move(s));
        return Outcome::value;
      }
      case napi_symbol: return reject("a Symbol");
      case napi_function: return reject("a function");
      case napi_external: return reject("a native external value");
      case napi_object: return read_container(v, out, depth);
      default: return reject("this value");
    }
  }
};

}  // namespace

Converted js_to_node(napi_env env, napi_value value, const std::string& input, const std::string& base,
                     const sandgate::Limits& limits) {
  return Reader(env, input, base, limits).run(value);
}

namespace {
constexpr napi_type_tag k_file_text_tag = {0x5a1d6a7e0c0de003ULL, 0x7f4a7c159e3779b9ULL};
}  // namespace

napi_value make_file_text(napi_env env, napi_value bytes, napi_value file) {
  napi_value o = nullptr;
  if (napi_create_object(env, &o) != napi_ok || napi_set_named_property(env, o, "bytes", bytes) != napi_ok ||
      napi_set_named_property(env, o, "file", file) != napi_ok || napi_type_tag_object(env, o, &k_file_text_tag) != napi_ok) {
    return nullptr;
  }
  return o;
}

namespace {

// A JS string given as text: its UTF-8, except that an unpaired surrogate is written as the three
// bytes its code point would take (0xED 0xA0…0xBF …), which are not UTF-8. V8 writes U+FFFD for it,
// so text with a lone surrogate was read as if it held U+FFFD, where the same string as a value is
// SG_INVALID_UTF8; now the core's loader reports SG_INVALID_UTF8 at its line and column, as for a
// file's bad bytes. The UTF-16 is looked at only when U+FFFD appears in the UTF-8 (one scan of
// bytes already in the cache). `lone`: the first unpaired surrogate, or 0.
std::string text_utf8(napi_env env, napi_value v, char16_t& lone) {
  lone = 0;
  std::string out = utf8(env, v);
  if (out.find("\xEF\xBF\xBD") == std::string::npos) return out;
  std::size_t len = 0;
  ok(env, napi_get_value_string_utf16(env, v, nullptr, 0, &len));
  std::u16string s(len + 1, u'\0');
  ok(env, napi_get_value_string_utf16(env, v, s.data(), s.size(), &len));
  s.resize(len);
  std::string bytes;
  bytes.reserve(out.size());
  for (std::size_t i = 0; i < len; ++i) {
    char32_t c = s[i];
    if (c >= 0xD800 && c <= 0xDFFF) {
      if (c <= 0xDBFF && i + 1 < len && s[i + 1] >= 0xDC00 && s[i + 1] <= 0xDFFF) {
        c = 0x10000 + ((c - 0xD800) << 10) + (s[++i] - 0xDC00);
      } else if (lone == 0) {
        lone = static_cast<char16_t>(c);
      }
    }
    if (c < 0x80) {
      bytes += static_cast<char>(c);
    } else if (c < 0x800) {
      bytes += static_cast<char>(0xC0 | (c >> 6));
      bytes += static_cast<char>(0x80 | (c & 0x3F));
    } else if (c < 0x10000) {
      bytes += static_cast<char>(0xE0 | (c >> 12));
      bytes += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
      bytes += static_cast<char>(0x80 | (c & 0x3F));
    } else {
      bytes += static_cast<char>(0xF0 | (c >> 18));
      bytes += static_cast<char>(0x80 | ((c >> 12) & 0x3F));
      bytes += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
      bytes += static_cast<char>(0x80 | (c & 0x3F));
    }
  }
  return lone ? bytes : out;
}

}  // namespace

void name_lone_surrogate(sandgate::Diagnostics& diagnostics, char16_t lone) {
  if (lone == 0) return;
  for (auto& d : diagnostics) {
    if (d.code != Code::INVALID_UTF8 || d.path != "") continue;
    char unit[12] = "";
    if (lone != k_some_surrogate) std::snprintf(unit, sizeof unit, " (U+%04X)", static_cast<unsigned>(lone));
    d.message = std::string("the text holds an unpaired UTF-16 surrogate") + unit + ", which is not Unicode text";
    d.hint = "the server receives U+FFFD in its place; fix the string";
  }
}

bool js_text(napi_env env, napi_value value, std::string& out, std::string* file, char16_t* lone) {
  try {
    napi_valuetype t = napi_undefined;
    ok(env, napi_typeof(env, value, &t));
    if (t == napi_string) {
      char16_t first = 0;
      out = text_utf8(env, value, first);
      if (lone) *lone = first;
      return true;
    }
    if (t != napi_object) return false;
    std::string_view bytes;
    if (binary_bytes(env, value, bytes)) {
      out.assign(bytes);
      return true;
    }
    bool tagged = false;
    if (napi_check_object_type_tag(env, value, &k_file_text_tag, &tagged) != napi_ok || !tagged) return false;
    napi_value b = nullptr, f = nullptr;
    ok(env, napi_get_named_property(env, value, "bytes", &b));
    ok(env, napi_get_named_property(env, value, "file", &f));
    if (!binary_bytes(env, b, bytes)) return false;
    out.assign(bytes);
    if (file) *file = utf8(env, f);
    return true;
  } catch (const JsFailure&) {
    return false;
  }
}

}  // namespace sandgate_node
