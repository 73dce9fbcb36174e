// Python → Node. Types are kept exactly: bool before int (True is not a count), int keeps its size
// (outside int64 → int_overflow with the exact digits), str stays str ("1" is not an int).
// Containers: dict, any collections.abc.Mapping (OmegaConf's DictConfig by duck typing), list,
// tuple, any other Sequence (ListConfig), and dataclass instances (the SDK's option classes).
// The value may be hostile: it is walked with the loader's limits (depth, nodes), cycles and
// getters that raise are reported, and nothing here lets a Python exception escape.
#include "convert.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "sandgate/small_vector.h"

namespace py = pybind11;

namespace sandgate::python {
namespace {

// A value with thousands of bad leaves gets a readable report, not thousands of lines.
constexpr std::size_t k_max_diagnostics = 100;

// The Python objects conversion consults, looked up once (under the GIL). Deliberately leaked:
// destroying Python objects after the interpreter has finalised would crash at exit.
struct PyHelpers {
  py::object mapping;      // collections.abc.Mapping
  py::object sequence;     // collections.abc.Sequence
  py::object fields;       // dataclasses.fields
  py::object field_names;  // WeakKeyDictionary: dataclass type → tuple of the field names we convert
};

PyHelpers& helpers() {
  static PyHelpers* h = [] {
    auto* p = new PyHelpers;
    py::module_ abc = py::module_::import("collections.abc");
    p->mapping = abc.attr("Mapping");
    p->sequence = abc.attr("Sequence");
    p->fields = py::module_::import("dataclasses").attr("fields");
    // Weak keys: a dataclass type created at run time can still be garbage collected.
    p->field_names = py::module_::import("weakref").attr("WeakKeyDictionary")();
    return p;
  }();
  return *h;
}

// A Python exception as "TypeName: message" (not pybind11's what(), which appends a traceback).
// Reading the message may itself raise; then the type name alone is used.
std::string error_text(py::error_already_set& e) {
  std::string type = "Exception";
  try {
    type = py::str(e.type().attr("__name__")).cast<std::string>();
    std::string msg = py::str(e.value()).cast<std::string>();
    return msg.empty() ? type : type + ": " + msg;
  } catch (...) {
    PyErr_Clear();
    return type;
  }
}

// The pending Python exception as text, cleared.
std::string take_error() {
  if (!PyErr_Occurred()) return "an unknown error";
  py::error_already_set e;  // takes (and clears) the pending exception
  return error_text(e);
}

std::string type_name(PyObject* o) { return Py_TYPE(o)->tp_name; }

// A cwsandbox Sandbox or Session: built from keyword arguments, which it does not keep.
bool is_sdk_handle(PyObject* o) {
  const std::string name = type_name(o);
  if (name != "Sandbox" && name != "Session") return false;
  PyObject* module = PyObject_GetAttrString(reinterpret_cast<PyObject*>(Py_TYPE(o)), "__module__");
  if (!module) {
    PyErr_Clear();
    return false;
  }
  const char* text = PyUnicode_Check(module) ? PyUnicode_AsUTF8(module) : nullptr;
  const bool sdk = text && std::string_view(text).substr(0, std::string_view(text).find('.')) == "cwsandbox";
  if (!text) PyErr_Clear();
  Py_DECREF(module);
  return sdk;
}

// A short, safe description of an object for messages: its repr, cut, or just its type.
std::string describe(PyObject* o) {
  PyObject* r = PyObject_Repr(o);
  if (!r) {
    PyErr_Clear();
    return "a " + type_name(o);
  }
  Py_ssize_t n = 0;
  const char* s = PyUnicode_AsUTF8AndSize(r, &n);
  std::string out = s ? std::string(s, static_cast<std::size_t>(std::min<Py_ssize_t>(n, 60))) : "a " + type_name(o);
  if (!s) PyErr_Clear();
  if (s && n > 60) out += "…";
  Py_DECREF(r);
  return out;
}

class Converter {
 public:
  Converter(std::string input, const Limits& limits) : input_(std::move(input)), limits_(limits) {}

  Converted run(py::handle value, const std::string& base_path) {
    base_ = base_path;
    Converted out;
    convert(value.ptr(), out.root);
    out.diagnostics = std::move(diags_);
    return out;
  }

