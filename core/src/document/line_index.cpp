#include "document/line_index.h"

#include <algorithm>

namespace sandgate {

LineIndex::LineIndex(std::string_view text) : text_(text) {
  starts_.push_back(0);
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\n') starts_.push_back(i + 1);
  }
}

int LineIndex::code_points(std::size_t from, std::size_t to) const {
  int n = 0;
  to = std::min(to, text_.size());
  for (std::size_t i = from; i < to; ++i) {
    if ((static_cast<unsigned char>(text_[i]) & 0xC0) != 0x80) ++n;
  }
  return n;
}

Mark LineIndex::at_offset(std::size_t offset) const {
  offset = std::min(offset, text_.size());
  auto it = std::upper_bound(starts_.begin(), starts_.end(), offset);
  std::size_t line = static_cast<std::size_t>(it - starts_.begin()) - 1;
  return Mark{static_cast<std::int32_t>(line + 1), code_points(starts_[line], offset) + 1};
}

Mark LineIndex::at_line_byte(int line0, int byte_column0) const {
  if (line0 < 0 || static_cast<std::size_t>(line0) >= starts_.size()) return Mark{line0 + 1, byte_column0 + 1};
  std::size_t start = starts_[static_cast<std::size_t>(line0)];
  return Mark{line0 + 1, code_points(start, start + static_cast<std::size_t>(std::max(byte_column0, 0))) + 1};
}

}  // namespace sandgate
