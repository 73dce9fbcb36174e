// Python values → the core's Node tree, directly (never through JSON text), with exact types and
// with every problem of the value (cycles, depth, unsupported objects, getters that raise) turned
// into a diagnostic instead of an exception.
#pragma once

#include <pybind11/pybind11.h>

#include <string>

#include "sandgate/diagnostic.h"
#include "sandgate/document.h"
#include "sandgate/node.h"

namespace sandgate::python {

struct Converted {
  Node root;
  Diagnostics diagnostics;  // problems of the value itself
  // Whether `root` is checked: not after an error the text loaders would not read past either
  // (read_past: a NUL in a string and a key given twice are noted, and the value is checked).
  bool ok() const { return !has_unreadable(diagnostics); }
};

// Converts `value`; `input` labels the diagnostics (sandbox, policy, …) and `base_path` is the JSON
// Pointer of `value` inside that input. Must be called with the GIL held. Never throws for anything
// in `value`.
Converted to_node(pybind11::handle value, const std::string& input, const std::string& base_path = "",
                  const Limits& limits = Limits{});

// What to pass instead of a cwsandbox Sandbox or Session (built from keyword arguments it does not
// keep), or "" for any other value: the one wording of check()'s TypeError for a whole input and of
// SG_VALUE_UNSUPPORTED's hint for a nested value.
std::string sdk_handle_advice(PyObject* o);

// Whether `o` is an instance of a dataclass. Plain values (str, int, dict, …) answer at once: the
// attribute probe raises and clears an AttributeError each time (a microsecond; check_many asked
// it for every value of every record).
bool is_dataclass_instance(PyObject* o);

// A plain dict none of whose values is a dataclass instance: a layer sandgate._inputs.layer would
// hand to the converter as it is (its rules for the SDK's option classes change nothing here).
bool plain_layer(PyObject* v);

}  // namespace sandgate::python
