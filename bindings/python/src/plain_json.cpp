// Plain Python data → compact JSON text, for check_many on several threads: the tree is then built
// from the text by a worker, which also frees it later, instead of being built by the one thread
// that holds the GIL and freed by another (freeing into another thread's allocator arena is what
// kept check_many on lists from scaling). Only values that the JSON loader reads into exactly the
// tree to_node builds are written; anything else answers false and goes through to_node, which
// also owns every diagnostic a value can have.
#include "plain_json.h"

#include <charconv>
#include <cstring>

namespace sandgate::python {
namespace {

class PlainJson {
 public:
  PlainJson(const Limits& limits, std::string& out)
      : out_(out),
        // Far from the limits, so no limit the loader counts differently from to_node is reached.
        max_depth_(limits.max_depth / 2),
        max_nodes_(limits.max_nodes / 2),
        max_bytes_(limits.max_bytes / 2) {}

  bool value(PyObject* o, int depth) {
    if (++nodes_ > max_nodes_ || out_.size() > max_bytes_) return false;
    if (o == Py_None) return append("null");
    if (PyBool_Check(o)) return append(o == Py_True ? "true" : "false");
    if (PyLong_Check(o)) return integer(o);
    if (PyUnicode_Check(o)) return string(o);
    if (PyDict_Check(o)) return dict(o, depth + 1);
    if (PyList_Check(o) || PyTuple_Check(o)) return list(o, depth + 1);
    return false;  // floats (their text would need to round-trip), bytes, dataclasses, Mappings, …
  }

 private:
  std::string& out_;
  const int max_depth_;
  const std::size_t max_nodes_, max_bytes_;
  std::size_t nodes_ = 0;

  bool append(std::string_view s) {
    out_.append(s);
    return true;
  }

  bool integer(PyObject* o) {
    int overflow = 0;
    long long v = PyLong_AsLongLongAndOverflow(o, &overflow);
    if (overflow != 0 || (v == -1 && PyErr_Occurred())) {
      PyErr_Clear();
      return false;  // to_node keeps the exact digits, or reports the error
    }
    char buf[24];
    auto r = std::to_chars(buf, buf + sizeof buf, v);
    out_.append(buf, r.ptr);
    return true;
  }

  bool string(PyObject* o) {
    Py_ssize_t size = 0;
    const char* s = PyUnicode_AsUTF8AndSize(o, &size);
    if (!s) {
      PyErr_Clear();
      return false;  // a lone surrogate: to_node reports it
    }
    return quoted(std::string_view(s, static_cast<std::size_t>(size)));
  }

  // A JSON string; false for a NUL, which the loader reports and to_node lets through.
  bool quoted(std::string_view s) {
    out_.push_back('"');
    std::size_t from = 0;
    for (std::size_t i = 0; i < s.size(); ++i) {
      unsigned char c = static_cast<unsigned char>(s[i]);
      if (c >= 0x20 && c != '"' && c != '\\') continue;
      if (c == 0) return false;
      out_.append(s.data() + from, i - from);
      from = i + 1;
      if (c == '"' || c == '\\') {
        out_.push_back('\\');
        out_.push_back(static_cast<char>(c));
      } else {
        static constexpr char k_hex[] = "0123456789abcdef";
        char esc[6] = {'\\', 'u', '0', '0', k_hex[c >> 4], k_hex[c & 0xF]};
        out_.append(esc, sizeof esc);
      }
    }
    out_.append(s.data() + from, s.size() - from);
    out_.push_back('"');
    return true;
  }

  bool dict(PyObject* o, int depth) {
    if (depth > max_depth_) return false;  // deep, or a cycle: to_node says which
    out_.push_back('{');
    Py_ssize_t pos = 0;
    PyObject *k = nullptr, *v = nullptr;
    bool first = true;
    while (PyDict_Next(o, &pos, &k, &v)) {
      if (!PyUnicode_Check(k)) return false;
      if (!first) out_.push_back(',');
      first = false;
      if (!string(k)) return false;
      out_.push_back(':');
      if (!value(v, depth)) return false;
    }
    out_.push_back('}');
    return true;
  }

  bool list(PyObject* o, int depth) {
    if (depth > max_depth_) return false;
    const bool is_list = PyList_Check(o);
    const Py_ssize_t size = is_list ? PyList_GET_SIZE(o) : PyTuple_GET_SIZE(o);
    out_.push_back('[');
    for (Py_ssize_t i = 0; i < size; ++i) {
      if (i > 0) out_.push_back(',');
      if (!value(is_list ? PyList_GET_ITEM(o, i) : PyTuple_GET_ITEM(o, i), depth)) return false;
    }
    out_.push_back(']');
    return true;
  }
};

}  // namespace

bool to_plain_json(pybind11::handle value, const Limits& limits, std::string& out) {
  out.clear();
  out.reserve(512);
  PlainJson writer(limits, out);
  if (writer.value(value.ptr(), 0)) return true;
  out.clear();
  return false;
}

}  // namespace sandgate::python
