// Characters that YAML readers disagree on, refused before yaml-cpp reads the text.
#pragma once

#include <string_view>

#include "document/line_index.h"
#include "util/diagnostics.h"

namespace sandgate::detail {

// Reports the first character of `text` (valid UTF-8 without NUL) that would make a YAML 1.1
// reader (PyYAML, go-yaml: what the file's authors read it with) and yaml-cpp, a YAML 1.2 reader,
// see different documents, and returns true; false when there is none:
// - a carriage return without a line feed: a line end to YAML and Kubernetes, an ordinary
//   character to yaml-cpp 0.7;
// - U+0085, U+2028 and U+2029: line breaks to YAML 1.1 readers, ordinary characters to YAML 1.2
//   (`- a<U+2028>- b` is two items to PyYAML, one string to yaml-cpp);
// - a character YAML does not allow at all (C0 and C1 controls other than tab and line ends,
//   DEL, U+FFFE, U+FFFF), which PyYAML refuses and yaml-cpp reads as part of a value;
// - U+FEFF after the text's start (the loader has dropped a leading byte order mark): YAML allows
//   it only there, yaml-cpp ends a tag at it, PyYAML refuses it in one.
// Inside "…" each can be written as an escape, which every reader decodes alike.
bool reject_unreadable_character(std::string_view text, const LineIndex& lines, DiagnosticSink& sink);

}  // namespace sandgate::detail
