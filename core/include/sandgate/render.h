// Renderers: the same results as human text (file:line:col, the source line and a caret),
// as JSON, or as SARIF 2.1.0 for code-scanning tools.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "sandgate/result.h"

namespace sandgate {

// One checked input and what sandgate said about it.
struct Report {
  std::string file;     // as the user named it ("-" for stdin)
  std::string command;  // "policy validate", "check", "explain"
  Result result;
};

// Source texts by file name, so the text renderer can quote lines.
using SourceTexts = std::map<std::string, std::string, std::less<>>;

struct TextOptions {
  bool color = false;
  bool show_info = true;
};

std::string render_text(const std::vector<Report>& reports, const SourceTexts& sources, const TextOptions& options);
std::string render_json(const std::vector<Report>& reports);
std::string render_sarif(const std::vector<Report>& reports);
// The resolved sandbox as a tree, each value annotated with its provenance and deciding rule.
std::string render_explain(const Report& report, const SourceTexts& sources, const TextOptions& options);

// JSON helpers shared with the bindings and tests.
std::string node_to_json(const Node& node, bool pretty = false);
std::string diagnostic_to_json(const Diagnostic& d);
// The SPEC §7 object for a check result (or {ok, diagnostics} for a validation).
std::string result_to_json(const Result& r, bool pretty = true);
// The same, compact, with `resolved` and `provenance` written as 0 and not built: the head of a
// result whose output a binding builds only when it is read (the Node binding's lazy results).
std::string result_head_to_json(const Result& r);
// The codes table: as JSON (an array of rows) or as the Markdown of docs/codes.md.
std::string codes_to_json();
std::string codes_to_markdown();

}  // namespace sandgate
