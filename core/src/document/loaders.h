// The two text front ends behind load_document. Both build the same Node tree, enforce the same
// Limits, and report problems into the Document's diagnostics.
#pragma once

#include <string_view>

#include "document/line_index.h"
#include "sandgate/document.h"
#include "util/diagnostics.h"

namespace sandgate::detail {

// Returns false when the text could not be read into a tree at all. The text must be valid UTF-8
// without NUL (load_text checks it first; load_json relies on it).
bool load_yaml(std::string_view text, const LineIndex& lines, const Limits& limits, Node& root,
               DiagnosticSink& sink);
// `one_line_record`: the text is one line of a JSON Lines stream, so a syntax error is explained
// as a record written over several lines when it looks like one.
bool load_json(std::string_view text, const LineIndex& lines, const Limits& limits, Node& root,
               DiagnosticSink& sink, bool one_line_record = false);
// load_json reads text in one pass first (json_direct_reader.h) and with RapidJSON only what that
// refuses. Off: RapidJSON reads everything. For tests, which hold that both read the same; one
// thread at a time.
void set_json_direct_reader(bool on);

// What a text is, which decides how a JSON syntax error in it is handled.
enum class TextRole {
  document,     // a whole file or value: JSON that fails on syntax is retried as flow-style YAML
  json_record,  // a stream's record, which must be JSON (SPEC §10.1): never retried
  json_line,    // and one line of a JSON Lines stream: its hints speak of lines
};

// load_document itself. `origin`: where the text begins in `file` (a stream's record); every mark
// is placed from it.
Document load_text(std::string_view text, Format format, std::string file, std::string input, const Limits& limits,
                   TextRole role, Mark origin = Mark{1, 1});

}  // namespace sandgate::detail
