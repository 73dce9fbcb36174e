// sandgate._sandgate: a thin layer over the C++ core (as re2's _re2 is over RE2). Everything
// Pythonic — input kinds, Result, exceptions, the pre-submit hook — lives in the pure-Python
// package around it.
#include <pybind11/pybind11.h>

#include "bind.h"
#include "sandgate/sandgate.h"

PYBIND11_MODULE(_sandgate, m) {
  m.doc() = "sandgate's C++ engine (internal; use the sandgate package)";
  m.attr("__version__") = sandgate::version();
  sandgate::python::bind_inputs(m);
  sandgate::python::bind_misc(m);
  sandgate::python::bind_many(m);
}
