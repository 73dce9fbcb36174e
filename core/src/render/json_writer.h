// Writing sandgate's values with RapidJSON's writers (shared by the JSON and SARIF renderers).
// Templates, so the same code serves the compact Writer and the PrettyWriter.
#pragma once

#include <cmath>
#include <string>
#include <string_view>

#include "sandgate/quantity.h"
#include "sandgate/render.h"
#include "util/rapidjson.h"

namespace sandgate::render {

// The exact decimal of an integer literal too large for int64, as JSON must write it: the literal
// may be YAML 1.1 (0x…, 0b…, 0… octal, a:b:c sexagesimal, underscores, a sign), which is not JSON
// (fuzz_policy_yaml: `maxGpuCount: 0x8000000000000000` rendered as invalid JSON). "" when `text`
// is not such a literal.
inline std::string integer_literal_decimal(std::string_view text) {
  bool negative = false;
  if (!text.empty() && (text[0] == '+' || text[0] == '-')) {
    negative = text[0] == '-';
    text.remove_prefix(1);
  }
  std::uint32_t base = 10;
  if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'b')) {
    base = text[1] == 'x' ? 16 : 2;
    text.remove_prefix(2);
  } else if (text.size() > 1 && text[0] == '0' && text.find(':') == std::string_view::npos) {
    base = 8;
    text.remove_prefix(1);
  }
  BigUnsigned v;
  bool any = false;
  std::uint32_t group = 0;  // the current base-60 group after the first ':'
  bool sexagesimal = false;
  for (char c : text) {
    if (c == '_') continue;
    if (c == ':' && base == 10) {
      if (sexagesimal) v.add(BigUnsigned(group));
      v.multiply(60);
      sexagesimal = true;
      group = 0;
      continue;
    }
    std::uint32_t d = c >= '0' && c <= '9' ? static_cast<std::uint32_t>(c - '0')
                      : (c | 0x20) >= 'a' && (c | 0x20) <= 'f' ? static_cast<std::uint32_t>((c | 0x20) - 'a' + 10)
                                                               : 99;
    if (d >= base || (sexagesimal && group > 5)) return {};
    if (sexagesimal) {
      group = group * 10 + d;
    } else {
      v.multiply(base);
      v.add(BigUnsigned(d));
    }
    any = true;
  }
  if (sexagesimal) v.add(BigUnsigned(group));
  if (!any) return {};
  std::string out = v.to_string();
  return negative && out != "0" ? "-" + out : out;
}

template <typename W>
void write_string(W& w, std::string_view s) {
  w.String(s.data(), static_cast<rapidjson::SizeType>(s.size()));
}

template <typename W>
void write_string_or_null(W& w, std::string_view s) {
  if (s.empty()) {
    w.Null();
  } else {
    write_string(w, s);
  }
}

template <typename W>
void write_node(W& w, const Node& n) {
  switch (n.kind) {
    case NodeKind::null: w.Null(); break;
    case NodeKind::boolean: w.Bool(n.boolean); break;
    case NodeKind::integer:
      if (n.int_overflow) {
        std::string exact = integer_literal_decimal(n.text);
        if (exact.empty()) {
          w.Int64(n.integer);  // clamped, but still JSON
        } else {
          w.RawValue(exact.data(), exact.size(), rapidjson::kNumberType);
        }
      } else {
        w.Int64(n.integer);
      }
      break;
    case NodeKind::number:
      if (std::isfinite(n.number)) {
        w.Double(n.number);
      } else {
        w.Null();  // JSON has no NaN or Infinity
      }
      break;
    case NodeKind::string: write_string(w, n.text); break;
    case NodeKind::array:
      w.StartArray();
      for (const auto& item : n.items) write_node(w, item);
      w.EndArray();
      break;
    case NodeKind::object:
      w.StartObject();
      for (const auto& m : n.members) {
        write_string(w, m.key);
        write_node(w, m.value);
      }
      w.EndObject();
      break;
  }
}

template <typename W>
void write_source(W& w, const std::optional<SourceLocation>& source) {
  if (!source) {
    w.Null();
    return;
  }
  w.StartObject();
  w.Key("file");
  write_string(w, source->file);
  w.Key("line");
  w.Int(source->line);
  w.Key("column");
  w.Int(source->column);
  w.EndObject();
}

