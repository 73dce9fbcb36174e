// Output made on demand from Request ⊕ Resolution: diagnostics from findings, and the resolved
// sandbox through the one table of its fields.
#pragma once

#include <string>

#include "engine/rule_input.h"

namespace sandgate::output {

// A finding put into words, with its place and related place located in their inputs.
Diagnostic materialize(const FindingContext& cx, const Finding& f);

// Where a diagnostic is read: its input's name and its line:column (0:0 without a position).
struct ReadingPlace {
  std::string_view input;
  int line = 0;
  int column = 0;
};
// A finding's, as materialize would place it, without putting it into words.
ReadingPlace reading_place(const FindingContext& cx, const Finding& f);

// The resolved sandbox (SPEC §7), its provenance and the rules that decided it.
ResolvedOutput resolve(const FindingContext& cx);

// "sandbox", "policy.constraints.security.default_cpu_runtime_class", "runner", "platform", …
std::string runtime_class_source(const model::RequestModel& req, const Resolution& res);

}  // namespace sandgate::output
