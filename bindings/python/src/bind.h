// The parts of the _sandgate module, each registered by one function.
#pragma once

#include <pybind11/pybind11.h>

namespace sandgate::python {

void bind_inputs(pybind11::module_& m);  // documents, policies, runners, org, check, validate, normalize
void bind_misc(pybind11::module_& m);    // quantities, exception mapping, the codes table

}  // namespace sandgate::python
