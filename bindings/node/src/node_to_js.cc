// Output conversion, mirroring core/src/render/json_writer.h field for field.
#include "node_to_js.h"

#include <cmath>

namespace sandgate_node {
namespace {

using sandgate::Node;
using sandgate::NodeKind;

Napi::Value str(Napi::Env env, std::string_view s) { return Napi::String::New(env, s.data(), s.size()); }
Napi::Value str_or_null(Napi::Env env, std::string_view s) { return s.empty() ? env.Null() : str(env, s); }

constexpr std::int64_t k_max_safe = 9007199254740991;  // Number.MAX_SAFE_INTEGER

// Integers beyond 2^53 would lose digits as a Number: they come back as BigInt, exact.
Napi::Value integer(Napi::Env env, const Node& n) {
  if (n.int_overflow) {
    Napi::Function big = env.Global().Get("BigInt").As<Napi::Function>();
    return big.Call({str(env, n.text)});
  }
  if (n.integer >= -k_max_safe && n.integer <= k_max_safe) return Napi::Number::New(env, static_cast<double>(n.integer));
  return Napi::BigInt::New(env, n.integer);
}

Napi::Array strings(Napi::Env env, const std::vector<std::string>& v) {
  Napi::Array a = Napi::Array::New(env, v.size());
  for (std::size_t i = 0; i < v.size(); ++i) a.Set(static_cast<std::uint32_t>(i), str(env, v[i]));
  return a;
}

Napi::Value int64(Napi::Env env, std::int64_t v) {
  if (v >= -k_max_safe && v <= k_max_safe) return Napi::Number::New(env, static_cast<double>(v));
  return Napi::BigInt::New(env, v);
}

}  // namespace

Napi::Value node_to_js(Napi::Env env, const Node& n) {
  switch (n.kind) {
    case NodeKind::null: return env.Null();
    case NodeKind::boolean: return Napi::Boolean::New(env, n.boolean);
    case NodeKind::integer: return integer(env, n);
    case NodeKind::number: return Napi::Number::New(env, n.number);
    case NodeKind::string: return str(env, n.text);
    case NodeKind::array: {
      Napi::Array a = Napi::Array::New(env, n.items.size());
      for (std::size_t i = 0; i < n.items.size(); ++i) a.Set(static_cast<std::uint32_t>(i), node_to_js(env, n.items[i]));
      return a;
    }
    case NodeKind::object: {
      Napi::Object o = Napi::Object::New(env);
      for (const auto& m : n.members) o.Set(str(env, m.key), node_to_js(env, m.value));
      return o;
    }
  }
  return env.Null();
}

namespace {

Napi::Value source_to_js(Napi::Env env, const std::optional<sandgate::SourceLocation>& source) {
  if (!source) return env.Null();
  Napi::Object s = Napi::Object::New(env);
  s.Set("file", str(env, source->file));
  s.Set("line", Napi::Number::New(env, source->line));
  s.Set("column", Napi::Number::New(env, source->column));
  return s;
}

// One member per row of core/include/sandgate/result_shape.def, in its order (index.d.ts is
// generated from the same rows): a row without its step here does not compile.
struct RelatedValues {
  Napi::Env env;
  const sandgate::Related& r;
  Napi::Value input() { return str(env, r.input); }
  Napi::Value path() { return str(env, r.path); }
  Napi::Value source() { return source_to_js(env, r.source); }
  Napi::Value message() { return str(env, r.message); }
};

struct DiagnosticValues {
  Napi::Env env;
  const sandgate::Diagnostic& d;
  const sandgate::CodeInfo& info;
  Napi::Value rule() { return str(env, info.rule); }
  Napi::Value code() { return str(env, info.name); }
  Napi::Value severity() { return str(env, sandgate::to_string(d.severity)); }
  Napi::Value reason() { return str_or_null(env, info.reason); }
  Napi::Value grpc_code() { return str_or_null(env, info.grpc_code); }
  Napi::Value python_exception() { return str_or_null(env, info.python_exception); }
  Napi::Value js_exception() { return str_or_null(env, info.js_exception); }
  Napi::Value input() { return str_or_null(env, d.input); }
  Napi::Value path() { return str(env, d.path); }
  Napi::Value source() { return source_to_js(env, d.source); }
  Napi::Value message() { return str(env, d.message); }
  Napi::Value hint() { return str_or_null(env, d.hint); }
  Napi::Value related() {
    Napi::Array a = Napi::Array::New(env, d.related.size());
    for (std::size_t i = 0; i < d.related.size(); ++i) {
      RelatedValues f{env, d.related[i]};
      Napi::Object o = Napi::Object::New(env);
#define SG_RELATED_FIELD(name, ts_type, py_type, doc) o.Set(#name, f.name());
#include "sandgate/result_shape.def"
      a.Set(static_cast<std::uint32_t>(i), o);
    }
    return a;
  }
};

}  // namespace

Napi::Object diagnostic_to_js(Napi::Env env, const sandgate::Diagnostic& d) {
  DiagnosticValues f{env, d, d.info()};
  Napi::Object o = Napi::Object::New(env);
#define SG_DIAGNOSTIC_FIELD(name, ts_type, py_type, doc) o.Set(#name, f.name());
#include "sandgate/result_shape.def"
  return o;
}

Napi::Array diagnostics_to_js(Napi::Env env, const sandgate::Diagnostics& ds) {
  Napi::Array a = Napi::Array::New(env, ds.size());
  for (std::size_t i = 0; i < ds.size(); ++i) a.Set(static_cast<std::uint32_t>(i), diagnostic_to_js(env, ds[i]));
  return a;
}

Napi::Object result_to_js(Napi::Env env, const sandgate::Result& r) {
  Napi::Object o = Napi::Object::New(env);
  o.Set("ok", Napi::Boolean::New(env, r.ok()));
  if (r.checked()) {
    o.Set("placement_mode", str(env, std::string(r.placement_mode())));
    o.Set("qos_class", str(env, std::string(r.qos_class())));
    if (r.runner_id().empty()) {
      o.Set("runner", env.Null());
    } else {
      Napi::Object runner = Napi::Object::New(env);
      runner.Set("id", str(env, std::string(r.runner_id())));
      runner.Set("other_candidates", strings(env, r.other_candidates()));
      o.Set("runner", runner);
    }
    o.Set("resolved", node_to_js(env, r.resolved()));
    Napi::Object prov = Napi::Object::New(env);
    for (const auto& [path, from] : r.provenance()) prov.Set(str(env, path), str(env, from));
    o.Set("provenance", prov);
    Napi::Object rules = Napi::Object::New(env);
    for (const auto& [path, rule] : r.rules_applied()) rules.Set(str(env, path), str(env, rule));
    o.Set("rules_applied", rules);
    if (auto g = r.gpu()) {
      Napi::Object gpu = Napi::Object::New(env);
      gpu.Set("count", int64(env, g->count));
      if (!g->type.empty()) gpu.Set("type", str(env, g->type));
      if (g->memory_gb > 0) gpu.Set("memory_gb", int64(env, g->memory_gb));
      gpu.Set("eligible_types", strings(env, g->eligible_types));
      o.Set("gpu", gpu);
    } else {
      o.Set("gpu", env.Null());
    }
    if (auto rc_value = r.runtime_class()) {
      Napi::Object rc = Napi::Object::New(env);
      rc.Set("value", str(env, rc_value->value));
      rc.Set("from", str(env, rc_value->from));
      o.Set("runtime_class", rc);
    } else {
      o.Set("runtime_class", env.Null());
    }
    if (auto slurm = r.slurm()) {
      Napi::Object s = Napi::Object::New(env);
      s.Set("scheduler", str(env, slurm->scheduler));
      s.Set("CPUsPerTask", int64(env, slurm->cpus_per_task));
      s.Set("MinMemoryNode", int64(env, slurm->min_memory_node));
      for (const auto& [k, v] : slurm->job_parameters) s.Set(str(env, k), str(env, v));
      o.Set("slurm", s);
    } else {
      o.Set("slurm", env.Null());
    }
  }
  o.Set("diagnostics", diagnostics_to_js(env, r.diagnostics()));
  return o;
}

Napi::Array codes_to_js(Napi::Env env) {
  auto rows = sandgate::all_codes();
  Napi::Array a = Napi::Array::New(env, rows.size());
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const auto& c = rows[i];
    Napi::Object o = Napi::Object::New(env);
    o.Set("code", str(env, c.name));
    o.Set("rule", str(env, c.rule));
    o.Set("severity", str(env, sandgate::to_string(c.severity)));
    o.Set("reason", str_or_null(env, c.reason));
    o.Set("grpc_code", str_or_null(env, c.grpc_code));
    o.Set("python_exception", str_or_null(env, c.python_exception));
    o.Set("js_exception", str_or_null(env, c.js_exception));
    o.Set("side", str(env, sandgate::to_string(c.side)));
    o.Set("summary", str(env, c.summary));
    a.Set(static_cast<std::uint32_t>(i), o);
  }
  return a;
}

}  // namespace sandgate_node
