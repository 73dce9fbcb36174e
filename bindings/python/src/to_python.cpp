// Node → plain Python data, and diagnostics → tuples, with the C API (these run on every result).
#include "to_python.h"

#include <optional>
#include <vector>

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

namespace {

py::tuple as_tuple(std::vector<py::object> values) {
  py::tuple out(values.size());
  for (std::size_t i = 0; i < values.size(); ++i) out[i] = std::move(values[i]);
  return out;
}

py::object source_tuple(const std::optional<SourceLocation>& s) {
  if (!s) return py::none();
  return py::make_tuple(text(s->file), s->line, s->column);
}

// One value per row of core/include/sandgate/result_shape.def, in its order (the tuple's layout;
// sandgate/_diagnostics.py is generated from the same rows): a row without its step does not compile.
struct RelatedValues {
  const Related& r;
  py::object input() { return text(r.input); }
  py::object path() { return text(r.path); }
  py::object source() { return source_tuple(r.source); }
  py::object message() { return text(r.message); }
};

struct DiagnosticValues {
  const Diagnostic& d;
  const CodeInfo& info;
  py::object rule() { return text(info.rule); }
  py::object code() { return text(info.name); }
  py::object severity() { return text(to_string(d.severity)); }
  py::object reason() { return text_or_none(info.reason); }
  py::object grpc_code() { return text_or_none(info.grpc_code); }
  py::object python_exception() { return text_or_none(info.python_exception); }
  py::object js_exception() { return text_or_none(info.js_exception); }
  py::object input() { return text_or_none(d.input); }
  py::object path() { return text(d.path); }
  py::object source() { return source_tuple(d.source); }
  py::object message() { return text(d.message); }
  py::object hint() { return text_or_none(d.hint); }
  py::object related() {
    py::tuple out(d.related.size());
    for (std::size_t i = 0; i < d.related.size(); ++i) {
      RelatedValues f{d.related[i]};
      std::vector<py::object> values;
#define SG_RELATED_FIELD(name, ts_type, py_type, doc) values.push_back(f.name());
#include "sandgate/result_shape.def"
      out[i] = as_tuple(std::move(values));
    }
    return out;
  }
};

}  // namespace

py::tuple diagnostic_tuple(const Diagnostic& d) {
  DiagnosticValues f{d, d.info()};
  std::vector<py::object> values;
#define SG_DIAGNOSTIC_FIELD(name, ts_type, py_type, doc) values.push_back(f.name());
#include "sandgate/result_shape.def"
  return as_tuple(std::move(values));
}

py::list diagnostic_list(const Diagnostics& ds) {
  py::list out(ds.size());
  for (std::size_t i = 0; i < ds.size(); ++i) out[i] = diagnostic_tuple(ds[i]);
  return out;
}

}  // namespace sandgate::python
