// Node → plain Python data, and diagnostics → tuples, with the C API (these run on every result).
#include "to_python.h"

namespace py = pybind11;

namespace sandgate::python {
namespace {

// Text from the engine is UTF-8 (inputs were validated); "replace" keeps a bug from raising.
py::object text(std::string_view s) {
  PyObject* o = PyUnicode_DecodeUTF8(s.data(), static_cast<Py_ssize_t>(s.size()), "replace");
  if (!o) throw py::error_already_set();
  return py::reinterpret_steal<py::object>(o);
}

py::object text_or_none(std::string_view s) { return s.empty() ? py::none() : text(s); }

py::object integer(const Node& n) {
  if (n.int_overflow && !n.text.empty()) {
    PyObject* o = PyLong_FromString(n.text.c_str(), nullptr, 10);
    if (o) return py::reinterpret_steal<py::object>(o);
    PyErr_Clear();
  }
  return py::reinterpret_steal<py::object>(PyLong_FromLongLong(n.integer));
}

}  // namespace

py::object to_python(const Node& n) {
  switch (n.kind) {
    case NodeKind::null: return py::none();
    case NodeKind::boolean: return py::bool_(n.boolean);
    case NodeKind::integer: return integer(n);
    case NodeKind::number: return py::float_(n.number);
    case NodeKind::string: return text(n.text);
    case NodeKind::array: {
      py::list out(n.items.size());
      for (std::size_t i = 0; i < n.items.size(); ++i) out[i] = to_python(n.items[i]);
      return out;
    }
    case NodeKind::object: {
      py::dict out;
      for (const auto& m : n.members) out[text(m.key)] = to_python(m.value);
      return out;
    }
  }
  return py::none();
}

py::tuple diagnostic_tuple(const Diagnostic& d) {
  const CodeInfo& info = d.info();
  py::object source = py::none();
  if (d.source) source = py::make_tuple(text(d.source->file), d.source->line, d.source->column);
  return py::make_tuple(text(info.rule), text(info.name), text(to_string(d.severity)), text_or_none(info.reason),
                        text_or_none(info.grpc_code), text_or_none(info.python_exception),
                        text_or_none(info.js_exception), text_or_none(d.input), text(d.path), source, text(d.message),
                        text_or_none(d.hint));
}

py::list diagnostic_list(const Diagnostics& ds) {
  py::list out(ds.size());
  for (std::size_t i = 0; i < ds.size(); ++i) out[i] = diagnostic_tuple(ds[i]);
  return out;
}

}  // namespace sandgate::python
