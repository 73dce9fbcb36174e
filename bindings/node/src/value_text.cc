#include "value_text.h"

#include "sandgate/json_value.h"

namespace sandgate_node {

std::optional<sandgate::Node> value_from_json(Napi::Value json) {
  if (json.IsEmpty() || !json.IsString()) return std::nullopt;
  napi_env env = json.Env();
  std::size_t len = 0;
  if (napi_get_value_string_utf8(env, json, nullptr, 0, &len) != napi_ok) return std::nullopt;
  std::string text(len, '\0');
  // The buffer's size counts the terminating NUL that V8 writes: std::string has room for it.
  if (napi_get_value_string_utf8(env, json, text.data(), len + 1, &len) != napi_ok) return std::nullopt;
  text.resize(len);
  return sandgate::node_from_json_value(std::move(text));
}

}  // namespace sandgate_node
