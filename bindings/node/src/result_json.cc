// Results as JSON text (result_json.h), member for member what node_to_js.cc's result_to_js
// builds; each object's members expand the rows of core/include/sandgate/result_shape.def, so a
// row without its step here does not compile.
#include "result_json.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstring>
#include <memory>
#include <string_view>

#include "node_to_js.h"

namespace sandgate_node {
namespace {

using sandgate::Node;
using sandgate::NodeKind;

constexpr std::int64_t k_max_safe = 9007199254740991;  // Number.MAX_SAFE_INTEGER

// Output straight into a buffer whose room is checked once per value (std::string's append and
// push_back, with their checks per call, were half the writing).
class Buffer {
 public:
  char* reserve(std::size_t n) {
    if (static_cast<std::size_t>(end_ - p_) < n) grow(n);
    return p_;
  }
  void advance(char* p) { p_ = p; }
  std::string_view view() const { return {data_.get(), static_cast<std::size_t>(p_ - data_.get())}; }
  void clear() { p_ = data_.get(); }
  // Gives back the room of an unusually large result (a thread keeps its buffer).
  void trim() {
    if (end_ - data_.get() > (1 << 20)) {
      data_.reset();
      p_ = end_ = nullptr;
    }
  }

 private:
  void grow(std::size_t n) {
    std::size_t used = static_cast<std::size_t>(p_ - data_.get());
    std::size_t cap = std::max<std::size_t>({4096, 2 * static_cast<std::size_t>(end_ - data_.get()), used + n});
    auto bigger = std::make_unique<char[]>(cap);
    if (used) std::memcpy(bigger.get(), data_.get(), used);
    data_ = std::move(bigger);
    p_ = data_.get() + used;
    end_ = data_.get() + cap;
  }
  std::unique_ptr<char[]> data_;
  char* p_ = nullptr;
  char* end_ = nullptr;
};

// Bytes a JSON string cannot hold as they are: `"`, `\` and the control characters.
constexpr std::array<bool, 256> k_escape = [] {
  std::array<bool, 256> t{};
  for (int c = 0; c < 0x20; ++c) t[c] = true;
  t['"'] = t['\\'] = true;
  return t;
}();

// Whether any of 8 bytes is one of those (the "has a byte less than n / equal to n" bit tricks).
inline bool any_escape(std::uint64_t w) {
  constexpr std::uint64_t ones = 0x0101010101010101ull, highs = 0x8080808080808080ull;
  auto zero_byte = [](std::uint64_t x) { return (x - ones) & ~x & highs; };
  return (((w - ones * 0x20) & ~w & highs) | zero_byte(w ^ (ones * '"')) | zero_byte(w ^ (ones * '\\'))) != 0;
}

struct Json {
  Buffer& out;
  bool exact = true;  // false once something was met that JSON.parse would not give back as result_to_js does

  void raw(std::string_view s) {
    char* p = out.reserve(s.size());
    std::memcpy(p, s.data(), s.size());
    out.advance(p + s.size());
  }
  void ch(char c) {
    char* p = out.reserve(1);
    *p = c;
    out.advance(p + 1);
  }
  void null() { raw("null"); }
  void boolean(bool b) { raw(b ? "true" : "false"); }

  // The bytes as they are (a JS string made from this text decodes them as one made from each
  // string does, invalid UTF-8 included); `"`, `\` and control characters escaped.
  void string(std::string_view s) {
    char* p = out.reserve(6 * s.size() + 2);
    *p++ = '"';
    const char* src = s.data();
    const char* end = src + s.size();
    while (src != end) {
      if (end - src >= 8) {
        std::uint64_t w;
        std::memcpy(&w, src, 8);
        if (!any_escape(w)) {
          std::memcpy(p, src, 8);
          p += 8;
          src += 8;
          continue;
        }
      }
      const char* stop = end - src >= 8 ? src + 8 : end;
      for (; src != stop; ++src) {
        auto c = static_cast<unsigned char>(*src);
        if (!k_escape[c]) {
          *p++ = static_cast<char>(c);
        } else if (c == '"' || c == '\\') {
          *p++ = '\\';
          *p++ = static_cast<char>(c);
        } else {
          static constexpr char hex[] = "0123456789abcdef";
          std::memcpy(p, "\\u00", 4);
          p[4] = hex[c >> 4];
          p[5] = hex[c & 15];
          p += 6;
        }
      }
    }
    *p++ = '"';
    out.advance(p);
  }
  void string_or_null(std::string_view s) {
    if (s.empty()) {
      null();
    } else {
      string(s);
    }
  }
  void key(std::string_view k) {
    if (k == "__proto__") exact = false;
    string(k);
    ch(':');
  }
  // A literal key (a field name): no check.
  void field(std::string_view k) {
    char* p = out.reserve(k.size() + 3);
    *p++ = '"';
    std::memcpy(p, k.data(), k.size());
    p += k.size();
    *p++ = '"';
    *p++ = ':';
    out.advance(p);
  }
  void int64(std::int64_t v) {
    if (v < -k_max_safe || v > k_max_safe) exact = false;  // a BigInt in result_to_js
    char* p = out.reserve(24);
    out.advance(std::to_chars(p, p + 24, v).ptr);
  }
  void number(double v) {
    if (!std::isfinite(v)) {
      exact = false;
      null();
      return;
    }
    char* p = out.reserve(32);  // the shortest text that reads back as the same double
    out.advance(std::to_chars(p, p + 32, v).ptr);
  }
  void strings(const std::vector<std::string>& v) {
    ch('[');
    for (std::size_t i = 0; i < v.size(); ++i) {
      if (i) ch(',');
      string(v[i]);
    }
    ch(']');
  }

