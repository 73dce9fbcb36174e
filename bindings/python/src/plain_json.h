// Plain Python data → compact JSON text, for check_many's workers to build the tree from.
#pragma once

#include <pybind11/pybind11.h>

#include <string>

#include "sandgate/document.h"

namespace sandgate::python {

// Writes `value` as compact JSON into `out` when it is plain data that the JSON loader reads into
// the tree to_node would build (dicts with str keys, lists, tuples, str, bool, None, int within
// int64; an integer also keeps its digits as text), far from `limits`. Otherwise returns false with
// `out` empty, and `value` is for to_node: floats, bytes, dataclasses, other Mappings and Sequences,
// an integer past int64, a string with a NUL or a lone surrogate, a cycle. GIL held; never raises.
bool to_plain_json(pybind11::handle value, const Limits& limits, std::string& out);

}  // namespace sandgate::python
