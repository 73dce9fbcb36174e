// The end of a folded block scalar kept whole (`>+`), which yaml-cpp 0.7 reads one line short.
#pragma once

#include <cstddef>
#include <string_view>

namespace sandgate::detail {

// The header of a block scalar (`|`, `>`, then chomping and indentation indicators in either order).
struct BlockScalarHeader {
  bool folded = false;            // `>`, else `|`
  bool keep = false;              // `+`
  int indentation_indicator = 0;  // 1-9, 0 when the indentation is detected
};
BlockScalarHeader read_block_scalar_header(std::string_view text, std::size_t at);

// The lines of the block scalar whose header's `|` or `>` is at `header`, as far as its end
// needs them, with the content indentation detected from its first non-empty line (the header has
// no indentation digit). For two things yaml-cpp 0.7 reads otherwise than YAML and PyYAML:
// - a `>+` block that empty lines close loses a line break (`>+`, `␣x` and an empty line is "x\n"
//   to yaml-cpp, "x\n\n" to the others): `final_breaks` is how many end the value, the last
//   content line's break and one for each empty line after it in the block (none for a line that
//   ends the text without one);
// - a `>` block whose text ends, right after a content line, with a line of as many spaces as its
//   indentation and no line break has that line folded in as a space (`>`, `␣b`, `␣` is "b " to
//   yaml-cpp, "b\n" to the others): `ends_in_white_line`.
struct BlockLines {
  bool has_content = false;  // false also for a block at column 0 (a document that is one block)
  std::size_t indent = 0;
  std::size_t final_breaks = 0;
  bool ends_in_white_line = false;
};
BlockLines read_block_lines(std::string_view text, std::size_t header);

}  // namespace sandgate::detail
