// Structural validation of a (shaped) Node tree against an embedded JSON Schema with valijson,
// each valijson error turned into one diagnostic with an input JSON Pointer, line:col, the value
// seen and what the field accepts.
#pragma once

#include "schema/shape.h"

namespace sandgate::schema {

// `node` is the value that the schema's root describes; `path` is its pointer in the input.
void validate(const Node& node, const CompiledSchema& cs, const std::string& path, DiagnosticSink& sink,
              ReportedPaths& reported);

// The two verdicts behind validate(), exposed for the test that keeps them in step: the fast
// check over the compiled schema index is used first, and valijson decides (and explains)
// whenever the fast check finds anything. Sound as long as fast_valid ⇒ valijson_valid.
bool fast_valid(const Node& node, const SchemaNode* s);
bool valijson_valid(const Node& node, const CompiledSchema& cs);

}  // namespace sandgate::schema
