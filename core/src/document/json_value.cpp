// node_from_json_value (sandgate/json_value.h): JSON text read straight into a tree without
// positions (document/json_direct_reader.h), numbers as a JS value holds them. Unlike the text
// loader (json_loader.cpp) it reports nothing: whatever it cannot represent exactly as the
// binding's converter would, it refuses, and that converter reports it. On the README's prod-ok
// request from Node (callgrind, 1,000 Checker.check calls), RapidJSON's DOM in place and a walk of
// it into the tree took 16,400 instructions a call; the direct reader, 10,000.
#include "sandgate/json_value.h"

#include <new>
#include <string_view>

#include "document/json_direct_reader.h"

namespace sandgate {

std::optional<Node> node_from_json_value(std::string text, const Limits& limits) {
  return node_from_json_in_place(text.data(), text.size(), limits);
}

std::optional<Node> node_from_json_in_place(char* data, std::size_t size, const Limits& limits) {
  const std::string_view text(data, size);
  // The converter counts the bytes of strings and keys; the text is never shorter than those.
  if (text.size() > limits.max_bytes / 2) return std::nullopt;
  bool is_nul = false;
  if (find_invalid_utf8(text, is_nul) != std::string_view::npos) return std::nullopt;
  try {
    Node root;
    detail::JsonDirectReader reader(text, static_cast<std::size_t>(limits.max_depth / 2), limits.max_nodes / 2,
                                    detail::JsonDirectReader::Numbers::js);
    if (!reader.document(root)) return std::nullopt;
    return root;
  } catch (const std::bad_alloc&) {
    return std::nullopt;
  }
}

}  // namespace sandgate
