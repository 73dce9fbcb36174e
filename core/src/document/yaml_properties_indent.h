// yaml-cpp 0.7 and a value that starts with a tag or anchor after `- `, `? `, `: ` or a line's indentation.
//
// yaml-cpp reads such a value as indented to the tag's or anchor's column: `- &a |` needs the
// block's lines right of the `&`, where YAML, PyYAML and go-yaml need them only right of the `-`,
// and a block's indentation digit counts from the `&` too. The same holds for a value on a line
// of its own that starts with a tag (`key:` then `  &a |` below it), against the key's column. Lines between the two columns are an
// error to yaml-cpp ("end of sequence not found"), or, when they start with `#`, comments it skips
// where the other readers read them into the block (a silent difference); with a digit the two
// read different values. These find such a line and say what to write instead.
#pragma once

#include <cstddef>
#include <string_view>

#include "document/line_index.h"
#include "document/yaml_errors.h"

namespace sandgate::detail {

// A line holding indentation, one or more of `- `, `? `, `: ` or none, then a tag or anchor and a
// value after it on the same line (offsets into the text; `found` false for any other line).
struct EntryWithProperties {
  bool found = false;
  char indicator = 0;                 // the last indicator: '-', '?' or ':'; 0 for none
  std::size_t indicator_column = 0;   // its column, from 0; with none, the owning key's or item's
  std::size_t properties_column = 0;  // the tag's or anchor's column
  char sigil = 0;                     // '&' or '!', the first property's
  std::size_t value = 0;              // the value's offset
  int digit = 0;                      // the indentation digit when the value is a block scalar's header
  std::size_t line_start = 0;
};
EntryWithProperties entry_with_properties(std::string_view text, std::size_t line_start);

// The value's next lines misread by yaml-cpp, explained: the first line below the entry, up to the
// line starting at `last_line`, that stands between the indicator and the tag (or, for a block
// with an indentation digit, the block's first line where yaml-cpp's and the others' indentation
// differ); empty when there is none. `last_line` npos: the first line below alone, and a block
// with a digit explained whatever its lines (the loader's case: yaml-cpp read the block, with the
// digit counted from the tag).
SyntaxExplanation value_left_of_properties(std::string_view text, const EntryWithProperties& entry, std::size_t last_line);

// For a yaml-cpp error on line `line0` (from 0): the entry above it whose value yaml-cpp misread.
SyntaxExplanation explain_value_left_of_properties(std::string_view text, const LineIndex& lines, int line0);

}  // namespace sandgate::detail
