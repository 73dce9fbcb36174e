// Byte offsets to 1-based line:column, with columns counted in Unicode code points (SARIF's
// "unicodeCodePoints" column kind), so a caret lands under the right character.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "sandgate/node.h"
#include "sandgate/small_vector.h"

namespace sandgate {

class LineIndex {
 public:
  // `origin`: where the text begins in its file. A record of a request stream is read alone, and
  // its marks come out where it stands in the stream, with no pass over the tree afterwards.
  explicit LineIndex(std::string_view text, Mark origin = Mark{1, 1});
  Mark at_offset(std::size_t offset) const;
  // Converts a 0-based line and 0-based byte column (as yaml-cpp reports) to a 1-based Mark.
  Mark at_line_byte(int line0, int byte_column0) const;
  // The byte offset of a 0-based line and byte column, clamped to the text.
  std::size_t offset_of(int line0, int byte_column0) const;

 private:
  std::string_view text_;
  Mark origin_;
  SmallVector<std::size_t, 4> starts_;  // a record of a request stream is one line: no allocation
  // Code points before each block of k_block bytes. A minified 4 MiB document is one line with
  // 100,000 nodes: counting from the line start for every node would be quadratic.
  static constexpr std::size_t k_block = 256;
  std::vector<std::size_t> block_points_;
  bool ascii_ = true;  // every byte is ASCII: code points are bytes (most documents; no scan needed)
  std::size_t points_before(std::size_t offset) const;
  // The mark of 0-based line `line0`, 1-based column `column` of the text, in the file.
  Mark placed(std::size_t line0, int column) const {
    return Mark{static_cast<std::int32_t>(line0) + origin_.line, line0 == 0 ? column + origin_.column - 1 : column};
  }
  int code_points(std::size_t from, std::size_t to) const;
};

}  // namespace sandgate
