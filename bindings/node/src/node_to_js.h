// sandgate values → plain JS objects, built directly (no JSON text). Field names are those of the
// CLI's JSON output (SPEC §3 and §7, snake_case), so one result reads the same in every language.
#pragma once

#include <napi.h>

#include "sandgate/result.h"

namespace sandgate_node {

Napi::Value node_to_js(Napi::Env env, const sandgate::Node& node);
Napi::Object diagnostic_to_js(Napi::Env env, const sandgate::Diagnostic& d);
Napi::Array diagnostics_to_js(Napi::Env env, const sandgate::Diagnostics& ds);
// {ok, placement_mode, qos_class, runner, resolved, provenance, gpu, runtime_class, slurm,
// diagnostics} for a check; {ok, diagnostics} for a validation (no placement_mode).
Napi::Object result_to_js(Napi::Env env, const sandgate::Result& r);
// The codes table, one object per row (as `sandgate codes --format json`).
Napi::Array codes_to_js(Napi::Env env);

}  // namespace sandgate_node
