// Writing sandgate's values with RapidJSON's writers (shared by the JSON and SARIF renderers).
// Templates, so the same code serves the compact Writer and the PrettyWriter.
#pragma once

#include <cmath>
#include <string>
#include <string_view>
#include <vector>

#include "sandgate/quantity.h"
#include "sandgate/render.h"
#include "util/integer_literal.h"
#include "util/json_writers.h"

namespace sandgate::render {

using sandgate::integer_literal_decimal;  // util/integer_literal.h

// A finite double as JSON that a YAML 1.1 reader (PyYAML, sandgate's own) also reads as a float:
// its exponent signed and its mantissa with a point. RapidJSON writes `8.8e66` and `1e100`, valid
// JSON but strings in YAML 1.1, whose floats are `1.0e+100` (fuzz_sandbox: a timeout of 8.8e66,
// its JSON rendering read back as YAML, was a string).
inline std::string double_literal(double v) {
  char buf[40];
  char* end = rapidjson::internal::dtoa(v, buf);
  std::string out(buf, end);
  std::size_t e = out.find('e');
  if (e == std::string::npos) return out;
  if (out.find('.') > e) {
    out.insert(e, ".0");
    e += 2;
  }
  if (e + 1 < out.size() && out[e + 1] != '-' && out[e + 1] != '+') out.insert(e + 1, "+");
  return out;
}

template <typename W>
void write_node(W& w, const Node& n) {
  switch (n.kind) {
    case NodeKind::null: w.Null(); break;
    case NodeKind::boolean: w.Bool(n.boolean); break;
    case NodeKind::integer:
      if (n.int_overflow) {
        std::string exact = integer_literal_decimal(n.text);
        if (exact.empty()) {
          w.Int64(n.integer);  // clamped, but still JSON
        } else {
          w.RawValue(exact.data(), exact.size(), rapidjson::kNumberType);
        }
      } else {
        w.Int64(n.integer);
      }
      break;
    case NodeKind::number:
      if (std::isfinite(n.number)) {
        std::string literal = double_literal(n.number);
        w.RawValue(literal.data(), literal.size(), rapidjson::kNumberType);
      } else {
        w.Null();  // JSON has no NaN or Infinity
      }
      break;
    case NodeKind::string: write_string(w, n.text); break;
    case NodeKind::array:
      w.StartArray();
      for (const auto& item : n.items) write_node(w, item);
      w.EndArray();
      break;
    case NodeKind::object:
      w.StartObject();
      for (const auto& m : n.members) {
        write_string(w, m.key);
        write_node(w, m.value);
      }
      w.EndObject();
      break;
  }
}

// Each object's members come from core/include/sandgate/result_shape.def, one step per row in the
// row's order: a row without its step here does not compile.
template <typename W>
struct SourceJson {
  W& w;
  const SourceLocation& s;
  void file() { write_string(w, s.file); }
  void line() { w.Int(s.line); }
  void column() { w.Int(s.column); }
};

template <typename W>
void write_source(W& w, const std::optional<SourceLocation>& source) {
  if (!source) {
    w.Null();
    return;
  }
  SourceJson<W> f{w, *source};
  w.StartObject();
#define SG_SOURCE_FIELD(name, ts, py, doc) \
  w.Key(#name);                            \
  f.name();
#include "sandgate/result_shape.def"
  w.EndObject();
}

template <typename W>
struct RelatedJson {
  W& w;
  const Related& r;
  void input() { write_string(w, r.input); }
  void path() { write_string(w, r.path); }
  void source() { write_source(w, r.source); }
  void message() { write_string(w, r.message); }
};

template <typename W>
struct DiagnosticJson {
  W& w;
  const Diagnostic& d;
  const CodeInfo& info;
  void rule() { write_string(w, info.rule); }
  void code() { write_string(w, info.name); }
  void severity() { write_string(w, to_string(d.severity)); }
  void reason() { write_string_or_null(w, info.reason); }
  void grpc_code() { write_string_or_null(w, info.grpc_code); }
  void python_exception() { write_string_or_null(w, info.python_exception); }
  void js_exception() { write_string_or_null(w, info.js_exception); }
  void input() { write_string_or_null(w, d.input); }
  void path() { write_string(w, d.path); }
  void source() { write_source(w, d.source); }
  void message() { write_string(w, d.message); }
  void hint() { write_string_or_null(w, d.hint); }
  void related() {
    w.StartArray();
    for (const auto& r : d.related) {
      RelatedJson<W> f{w, r};
      w.StartObject();
#define SG_RELATED_FIELD(name, ts, py, doc) \
  w.Key(#name);                             \
  f.name();
#include "sandgate/result_shape.def"
      w.EndObject();
    }
    w.EndArray();
  }
};

template <typename W>
void write_diagnostic(W& w, const Diagnostic& d) {
  DiagnosticJson<W> f{w, d, d.info()};
  w.StartObject();
#define SG_DIAGNOSTIC_FIELD(name, ts, py, doc) \
  w.Key(#name);                                \
  f.name();
#include "sandgate/result_shape.def"
  w.EndObject();
}

template <typename W>
struct ResultJson {
  W& w;
  const Result& r;
  void ok() { w.Bool(r.ok()); }
  void placement_mode() { write_string(w, r.placement_mode()); }
  void qos_class() { write_string(w, r.qos_class()); }
  void runner() {
    if (r.runner_id().empty()) {
      w.Null();
      return;
    }
    w.StartObject();
    w.Key("id");
    write_string(w, r.runner_id());
    w.Key("other_candidates");
    w.StartArray();
    for (const auto& c : r.other_candidates()) write_string(w, c);
    w.EndArray();
    w.EndObject();
  }
  void resolved() { write_node(w, r.resolved()); }
  void provenance() {
    w.StartObject();
    for (const auto& [path, from] : r.provenance()) {
      write_string(w, path);
      write_string(w, from);
    }
    w.EndObject();
  }
  void rules_applied() {
    w.StartObject();
    for (const auto& [path, rule] : r.rules_applied()) {
      write_string(w, path);
      write_string(w, rule);
    }
    w.EndObject();
  }
  void gpu() {
    auto gpu = r.gpu();
    if (!gpu) {
      w.Null();
      return;
    }
    w.StartObject();
    w.Key("count");
    w.Int64(gpu->count);
    if (!gpu->type.empty()) {
      w.Key("type");
      write_string(w, gpu->type);
    }
    if (gpu->memory_gb > 0) {
      w.Key("memory_gb");
      w.Int64(gpu->memory_gb);
    }
    w.Key("eligible_types");
    w.StartArray();
    for (const auto& t : gpu->eligible_types) write_string(w, t);
    w.EndArray();
    w.EndObject();
  }
  void runtime_class() {
    auto rc = r.runtime_class();
    if (!rc) {
      w.Null();
      return;
    }
    w.StartObject();
    w.Key("value");
    write_string(w, rc->value);
    w.Key("from");
    write_string(w, rc->from);
    w.EndObject();
  }
  void slurm() {
    auto slurm = r.slurm();
    if (!slurm) {
      w.Null();
      return;
    }
    w.StartObject();
    w.Key("scheduler");
    write_string(w, slurm->scheduler);
    w.Key("CPUsPerTask");
    w.Int64(slurm->cpus_per_task);
    w.Key("MinMemoryNode");
    w.Int64(slurm->min_memory_node);
    for (const auto& [k, v] : slurm->job_parameters) {
      write_string(w, k);
      write_string(w, v);
    }
    w.EndObject();
  }
  void diagnostics() {
    w.StartArray();
    for (const auto& d : r.diagnostics()) write_diagnostic(w, d);
    w.EndArray();
  }
};

// Whether a result field is built from the resolved request (Result::output()): what a binding
// may defer until it is read (result_head_to_json).
constexpr bool is_output_field(std::string_view name) {
  return name == "resolved" || name == "provenance" || name == "rules_applied";
}

// The members of the SPEC §7 object, without the surrounding braces (so callers can add theirs).
// A result that was not checked (a layer could not be read) has only `ok` and `diagnostics`.
// `defer_output`: the output fields are written as 0, in their places, and not built.
template <typename W>
void write_result_members(W& w, const Result& r, bool defer_output = false) {
  ResultJson<W> f{w, r};
  const bool checked = r.checked();
#define SG_RESULT_FIELD(name, ts, py, doc)                                                     \
  if (checked || std::string_view(#name) == "ok" || std::string_view(#name) == "diagnostics") { \
    w.Key(#name);                                                                              \
    if (defer_output && is_output_field(#name)) {                                              \
      w.Int(0);                                                                                \
    } else {                                                                                   \
      f.name();                                                                                \
    }                                                                                          \
  }
#include "sandgate/result_shape.def"
}

template <typename W>
void write_code_info(W& w, const CodeInfo& c) {
  w.StartObject();
  w.Key("code");
  write_string(w, c.name);
  w.Key("rule");
  write_string(w, c.rule);
  w.Key("severity");
  write_string(w, to_string(c.severity));
  w.Key("reason");
  write_string_or_null(w, c.reason);
  w.Key("grpc_code");
  write_string_or_null(w, c.grpc_code);
  w.Key("python_exception");
  write_string_or_null(w, c.python_exception);
  w.Key("js_exception");
  write_string_or_null(w, c.js_exception);
  w.Key("side");
  write_string(w, to_string(c.side));
  w.Key("summary");
  write_string(w, c.summary);
  w.EndObject();
}

// The buffer write_json writes into: one per thread, kept between calls, so a stream of records
// does not allocate (and free) a buffer for every value it writes. A call made while the thread's
// buffer is in use (one value written inside another) gets a buffer of its own.
class JsonBufferLease {
 public:
  JsonBufferLease() : own_(in_use()) { in_use() = true; }
  ~JsonBufferLease() {
    if (own_) return;
    rapidjson::StringBuffer& b = shared();
    // A large value's room is given back rather than kept for the thread's life.
    bool large = b.GetSize() > (std::size_t{64} << 10);
    b.Clear();
    if (large) b.ShrinkToFit();
    in_use() = false;
  }
  JsonBufferLease(const JsonBufferLease&) = delete;
  JsonBufferLease& operator=(const JsonBufferLease&) = delete;
  rapidjson::StringBuffer& buffer() { return own_ ? local_ : shared(); }

 private:
  static rapidjson::StringBuffer& shared() {
    thread_local rapidjson::StringBuffer b;
    return b;
  }
  static bool& in_use() {
    thread_local bool busy = false;
    return busy;
  }
  bool own_;
  rapidjson::StringBuffer local_;
};

// Runs `fn` with a writer and returns the text it wrote.
template <typename Fn>
std::string write_json(bool pretty, Fn fn) {
  JsonBufferLease lease;
  rapidjson::StringBuffer& buf = lease.buffer();
  if (pretty) {
    PrettyJsonWriter<rapidjson::StringBuffer> w(buf);
    w.SetIndent(' ', 2);
    fn(w);
  } else {
    JsonWriter<rapidjson::StringBuffer> w(buf);
    fn(w);
  }
  return std::string(buf.GetString(), buf.GetSize());
}

}  // namespace sandgate::render