 private:
  std::string input_;
  Limits limits_;
  // Where the value being converted is: base_ and then these steps. The JSON Pointer is written
  // only when a diagnostic needs it; written for every member, it cost 5 % of a check(dict).
  struct Token {
    PyObject* key = nullptr;  // a str, alive while the step lasts (its container holds it); or
    std::size_t index = 0;    // an array index
  };
  std::string base_;
  // Inline for the depths requests have: a converter made per call allocated for both (glibc's
  // malloc and free, four times a check).
  using Steps = SmallVector<Token, 16>;
  Steps steps_;
  std::size_t nodes_ = 0;
  SmallVector<PyObject*, 16> open_;  // containers being converted: their count is the depth
  bool stop_ = false;            // a limit was hit: the rest of the value is not read
  Diagnostics diags_;

  void report(Code code, std::string message, std::string hint = {}) {
    if (diags_.size() >= k_max_diagnostics) {
      stop_ = true;
      return;
    }
    Diagnostic d;
    d.code = code;
    d.severity = code_info(code).severity;
    d.path = path();
    d.input = input_;
    d.message = std::move(message);
    d.hint = std::move(hint);
    diags_.push_back(std::move(d));
  }

  std::string path() const {
    std::string out = base_;
    for (const Token& t : steps_) {
      if (!t.key) {
        pointer_append(out, t.index);
        continue;
      }
      Py_ssize_t size = 0;
      const char* s = PyUnicode_AsUTF8AndSize(t.key, &size);  // read once already: cached
      if (!s) PyErr_Clear();
      pointer_append(out, s ? std::string_view(s, static_cast<std::size_t>(size)) : std::string_view("?"));
    }
    return out;
  }

  // One step further into the value for the lifetime of the scope.
  class Step {
   public:
    Step(Steps& steps, PyObject* key) : steps_(steps) { steps_.push_back(Token{key, 0}); }
    Step(Steps& steps, std::size_t index) : steps_(steps) { steps_.push_back(Token{nullptr, index}); }
    ~Step() { steps_.pop_back(); }
    Step(const Step&) = delete;
    Step& operator=(const Step&) = delete;

   private:
    Steps& steps_;
  };

  // Enters a container: checks for a cycle and the depth limit.
  bool open(PyObject* o) {
    if (std::find(open_.begin(), open_.end(), o) != open_.end()) {
      report(Code::VALUE_CYCLE, "the " + type_name(o) + " contains itself (a reference cycle)",
             "pass a tree of values; YAML and JSON have no cycles");
      return false;
    }
    if (static_cast<int>(open_.size()) >= limits_.max_depth) {
      report(Code::DOC_TOO_DEEP,
             "objects and lists are nested deeper than " + std::to_string(limits_.max_depth) + " levels",
             "flatten the value");
      stop_ = true;
      return false;
    }
    open_.push_back(o);
    return true;
  }
  void close() { open_.pop_back(); }

  // Writes the value of `o` into `out`, a null node: each value is made where it stays, in its
  // container's vector, instead of being returned and moved in (a Node is 112 bytes).
  void convert(PyObject* o, Node& out) {
    if (stop_) return;
    if (++nodes_ > limits_.max_nodes) {
      report(Code::DOC_TOO_MANY_NODES, "the value has more than " + std::to_string(limits_.max_nodes) + " nodes",
             "split the value");
      stop_ = true;
      return;
    }
    if (o == Py_None) return;
    if (PyBool_Check(o)) {  // before int: bool is an int subclass
      out.kind = NodeKind::boolean;
      out.boolean = o == Py_True;
    } else if (PyLong_Check(o)) {
      out = integer(o);
    } else if (PyFloat_Check(o)) {
      out.kind = NodeKind::number;
      out.number = PyFloat_AS_DOUBLE(o);
    } else if (PyUnicode_Check(o)) {  // str subclasses too: the SDK's StrEnum values
      string(o, out);
    } else if (PyBytes_Check(o) || PyByteArray_Check(o)) {
      out = bytes(o);
    } else if (PyDict_Check(o)) {
      dict(o, out);
    } else if (PyList_Check(o) || PyTuple_Check(o)) {
      list(o, out);
    } else {
      out = other(o);
    }
  }

