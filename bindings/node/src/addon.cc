// The native module: thin functions over the C++ API. Argument shapes are settled by index.js;
// here each function checks only what it must to stay memory-safe, and throws TypeError otherwise.
#include <napi.h>

#include "check_many.h"
#include "diff_policies.h"
#include "inputs.h"
#include "js_to_node.h"
#include "kept_results.h"
#include "node_to_js.h"
#include "result_head.h"
#include "result_json.h"
#include "sandgate/path_meant.h"
#include "sandgate/sandgate.h"

namespace sandgate_node {
namespace {

std::string string_arg(const Napi::CallbackInfo& info, std::size_t i, const char* fallback, const char* what) {
  Napi::Value v = info[i];
  if (v.IsUndefined() || v.IsNull()) return fallback;
  if (!v.IsString()) throw Napi::TypeError::New(info.Env(), std::string(what) + " must be a string");
  return v.As<Napi::String>().Utf8Value();
}

Napi::Array views_to_js(Napi::Env env, const std::vector<std::string_view>& v) {
  Napi::Array a = Napi::Array::New(env, v.size());
  for (std::size_t i = 0; i < v.size(); ++i) a.Set(static_cast<std::uint32_t>(i), Napi::String::New(env, v[i].data(), v[i].size()));
  return a;
}

Napi::Value version(const Napi::CallbackInfo& info) { return Napi::String::New(info.Env(), sandgate::version()); }

sandgate::Format format_arg(const Napi::CallbackInfo& info, std::size_t i) {
  std::string f = string_arg(info, i, "auto", "format");
  if (f == "auto") return sandgate::Format::auto_detect;
  if (f == "yaml") return sandgate::Format::yaml;
  if (f == "json") return sandgate::Format::json;
  throw Napi::TypeError::New(info.Env(), "format must be \"auto\", \"yaml\" or \"json\"");
}

// loadPolicy(value, file, asTree, format) → policy handle. A string or bytes is policy text unless
// asTree (Policy.fromObject), where it is a JSON value like any other.
Napi::Value load_policy_js(const Napi::CallbackInfo& info) {
  return wrap_policy(info.Env(), load_policy(info.Env(), info[0], string_arg(info, 1, "", "file"), info[2].ToBoolean(),
                                             format_arg(info, 3)));
}

// fileText(bytes, file) → a tagged {bytes, file}: a file's contents for an input that named a path.
Napi::Value file_text_js(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  if (!info[0].IsBuffer() || !info[1].IsString()) throw Napi::TypeError::New(env, "fileText(bytes, file)");
  napi_value o = make_file_text(env, info[0], info[1]);
  if (!o) throw Napi::Error::New(env, "fileText: cannot make the object");
  return Napi::Value(env, o);
}

// policyInfo(handle) → {ok, is_null, file, diagnostics, document}
Napi::Value policy_info(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  auto p = unwrap_policy(info[0]);
  if (!p) throw Napi::TypeError::New(env, "not a sandgate policy handle");
  Napi::Object o = Napi::Object::New(env);
  bool ok = p->value && p->value->valid() && !sandgate::has_errors(p->conversion);
  o.Set("ok", Napi::Boolean::New(env, ok));
  o.Set("broken", Napi::Boolean::New(env, !p->value));
  o.Set("is_null", Napi::Boolean::New(env, p->value && p->value->is_null()));
  o.Set("diagnostics", diagnostics_to_js(env, p->diagnostics));
  o.Set("document", p->value ? node_to_js(env, p->value->document()) : env.Null());
  return o;
}

// validatePolicy(textOrObjectOrHandle, file, json) → {ok, diagnostics}, as JSON text (result_json.h);
// `json`: the object's JSON text, when index.js made it (value_text.h).
Napi::Value validate_policy_js(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  std::shared_ptr<PolicyInput> p = unwrap_policy(info[0]);
  if (!p) p = load_policy(env, info[0], string_arg(info, 1, "", "file"), false, sandgate::Format::auto_detect, info[2]);
  return result_to_js_or_text(env, sandgate::Result::from_diagnostics(p->diagnostics));
}

// makeContext(policy, runners, org, client, placement) → context handle
Napi::Value make_context_js(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  auto ctx = make_context(env, info[0], info[1], info[2], string_arg(info, 3, "typescript", "client"),
                          string_arg(info, 4, "", "placement"));
  return wrap_context(env, std::move(ctx));
}

// The request layers of a check: info[at], info[at + 1], info[at + 2] are the sandbox, defaults and
// overrides as JS passes them, info[json_at …] their JSON texts where index.js made them
// (value_text.h), else undefined. `json_refused` is set when the core refused one of the texts.
sandgate::Request::OwnedLayers layers_arg(const Napi::CallbackInfo& info, std::size_t at, std::size_t json_at,
                                          bool& json_refused) {
  Napi::Env env = info.Env();
  sandgate::Request::OwnedLayers layers;
  layers.sandbox = load_layer(env, info[at], "sandbox", info[json_at], &json_refused);
  if (!info[at + 1].IsUndefined() && !info[at + 1].IsNull()) {
    layers.defaults = load_layer(env, info[at + 1], "defaults", info[json_at + 1], &json_refused);
  }
  if (!info[at + 2].IsUndefined() && !info[at + 2].IsNull()) {
    layers.overrides = load_layer(env, info[at + 2], "overrides", info[json_at + 2], &json_refused);
  }
  return layers;
}

// A check's answer: with `lazy` (index.js keeps what it needs to check again: every input was
// text or the JSON text of a value, which strings hold immutably) and no JSON text refused, the
// result is kept (kept_results.h) and only its id goes over, negated when the result is not ok;
// index.js fills the fields from it on first read (resultHead, resultWhole). Otherwise the whole
// result, as JSON text or as an object (result_json.h).
Napi::Value answer(Napi::Env env, sandgate::Result&& r, bool lazy) {
  if (lazy && results_as_text()) {
    const bool ok = r.ok();
    const double id = keep_result(env, std::move(r));
    return Napi::Number::New(env, ok ? id : -id);
  }
  return result_to_js_or_text(env, r);
}

double id_arg(const Napi::CallbackInfo& info) {
  return info[0].IsNumber() ? info[0].As<Napi::Number>().DoubleValue() : 0;
}

// The whole of the result kept under `id`, which is then no longer kept.
Napi::Value take_whole(Napi::Env env, const sandgate::Result& r, double id) {
  Napi::Value whole = result_to_js_or_text(env, r);
  drop_result(env, id);
  return whole;
}

// resultHead(id) → the head (result_head.h) of the result kept under `id`, as JSON text; or its
// whole (text, or an object when JSON cannot carry it) when none of it is deferred; null when it is
// no longer kept (index.js then checks again).
Napi::Value result_head_js(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const double id = id_arg(info);
  const sandgate::Result* r = kept_result(env, id);
  if (!r) return env.Null();
  std::string head;
  if (r->checked() && result_head_json(*r, head)) return Napi::String::New(env, head.data(), head.size());
  return take_whole(env, *r, id);
}

// resultWhole(id) → the whole result kept under `id` (for its deferred fields), which is then no
// longer kept; null when it already is not.
Napi::Value result_whole_js(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const double id = id_arg(info);
  const sandgate::Result* r = kept_result(env, id);
  return r ? take_whole(env, *r, id) : env.Null();
}

// check(context, sandbox, defaults, overrides, sandboxJson, defaultsJson, overridesJson, lazy) →
// the result as JSON text (whole, or its head when lazy), or as an object when JSON cannot carry it
// (result_json.h); index.js wraps either.
Napi::Value check_js(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  auto ctx = unwrap_context(env, info[0]);
  bool refused = false;
  sandgate::Result r = ctx->run(layers_arg(info, 1, 4, refused));
  return answer(env, std::move(r), info[7].ToBoolean().Value() && !refused);
}

// checkOnce(policy, runners, org, client, placement, sandbox, defaults, overrides, policyJson,
// runnersJson, orgJson, sandboxJson, defaultsJson, overridesJson, lazy) → as check: the free
// function check(). The context lives on this call's stack, never in an External: an External
// per call is freed only by its finalizer, which Node runs from the event loop after a GC, so a
// synchronous loop of check() calls piled up every context (issue 12, item 7). A lazy result is
// kept with the inputs it needs (shared with it), for the last checks only (kept_results.h).
Napi::Value check_once_js(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  bool refused = false;
  std::shared_ptr<const CheckContext> ctx =
      make_context(env, info[0], info[1], info[2], string_arg(info, 3, "typescript", "client"),
                   string_arg(info, 4, "", "placement"), ContextJson{info[8], info[9], info[10]}, &refused);
  sandgate::Result r = ctx->run(layers_arg(info, 5, 11, refused));
  return answer(env, std::move(r), info[14].ToBoolean().Value() && !refused);
}

// normalizeResources(value, client) → result with resolved {requests, limits, gpu}
Napi::Value normalize_resources_js(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  sandgate::CheckOptions options;
  options.client = string_arg(info, 1, "typescript", "client");
  // The value is always a tree: a string here is a wrong `resources` value, not YAML text.
  Converted c = js_to_node(env, info[0], "sandbox", "/resources");
  const bool usable = c.checkable();
  sandgate::Diagnostics pre = std::move(c.diagnostics);
  sandgate::Node root = std::move(c.root);
  sandgate::Result r;
  if (usable) r = sandgate::normalize_resources(root, options);
  r.add_diagnostics(pre);
  Napi::Object o = result_to_js(env, r);
  o.Set("resolved", usable ? node_to_js(env, r.resolved()) : env.Null());
  o.Set("qos_class", Napi::String::New(env, std::string(r.qos_class())));
  return o;
}

sandgate::QuantityGrammar grammar_arg(const Napi::CallbackInfo& info, std::size_t i) {
  std::string g = string_arg(info, i, "sdk", "grammar");
  if (g == "sdk") return sandgate::QuantityGrammar::sdk;
  if (g == "kubernetes") return sandgate::QuantityGrammar::kubernetes;
  throw Napi::TypeError::New(info.Env(), "grammar must be \"sdk\" or \"kubernetes\"");
}

const char* error_kind(sandgate::QuantityErrorKind k) {
  switch (k) {
    case sandgate::QuantityErrorKind::empty: return "empty";
    case sandgate::QuantityErrorKind::negative: return "negative";
    case sandgate::QuantityErrorKind::exponent_with_suffix: return "exponent_with_suffix";
    case sandgate::QuantityErrorKind::format: return "format";
    case sandgate::QuantityErrorKind::too_long: return "too_long";
    case sandgate::QuantityErrorKind::exponent_too_large: return "exponent_too_large";
    case sandgate::QuantityErrorKind::too_large: return "too_large";
  }
  return "format";
}

// parseQuantity(text, grammar) → {ok: true, decimal, canonical, milli, trimmed} | {ok: false, kind, message}
Napi::Value parse_quantity_js(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  if (!info[0].IsString()) throw Napi::TypeError::New(env, "a quantity must be a string");
  std::string text = info[0].As<Napi::String>().Utf8Value();
  sandgate::QuantityError err{sandgate::QuantityErrorKind::format, ""};
  auto q = sandgate::Quantity::parse(text, grammar_arg(info, 1), &err);
  Napi::Object o = Napi::Object::New(env);
  o.Set("ok", Napi::Boolean::New(env, q.has_value()));
  if (!q) {
    o.Set("kind", Napi::String::New(env, error_kind(err.kind)));
    o.Set("message", Napi::String::New(env, err.message));
    return o;
  }
  o.Set("decimal", Napi::String::New(env, q->decimal()));
  o.Set("canonical", Napi::String::New(env, q->canonical()));
  auto milli = q->milli();
  o.Set("milli", milli ? Napi::Value(Napi::BigInt::New(env, *milli)) : env.Null());
  o.Set("trimmed", Napi::Boolean::New(env, q->trimmed()));
  return o;
}

// pathMeant(path) → the existing path a missing one most likely meant, or "" (sandgate/path_meant.h).
Napi::Value path_meant_js(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  if (!info[0].IsString()) throw Napi::TypeError::New(env, "a path must be a string");
  return Napi::String::New(env, sandgate::path_meant(info[0].As<Napi::String>().Utf8Value()));
}

// compareQuantities(a, b, grammar) → -1 | 0 | 1 (both already known to parse)
Napi::Value compare_quantities_js(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  if (!info[0].IsString() || !info[1].IsString()) throw Napi::TypeError::New(env, "quantities must be strings");
  auto g = grammar_arg(info, 2);
  auto a = sandgate::Quantity::parse(info[0].As<Napi::String>().Utf8Value(), g);
  auto b = sandgate::Quantity::parse(info[1].As<Napi::String>().Utf8Value(), g);
  if (!a || !b) throw Napi::TypeError::New(env, "not a quantity");
  auto c = *a <=> *b;
  return Napi::Number::New(env, c < 0 ? -1 : c > 0 ? 1 : 0);
}

// exceptionFor(grpcCode, reason, domain, fieldViolations) → {python, js}
Napi::Value exception_for_js(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  bool violations = info[3].IsUndefined() ? true : info[3].ToBoolean().Value();
  auto c = sandgate::exception_for(string_arg(info, 0, "", "grpcCode"), string_arg(info, 1, "", "reason"),
                                   string_arg(info, 2, "cwsandbox.com", "domain"), violations);
  Napi::Object o = Napi::Object::New(env);
  o.Set("python", Napi::String::New(env, c.python.data(), c.python.size()));
  o.Set("js", Napi::String::New(env, c.js.data(), c.js.size()));
  return o;
}

Napi::Value is_spill_eligible_js(const Napi::CallbackInfo& info) {
  return Napi::Boolean::New(info.Env(), sandgate::is_spill_eligible(string_arg(info, 0, "", "grpcCode"),
                                                                    string_arg(info, 1, "", "reason"),
                                                                    string_arg(info, 2, "cwsandbox.com", "domain")));
}

Napi::Value exception_ancestors_js(const Napi::CallbackInfo& info) {
  return views_to_js(info.Env(), sandgate::exception_ancestors(string_arg(info, 0, "", "name"), info[1].ToBoolean().Value()));
}

// jsExceptionClasses() → [{name, bases}] (the TypeScript SDK's classes, parents before children)
Napi::Value js_exception_classes_js(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  auto classes = sandgate::js_exception_classes();
  Napi::Array a = Napi::Array::New(env, classes.size());
  for (std::size_t i = 0; i < classes.size(); ++i) {
    Napi::Object o = Napi::Object::New(env);
    o.Set("name", Napi::String::New(env, classes[i].name.data(), classes[i].name.size()));
    o.Set("bases", views_to_js(env, classes[i].bases));
    a.Set(static_cast<std::uint32_t>(i), o);
  }
  return a;
}

Napi::Value known_reasons_js(const Napi::CallbackInfo& info) {
  auto r = sandgate::known_reasons();
  return views_to_js(info.Env(), std::vector<std::string_view>(r.begin(), r.end()));
}

Napi::Value grpc_codes_js(const Napi::CallbackInfo& info) {
  auto r = sandgate::grpc_codes();
  return views_to_js(info.Env(), std::vector<std::string_view>(r.begin(), r.end()));
}

Napi::Value codes_js(const Napi::CallbackInfo& info) { return codes_to_js(info.Env()); }

// resultFields() → the result fields after `ok`, in result_shape.def's order (index.js's lazy ones).
Napi::Value result_fields_js(const Napi::CallbackInfo& info) { return result_lazy_fields(info.Env()); }

// resultsAsText(on) → whether results were handed over as text before: off, every result comes as
// an object, as result_to_js builds it (for tests that compare the two).
Napi::Value results_as_text_js(const Napi::CallbackInfo& info) {
  bool before = results_as_text();
  set_results_as_text(info[0].ToBoolean().Value());
  return Napi::Boolean::New(info.Env(), before);
}

Napi::Object init(Napi::Env env, Napi::Object exports) {
  struct Fn {
    const char* name;
    Napi::Value (*fn)(const Napi::CallbackInfo&);
  };
  const Fn fns[] = {
      {"version", version},
      {"loadPolicy", load_policy_js},
      {"fileText", file_text_js},
      {"policyInfo", policy_info},
      {"validatePolicy", validate_policy_js},
      {"makeContext", make_context_js},
      {"check", check_js},
      {"checkOnce", check_once_js},
      {"resultHead", result_head_js},
      {"resultWhole", result_whole_js},
      {"checkBatch", check_batch},
      {"checkTexts", check_texts},
      {"checkItem", check_item},
      {"diffPolicies", diff_policies},
      {"normalizeResources", normalize_resources_js},
      {"parseQuantity", parse_quantity_js},
      {"compareQuantities", compare_quantities_js},
      {"pathMeant", path_meant_js},
      {"exceptionFor", exception_for_js},
      {"isSpillEligible", is_spill_eligible_js},
      {"exceptionAncestors", exception_ancestors_js},
      {"jsExceptionClasses", js_exception_classes_js},
      {"knownReasons", known_reasons_js},
      {"grpcCodes", grpc_codes_js},
      {"codes", codes_js},
      {"resultFields", result_fields_js},
      {"resultsAsText", results_as_text_js},
  };
  for (const auto& f : fns) exports.Set(f.name, Napi::Function::New(env, f.fn, f.name));
  exports.Set("keptResults", Napi::Number::New(env, static_cast<double>(k_kept_results)));  // for tests
  // The document size limit the engine applies (SPEC §1.2): index.js reads at most this + 1 byte of
  // a file, as the CLI does.
  exports.Set("maxDocumentBytes", Napi::Number::New(env, static_cast<double>(sandgate::Limits{}.max_bytes)));
  return exports;
}

}  // namespace
}  // namespace sandgate_node

// NODE_API_MODULE pastes the function's name into an identifier: it must be unqualified.
static Napi::Object InitSandgate(Napi::Env env, Napi::Object exports) { return sandgate_node::init(env, exports); }
NODE_API_MODULE(sandgate, InitSandgate)
