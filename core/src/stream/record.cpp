// A request record: its text parsed with the document loader (as JSON, within the per-record
// limits), its marks moved to where the record sits in the stream, and its shape read: a sandbox,
// or {id, sandbox, defaults, overrides}. Anything else is one record-level diagnostic.
#include <algorithm>
#include <array>

#include "document/loaders.h"
#include "sandgate/node_tape.h"
#include "sandgate/stream.h"

namespace sandgate {
namespace {

constexpr std::array<std::string_view, 4> k_record_keys = {"id", "sandbox", "defaults", "overrides"};

Diagnostic record_problem(Code code, std::string path, Mark mark, const std::string& file, std::string message,
                          std::string hint) {
  Diagnostic d;
  d.code = code;
  d.severity = Severity::error;
  d.path = std::move(path);
  if (mark.known()) d.source = SourceLocation{file, mark.line, mark.column};
  d.input = std::string(k_requests_input);
  d.message = std::move(message);
  d.hint = std::move(hint);
  return d;
}

Document layer(Node root, std::string input, const std::string& file, Diagnostics diagnostics) {
  Document d;
  d.file = file;
  d.input = std::move(input);
  d.format = Format::json;
  d.root = std::move(root);
  d.loaded = true;
  for (auto& diag : diagnostics) diag.input = d.input;
  d.diagnostics = std::move(diagnostics);
  return d;
}

// Whether `path` is `prefix` or lies under it; strips the prefix when it does.
bool take_prefix(std::string& path, std::string_view prefix) {
  if (path.size() < prefix.size() || path.compare(0, prefix.size(), prefix) != 0) return false;
  if (path.size() > prefix.size() && path[prefix.size()] != '/') return false;
  path.erase(0, prefix.size());
  return true;
}

}  // namespace

RequestRecord record_from_node(Node root, std::size_t index, int line, const std::string& stream_name,
                               Diagnostics diagnostics) {
  place_in_walk_order(root);  // a record from a binding's list; one read from text is placed already
  RequestRecord r;
  r.index = index;
  r.line = line;
  auto fail = [&](Code code, std::string path, Mark mark, std::string message, std::string hint) {
    r.problem = record_problem(code, std::move(path), mark.known() ? mark : Mark{line, 1}, stream_name,
                               std::move(message), std::move(hint));
    return std::move(r);
  };
  if (!root.is_object()) {
    return fail(Code::NOT_AN_OBJECT, "", root.mark,
                "a request record must be an object (a sandbox, or {\"id\", \"sandbox\", \"defaults\", \"overrides\"}), not " +
                    std::string(root.kind_name()),
                "write one JSON object per line");
  }
  if (!root.find("sandbox")) {  // the record is the sandbox itself
    r.sandbox = layer(std::move(root), "sandbox", stream_name, std::move(diagnostics));
    return r;
  }
  for (const auto& m : root.members) {
    if (std::find(k_record_keys.begin(), k_record_keys.end(), m.key) == k_record_keys.end()) {
      return fail(Code::UNKNOWN_KEY, pointer_join("", m.key), m.key_mark,
                  "unknown key \"" + m.key + "\" in a request record that holds a sandbox",
                  "a record is a sandbox, or {\"id\", \"sandbox\", \"defaults\", \"overrides\"}: move \"" + m.key +
                      "\" into \"sandbox\"");
    }
  }
  if (Node* id = root.find("id"); id && !id->is_null()) {
    if (!id->is_string()) {
      return fail(Code::TYPE_MISMATCH, "/id", id->mark, "the record id must be a string, not " + id->display(),
                  "quote it: \"id\": \"" + id->display() + "\"");
    }
    r.id = id->text;
  }
  // Load diagnostics go with the layer they are about; one about the record itself makes it unreadable.
  Diagnostics per_layer[3];
  constexpr std::array<std::string_view, 3> k_layers = {"/sandbox", "/defaults", "/overrides"};
  for (auto& d : diagnostics) {
    bool placed = false;
    for (std::size_t i = 0; i < k_layers.size() && !placed; ++i) {
      if (take_prefix(d.path, k_layers[i])) {
        per_layer[i].push_back(std::move(d));
        placed = true;
      }
    }
    if (!placed && d.severity == Severity::error) {
      d.input = std::string(k_requests_input);
      r.problem = std::move(d);
      return r;
    }
  }
  Node* sandbox = root.find("sandbox");
  if (!sandbox->is_object()) {
    return fail(Code::NOT_AN_OBJECT, "/sandbox", sandbox->mark,
                "\"sandbox\" must be an object of Sandbox.run() keyword arguments, not " + std::string(sandbox->kind_name()),
                "");
  }
  std::optional<Document>* slots[2] = {&r.defaults, &r.overrides};
  for (std::size_t i = 0; i < 2; ++i) {
    std::string key = std::string(k_layers[i + 1]).substr(1);
    Node* v = root.find(key);
    if (!v || v->is_null()) continue;
    if (!v->is_object()) {
      return fail(Code::NOT_AN_OBJECT, std::string(k_layers[i + 1]), v->mark,
                  "\"" + key + "\" must be an object, not " + std::string(v->kind_name()), "");
    }
    *slots[i] = layer(std::move(*v), key, stream_name, std::move(per_layer[i + 1]));
  }
  r.sandbox = layer(std::move(*sandbox), "sandbox", stream_name, std::move(per_layer[0]));
  return r;
}

RequestRecord prepare_record(PendingRecord pending, const std::string& stream_name, const Limits& limits) {
  if (pending.problem) {
    RequestRecord r;
    r.index = pending.index;
    r.line = pending.line;
    r.problem = std::move(pending.problem);
    return r;
  }
  if (pending.tree) {
    return record_from_node(std::move(*pending.tree), pending.index, pending.line, stream_name,
                            std::move(pending.tree_diagnostics));
  }
  if (!pending.tape.empty()) return record_from_node(node_from_tape(pending.tape), pending.index, pending.line, stream_name);
  // Read alone, placed where it stands in the stream.
  Document doc = detail::load_text(pending.text, Format::json, stream_name, std::string(k_requests_input), limits,
                                   pending.list_item ? detail::TextRole::json_record : detail::TextRole::json_line,
                                   Mark{pending.line, pending.column});
  if (!doc.loaded) {
    RequestRecord r;
    r.index = pending.index;
    r.line = pending.line;
    auto first = std::find_if(doc.diagnostics.begin(), doc.diagnostics.end(),
                              [](const Diagnostic& d) { return d.severity == Severity::error; });
    if (first != doc.diagnostics.end()) {
      r.problem = std::move(*first);
    } else {
      r.problem = record_problem(Code::SYNTAX, "", Mark{pending.line, pending.column}, stream_name,
                                 "the record could not be read as JSON", "");
    }
    return r;
  }
  return record_from_node(std::move(doc.root), pending.index, pending.line, stream_name, std::move(doc.diagnostics));
}

}  // namespace sandgate
