// A result as JSON text, for the lazy result objects of index.js: the native call hands over one
// string (V8 owns it: no finalizer, nothing native outlives the call), and JS parses it only when a
// field other than `ok` is first read. Building the same values as JS objects one N-API call per
// member was ~70 % of a check's native time (issue 12, item 2).
#pragma once

#include <napi.h>

#include <string>

#include "sandgate/result.h"

namespace sandgate_node {

// Writes `r` as JSON text whose JSON.parse is the object result_to_js builds (the same members in
// the same order), starting with `{"ok":true` or `{"ok":false`. Returns false, `out` unspecified,
// when JSON cannot say what result_to_js builds: an integer beyond ±(2^53 − 1) (a BigInt there), a
// non-finite number (NaN, ±Infinity), or a `__proto__` key (result_to_js's Set meets the
// prototype setter; JSON.parse makes an own member).
bool result_to_json_text(const sandgate::Result& r, std::string& out);

// What a native call returns for a result: its JSON text, or, when that cannot carry it, the
// object result_to_js builds (index.js takes either).
Napi::Value result_to_js_or_text(Napi::Env env, const sandgate::Result& r);
// The same from text written earlier (on a worker thread); `ok_text` false: build from `r`.
Napi::Value result_to_js_or_text(Napi::Env env, const sandgate::Result& r, const std::string& text, bool ok_text);

// Whether results are handed over as text (the default) or always as objects: tests compare the
// two (test/lazy-result.test.mjs). Main thread only.
bool results_as_text();
void set_results_as_text(bool on);

// The result fields after `ok`, in order (core/include/sandgate/result_shape.def).
Napi::Array result_lazy_fields(Napi::Env env);

}  // namespace sandgate_node
