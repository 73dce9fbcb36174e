// Results as JSON text (result_json.h): the core's own JSON of a result (sandgate::result_to_json,
// which expands core/include/sandgate/result_shape.def like result_to_js does), handed over when
// JSON.parse gives back exactly the object result_to_js would build.
#include "result_json.h"

#include <cmath>
#include <string_view>

#include "node_to_js.h"
#include "sandgate/render.h"

namespace sandgate_node {
namespace {

constexpr std::int64_t k_max_safe = 9007199254740991;  // Number.MAX_SAFE_INTEGER

// Whether JSON.parse reads `n` back as node_to_js builds it: integers beyond 2^53 become BigInts
// there, NaN and the infinities have no JSON, and JSON.parse makes a `__proto__` key an own member
// where node_to_js's Set would meet the prototype's setter. Only `resolved` holds values from the
// input; every other member is a string, a boolean or a small count.
bool json_exact(const sandgate::Node& n) {
  switch (n.kind) {
    case sandgate::NodeKind::integer:
      return !n.int_overflow && n.integer >= -k_max_safe && n.integer <= k_max_safe;
    case sandgate::NodeKind::number:
      return std::isfinite(n.number);
    case sandgate::NodeKind::array:
      for (const auto& item : n.items) {
        if (!json_exact(item)) return false;
      }
      return true;
    case sandgate::NodeKind::object:
      for (const auto& m : n.members) {
        if (m.key == "__proto__" || !json_exact(m.value)) return false;
      }
      return true;
    default:
      return true;
  }
}

bool g_as_text = true;

}  // namespace

bool result_to_json_text(const sandgate::Result& r, std::string& out) {
  if (r.checked() && !json_exact(r.resolved())) return false;
  out = sandgate::result_to_json(r, false);
  return true;
}

Napi::Value result_to_js_or_text(Napi::Env env, const sandgate::Result& r, const std::string& text, bool ok_text) {
  if (!ok_text) return result_to_js(env, r);
  return Napi::String::New(env, text.data(), text.size());
}

bool results_as_text() { return g_as_text; }
void set_results_as_text(bool on) { g_as_text = on; }

Napi::Value result_to_js_or_text(Napi::Env env, const sandgate::Result& r) {
  std::string text;
  return result_to_js_or_text(env, r, text, g_as_text && result_to_json_text(r, text));
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
