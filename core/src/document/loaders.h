// The two text front ends behind load_document. Both build the same Node tree, enforce the same
// Limits, and report problems into the Document's diagnostics.
#pragma once

#include <string_view>

#include "document/line_index.h"
#include "sandgate/document.h"
#include "util/diagnostics.h"

namespace sandgate::detail {

// Returns false when the text could not be read into a tree at all.
bool load_yaml(std::string_view text, const LineIndex& lines, const Limits& limits, Node& root,
               DiagnosticSink& sink);
bool load_json(std::string_view text, const LineIndex& lines, const Limits& limits, Node& root,
               DiagnosticSink& sink);

}  // namespace sandgate::detail
