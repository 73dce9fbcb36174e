#include "value_text.h"

#include <memory>

#include "sandgate/json_value.h"

namespace sandgate_node {
namespace {

// Texts up to this size are read into a buffer each thread keeps (N-API runs on the main thread,
// so in practice one): a request's JSON is a few hundred bytes, and a heap block for it, made and
// freed on every call, was a tenth of reading it. A larger text gets a block of its own, so the
// buffer never holds more than this.
constexpr std::size_t k_kept_buffer = 64 * 1024;

}  // namespace

std::optional<sandgate::Node> value_from_json(Napi::Value json) {
  if (json.IsEmpty() || !json.IsString()) return std::nullopt;
  napi_env env = json.Env();
  // The length in UTF-16 units costs nothing (asking for the UTF-8 length walks the string), and
  // each unit is at most 3 bytes of UTF-8: room for the text and the NUL that V8 writes, in one
  // pass over the string.
  std::size_t units = 0;
  if (napi_get_value_string_utf16(env, json, nullptr, 0, &units) != napi_ok) return std::nullopt;
  const std::size_t room = units * 3 + 1;
  thread_local std::unique_ptr<char[]> kept(new char[k_kept_buffer]);
  std::unique_ptr<char[]> own;
  char* buffer = kept.get();
  if (room > k_kept_buffer) {
    own.reset(new char[room]);
    buffer = own.get();
  }
  std::size_t len = 0;
  if (napi_get_value_string_utf8(env, json, buffer, room, &len) != napi_ok) return std::nullopt;
  return sandgate::node_from_json_in_place(buffer, len);
}

}  // namespace sandgate_node
