// The value of a quoted YAML scalar written over more than one line, decoded from its text.
#pragma once

#include <string>
#include <string_view>

namespace sandgate::detail {

// yaml-cpp 0.7 folds the line breaks of a multi-line "…" or '…' scalar wrongly at its end: the
// empty lines before the closing quote lose one line break (`'a⏎⏎⏎'` is "a\n" to it, "a\n\n" to
// YAML and PyYAML), and a value of white space and line breaks only comes out empty (`'⏎⏎'` is ""
// where it is "\n"). This decodes `inside`, the text between the quotes (`quote` is '"' or '\''),
// as YAML 1.2 §7.3 says, which PyYAML and go-yaml follow for these: each line's leading and
// trailing white space is dropped except the first line's leading and the last line's trailing; a
// line break is a space, or, when empty lines follow it, one "\n" for each of them; in "…", the
// escapes, and `\` at a line's end joins the lines with nothing between them. Lines end at "\n"
// or "\r\n" (a lone "\r" was refused before parsing). Returns false, and leaves `out` unspecified,
// on an escape it does not know; yaml-cpp has refused those already.
bool decode_multiline_quoted(std::string_view inside, char quote, std::string& out);

}  // namespace sandgate::detail
