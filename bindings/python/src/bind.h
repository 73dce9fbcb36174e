// The parts of the _sandgate module, each registered by one function.
#pragma once

#include <pybind11/pybind11.h>

#include <string>

#include "holders.h"
#include "sandgate/engine.h"

namespace sandgate::python {

void bind_inputs(pybind11::module_& m);  // documents, policies, runners, org, check, validate, normalize
void bind_misc(pybind11::module_& m);    // quantities, exception mapping, the codes table
void bind_many(pybind11::module_& m);    // check_many and diff_policies (SPEC §10)

// CheckOptions from check()'s client and placement arguments; ValueError for anything else.
CheckOptions options_of(const std::string& client, const std::string& placement);

// The hints a check's result must carry for its policy, runners and org (their Loaded::hinted).
Diagnostics input_hints(const LoadedPolicy* policy, const LoadedRunners* runners, const LoadedOrg* org);
// Puts them on the copies of those diagnostics in `diagnostics` (the records diff_policies
// replays), which the core took from the compiled inputs, so that they say what Policy(...) and
// validate_policy say.
void add_input_hints(Diagnostics& diagnostics, const Diagnostics& hints);
// An Engine over the loaded inputs whose results carry their errors as the binding holds them:
// with the str rule's hint (Loaded::hinted), which the compiled inputs do not have.
Engine engine_of(const LoadedPolicy* policy, const LoadedRunners* runners, const LoadedOrg* org);

}  // namespace sandgate::python