  Node integer(PyObject* o) {
    int overflow = 0;
    long long v = PyLong_AsLongLongAndOverflow(o, &overflow);
    if (v == -1 && PyErr_Occurred()) {
      report(Code::VALUE_READ_FAILED, "the integer cannot be read: " + take_error());
      return Node::make_null();
    }
    if (overflow == 0) return Node::make_int(static_cast<std::int64_t>(v));
    // Outside int64: keep the exact digits so the engine can say which value does not fit.
    Node n;
    n.kind = NodeKind::integer;
    n.int_overflow = true;
    n.integer = overflow > 0 ? std::numeric_limits<std::int64_t>::max() : std::numeric_limits<std::int64_t>::min();
    PyObject* digits = PyNumber_ToBase(o, 10);  // not str(): IntEnum members print their name
    if (!digits) {
      // Python refuses to print integers of more than sys.get_int_max_str_digits() digits.
      PyErr_Clear();
      std::string bits = "so many";
      if (PyObject* b = PyObject_CallMethod(o, "bit_length", nullptr)) {
        bits = std::to_string(PyLong_AsLongLong(b));
        Py_DECREF(b);
      }
      PyErr_Clear();
      report(Code::INTEGER_RANGE, "an integer of " + bits + " bits does not fit any field",
             "use a value within the field's range");
      return Node::make_null();
    }
    Py_ssize_t size = 0;
    const char* s = PyUnicode_AsUTF8AndSize(digits, &size);
    if (s) n.text.assign(s, static_cast<std::size_t>(size));
    Py_DECREF(digits);
    return n;
  }

  void string(PyObject* o, Node& out) {
    Py_ssize_t size = 0;
    const char* s = PyUnicode_AsUTF8AndSize(o, &size);
    if (!s) {
      PyErr_Clear();
      report(Code::INVALID_UTF8, "the string cannot be encoded as UTF-8 (it holds a lone surrogate)",
             "remove the surrogate code point");
      return;
    }
    out.kind = NodeKind::string;
    out.text.assign(s, static_cast<std::size_t>(size));
    note_nul(out.text);
  }

  // A NUL is noted, as the text loaders note it, and the value is still checked (read_past).
  void note_nul(std::string_view text) {
    if (text.find('\0') != std::string_view::npos) {
      report(Code::NUL_BYTE, "the string contains a NUL character", "remove it; C and many tools cut the text there");
    }
  }

  // bytes are accepted when they are UTF-8 text (the SDK encodes str content as UTF-8 too).
  Node bytes(PyObject* o) {
    const char* data = PyBytes_Check(o) ? PyBytes_AS_STRING(o) : PyByteArray_AS_STRING(o);
    Py_ssize_t size = PyBytes_Check(o) ? PyBytes_GET_SIZE(o) : PyByteArray_GET_SIZE(o);
    PyObject* decoded = PyUnicode_DecodeUTF8(data, size, "strict");
    if (!decoded) {
      Py_ssize_t at = 0;
      {
        py::error_already_set e;  // the UnicodeDecodeError, which knows where the text goes wrong
        if (PyUnicodeDecodeError_GetStart(e.value().ptr(), &at) != 0) PyErr_Clear();
      }
      report(Code::INVALID_UTF8, "the bytes are not valid UTF-8 (at byte " + std::to_string(at) + ")",
             "pass text, or bytes that hold UTF-8 text");
      return Node::make_null();
    }
    Py_DECREF(decoded);
    Node n = Node::make_string(std::string(data, static_cast<std::size_t>(size)));
    note_nul(n.text);
    return n;
  }

  // Reads a key; only strings name members (JSON and the SDK's keyword arguments alike).
  bool key_text(PyObject* key, std::string& out) {
    if (!PyUnicode_Check(key)) {
      report(Code::VALUE_UNSUPPORTED,
             "a key must be a string, not " + type_name(key) + " (" + describe(key) + ")",
             "use str keys");
      return false;
    }
    Py_ssize_t size = 0;
    const char* s = PyUnicode_AsUTF8AndSize(key, &size);
    if (!s) {
      PyErr_Clear();
      report(Code::INVALID_UTF8, "a key cannot be encoded as UTF-8 (it holds a lone surrogate)");
      return false;
    }
    out.assign(s, static_cast<std::size_t>(size));
    return true;
  }

  void member(Node& obj, PyObject* key, PyObject* value, std::unordered_set<std::string>* seen) {
    Member& m = obj.members.emplace_back();
    if (!key_text(key, m.key)) {
      obj.members.pop_back();
      return;
    }
    Step step(steps_, key);
    note_nul(m.key);  // at the member's own pointer, as the loaders and Node place it
    if (seen && !seen->insert(m.key).second) {
      report(Code::DUPLICATE_KEY, "the key \"" + m.key + "\" appears twice", "give each key once");
      obj.members.pop_back();
      return;
    }
    convert(value, m.value);
  }

