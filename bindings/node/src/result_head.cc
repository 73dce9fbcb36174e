// The head of a result as JSON text (result_head.h). The members are written here, in
// core/include/sandgate/result_shape.def's order, as core/src/render/json_writer.h writes them
// (node_to_js.cc's result_to_js mirrors the same writer): test/lazy-result.test.mjs compares a
// result filled from a head with the object the addon builds, over every conformance case.
#include "result_head.h"

#include <cstdio>

#include "sandgate/render.h"

namespace sandgate_node {
namespace {

constexpr std::int64_t k_max_safe = 9007199254740991;  // Number.MAX_SAFE_INTEGER

// JSON strings: the two characters JSON forbids raw and the control characters escaped, every
// other byte as it is (JSON.parse reads any valid spelling of a string the same).
void string(std::string& out, std::string_view s) {
  out += '"';
  for (char c : s) {
    auto u = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (u < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", u);
      out += buf;
    } else {
      out += c;
    }
  }
  out += '"';
}

void key(std::string& out, std::string_view k) {
  out += ',';
  string(out, k);
  out += ':';
}

bool integer(std::string& out, std::int64_t v) {
  if (v < -k_max_safe || v > k_max_safe) return false;
  out += std::to_string(v);
  return true;
}

void strings(std::string& out, const std::vector<std::string>& list) {
  out += '[';
  for (std::size_t i = 0; i < list.size(); ++i) {
    if (i) out += ',';
    string(out, list[i]);
  }
  out += ']';
}

bool checked_fields(const sandgate::Result& r, std::string& out) {
  key(out, "placement_mode");
  string(out, r.placement_mode());
  key(out, "qos_class");
  string(out, r.qos_class());
  key(out, "runner");
  if (r.runner_id().empty()) {
    out += "null";
  } else {
    out += "{\"id\":";
    string(out, r.runner_id());
    out += ",\"other_candidates\":";
    strings(out, r.other_candidates());
    out += '}';
  }
  out += ",\"resolved\":0,\"provenance\":0";  // deferred (result_head.h)
  key(out, "gpu");
  if (auto g = r.gpu()) {
    out += "{\"count\":";
    if (!integer(out, g->count)) return false;
    if (!g->type.empty()) {
      out += ",\"type\":";
      string(out, g->type);
    }
    if (g->memory_gb > 0) {
      out += ",\"memory_gb\":";
      if (!integer(out, g->memory_gb)) return false;
    }
    out += ",\"eligible_types\":";
    strings(out, g->eligible_types);
    out += '}';
  } else {
    out += "null";
  }
  key(out, "runtime_class");
  if (auto rc = r.runtime_class()) {
    out += "{\"value\":";
    string(out, rc->value);
    out += ",\"from\":";
    string(out, rc->from);
    out += '}';
  } else {
    out += "null";
  }
  key(out, "slurm");
  if (auto s = r.slurm()) {
    out += "{\"scheduler\":";
    string(out, s->scheduler);
    out += ",\"CPUsPerTask\":";
    if (!integer(out, s->cpus_per_task)) return false;
    out += ",\"MinMemoryNode\":";
    if (!integer(out, s->min_memory_node)) return false;
    for (const auto& [k, v] : s->job_parameters) {
      key(out, k);
      string(out, v);
    }
    out += '}';
  } else {
    out += "null";
  }
  return true;
}

}  // namespace

bool result_head_json(const sandgate::Result& r, std::string& out) {
  out.clear();
  out.reserve(1024);
  out += r.ok() ? "{\"ok\":true" : "{\"ok\":false";
  if (r.checked() && !checked_fields(r, out)) return false;
  out += ",\"diagnostics\":[";
  bool first = true;
  for (const auto& d : r.diagnostics()) {
    if (!first) out += ',';
    first = false;
    out += sandgate::diagnostic_to_json(d);
  }
  out += "]}";
  return true;
}

}  // namespace sandgate_node
