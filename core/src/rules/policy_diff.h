// Internals of the policy diff (sandgate/diff.h): the attribution of an error to static changes
// and the comparison of two resolutions, exposed for the unit tests.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "sandgate/diff.h"
#include "stream/result_view.h"

namespace sandgate::diff {

// The policy fields a rule reads, for an error that names no policy location (neither its own
// path nor a `related` entry): R-RES-2 → max_cpu/max_memory or min_cpu/min_memory, R-ANN-2 →
// denied_annotation_prefixes, … Empty for codes that no policy field decides.
const std::vector<std::string_view>& policy_fields_for(Code code);

// Whether an error located at policy pointer `location` is explained by `change`: the same field,
// a field inside it, or (a list's location) an item of it.
bool location_matches(std::string_view location, const StaticChange& change);

// Every value that differs between two accepted results: the resolved sandbox pointer by pointer,
// then the derived values (qos_class, runtime_class, runner, placement_mode, slurm.*).
std::vector<ValueChange> compare_resolutions(const stream::ResultView& old_result, const stream::ResultView& new_result);

}  // namespace sandgate::diff
