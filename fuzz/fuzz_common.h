// Shared helpers of the libFuzzer targets: the properties every target checks, written once.
// A violated property prints what was expected and what was seen, then aborts, so libFuzzer
// reports it like a crash and saves the input.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include "sandgate/sandgate.h"
#include "util/rapidjson.h"

namespace fuzz {

using namespace sandgate;

[[noreturn]] inline void fail(const char* property, const std::string& detail) {
  std::fprintf(stderr, "\n==sandgate-fuzz== PROPERTY VIOLATED: %s\n%s\n", property, detail.c_str());
  std::fflush(stderr);
  std::abort();
}

inline std::string describe(const Diagnostics& ds) {
  std::string out;
  for (const auto& d : ds) out += "  " + diagnostic_to_json(d) + "\n";
  return out.empty() ? "  (none)\n" : out;
}

// Everything a diagnostic says (code, severity, input, path, line, column, message, hint).
inline void expect_identical(const char* property, const Diagnostics& a, const Diagnostics& b) {
  bool same = a.size() == b.size();
  for (std::size_t i = 0; same && i < a.size(); ++i) same = diagnostic_to_json(a[i]) == diagnostic_to_json(b[i]);
  if (!same) fail(property, "first:\n" + describe(a) + "second:\n" + describe(b));
}

// (input, code, path) — what must not depend on the text form (lines and messages may).
using Signature = std::tuple<std::string, std::string, std::string>;

template <typename Keep>
std::vector<Signature> signatures(const Diagnostics& ds, Keep keep) {
  std::vector<Signature> out;
  for (const auto& d : ds) {
    if (keep(d)) out.emplace_back(d.input, std::string(d.name()), d.path);
  }
  std::sort(out.begin(), out.end());
  return out;
}

inline std::string describe(const std::vector<Signature>& sigs) {
  std::string out;
  for (const auto& [input, code, path] : sigs) out += "  " + input + " " + code + " \"" + path + "\"\n";
  return out.empty() ? "  (none)\n" : out;
}

// The engine turns an exception thrown by a rule into a diagnostic instead of crashing the host;
// under the fuzzer that is still a bug.
inline void expect_no_internal_error(const Diagnostics& ds) {
  for (const auto& d : ds) {
    if (d.message.rfind("internal error", 0) == 0) fail("no internal error", describe(ds));
  }
}

// Every diagnostic's path is a JSON Pointer that resolves in the input it names. `roots` maps an
// input name to its loaded tree, or to nullptr when that text could not be read into a tree (then
// only "" — the input as a whole — is a valid path).
inline void expect_paths_resolve(const Diagnostics& ds, const std::map<std::string, const Node*>& roots) {
  for (const auto& d : ds) {
    auto it = roots.find(d.input);
    if (it == roots.end()) {
      fail("diagnostic names a known input", "input \"" + d.input + "\" in\n" + describe(ds));
    }
    if (it->second == nullptr) {
      // Narrowed: with no tree there is nothing to resolve in. A loading limit still names where
      // in the text it was hit (SG_DOC_TOO_DEEP at /base/0/0/…), which must be a well-formed
      // pointer, with a source position.
      std::vector<std::string> tokens;
      if (!pointer_split(d.path, tokens)) fail("the path of an unreadable input is a JSON Pointer", diagnostic_to_json(d));
      if (!d.source || d.source->line < 1) fail("a diagnostic about unreadable text has a position", diagnostic_to_json(d));
      continue;
    }
    if (pointer_resolve(*it->second, d.path) == nullptr) {
      fail("every diagnostic path resolves in its input",
           diagnostic_to_json(d) + "\ntree: " + node_to_json(*it->second));
    }
    // The other side of a problem (SPEC §3 `related`) is a place in a known input too.
    for (const auto& r : d.related) {
      auto rt = roots.find(r.input);
      if (rt == roots.end()) fail("a related location names a known input", diagnostic_to_json(d));
      if (rt->second && pointer_resolve(*rt->second, r.path) == nullptr) {
        fail("every related path resolves in its input", diagnostic_to_json(d) + "\ntree: " + node_to_json(*rt->second));
      }
    }
  }
}

// Whether this input also gets the costly checks that re-read every rendering as JSON: one input
// in eight, chosen by a hash of its bytes, so a finding reproduces from the same input. (Reading
// the renderings back costs more than the check itself; the renderers themselves run always.)
inline bool sampled(std::string_view input) {
  std::uint32_t h = 2166136261u;  // FNV-1a
  for (unsigned char c : input) h = (h ^ c) * 16777619u;
  return (h & 7u) == 0;
}

// A renderer's output is one well-formed JSON value in valid UTF-8. RapidJSON's SAX reader checks
// exactly that without building a tree: reading it back through load_document (line index, marks,
// nodes) cost more than the check it was guarding, on the one input in eight that gets it.
inline void expect_json(const std::string& rendered) {
  const std::string* out = &rendered;
  std::string narrowed;  // a copy, only when a number is too big for RapidJSON
  for (;;) {
    rapidjson::Reader reader;
    rapidjson::BaseReaderHandler<> ignore;
    rapidjson::StringStream in(out->c_str());
    rapidjson::ParseResult ok = reader.Parse<rapidjson::kParseValidateEncodingFlag | rapidjson::kParseIterativeFlag>(in, ignore);
    if (!ok && ok.Code() == rapidjson::kParseErrorNumberTooBig) {
      // JSON bounds no number, RapidJSON's double does: an integer written exactly past ~1e308
      // (fuzz_sandbox/json-integer-past-double-range.yaml) is JSON. Only integers get that big
      // (a double cannot), so the token must be -?[0-9]+; it is read on as 0.
      std::size_t b = ok.Offset(), e = b + (b < out->size() && (*out)[b] == '-');
      std::size_t digits = e;
      while (e < out->size() && (*out)[e] >= '0' && (*out)[e] <= '9') ++e;
      if (e > digits) {
        if (out != &narrowed) narrowed = rendered;
        narrowed.replace(b, e - b, "0");
        out = &narrowed;
        continue;
      }
    }
    if (!ok || out->find('\0') != std::string::npos) {
      fail("renderer output is JSON", std::string(rapidjson::GetParseError_En(ok.Code())) + " at offset " +
                                          std::to_string(ok.Offset()) + "\n" + rendered);
    }
    return;
  }
}

// Object members compared as sets (JSON objects are unordered); arrays in order.
inline bool same_value(const Node& a, const Node& b) {
  if (a.kind != b.kind) return a == b;  // Node== treats 2 and 2.0 alike
  if (a.is_array()) {
    if (a.items.size() != b.items.size()) return false;
    for (std::size_t i = 0; i < a.items.size(); ++i) {
      if (!same_value(a.items[i], b.items[i])) return false;
    }
    return true;
  }
  if (a.is_object()) {
    if (a.members.size() != b.members.size()) return false;
    for (const auto& m : a.members) {
      const Node* other = b.find(m.key);
      if (!other || !same_value(m.value, *other)) return false;
    }
    return true;
  }
  return a == b;
}

}  // namespace fuzz
