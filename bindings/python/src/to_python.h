// The core's values → plain Python objects (dicts, lists, str, int, float, bool, None, tuples).
#pragma once

#include <pybind11/pybind11.h>

#include "sandgate/diagnostic.h"
#include "sandgate/node.h"

namespace sandgate::python {

// A Node as plain Python data: objects → dict (input order), arrays → list.
pybind11::object to_python(const Node& node);

// One diagnostic as the tuple sandgate.Diagnostic is built from:
// (rule, code, severity, reason, grpc_code, python_exception, js_exception, input, path,
//  source: (file, line, column) | None, message, hint). Empty strings become None.
pybind11::tuple diagnostic_tuple(const Diagnostic& d);
pybind11::list diagnostic_list(const Diagnostics& ds);

}  // namespace sandgate::python
