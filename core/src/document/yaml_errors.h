// What a yaml-cpp 0.7 parse error means, in words a user can act on. Its messages ("unknown
// token", "invalid unicode: 55357") name neither the value nor the cure; this says what happened
// at the error's place in the text and how to write it instead.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include <yaml-cpp/exceptions.h>

#include "document/line_index.h"

namespace sandgate::detail {

struct SyntaxExplanation {
  std::string message;
  std::string hint;  // "" when there is nothing better to say than the message
  std::size_t at = std::string_view::npos;  // a better byte offset to point at than the error's mark
};

// An anchor's name as yaml-cpp 0.7 reads it runs to the next blank or flow indicator, so `&key: v`
// names the anchor "key:" and `&"x"` names it "\"x\"". PyYAML and Kubernetes' go-yaml allow only
// ASCII letters, digits, '-' and '_' in a name and end it before anything else, so the same text
// is a different document to them (`{&name: v}` is {"v": null} to yaml-cpp, {null: "v"} to
// PyYAML) or an error. Explains the anchor whose `&` is at `at` when its name has another
// character; empty when the name is one all three read alike. `sigil` is '&', or '*' for an alias
// (`*a:` refers to "a:" for yaml-cpp, which has no such anchor).
SyntaxExplanation explain_anchor_name(std::string_view name, std::size_t at, char sigil = '&');

// A line that starts with `%` is a directive (`%YAML 1.2`). One must be followed by a `---` line
// and may stand only before a document; yaml-cpp 0.7 ends the document at one anywhere and skips
// one without its `---`, so `%runner_ids: [a]` on the first or the last line vanished silently
// (PyYAML refuses the text). The first explains a directive after a document's content, the second
// one before a document that does not start with `---`; `at` is the `%`.
SyntaxExplanation directive_in_document(std::size_t at);
SyntaxExplanation directive_without_document_start(std::size_t at);

// A `?` with no key after it (`at` is the `?`): an empty key, YAML's null, where the keys are names.
// The loader finds most; yaml-cpp itself fails with "unknown token" on a `?` that ends the text.
SyntaxExplanation empty_explicit_key(std::size_t at);
// Whether the `?` at `at` ends the text (only white space after it), where yaml-cpp marks the empty
// key at the `?` itself (`? ` then nothing) or fails with "unknown token" (`?` then nothing).
bool question_mark_ends_text(std::string_view text, std::size_t at);

SyntaxExplanation explain_yaml_error(std::string_view text, const LineIndex& lines, const YAML::Exception& e);

// yaml-cpp 0.7 starts a second document at a line indented less than the first document's first
// line (`  a: 1` then ` b: 2`), where YAML and PyYAML need `---` to start one. Such a line is a
// syntax error, explained here; nothing (an empty message) when the document at `second` (a byte
// offset) does follow a `---` or `...` line.
SyntaxExplanation explain_unmarked_document(std::string_view text, const LineIndex& lines, std::size_t first,
                                            std::size_t second);

}  // namespace sandgate::detail
