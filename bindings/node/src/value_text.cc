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

bool utf8_room(Napi::Value text, std::size_t& room) {
  std::size_t units = 0;
  if (napi_get_value_string_utf16(text.Env(), text, nullptr, 0, &units) != napi_ok) return false;
  room = units * 3 + 1;
  return true;
}

bool write_utf8(Napi::Value text, char* buffer, std::size_t room, std::size_t& size) {
  return napi_get_value_string_utf8(text.Env(), text, buffer, room, &size) == napi_ok;
}

std::optional<sandgate::Node> value_from_json(Napi::Value json) {
  std::size_t room = 0;
  if (json.IsEmpty() || !json.IsString() || !utf8_room(json, room)) return std::nullopt;
  thread_local std::unique_ptr<char[]> kept(new char[k_kept_buffer]);
  std::unique_ptr<char[]> own;
  char* buffer = kept.get();
  if (room > k_kept_buffer) {
    own.reset(new char[room]);
    buffer = own.get();
  }
  std::size_t len = 0;
  if (!write_utf8(json, buffer, room, len)) return std::nullopt;
  return sandgate::node_from_json_in_place(buffer, len);
}

}  // namespace sandgate_node
