#include "inputs.h"

#include "js_to_node.h"
#include "value_text.h"

namespace sandgate_node {
namespace {

using sandgate::Diagnostics;
using sandgate::Format;

// Distinct random tags: an External made by another addon (or for another purpose) is refused.
constexpr napi_type_tag k_policy_tag = {0x5a1d6a7e0c0de001ULL, 0x9e3779b97f4a7c15ULL};
constexpr napi_type_tag k_context_tag = {0x5a1d6a7e0c0de002ULL, 0xc2b2ae3d27d4eb4fULL};

void append_errors(Diagnostics& out, const Diagnostics& from) {
  for (const auto& d : from) {
    if (d.severity == sandgate::Severity::error) out.push_back(d);
  }
}

bool absent(const Napi::Value& v) { return v.IsUndefined() || v.IsNull(); }

// The file name of text passed directly, as Python names it: `<sandbox>`, `<policy>`, … (a
// diagnostic's source then reads the same from both bindings).
std::string text_label(const char* input) { return std::string("<") + input + ">"; }

// Loads one input of kind T: text goes to the core's loader, a JS value through js_to_node, or,
// when `json` is its JSON text (value_text.h) and the core accepts it, through that text.
// `parse` and `build` return the core's *Load struct; `get` takes the compiled value out of it.
template <typename T, typename Parse, typename Build, typename Get>
Compiled<T> load_input(Napi::Env env, Napi::Value v, Napi::Value json, const char* input, const std::string& file,
                       bool as_tree, Format format, Parse parse, Build build, Get get) {
  Compiled<T> out;
  if (!json.IsEmpty() && !json.IsUndefined()) {
    if (std::optional<sandgate::Node> root = value_from_json(json)) {
      auto load = build(std::move(*root), file);
      out.value = get(load);
      out.diagnostics = std::move(load.diagnostics);
      return out;
    }
    out.json_refused = true;
  }
  std::string text;
  std::string path = file;
  char16_t lone = 0;
  if (!as_tree && js_text(env, v, text, &path, &lone)) {
    if (path.empty()) path = text_label(input);
    auto load = parse(text, format, path);
    out.value = get(load);
    out.diagnostics = std::move(load.diagnostics);
    name_lone_surrogate(out.diagnostics, lone);
    return out;
  }
  Converted c = js_to_node(env, v, input);
  const bool checkable = c.checkable();
  out.conversion = c.diagnostics;
  out.diagnostics = std::move(c.diagnostics);
  if (!checkable) return out;  // a part could not be read: the input is not compiled
  auto load = build(std::move(c.root), file);
  out.value = get(load);
  out.diagnostics.insert(out.diagnostics.end(), load.diagnostics.begin(), load.diagnostics.end());
  return out;
}

template <typename T>
Compiled<T> load_named(Napi::Env env, Napi::Value v, Napi::Value json, const char* input);

template <>
Compiled<sandgate::Runners> load_named(Napi::Env env, Napi::Value v, Napi::Value json, const char* input) {
  return load_input<sandgate::Runners>(
      env, v, json, input, "", false, Format::auto_detect,
      [](const std::string& t, Format f, const std::string& file) { return sandgate::Runners::parse(t, f, file); },
      [](sandgate::Node n, const std::string& file) { return sandgate::Runners::from_node(std::move(n), file); },
      [](sandgate::RunnersLoad& l) { return l.runners; });
}

template <>
Compiled<sandgate::Org> load_named(Napi::Env env, Napi::Value v, Napi::Value json, const char* input) {
  return load_input<sandgate::Org>(
      env, v, json, input, "", false, Format::auto_detect,
      [](const std::string& t, Format f, const std::string& file) { return sandgate::Org::parse(t, f, file); },
      [](sandgate::Node n, const std::string& file) { return sandgate::Org::from_node(std::move(n), file); },
      [](sandgate::OrgLoad& l) { return l.org; });
}

// What a context keeps from one compiled input: the value, or its errors when it is broken.
template <typename T>
std::shared_ptr<const T> take(const Compiled<T>& c, CheckContext& ctx, bool* json_refused) {
  if (c.json_refused && json_refused) *json_refused = true;
  if (!c.value) {
    append_errors(ctx.load_errors, c.diagnostics);
    return nullptr;
  }
  append_errors(ctx.extra_errors, c.conversion);
  return c.value;
}

template <typename T>
Napi::Value wrap(Napi::Env env, std::shared_ptr<T> p, const napi_type_tag* tag) {
  auto* holder = new std::shared_ptr<T>(std::move(p));
  auto ext = Napi::External<std::shared_ptr<T>>::New(env, holder, [](Napi::Env, std::shared_ptr<T>* h) { delete h; });
  ext.TypeTag(tag);
  return ext;
}

template <typename T>
std::shared_ptr<T> unwrap(Napi::Value v, const napi_type_tag* tag) {
  if (!v.IsExternal()) return nullptr;
  auto ext = v.As<Napi::External<std::shared_ptr<T>>>();
  if (!ext.CheckTypeTag(tag)) return nullptr;
  return *ext.Data();
}

}  // namespace

Compiled<sandgate::Runners> load_runners(Napi::Env env, Napi::Value v) {
  return load_named<sandgate::Runners>(env, v, Napi::Value(), "runners");
}

Compiled<sandgate::Org> load_org(Napi::Env env, Napi::Value v) { return load_named<sandgate::Org>(env, v, Napi::Value(), "org"); }

std::shared_ptr<PolicyInput> load_policy(Napi::Env env, Napi::Value v, const std::string& file, bool as_tree,
                                         Format format, Napi::Value json) {
  auto p = std::make_shared<PolicyInput>(load_input<sandgate::Policy>(
      env, v, json, "policy", file, as_tree, format,
      [](const std::string& t, Format f, const std::string& name) { return sandgate::Policy::parse(t, f, name); },
      [](sandgate::Node n, const std::string& name) { return sandgate::Policy::from_node(std::move(n), name); },
      [](sandgate::PolicyLoad& l) { return l.policy; }));
  return p;
}

sandgate::Result CheckContext::run(sandgate::Request::OwnedLayers layers) const {
  // As the C++ conformance runner does: an unreadable policy, runners or org is the answer.
  if (!load_errors.empty()) return sandgate::Result::from_diagnostics(load_errors);
  sandgate::Result r = engine.check(sandgate::Request::compile(std::move(layers), options));
  r.add_diagnostics(extra_errors);
  return r;
}

sandgate::Document load_layer(Napi::Env env, Napi::Value v, const char* input, Napi::Value json, bool* json_refused) {
  if (!json.IsEmpty() && !json.IsUndefined()) {
    if (std::optional<sandgate::Node> root = value_from_json(json)) return sandgate::document_from_node(std::move(*root), input);
    if (json_refused) *json_refused = true;
  }
  std::string text;
  std::string file;
  char16_t lone = 0;
  if (js_text(env, v, text, &file, &lone)) {
    sandgate::Document d = sandgate::load_document(text, Format::auto_detect, file.empty() ? text_label(input) : file, input);
    name_lone_surrogate(d.diagnostics, lone);
    return d;
  }
  Converted c = js_to_node(env, v, input);
  const bool checkable = c.checkable();
  sandgate::Document d = sandgate::document_from_node(std::move(c.root), input);
  d.diagnostics = std::move(c.diagnostics);
  d.loaded = checkable;
  return d;
}

Napi::Value wrap_policy(Napi::Env env, std::shared_ptr<PolicyInput> p) { return wrap(env, std::move(p), &k_policy_tag); }

std::shared_ptr<PolicyInput> unwrap_policy(Napi::Value v) { return unwrap<PolicyInput>(v, &k_policy_tag); }

Napi::Value wrap_context(Napi::Env env, std::shared_ptr<const CheckContext> c) {
  return wrap(env, std::move(c), &k_context_tag);
}

std::shared_ptr<const CheckContext> unwrap_context(Napi::Env env, Napi::Value v) {
  auto c = unwrap<const CheckContext>(v, &k_context_tag);
  if (!c) throw Napi::TypeError::New(env, "not a sandgate checker context");
  return c;
}

std::shared_ptr<const CheckContext> make_context(Napi::Env env, Napi::Value policy, Napi::Value runners,
                                                 Napi::Value org, const std::string& client,
                                                 const std::string& placement, const ContextJson& json,
                                                 bool* json_refused) {
  auto ctx = std::make_shared<CheckContext>();
  std::shared_ptr<const sandgate::Policy> p;
  std::shared_ptr<const sandgate::Runners> r;
  std::shared_ptr<const sandgate::Org> o;
  if (!absent(policy)) {
    std::shared_ptr<PolicyInput> in = unwrap_policy(policy);
    if (!in) in = load_policy(env, policy, "", false, Format::auto_detect, json.policy);
    p = take(*in, *ctx, json_refused);
  }
  if (!absent(runners)) r = take(load_named<sandgate::Runners>(env, runners, json.runners, "runners"), *ctx, json_refused);
  if (!absent(org)) o = take(load_named<sandgate::Org>(env, org, json.org, "org"), *ctx, json_refused);
  ctx->engine = sandgate::Engine(std::move(p), std::move(r), std::move(o));
  ctx->options.client = client;
  ctx->options.placement = placement;
  return ctx;
}

}  // namespace sandgate_node
