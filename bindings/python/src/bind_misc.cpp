// Quantities, the SDKs' exception mapping and the codes table: data the Python layer builds its
// Quantity class, its exception hierarchy and sandgate.codes() from.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>


#include "bind.h"
#include "convert.h"
#include "sandgate/diagnostic.h"
#include "sandgate/errors.h"
#include "sandgate/path_meant.h"
#include "sandgate/quantity.h"

namespace py = pybind11;

namespace sandgate::python {
namespace {

QuantityGrammar grammar_of(const std::string& name) {
  if (name == "sdk") return QuantityGrammar::sdk;
  if (name == "kubernetes") return QuantityGrammar::kubernetes;
  throw py::value_error("grammar must be \"sdk\" or \"kubernetes\", not \"" + name + "\"");
}

Quantity parse_quantity(std::string_view text, const std::string& grammar) {
  QuantityError error;
  std::optional<Quantity> q = Quantity::parse(text, grammar_of(grammar), &error);
  if (!q) throw py::value_error(error.message);  // the engine's own message, as the SDK raises ValueError
  return *q;
}

int compare(const Quantity& a, const Quantity& b) {
  auto c = a <=> b;
  return c < 0 ? -1 : (c > 0 ? 1 : 0);
}

py::object none_if_empty(std::string_view s) { return s.empty() ? py::object(py::none()) : py::object(py::str(s.data(), s.size())); }

py::list class_table(std::span<const ExceptionClass> classes) {
  py::list out;
  for (const auto& c : classes) {
    py::list bases;
    for (auto b : c.bases) bases.append(py::str(b.data(), b.size()));
    out.append(py::make_tuple(py::str(c.name.data(), c.name.size()), py::tuple(bases)));
  }
  return out;
}

py::list codes_table() {
  py::list out;
  for (const auto& c : all_codes()) {
    py::dict row;
    row["code"] = py::str(c.name.data(), c.name.size());
    row["rule"] = py::str(c.rule.data(), c.rule.size());
    row["severity"] = py::str(std::string(to_string(c.severity)));
    row["reason"] = none_if_empty(c.reason);
    row["grpc_code"] = none_if_empty(c.grpc_code);
    row["python_exception"] = none_if_empty(c.python_exception);
    row["js_exception"] = none_if_empty(c.js_exception);
    row["side"] = py::str(std::string(to_string(c.side)));
    row["summary"] = py::str(c.summary.data(), c.summary.size());
    out.append(row);
  }
  return out;
}

py::list strings(std::span<const std::string_view> xs) {
  py::list out;
  for (auto x : xs) out.append(py::str(x.data(), x.size()));
  return out;
}

}  // namespace

void bind_misc(py::module_& m) {
  py::class_<Quantity>(m, "Quantity")
      .def_property_readonly("decimal", &Quantity::decimal)
      .def_property_readonly("canonical", &Quantity::canonical)
      .def_property_readonly("milli", &Quantity::milli)
      .def_property_readonly("trimmed", &Quantity::trimmed)
      .def("compare", &compare, py::arg("other"), "-1, 0 or 1: the exact order of the two values.");
  m.def("parse_quantity", &parse_quantity, py::arg("text"), py::arg("grammar") = "sdk");
  m.def("sdk_handle_advice", [](py::handle value) { return sdk_handle_advice(value.ptr()); }, py::arg("value"),
        "What to pass instead of a cwsandbox Sandbox or Session, or \"\" for any other value.");

  m.def("path_meant", [](const std::string& path) {
    py::gil_scoped_release nogil;  // it lists directories
    return path_meant(path);
  }, py::arg("path"), "The existing path a missing one most likely meant, or \"\".");

  m.def("exception_for", [](std::string_view grpc_code, std::string_view reason, std::string_view domain,
                            bool field_violations) {
    ExceptionClasses c = exception_for(grpc_code, reason, domain, field_violations);
    return py::make_tuple(none_if_empty(c.python), none_if_empty(c.js));
  }, py::arg("grpc_code"), py::arg("reason") = "", py::arg("domain") = "cwsandbox.com",
        py::arg("field_violations") = true);
  m.def("is_spill_eligible", [](std::string_view grpc_code, std::string_view reason, std::string_view domain) {
    return is_spill_eligible(grpc_code, reason, domain);
  }, py::arg("grpc_code"), py::arg("reason") = "", py::arg("domain") = "cwsandbox.com");
  m.def("python_exception_classes", [] { return class_table(python_exception_classes()); },
        "(name, bases) of the SDK's exception classes and the builtins sandgate raises, bases first.");
  m.def("js_exception_classes", [] { return class_table(js_exception_classes()); });
  m.def("exception_ancestors", [](std::string_view name, bool js) {
    py::list out;
    for (auto a : exception_ancestors(name, js)) out.append(py::str(a.data(), a.size()));
    return out;
  }, py::arg("name"), py::arg("js") = false);
  m.def("known_reasons", [] { return strings(known_reasons()); });
  m.def("grpc_codes", [] { return strings(grpc_codes()); });
  m.def("codes", &codes_table, "The rows of the codes table (codes.def), in table order.");
}

}  // namespace sandgate::python