  void node(const Node& n) {
    switch (n.kind) {
      case NodeKind::null: null(); return;
      case NodeKind::boolean: boolean(n.boolean); return;
      case NodeKind::integer:
        if (n.int_overflow) exact = false;
        int64(n.integer);
        return;
      case NodeKind::number: number(n.number); return;
      case NodeKind::string: string(n.text); return;
      case NodeKind::array:
        ch('[');
        for (std::size_t i = 0; i < n.items.size(); ++i) {
          if (i) ch(',');
          node(n.items[i]);
        }
        ch(']');
        return;
      case NodeKind::object:
        ch('{');
        for (std::size_t i = 0; i < n.members.size(); ++i) {
          if (i) ch(',');
          key(n.members[i].key);
          node(n.members[i].value);
        }
        ch('}');
        return;
    }
    null();
  }

  void source(const std::optional<sandgate::SourceLocation>& s);
};

// One step per row of result_shape.def, as node_to_js.cc's.
struct SourceSteps {
  Json& w;
  const sandgate::SourceLocation& s;
  void file() { w.string(s.file); }
  void line() { w.int64(s.line); }
  void column() { w.int64(s.column); }
};

void Json::source(const std::optional<sandgate::SourceLocation>& s) {
  if (!s) {
    null();
    return;
  }
  SourceSteps f{*this, *s};
  ch('{');
  const char* sep = "";
#define SG_SOURCE_FIELD(name, ts_type, py_type, doc) \
  raw(sep);                                          \
  sep = ",";                                         \
  field(#name);                                      \
  f.name();
#include "sandgate/result_shape.def"
  ch('}');
}

struct RelatedSteps {
  Json& w;
  const sandgate::Related& r;
  void input() { w.string(r.input); }
  void path() { w.string(r.path); }
  void source() { w.source(r.source); }
  void message() { w.string(r.message); }
};

struct DiagnosticSteps {
  Json& w;
  const sandgate::Diagnostic& d;
  const sandgate::CodeInfo& info;
  void rule() { w.string(info.rule); }
  void code() { w.string(info.name); }
  void severity() { w.string(sandgate::to_string(d.severity)); }
  void reason() { w.string_or_null(info.reason); }
  void grpc_code() { w.string_or_null(info.grpc_code); }
  void python_exception() { w.string_or_null(info.python_exception); }
  void js_exception() { w.string_or_null(info.js_exception); }
  void input() { w.string_or_null(d.input); }
  void path() { w.string(d.path); }
  void source() { w.source(d.source); }
  void message() { w.string(d.message); }
  void hint() { w.string_or_null(d.hint); }
  void related() {
    w.ch('[');
    for (std::size_t i = 0; i < d.related.size(); ++i) {
      if (i) w.ch(',');
      RelatedSteps f{w, d.related[i]};
      w.ch('{');
      const char* sep = "";
#define SG_RELATED_FIELD(name, ts_type, py_type, doc) \
  w.raw(sep);                                         \
  sep = ",";                                          \
  w.field(#name);                                     \
  f.name();
#include "sandgate/result_shape.def"
      w.ch('}');
    }
    w.ch(']');
  }
};

// The result's members: `ok` and `diagnostics` always; the others only for a check that ran
// (result_to_js leaves them out when a layer could not be read).
struct ResultSteps {
  Json& w;
  const sandgate::Result& r;
  static constexpr bool always(std::string_view name) { return name == "ok" || name == "diagnostics"; }
  void ok() { w.boolean(r.ok()); }
  void placement_mode() { w.string(r.placement_mode()); }
  void qos_class() { w.string(r.qos_class()); }
  void runner() {
    if (r.runner_id().empty()) {
      w.null();
      return;
    }
    w.raw("{\"id\":");
    w.string(r.runner_id());
    w.raw(",\"other_candidates\":");
    w.strings(r.other_candidates());
    w.raw("}");
  }
  void resolved() { w.node(r.resolved()); }
  void provenance() {
    w.ch('{');
    const char* sep = "";
    for (const auto& [path, from] : r.provenance()) {
      w.raw(sep);
      sep = ",";
      w.key(path);
      w.string(from);
    }
    w.ch('}');
  }
  void gpu() {
    auto g = r.gpu();
    if (!g) {
      w.null();
      return;
    }
    w.raw("{\"count\":");
    w.int64(g->count);
    if (!g->type.empty()) {
      w.raw(",\"type\":");
      w.string(g->type);
    }
    if (g->memory_gb > 0) {
      w.raw(",\"memory_gb\":");
      w.int64(g->memory_gb);
    }
    w.raw(",\"eligible_types\":");
    w.strings(g->eligible_types);
    w.raw("}");
  }
  void runtime_class() {
    auto rc = r.runtime_class();
    if (!rc) {
      w.null();
      return;
    }
    w.raw("{\"value\":");
    w.string(rc->value);
    w.raw(",\"from\":");
    w.string(rc->from);
    w.raw("}");
  }
  void slurm() {
    auto s = r.slurm();
    if (!s) {
      w.null();
      return;
    }
    w.raw("{\"scheduler\":");
    w.string(s->scheduler);
    w.raw(",\"CPUsPerTask\":");
    w.int64(s->cpus_per_task);
    w.raw(",\"MinMemoryNode\":");
    w.int64(s->min_memory_node);
    for (const auto& [k, v] : s->job_parameters) {
      w.raw(",");
      w.key(k);
      w.string(v);
    }
    w.raw("}");
  }
  void diagnostics() {
    const auto& ds = r.diagnostics();
    w.ch('[');
    for (std::size_t i = 0; i < ds.size(); ++i) {
      if (i) w.ch(',');
      const auto& d = ds[i];
      DiagnosticSteps f{w, d, d.info()};
      w.ch('{');
      const char* sep = "";
#define SG_DIAGNOSTIC_FIELD(name, ts_type, py_type, doc) \
  w.raw(sep);                                            \
  sep = ",";                                             \
  w.field(#name);                                        \
  f.name();
#include "sandgate/result_shape.def"
      w.ch('}');
    }
    w.ch(']');
  }
};

}  // namespace

namespace {

bool write_result(const sandgate::Result& r, Buffer& out) {
  out.clear();
  Json w{out};
  ResultSteps f{w, r};
  const bool checked = r.checked();
  const char* sep = "{";
#define SG_RESULT_FIELD(name, ts_type, py_type, doc) \
  if (checked || ResultSteps::always(#name)) {       \
    w.raw(sep);                                      \
    sep = ",";                                       \
    w.field(#name);                                  \
    f.name();                                        \
  }
#include "sandgate/result_shape.def"
  w.ch('}');
  return w.exact;
}

thread_local Buffer t_buffer;  // its room stays from call to call
bool g_as_text = true;

}  // namespace

bool result_to_json_text(const sandgate::Result& r, std::string& out) {
  bool exact = write_result(r, t_buffer);
  out.assign(t_buffer.view());
  t_buffer.trim();
  return exact;
}

Napi::Value result_to_js_or_text(Napi::Env env, const sandgate::Result& r, const std::string& text, bool ok_text) {
  if (!ok_text) return result_to_js(env, r);
  return Napi::String::New(env, text.data(), text.size());
}

bool results_as_text() { return g_as_text; }
void set_results_as_text(bool on) { g_as_text = on; }

Napi::Value result_to_js_or_text(Napi::Env env, const sandgate::Result& r) {
  Napi::Value v;
  if (g_as_text && write_result(r, t_buffer)) {
    std::string_view text = t_buffer.view();
    v = Napi::String::New(env, text.data(), text.size());
  } else {
    v = result_to_js(env, r);
  }
  t_buffer.trim();
  return v;
}

Napi::Array result_lazy_fields(Napi::Env env) {
  Napi::Array a = Napi::Array::New(env);
  std::uint32_t i = 0;
#define SG_RESULT_FIELD(name, ts_type, py_type, doc) \
  if (std::string_view(#name) != "ok") a.Set(i++, Napi::String::New(env, #name));
#include "sandgate/result_shape.def"
  return a;
}

}  // namespace sandgate_node