  void dict(PyObject* o, Node& obj) {
    if (!open(o)) return;
    obj.kind = NodeKind::object;
    const Py_ssize_t size = PyDict_Size(o);
    obj.members.reserve(static_cast<std::size_t>(std::min<Py_ssize_t>(size, 1024)));
    Py_ssize_t pos = 0;
    PyObject *k = nullptr, *v = nullptr;
    while (!stop_ && PyDict_Next(o, &pos, &k, &v)) {
      // Converting a value may run Python code (getters) that drops the dict's last reference to it.
      py::object key = py::reinterpret_borrow<py::object>(k);
      py::object value = py::reinterpret_borrow<py::object>(v);
      member(obj, key.ptr(), value.ptr(), nullptr);
      if (PyDict_Size(o) != size) {
        report(Code::VALUE_READ_FAILED, "the dict changed size while it was being read");
        break;
      }
    }
    close();
  }

  void list(PyObject* o, Node& arr) {
    if (!open(o)) return;
    arr.kind = NodeKind::array;
    const bool is_list = PyList_Check(o);
    Py_ssize_t size = is_list ? PyList_GET_SIZE(o) : PyTuple_GET_SIZE(o);
    arr.items.reserve(static_cast<std::size_t>(std::min<Py_ssize_t>(size, static_cast<Py_ssize_t>(limits_.max_nodes) + 1)));
    // A list may shrink while its items are converted (getters run Python code): re-read its size.
    for (Py_ssize_t i = 0; !stop_ && i < (is_list ? PyList_GET_SIZE(o) : size); ++i) {
      py::object item = py::reinterpret_borrow<py::object>(is_list ? PyList_GET_ITEM(o, i) : PyTuple_GET_ITEM(o, i));
      Step step(steps_, static_cast<std::size_t>(i));
      convert(item.ptr(), arr.items.emplace_back());
    }
    close();
  }

  // Everything that is not a builtin container or scalar: duck typed, in this order.
  Node other(PyObject* o) {
    if (is_dataclass_instance(o)) return dataclass(o);
    int is_mapping = PyObject_IsInstance(o, helpers().mapping.ptr());
    if (is_mapping < 0) return failed("checking whether it is a Mapping");
    if (is_mapping) return mapping(o);
    int is_sequence = PyObject_IsInstance(o, helpers().sequence.ptr());
    if (is_sequence < 0) return failed("checking whether it is a Sequence");
    if (is_sequence) return sequence(o);
    if (PyIndex_Check(o)) {  // integers of other libraries (numpy.int64, …) through __index__
      PyObject* i = PyNumber_Index(o);
      if (!i) return failed("reading it as an integer");
      Node n = integer(i);
      Py_DECREF(i);
      return n;
    }
    std::string advice = sdk_handle_advice(o);
    report(Code::VALUE_UNSUPPORTED, "a value of type " + type_name(o) + " (" + describe(o) + ") cannot be checked",
           advice.empty() ? "use dicts, lists, str, int, float, bool, None, or the SDK's option dataclasses" : advice);
    return Node::make_null();
  }

  Node failed(const std::string& what) {
    report(Code::VALUE_READ_FAILED, "the value raised " + take_error() + " while " + what,
           "pass plain data (dicts, lists, strings, numbers)");
    return Node::make_null();
  }

  // The fields of a dataclass that make up its value: public and shown in its repr. The SDK hides
  // credentials and bookkeeping (SandboxDefaults.auth, Container._observed) with repr=False.
  py::object field_names(PyObject* o) {
    py::handle type = reinterpret_cast<PyObject*>(Py_TYPE(o));
    py::object& cache = helpers().field_names;
    try {
      py::object hit = cache.attr("get")(type);
      if (!hit.is_none()) return hit;
    } catch (py::error_already_set&) {  // a type without weak references: not cached
    }
    py::list names;
    for (py::handle f : helpers().fields(type)) {
      std::string name = py::str(f.attr("name")).cast<std::string>();
      if (name.empty() || name[0] == '_' || !py::bool_(f.attr("repr"))) continue;
      names.append(py::str(name));
    }
    py::tuple out(names);
    try {
      cache[type] = out;
    } catch (py::error_already_set&) {
    }
    return out;
  }

