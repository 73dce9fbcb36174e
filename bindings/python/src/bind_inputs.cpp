// Loading inputs (from text or from Python values) and running the engine on them. The GIL is held
// only while Python objects are read; parsing, validation and checking run without it.
#include <optional>

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "bind.h"
#include "convert.h"
#include "holders.h"
#include "sandgate/render.h"
#include "to_python.h"

namespace py = pybind11;

namespace sandgate::python {
namespace {

Format format_of(const std::string& file) { return file.empty() ? Format::auto_detect : format_for_path(file); }

// `hint` (sandgate._inputs.bare_string_hint) is given for a str read as YAML text, not as a path, by
// the str rule of python.md: when its document is one bare string (most often a path the rule did
// not take for one), the diagnostic saying the input must be an object carries it.
bool bare_string(const Document& doc) { return doc.loaded && doc.root.is_string(); }

// A layer: the core's own diagnostic for it (the layer compiled alone), with the hint, becomes its
// load error, so the layer is reported as the core reports it and not read further, as before.
void hint_bare_string_layer(Document& doc, const std::string& hint) {
  Request::OwnedLayers layers;
  (doc.input == "defaults" ? layers.defaults : doc.input == "overrides" ? layers.overrides : layers.sandbox) = doc;
  auto request = Request::compile(std::move(layers));
  for (const Diagnostic& d : request->diagnostics()) {
    if (d.code == Code::NOT_AN_OBJECT && d.input == doc.input && d.path.empty()) {
      doc.diagnostics.push_back(d);
      doc.diagnostics.back().hint = hint;
      doc.loaded = false;
      return;
    }
  }
}

InputDocument document_from_text(const std::string& text, const std::string& input, const std::string& file,
                                  const std::string& hint) {
  InputDocument out;
  py::gil_scoped_release nogil;
  out.doc = load_document(text, format_of(file), file, input);
  if (!hint.empty() && bare_string(out.doc)) hint_bare_string_layer(out.doc, hint);
  return out;
}

// `given_as`: the SDK class of a layer that sandgate._inputs turned into the dict of its set fields
// (SandboxDefaults), so that the core still knows which of the two the user passed.
InputDocument document_from_value(py::handle value, const std::string& input, const std::string& file,
                                  const std::string& given_as) {
  Converted c = to_node(value, input);
  if (c.root.is_object() && !given_as.empty()) c.root.given_as = given_as_from_name(given_as);
  InputDocument out;
  out.doc = document_from_node(std::move(c.root), input, file);
  out.doc.loaded = c.ok();  // a value that could not be read is not checked, as unreadable text is not
  out.doc.diagnostics = std::move(c.diagnostics);
  return out;
}

// Policy, Runners and Org share one loading shape: parse text, or build from a converted value.
template <typename T, typename L>
Loaded<T> from_load(L&& load, std::shared_ptr<const T> L::*member, std::string file) {
  Loaded<T> out;
  out.value = std::move(load.*member);
  out.diagnostics = std::move(load.diagnostics);
  out.file = std::move(file);
  return out;
}

template <typename T, typename L>
Loaded<T> loaded_from_text(const std::string& text, const std::string& file, std::shared_ptr<const T> L::*member,
                           const std::string& hint = "") {
  py::gil_scoped_release nogil;
  Loaded<T> out = from_load<T>(T::parse(text, format_of(file), file), member, file);
  if (!hint.empty() && bare_string(load_document(text, format_of(file), file))) {
    // The policy's P-1 (SG_POLICY_NOT_OBJECT), the runners' or org's SG_TYPE_MISMATCH, at the root.
    for (Diagnostic& d : out.diagnostics) {
      if ((d.code == Code::POLICY_NOT_OBJECT || d.code == Code::TYPE_MISMATCH) && d.path.empty()) {
        d.hint = hint;
        out.hinted.push_back(d);
      }
    }
  }
  return out;
}

template <typename T, typename L>
Loaded<T> loaded_from_value(py::handle value, const std::string& input, const std::string& file,
                            std::shared_ptr<const T> L::*member) {
  Converted c = to_node(value, input);
  if (!c.ok()) {
    Loaded<T> out;
    out.diagnostics = std::move(c.diagnostics);
    out.file = file;
    return out;
  }
  py::gil_scoped_release nogil;
  return from_load<T>(T::from_node(std::move(c.root), file), member, file);
}

CheckResult result_of(Diagnostics ds) { return CheckResult(Result::from_diagnostics(std::move(ds))); }

// Errors that kept an input from loading at all: a check with it reports them and nothing else.
template <typename T>
void add_load_errors(const Loaded<T>* in, Diagnostics& out) {
  if (!in || in->value) return;
  for (const auto& d : in->diagnostics) {
    if (d.severity == Severity::error) out.push_back(d);
  }
}

}  // namespace

Diagnostics input_hints(const LoadedPolicy* policy, const LoadedRunners* runners, const LoadedOrg* org) {
  Diagnostics out;
  for (const Diagnostics* hinted : {policy ? &policy->hinted : nullptr, runners ? &runners->hinted : nullptr,
                                    org ? &org->hinted : nullptr}) {
    if (hinted) out.insert(out.end(), hinted->begin(), hinted->end());
  }
  return out;
}

void add_input_hints(Diagnostics& diagnostics, const Diagnostics& hints) {
  for (Diagnostic& d : diagnostics) {
    for (const Diagnostic& h : hints) {
      if (d.code == h.code && d.input == h.input && d.path == h.path && d.message == h.message) d.hint = h.hint;
    }
  }
}

Engine engine_of(const LoadedPolicy* policy, const LoadedRunners* runners, const LoadedOrg* org) {
  auto value = [](const auto* in) { return in ? in->value : nullptr; };
  if (input_hints(policy, runners, org).empty()) return Engine(value(policy), value(runners), value(org));
  // A hinted input was read from text, so the Loaded diagnostics are the compiled input's own
  // plus the hint: the errors the engine would carry, as this binding shows them.
  Diagnostics errors;
  for (const Diagnostics* ds : {policy ? &policy->diagnostics : nullptr, runners ? &runners->diagnostics : nullptr,
                                org ? &org->diagnostics : nullptr}) {
    if (!ds) continue;
    for (const Diagnostic& d : *ds) {
      if (d.severity == Severity::error) errors.push_back(d);
    }
  }
  return Engine(value(policy), value(runners), value(org), std::move(errors));
}

CheckOptions options_of(const std::string& client, const std::string& placement) {
  if (client != "python" && client != "typescript") {
    throw py::value_error("client must be \"python\" or \"typescript\", not \"" + client + "\"");
  }
  if (!placement.empty() && placement != "serverless" && placement != "cks") {
    throw py::value_error("placement must be \"serverless\", \"cks\" or None, not \"" + placement + "\"");
  }
  return CheckOptions{client, placement};
}

namespace {

// An optional argument taken as a handle: pybind11 loads a None for a `T*` parameter only on its
// second, converting pass, after probing NoneType for a foreign module's type (an AttributeError
// raised and cleared) — so every call with a None layer converted all its arguments twice and paid
// two exceptions per None (a third of `check({})`).
template <typename T>
T* optional_arg(py::handle h, const char* name, const char* class_name) {
  if (h.is_none()) return nullptr;
  if (!py::isinstance<T>(h)) throw py::type_error(std::string(name) + " must be a " + class_name + " or None");
  return h.cast<T*>();
}

// The engine of this thread's last check, made again only when the loaded policy, runners or org
// change: checks in a loop pass the same ones, and making an Engine (its inputs, a copy of the org
// model, three heap blocks, freed with the result) was 2 % of a small check. It keeps those inputs
// alive until the thread checks with others; their addresses are compared, and a held input
// cannot be freed, so a new one never takes its address while it is remembered.
const Engine& engine_for(const LoadedPolicy* policy, const LoadedRunners* runners, const LoadedOrg* org) {
  struct Last {
    const Policy* policy = nullptr;
    const Runners* runners = nullptr;
    const Org* org = nullptr;
    std::optional<Engine> engine;
  };
  thread_local Last last;
  const Policy* p = policy ? policy->value.get() : nullptr;
  const Runners* r = runners ? runners->value.get() : nullptr;
  const Org* o = org ? org->value.get() : nullptr;
  if (!last.engine || last.policy != p || last.runners != r || last.org != o) {
    last.engine.emplace(engine_of(policy, runners, org));
    last.policy = p;
    last.runners = r;
    last.org = o;
  }
  return *last.engine;
}

// Each layer document is made for one call (sandgate._inputs.layer): its tree moves into the
// compiled request instead of being copied (the copy was a tenth of a check).
CheckResult check(InputDocument& sandbox, InputDocument* defaults, InputDocument* overrides,
                  const LoadedPolicy* policy, const LoadedRunners* runners, const LoadedOrg* org,
                  const std::string& client, const std::string& placement) {
  CheckOptions options = options_of(client, placement);
  Diagnostics load_errors;
  add_load_errors(policy, load_errors);
  add_load_errors(runners, load_errors);
  add_load_errors(org, load_errors);
  if (!load_errors.empty()) return result_of(std::move(load_errors));
  const Engine& engine = engine_for(policy, runners, org);
  Request::OwnedLayers layers;
  layers.sandbox = std::move(sandbox.doc);
  if (defaults) layers.defaults = std::move(defaults->doc);
  if (overrides) layers.overrides = std::move(overrides->doc);
  py::gil_scoped_release nogil;
  return CheckResult(engine.check(Request::compile(std::move(layers), options)));
}

// A Policy, Runners or Org loaded once: the `_raw` it holds (sandgate._policy), or null when `value`
// is anything else (which the general path then reads, or refuses with the right TypeError).
template <typename T>
bool loaded_arg(py::handle value, const T*& out) {
  out = nullptr;
  if (value.is_none()) return true;
  if (PyDict_Check(value.ptr()) || PyUnicode_Check(value.ptr())) return false;
  // Interned once (and deliberately leaked, like every name the interpreter interns): the C-string
  // form made a new str for every lookup, a third of what three lookups a call cost.
  static PyObject* const raw_name = PyUnicode_InternFromString("_raw");
  PyObject* raw = raw_name ? PyObject_GetAttr(value.ptr(), raw_name) : nullptr;
  if (!raw) {
    PyErr_Clear();
    return false;
  }
  py::object held = py::reinterpret_steal<py::object>(raw);
  if (!py::isinstance<T>(held)) return false;
  out = held.cast<const T*>();  // owned by `value`, which the caller holds for the call
  return true;
}

// sandgate.check's common case in one native call: a plain dict for the sandbox, no defaults,
// overrides or placement, and policy, runners and org each None or loaded once. The general path
// made five calls into the extension and two Python objects per check (a tenth of a small check).
// Anything else answers None, and sandgate.check takes the general path.
py::object check_plain(py::handle sandbox, py::handle policy, py::handle runners, py::handle org, py::handle client) {
  const LoadedPolicy* p = nullptr;
  const LoadedRunners* r = nullptr;
  const LoadedOrg* o = nullptr;
  if (!PyUnicode_Check(client.ptr()) || !plain_layer(sandbox.ptr()) || !loaded_arg(policy, p) || !loaded_arg(runners, r) ||
      !loaded_arg(org, o)) {
    return py::none();
  }
  InputDocument layer = document_from_value(sandbox, "sandbox", "", "");
  return py::cast(check(layer, nullptr, nullptr, p, r, o, client.cast<std::string>(), ""));
}

// validate_policy's common case: a plain dict, read as _inputs.policy reads one; None otherwise.
py::object validate_plain(py::handle value) {
  if (!PyDict_CheckExact(value.ptr())) return py::none();
  LoadedPolicy loaded = loaded_from_value<Policy>(value, "policy", "", &PolicyLoad::policy);
  return py::cast(result_of(std::move(loaded.diagnostics)));
}

CheckResult normalize(py::handle value, const std::string& client) {
  CheckOptions options = options_of(client, "");
  Converted c = to_node(value, "sandbox", "/resources");
  if (!c.ok()) return result_of(std::move(c.diagnostics));
  py::gil_scoped_release nogil;
  return CheckResult(normalize_resources(c.root, options));
}

py::object pairs(const std::vector<std::pair<std::string, std::string>>& ps) {
  py::list out;
  for (const auto& [k, v] : ps) out.append(py::make_tuple(py::str(k), py::str(v)));
  return out;
}

template <typename T>
py::class_<Loaded<T>> bind_loaded(py::module_& m, const char* name) {
  return py::class_<Loaded<T>>(m, name)
      .def_property_readonly("loaded", [](const Loaded<T>& l) { return l.value != nullptr; })
      .def_property_readonly("ok", [](const Loaded<T>& l) { return l.value != nullptr && !has_errors(l.diagnostics); })
      .def_property_readonly("file", [](const Loaded<T>& l) { return l.file; })
      .def_property_readonly("diagnostics", [](const Loaded<T>& l) { return diagnostic_list(l.diagnostics); })
      .def("result", [](const Loaded<T>& l) { return result_of(l.diagnostics); },
           "The load diagnostics as a result (what validate_policy answers).");
}

}  // namespace

void bind_inputs(py::module_& m) {
  // The document size limit the engine applies (SPEC §1.2): sandgate._inputs reads at most this + 1
  // byte of a file, as the CLI does.
  m.attr("MAX_DOCUMENT_BYTES") = Limits{}.max_bytes;
  py::class_<InputDocument>(m, "InputDocument")
      .def_property_readonly("loaded", [](const InputDocument& d) { return d.doc.loaded; })
      .def_property_readonly("input", [](const InputDocument& d) { return d.doc.input; })
      .def_property_readonly("file", [](const InputDocument& d) { return d.doc.file; })
      .def_property_readonly("diagnostics", [](const InputDocument& d) { return diagnostic_list(d.doc.diagnostics); });
  m.def("document_from_text", &document_from_text, py::arg("text"), py::arg("input"), py::arg("file") = "",
        py::arg("hint") = "");
  m.def("document_from_value", &document_from_value, py::arg("value"), py::arg("input"), py::arg("file") = "",
        py::arg("given_as") = "");

  // A loaded policy is immutable (shared_ptr<const Policy>): any number of threads may check with it.
  bind_loaded<Policy>(m, "LoadedPolicy")
      .def_property_readonly("is_null", [](const LoadedPolicy& l) { return l.value && l.value->is_null(); });
  bind_loaded<Runners>(m, "LoadedRunners");
  bind_loaded<Org>(m, "LoadedOrg");
  m.def("policy_from_text", [](const std::string& text, const std::string& file, const std::string& hint) {
    return loaded_from_text<Policy>(text, file, &PolicyLoad::policy, hint);
  }, py::arg("text"), py::arg("file") = "", py::arg("hint") = "");
  m.def("policy_from_value", [](py::handle v, const std::string& file) {
    return loaded_from_value<Policy>(v, "policy", file, &PolicyLoad::policy);
  }, py::arg("value"), py::arg("file") = "");
  m.def("runners_from_text", [](const std::string& text, const std::string& file, const std::string& hint) {
    return loaded_from_text<Runners>(text, file, &RunnersLoad::runners, hint);
  }, py::arg("text"), py::arg("file") = "", py::arg("hint") = "");
  m.def("runners_from_value", [](py::handle v, const std::string& file) {
    return loaded_from_value<Runners>(v, "runners", file, &RunnersLoad::runners);
  }, py::arg("value"), py::arg("file") = "");
  m.def("org_from_text", [](const std::string& text, const std::string& file, const std::string& hint) {
    return loaded_from_text<Org>(text, file, &OrgLoad::org, hint);
  }, py::arg("text"), py::arg("file") = "", py::arg("hint") = "");
  m.def("org_from_value", [](py::handle v, const std::string& file) {
    return loaded_from_value<Org>(v, "org", file, &OrgLoad::org);
  }, py::arg("value"), py::arg("file") = "");

  py::class_<CheckResult>(m, "CheckResult")
      .def_property_readonly("ok", [](const CheckResult& r) { return r.result->ok(); })
      .def_property_readonly("diagnostics", [](const CheckResult& r) { return diagnostic_list(r.result->diagnostics()); })
      .def_property_readonly("placement_mode", [](const CheckResult& r) { return std::string(r.result->placement_mode()); })
      .def_property_readonly("qos_class", [](const CheckResult& r) { return std::string(r.result->qos_class()); })
      .def_property_readonly("resolved", [](const CheckResult& r) { return to_python(r.result->resolved()); })
      .def_property_readonly("provenance", [](const CheckResult& r) { return pairs(r.result->provenance()); })
      .def_property_readonly("rules_applied", [](const CheckResult& r) { return pairs(r.result->rules_applied()); })
      .def_property_readonly("runner_id", [](const CheckResult& r) { return std::string(r.result->runner_id()); })
      .def_property_readonly("other_candidates", [](const CheckResult& r) { return r.result->other_candidates(); })
      .def_property_readonly("gpu", [](const CheckResult& r) -> py::object {
        auto gpu = r.result->gpu();
        if (!gpu) return py::none();
        const GpuResolution& g = *gpu;
        py::dict d;
        d["count"] = g.count;
        if (!g.type.empty()) d["type"] = g.type;
        if (g.memory_gb > 0) d["memory_gb"] = g.memory_gb;
        d["eligible_types"] = g.eligible_types;
        return d;
      })
      .def_property_readonly("runtime_class", [](const CheckResult& r) -> py::object {
        auto rc = r.result->runtime_class();
        if (!rc) return py::none();
        py::dict d;
        d["value"] = rc->value;
        d["from"] = rc->from;
        return d;
      })
      .def_property_readonly("slurm", [](const CheckResult& r) -> py::object {
        auto slurm = r.result->slurm();
        if (!slurm) return py::none();
        const SlurmMapping& s = *slurm;
        py::dict d;
        d["scheduler"] = s.scheduler;
        d["CPUsPerTask"] = s.cpus_per_task;
        d["MinMemoryNode"] = s.min_memory_node;
        for (const auto& [k, v] : s.job_parameters) d[py::str(k)] = v;
        return d;
      })
      .def("to_json", [](const CheckResult& r, bool pretty) { return result_to_json(*r.result, pretty); },
           py::arg("pretty") = true, "The SPEC §7 object as JSON text (for debugging).");

  m.def(
      "check",
      [](InputDocument& sandbox, py::handle defaults, py::handle overrides, py::handle policy, py::handle runners,
         py::handle org, const std::string& client, const std::string& placement) {
        return check(sandbox, optional_arg<InputDocument>(defaults, "defaults", "InputDocument"),
                     optional_arg<InputDocument>(overrides, "overrides", "InputDocument"),
                     optional_arg<LoadedPolicy>(policy, "policy", "LoadedPolicy"),
                     optional_arg<LoadedRunners>(runners, "runners", "LoadedRunners"),
                     optional_arg<LoadedOrg>(org, "org", "LoadedOrg"), client, placement);
      },
      py::arg("sandbox"), py::arg("defaults").none(true), py::arg("overrides").none(true), py::arg("policy").none(true),
      py::arg("runners").none(true), py::arg("org").none(true), py::arg("client") = "python",
      py::arg("placement") = "");
  m.def("normalize_resources", &normalize, py::arg("value"), py::arg("client") = "python");
  m.def("check_plain", &check_plain, py::arg("sandbox"), py::arg("policy").none(true), py::arg("runners").none(true),
        py::arg("org").none(true), py::arg("client"),
        "check() for a plain dict sandbox and loaded (or no) policy, runners and org; None for any other arguments.");
  m.def("validate_plain", &validate_plain, py::arg("value"),
        "validate_policy() of a plain dict; None for any other value.");
}

}  // namespace sandgate::python
