// Plain Python data → a node tape, for check_many on several threads: the tree is then built from
// the tape by a worker, which also frees it later, instead of being built by the one thread that
// holds the GIL and freed by another (freeing into another thread's allocator arena is what kept
// check_many on lists from scaling). Only values the tape holds exactly as to_node converts them
// are written; anything else answers false and goes through to_node.
#include "plain_tape.h"

#include <limits>

#include "sandgate/node_tape.h"

namespace sandgate::python {
namespace {

class PlainTape {
 public:
  PlainTape(const Limits& limits, std::string& out)
      : tape_(out),
        // Far from the limits, so no limit to_node would report is reached.
        max_depth_(limits.max_depth / 2),
        max_nodes_(limits.max_nodes / 2) {}

  bool value(PyObject* o, int depth) {
    if (++nodes_ > max_nodes_) return false;
    if (o == Py_None) {
      tape_.null();
    } else if (PyBool_Check(o)) {  // before int: bool is an int
      tape_.boolean(o == Py_True);
    } else if (PyFloat_Check(o)) {
      tape_.number(PyFloat_AS_DOUBLE(o));
    } else if (PyLong_Check(o)) {
      return integer(o);
    } else if (PyUnicode_Check(o)) {  // str subclasses too: the SDK's StrEnum values
      return string(o);
    } else if (PyDict_Check(o)) {
      return dict(o, depth + 1);
    } else if (PyList_Check(o) || PyTuple_Check(o)) {
      return list(o, depth + 1);
    } else {
      return false;  // bytes, dataclasses, Mappings, Sequences, …: to_node
    }
    return true;
  }


 private:
  NodeTapeWriter tape_;
  const int max_depth_;
  const std::size_t max_nodes_;
  std::size_t nodes_ = 0;

  bool integer(PyObject* o) {
    int overflow = 0;
    long long v = PyLong_AsLongLongAndOverflow(o, &overflow);
    if (overflow != 0 || (v == -1 && PyErr_Occurred())) {
      PyErr_Clear();
      return false;  // to_node keeps the exact digits, or reports the error
    }
    tape_.integer(static_cast<std::int64_t>(v));
    return true;
  }

  static bool utf8(PyObject* o, std::string_view& out) {
    Py_ssize_t size = 0;
    const char* s = PyUnicode_AsUTF8AndSize(o, &size);
    if (!s) {
      PyErr_Clear();
      return false;  // a lone surrogate: to_node reports it
    }
    out = std::string_view(s, static_cast<std::size_t>(size));
    return out.find('\0') == std::string_view::npos;  // a NUL: to_node notes it
  }

  bool string(PyObject* o) {
    std::string_view s;
    if (!utf8(o, s)) return false;
    tape_.string(s);
    return true;
  }

  bool dict(PyObject* o, int depth) {
    if (depth > max_depth_) return false;  // deep, or a cycle: to_node says which
    const Py_ssize_t size = PyDict_Size(o);
    if (size > std::numeric_limits<std::uint32_t>::max()) return false;
    tape_.object(static_cast<std::uint32_t>(size));
    Py_ssize_t pos = 0;
    PyObject *k = nullptr, *v = nullptr;
    while (PyDict_Next(o, &pos, &k, &v)) {
      std::string_view key;
      if (!PyUnicode_Check(k) || !utf8(k, key)) return false;
      tape_.key(key);
      if (!value(v, depth)) return false;
    }
    return true;
  }

  bool list(PyObject* o, int depth) {
    if (depth > max_depth_) return false;
    const bool is_list = PyList_Check(o);
    const Py_ssize_t size = is_list ? PyList_GET_SIZE(o) : PyTuple_GET_SIZE(o);
    if (size > std::numeric_limits<std::uint32_t>::max()) return false;
    tape_.array(static_cast<std::uint32_t>(size));
    for (Py_ssize_t i = 0; i < size; ++i) {
      if (!value(is_list ? PyList_GET_ITEM(o, i) : PyTuple_GET_ITEM(o, i), depth)) return false;
    }
    return true;
  }
};

}  // namespace

bool to_plain_tape(pybind11::handle value, const Limits& limits, std::string& out) {
  out.clear();
  out.reserve(512);
  if (PlainTape(limits, out).value(value.ptr(), 0)) return true;
  out.clear();
  return false;
}

}  // namespace sandgate::python