  // A dataclass becomes an object of its set fields; None means "not set" in the SDK's classes. An
  // SDK option class whose name the core knows is remembered (Node::given_as).
  Node dataclass(PyObject* o) {
    py::object names;
    try {
      names = field_names(o);
    } catch (py::error_already_set& e) {
      report(Code::VALUE_READ_FAILED, "the fields of the " + type_name(o) + " cannot be read: " + error_text(e));
      return Node::make_null();
    }
    if (!open(o)) return Node::make_null();
    Node obj = Node::make_object();
    obj.given_as = given_as_from_name(type_name(o));  // RegisteredVolumeOptions, …: what the user built
    for (py::handle name : names) {
      if (stop_) break;
      std::string key = name.cast<std::string>();
      Step step(steps_, name.ptr());
      PyObject* v = PyObject_GetAttr(o, name.ptr());
      if (!v) {
        report(Code::VALUE_READ_FAILED, "reading the field raised " + take_error(),
               "pass plain data (dicts, lists, strings, numbers)");
        continue;
      }
      py::object value = py::reinterpret_steal<py::object>(v);
      if (v == Py_None) continue;
      Member& m = obj.members.emplace_back();
      m.key = std::move(key);
      convert(v, m.value);
    }
    close();
    return obj;
  }

  // Any other Mapping (OmegaConf DictConfig, MappingProxy, …): read through items(), which may
  // raise (a DictConfig resolves interpolations there) and may even yield a key twice.
  Node mapping(PyObject* o) {
    if (!open(o)) return Node::make_null();
    Node obj = Node::make_object();
    std::unordered_set<std::string> seen;
    PyObject* items = PyObject_CallMethod(o, "items", nullptr);
    PyObject* it = items ? PyObject_GetIter(items) : nullptr;
    Py_XDECREF(items);
    if (!it) {
      failed("reading its items()");
      close();
      return obj;
    }
    while (!stop_) {
      PyObject* pair = PyIter_Next(it);
      if (!pair) {
        if (PyErr_Occurred()) failed("reading its items()");
        break;
      }
      py::object hold = py::reinterpret_steal<py::object>(pair);
      if (!PyTuple_Check(pair) || PyTuple_GET_SIZE(pair) != 2) {
        report(Code::VALUE_READ_FAILED, "items() of the " + type_name(o) + " yielded " + describe(pair) + ", not a (key, value) pair");
        break;
      }
      member(obj, PyTuple_GET_ITEM(pair, 0), PyTuple_GET_ITEM(pair, 1), &seen);
    }
    Py_DECREF(it);
    close();
    return obj;
  }

  // Any other Sequence (OmegaConf ListConfig, range, …), read by iterating.
  Node sequence(PyObject* o) {
    if (!open(o)) return Node::make_null();
    Node arr = Node::make_array();
    PyObject* it = PyObject_GetIter(o);
    if (!it) {
      failed("iterating over it");
      close();
      return arr;
    }
    for (std::size_t i = 0; !stop_; ++i) {
      PyObject* item = PyIter_Next(it);
      if (!item) {
        if (PyErr_Occurred()) {
          Step step(steps_, i);
          failed("iterating over it");
        }
        break;
      }
      py::object hold = py::reinterpret_steal<py::object>(item);
      Step step(steps_, i);
      convert(item, arr.items.emplace_back());
    }
    Py_DECREF(it);
    close();
    return arr;
  }
};

}  // namespace

std::string sdk_handle_advice(PyObject* o) {
  if (!is_sdk_handle(o)) return {};
  return "a cwsandbox " + type_name(o) +
         " keeps no record of the keyword arguments it was built with: pass them as a dict "
         "(check(dict(container_image=..., resources=...))), or call sandgate.presubmit.install(...) first to check "
         "every Sandbox(...) as it is built";
}

bool is_dataclass_instance(PyObject* o) {
  if (PyUnicode_CheckExact(o) || PyLong_CheckExact(o) || PyDict_CheckExact(o) || PyList_CheckExact(o) ||
      PyBool_Check(o) || PyFloat_CheckExact(o) || PyTuple_CheckExact(o) || o == Py_None || PyBytes_CheckExact(o)) {
    return false;
  }
  if (PyType_Check(o)) return false;  // a dataclass type is not a value
  return PyObject_HasAttrString(reinterpret_cast<PyObject*>(Py_TYPE(o)), "__dataclass_fields__") == 1;
}

Converted to_node(py::handle value, const std::string& input, const std::string& base_path, const Limits& limits) {
  Converter c(input, limits);
  return c.run(value, base_path);
}

bool plain_layer(PyObject* v) {
  if (!PyDict_CheckExact(v)) return false;
  PyObject *key, *value;
  Py_ssize_t pos = 0;
  while (PyDict_Next(v, &pos, &key, &value)) {
    if (is_dataclass_instance(value)) return false;
  }
  return true;
}

}  // namespace sandgate::python
