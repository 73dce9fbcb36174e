// Plain Python data → a node tape (sandgate/node_tape.h), for check_many's workers to build the
// tree from.
#pragma once

#include <pybind11/pybind11.h>

#include <string>

#include "sandgate/document.h"

namespace sandgate::python {

// Writes `value` as a node tape into `out` when it is plain data that the tape holds exactly as
// to_node would convert it (dicts with str keys, lists, tuples, str, bool, None, float, int within
// int64), far from `limits`. Otherwise returns false with `out` empty, and `value` is for to_node,
// which also owns every diagnostic a value can have: bytes, dataclasses, other Mappings and
// Sequences, an integer past int64, a lone surrogate, a cycle. GIL held; never raises.
bool to_plain_tape(pybind11::handle value, const Limits& limits, std::string& out);

}  // namespace sandgate::python
