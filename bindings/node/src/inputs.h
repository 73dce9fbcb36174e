// The inputs of a check as the addon holds them: compiled policies, runners and orgs, and the
// "checker" context that binds them to a client. JS holds these as type-tagged Externals, so a
// forged or foreign object cannot be passed back in.
#pragma once

#include <napi.h>

#include <memory>
#include <optional>
#include <string>

#include "sandgate/engine.h"

namespace sandgate_node {

// A policy, runners or org input after loading. `value` is null when the input could not be read
// at all (a "broken" input: its errors are what every check against it returns).
template <typename T>
struct Compiled {
  std::shared_ptr<const T> value;
  sandgate::Diagnostics diagnostics;  // everything loading said, conversion problems first
  sandgate::Diagnostics conversion;   // the JS-conversion problems alone (the core never saw them)
  bool json_refused = false;          // its JSON text was given (value_text.h) but refused: the value was walked
};
using PolicyInput = Compiled<sandgate::Policy>;

// Loads a policy from text (string or bytes, read as `format`; unless `as_tree`) or from a JS
// value, or from `json`, the JSON text of that value (value_text.h), when the core accepts it.
// `file` only labels diagnostics.
std::shared_ptr<PolicyInput> load_policy(Napi::Env env, Napi::Value v, const std::string& file, bool as_tree,
                                         sandgate::Format format = sandgate::Format::auto_detect,
                                         Napi::Value json = Napi::Value());

// Runners and org from text or a JS value (a broken one has a null `value`).
Compiled<sandgate::Runners> load_runners(Napi::Env env, Napi::Value v);
Compiled<sandgate::Org> load_org(Napi::Env env, Napi::Value v);

// Everything one check needs except the request layers; immutable, shared with worker threads.
struct CheckContext {
  sandgate::Engine engine;
  sandgate::CheckOptions options;
  sandgate::Diagnostics load_errors;   // errors of inputs that could not be read: the whole answer
  sandgate::Diagnostics extra_errors;  // conversion errors of the inputs, added to every answer

  // The layers are made for one call: their trees move into the compiled request, not copied.
  sandgate::Result run(sandgate::Request::OwnedLayers layers) const;
};

// A request layer (sandbox, defaults, overrides) from text or from a JS value, or from `json`, the
// JSON text of that value (value_text.h); `json_refused` is set when the core refused that text
// and the value was walked instead.
sandgate::Document load_layer(Napi::Env env, Napi::Value v, const char* input, Napi::Value json = Napi::Value(),
                              bool* json_refused = nullptr);

// How diagnostics name records given as an array (checkMany's string items, diffPolicies' records),
// as Python's check_many names an iterable's.
constexpr const char* k_records_name = "<records>";

// Type-tagged Externals holding shared pointers.
Napi::Value wrap_policy(Napi::Env env, std::shared_ptr<PolicyInput> p);
std::shared_ptr<PolicyInput> unwrap_policy(Napi::Value v);  // null when `v` is not one
Napi::Value wrap_context(Napi::Env env, std::shared_ptr<const CheckContext> c);
std::shared_ptr<const CheckContext> unwrap_context(Napi::Env env, Napi::Value v);  // throws TypeError

// The JSON texts of the context's inputs that index.js gave (value_text.h); empty: none.
struct ContextJson {
  Napi::Value policy, runners, org;
};

// Builds a context from (policy, runners, org, client, placement) as JS passes them, reading an
// input from its JSON text where `json` has one (`json_refused` as for load_layer).
std::shared_ptr<const CheckContext> make_context(Napi::Env env, Napi::Value policy, Napi::Value runners,
                                                 Napi::Value org, const std::string& client,
                                                 const std::string& placement, const ContextJson& json = {},
                                                 bool* json_refused = nullptr);

}  // namespace sandgate_node
