#include "document/load_notes.h"

#include "sandgate/node.h"

namespace sandgate::detail {

std::string shown_text(std::string_view s) {
  constexpr std::size_t k_max = 80;
  if (s.size() <= k_max) return Node::make_string(std::string(s)).display();
  // Cut before a continuation byte would split a UTF-8 sequence (the message must stay UTF-8).
  std::size_t cut = k_max;
  while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80) --cut;
  return Node::make_string(std::string(s.substr(0, cut))).display() + "…";
}

}  // namespace sandgate::detail
