// JSON pieces shared by the batch check's JSON Lines and the policy diff's JSON: an error as a
// record lists it, and a Node value. RapidJSON writers; templates serve Writer and PrettyWriter.
#pragma once

#include <string>
#include <string_view>

#include "sandgate/diagnostic.h"
#include "sandgate/render.h"
#include "util/json_writers.h"

namespace sandgate::stream {

template <typename W>
void put_node(W& w, const Node& n) {
  std::string json = node_to_json(n);
  w.RawValue(json.data(), json.size(), rapidjson::kObjectType);
}

// {rule, code, input, path, source, message, hint, python_exception, js_exception}: SPEC §10.2's
// fields, plus which input and where, so a record's error can be found without the full result,
// and what would be accepted (SPEC §3's hint), so it can be fixed from the stream's answer alone.
template <typename W>
void put_error(W& w, const Diagnostic& d) {
  const CodeInfo& info = d.info();
  w.StartObject();
  w.Key("rule");
  write_string(w, info.rule);
  w.Key("code");
  write_string(w, info.name);
  w.Key("input");
  write_string_or_null(w, d.input);
  w.Key("path");
  write_string(w, d.path);
  w.Key("source");
  if (d.source) {
    w.StartObject();
    w.Key("file");
    write_string(w, d.source->file);
    w.Key("line");
    w.Int(d.source->line);
    w.Key("column");
    w.Int(d.source->column);
    w.EndObject();
  } else {
    w.Null();
  }
  w.Key("message");
  write_string(w, d.message);
  w.Key("hint");
  write_string_or_null(w, d.hint);
  w.Key("python_exception");
  write_string_or_null(w, info.python_exception);
  w.Key("js_exception");
  write_string_or_null(w, info.js_exception);
  w.EndObject();
}

}  // namespace sandgate::stream
