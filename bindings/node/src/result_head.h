// A check's result in two parts, for lazy results (issue 12): the head — `ok`, the diagnostics and
// the small fields the Resolution already holds — written as JSON text when a field is first read,
// and the fields that need the resolved request built (Result::output(): `resolved`, `provenance`)
// when one of those is. The head holds 0 in their places, so JSON.parse of it has every member in
// its order; index.js fills them later from the same kept result (kept_results.h), or from a second
// check of the same inputs once that is gone.
#pragma once

#include <string>

#include "sandgate/result.h"

namespace sandgate_node {

// Writes the head of `r` into `out` (sandgate::result_head_to_json): the text result_to_json_text
// would write with `resolved`, `provenance` and `rules_applied` as 0, or, for a result that was not checked, that
// whole text (nothing is deferred).
// False, `out` unspecified, when JSON cannot carry a small field exactly (an integer beyond
// ±(2^53 − 1)): the caller then hands over the whole result.
bool result_head_json(const sandgate::Result& r, std::string& out);

}  // namespace sandgate_node
