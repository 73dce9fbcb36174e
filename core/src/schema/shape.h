// The spelling layer and the checks JSON Schema cannot express, run before valijson:
// - snake_case / camelCase / legacy aliases → canonical keys (a field written twice is an error);
// - removed keys (with the replacement) and unknown keys (with a "did you mean");
// - null members of typed objects are dropped (protojson and the SDK read null as "unset");
// - integer fields: decimal strings for int64, range checks, never a wrap;
// - booleans written as YAML 1.1 words (yes/on) where a boolean is wanted.
#pragma once

#include <string>
#include <unordered_set>

#include "schema/schema_store.h"
#include "util/diagnostics.h"

namespace sandgate::schema {

struct ShapeOptions {
  // Unknown keys are errors, except in the defaults layer, where the SDK ignores them silently.
  // It applies to the top level only: nested unknown keys fail later in the SDK anyway.
  Severity unknown_key_severity = Severity::error;
  // What a legacy alias written beside its canonical name is: P-9 in a policy.
  Code alias_conflict_code = Code::LEGACY_AND_CANONICAL;
};

// Paths (input pointers) already diagnosed, so later stages do not report them again.
using ReportedPaths = std::unordered_set<std::string>;

void shape(Node& node, const CompiledSchema& cs, const std::string& path, DiagnosticSink& sink,
           ReportedPaths& reported, const ShapeOptions& options = {});

// Whether `path` or one of its ancestors was reported already.
bool already_reported(const ReportedPaths& reported, const std::string& path);

// The paths of the values a loader or a binding's converter reported (and replaced) before the
// schema walk, which must not be reported again. A value one read past (a NUL, the first of a
// duplicated key: read_past) is the value checked, so its own problems are still shown (SPEC §3:
// every problem at once).
ReportedPaths reported_before(const Diagnostics& diagnostics);

}  // namespace sandgate::schema