template <typename W>
void write_diagnostic(W& w, const Diagnostic& d) {
  const CodeInfo& info = d.info();
  w.StartObject();
  w.Key("rule");
  write_string(w, info.rule);
  w.Key("code");
  write_string(w, info.name);
  w.Key("severity");
  write_string(w, to_string(d.severity));
  w.Key("reason");
  write_string_or_null(w, info.reason);
  w.Key("grpc_code");
  write_string_or_null(w, info.grpc_code);
  w.Key("python_exception");
  write_string_or_null(w, info.python_exception);
  w.Key("js_exception");
  write_string_or_null(w, info.js_exception);
  w.Key("input");
  write_string_or_null(w, d.input);
  w.Key("path");
  write_string(w, d.path);
  w.Key("source");
  write_source(w, d.source);
  w.Key("message");
  write_string(w, d.message);
  w.Key("hint");
  write_string_or_null(w, d.hint);
  w.Key("related");
  w.StartArray();
  for (const auto& r : d.related) {
    w.StartObject();
    w.Key("input");
    write_string(w, r.input);
    w.Key("path");
    write_string(w, r.path);
    w.Key("source");
    write_source(w, r.source);
    w.Key("message");
    write_string(w, r.message);
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
}

// The members of the SPEC §7 object, without the surrounding braces (so callers can add theirs).
template <typename W>
void write_result_members(W& w, const Result& r) {
  w.Key("ok");
  w.Bool(r.ok());
  if (r.checked()) {
    w.Key("placement_mode");
    write_string(w, r.placement_mode());
    w.Key("qos_class");
    write_string(w, r.qos_class());
    w.Key("runner");
    if (r.runner_id().empty()) {
      w.Null();
    } else {
      w.StartObject();
      w.Key("id");
      write_string(w, r.runner_id());
      w.Key("other_candidates");
      w.StartArray();
      for (const auto& c : r.other_candidates()) write_string(w, c);
      w.EndArray();
      w.EndObject();
    }
    w.Key("resolved");
    write_node(w, r.resolved());
    w.Key("provenance");
    w.StartObject();
    for (const auto& [path, from] : r.provenance()) {
      write_string(w, path);
      write_string(w, from);
    }
    w.EndObject();
    w.Key("gpu");
    if (auto gpu = r.gpu()) {
      w.StartObject();
      w.Key("count");
      w.Int64(gpu->count);
      if (!gpu->type.empty()) {
        w.Key("type");
        write_string(w, gpu->type);
      }
      if (gpu->memory_gb > 0) {
        w.Key("memory_gb");
        w.Int64(gpu->memory_gb);
      }
      w.Key("eligible_types");
      w.StartArray();
      for (const auto& t : gpu->eligible_types) write_string(w, t);
      w.EndArray();
      w.EndObject();
    } else {
      w.Null();
    }
    w.Key("runtime_class");
    if (auto rc = r.runtime_class()) {
      w.StartObject();
      w.Key("value");
      write_string(w, rc->value);
      w.Key("from");
      write_string(w, rc->from);
      w.EndObject();
    } else {
      w.Null();
    }
    w.Key("slurm");
    if (auto slurm = r.slurm()) {
      w.StartObject();
      w.Key("scheduler");
      write_string(w, slurm->scheduler);
      w.Key("CPUsPerTask");
      w.Int64(slurm->cpus_per_task);
      w.Key("MinMemoryNode");
      w.Int64(slurm->min_memory_node);
      for (const auto& [k, v] : slurm->job_parameters) {
        write_string(w, k);
        write_string(w, v);
      }
      w.EndObject();
    } else {
      w.Null();
    }
  }
  w.Key("diagnostics");
  w.StartArray();
  for (const auto& d : r.diagnostics()) write_diagnostic(w, d);
  w.EndArray();
}

template <typename W>
void write_code_info(W& w, const CodeInfo& c) {
  w.StartObject();
  w.Key("code");
  write_string(w, c.name);
  w.Key("rule");
  write_string(w, c.rule);
  w.Key("severity");
  write_string(w, to_string(c.severity));
  w.Key("reason");
  write_string_or_null(w, c.reason);
  w.Key("grpc_code");
  write_string_or_null(w, c.grpc_code);
  w.Key("python_exception");
  write_string_or_null(w, c.python_exception);
  w.Key("js_exception");
  write_string_or_null(w, c.js_exception);
  w.Key("side");
  write_string(w, to_string(c.side));
  w.Key("summary");
  write_string(w, c.summary);
  w.EndObject();
}

// Runs `fn` with a writer and returns the text it wrote.
template <typename Fn>
std::string write_json(bool pretty, Fn fn) {
  rapidjson::StringBuffer buf;
  if (pretty) {
    rapidjson::PrettyWriter<rapidjson::StringBuffer> w(buf);
    w.SetIndent(' ', 2);
    fn(w);
  } else {
    rapidjson::Writer<rapidjson::StringBuffer> w(buf);
    fn(w);
  }
  return std::string(buf.GetString(), buf.GetSize());
}

}  // namespace sandgate::render
