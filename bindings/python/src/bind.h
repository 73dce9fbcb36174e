// The parts of the _sandgate module, each registered by one function.
#pragma once

#include <pybind11/pybind11.h>

#include <string>

#include "sandgate/engine.h"

namespace sandgate::python {

void bind_inputs(pybind11::module_& m);  // documents, policies, runners, org, check, validate, normalize
void bind_misc(pybind11::module_& m);    // quantities, exception mapping, the codes table
void bind_many(pybind11::module_& m);    // check_many and diff_policies (SPEC §10)

// CheckOptions from check()'s client and placement arguments; ValueError for anything else.
CheckOptions options_of(const std::string& client, const std::string& placement);

}  // namespace sandgate::python
