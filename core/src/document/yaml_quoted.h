// Quoted YAML scalars read from their text: where one ends, and the value of one written over
// more than one line.
#pragma once

#include <string>
#include <string_view>

namespace sandgate::detail {

// The closing quote of the quoted scalar whose opening quote ('"' or '\'') is at `at`, or npos
// when the text ends first: in "…" a backslash escapes the next character (`\"` closes nothing),
// in '…' a doubled '' is a quote inside. Linear, and it stops at the scalar's own closing quote.
// `quote_escape`, when given, is set to the first `\'` of a double-quoted scalar (yaml-cpp reads
// it as `'`, where YAML, PyYAML and JSON have no such escape), npos when there is none.
std::size_t closing_quote(std::string_view text, std::size_t at, std::size_t* quote_escape = nullptr);

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
