// JS values → sandgate Node trees, directly (no JSON text in between), within the loader's limits.
// Anything JSON cannot hold (functions, Symbols, cycles, getters that throw, Proxies whose traps
// throw, NaN, Dates, Maps, …) becomes a diagnostic at its JSON Pointer; nothing here throws.
#pragma once

#include <napi.h>

#include <string>

#include "sandgate/document.h"

namespace sandgate_node {

struct Converted {
  sandgate::Node root;
  sandgate::Diagnostics diagnostics;
  bool usable = true;  // false when a limit stopped the walk (the tree is incomplete) or the value
                       // itself could not be read (there is no tree)
  // Whether the input is checked: not when any part of it could not be read, as text that does not
  // load is not checked, and as Python's converter decides (Converted::ok, docs/python.md).
  // A NUL in a string is noted and read past, as the loaders do (sandgate::read_past).
  bool checkable() const { return usable && !sandgate::has_unreadable(diagnostics); }
};

// Converts `value` (the whole input named `input`: "sandbox", "policy", …). `base` is prepended to
// every pointer (normalizeResources converts the value found at "/resources").
Converted js_to_node(napi_env env, napi_value value, const std::string& input, const std::string& base = "",
                     const sandgate::Limits& limits = {});

// The UTF-8 bytes of a JS string, or of a Buffer / typed array / ArrayBuffer, or of a file's
// contents as index.js passes them (a `fileText` object); false for other values. `file`, when
// given, receives the file's name for a `fileText` object and is left alone otherwise.
// A string's unpaired UTF-16 surrogate is written as bytes that are not UTF-8 (so the core reports
// SG_INVALID_UTF8 at its line and column, as a value's is), and the first one goes to `lone`
// (0: none) for name_lone_surrogate.
bool js_text(napi_env env, napi_value value, std::string& out, std::string* file = nullptr, char16_t* lone = nullptr);

// Rewords the core's SG_INVALID_UTF8 about the bytes js_text wrote for `lone` (0: none, nothing to
// do): the text was a JS string, whose unpaired surrogate is what is wrong, not a byte of a file.
// `k_some_surrogate`: the text held one or more, which one is not known here (a stream's records).
constexpr char16_t k_some_surrogate = 0xFFFF;
void name_lone_surrogate(sandgate::Diagnostics& diagnostics, char16_t lone);

// A file read by index.js, for an input that names a path: `{bytes, file}`, type-tagged so that
// no user value is ever taken for one.
napi_value make_file_text(napi_env env, napi_value bytes, napi_value file);

}  // namespace sandgate_node
