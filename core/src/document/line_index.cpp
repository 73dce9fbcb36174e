#include "document/line_index.h"

#include <algorithm>
#include <cstdint>
#include <cstring>

namespace sandgate {
namespace {

bool starts_code_point(char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }

}  // namespace

LineIndex::LineIndex(std::string_view text, Mark origin) : text_(text), origin_(origin) {
  starts_.push_back(0);
  // Line starts by memchr, ASCII by eight bytes at a time: a record of a request stream builds
  // one index per line, so this loop is paid for every record.
  const char* data = text.data();
  const std::size_t n = text.size();
  for (const void* nl = std::memchr(data, '\n', n); nl != nullptr;) {
    std::size_t at = static_cast<std::size_t>(static_cast<const char*>(nl) - data) + 1;
    starts_.push_back(at);
    nl = at < n ? std::memchr(data + at, '\n', n - at) : nullptr;
  }
  std::size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    std::uint64_t word;
    std::memcpy(&word, data + i, 8);
    if (word & 0x8080808080808080ull) break;
  }
  for (; i < n && ascii_; ++i) {
    if (static_cast<unsigned char>(data[i]) >= 0x80) ascii_ = false;
  }
  if (ascii_) return;
  block_points_.reserve(n / k_block + 1);
  std::size_t points = 0;
  for (std::size_t j = 0; j < n; ++j) {
    if (j % k_block == 0) block_points_.push_back(points);
    if (starts_code_point(data[j])) ++points;
  }
}

std::size_t LineIndex::points_before(std::size_t offset) const {
  offset = std::min(offset, text_.size());
  if (ascii_) return offset;
  if (block_points_.empty()) return 0;
  std::size_t block = std::min(offset / k_block, block_points_.size() - 1);
  std::size_t n = block_points_[block];
  for (std::size_t i = block * k_block; i < offset; ++i) {
    if (starts_code_point(text_[i])) ++n;
  }
  return n;
}

int LineIndex::code_points(std::size_t from, std::size_t to) const {
  to = std::min(to, text_.size());
  if (to <= from) return 0;
  return static_cast<int>(points_before(to) - points_before(from));
}

Mark LineIndex::at_offset(std::size_t offset) const {
  offset = std::min(offset, text_.size());
  // One line of ASCII (a JSON Lines record, most JSON text): the column is the offset.
  if (ascii_ && starts_.size() == 1) return placed(0, static_cast<std::int32_t>(offset) + 1);
  auto it = std::upper_bound(starts_.begin(), starts_.end(), offset);
  std::size_t line = static_cast<std::size_t>(it - starts_.begin()) - 1;
  return placed(line, code_points(starts_[line], offset) + 1);
}

std::size_t LineIndex::offset_of(int line0, int byte_column0) const {
  if (line0 < 0) return 0;
  if (static_cast<std::size_t>(line0) >= starts_.size()) return text_.size();
  std::size_t start = starts_[static_cast<std::size_t>(line0)];
  return std::min(text_.size(), start + static_cast<std::size_t>(std::max(byte_column0, 0)));
}

Mark LineIndex::at_line_byte(int line0, int byte_column0) const {
  if (line0 < 0) return Mark{line0 + 1, byte_column0 + 1};
  if (static_cast<std::size_t>(line0) >= starts_.size()) return placed(static_cast<std::size_t>(line0), byte_column0 + 1);
  std::size_t start = starts_[static_cast<std::size_t>(line0)];
  return placed(static_cast<std::size_t>(line0),
                code_points(start, start + static_cast<std::size_t>(std::max(byte_column0, 0))) + 1);
}

}  // namespace sandgate
