// Byte offsets to 1-based line:column, with columns counted in Unicode code points (SARIF's
// "unicodeCodePoints" column kind), so a caret lands under the right character.
#pragma once

#include <cstddef>
#include <string_view>
#include <vector>

#include "sandgate/node.h"

namespace sandgate {

class LineIndex {
 public:
  explicit LineIndex(std::string_view text);
  Mark at_offset(std::size_t offset) const;
  // Converts a 0-based line and 0-based byte column (as yaml-cpp reports) to a 1-based Mark.
  Mark at_line_byte(int line0, int byte_column0) const;

 private:
  std::string_view text_;
  std::vector<std::size_t> starts_;
  int code_points(std::size_t from, std::size_t to) const;
};

}  // namespace sandgate
