// JSON output: SPEC §7 objects, one per checked input.
#include "render/json_writer.h"

namespace sandgate {

using render::write_json;

std::string node_to_json(const Node& node, bool pretty) {
  return write_json(pretty, [&](auto& w) { render::write_node(w, node); });
}

std::string diagnostic_to_json(const Diagnostic& d) {
  return write_json(false, [&](auto& w) { render::write_diagnostic(w, d); });
}

std::string result_to_json(const Result& r, bool pretty) {
  return write_json(pretty, [&](auto& w) {
    w.StartObject();
    render::write_result_members(w, r);
    w.EndObject();
  });
}

std::string result_head_to_json(const Result& r) {
  return write_json(false, [&](auto& w) {
    w.StartObject();
    render::write_result_members(w, r, true);
    w.EndObject();
  });
}

std::string render_json(const std::vector<Report>& reports) {
  bool ok = true;
  for (const auto& r : reports) ok = ok && r.result.ok();
  return write_json(true, [&](auto& w) {
           w.StartObject();
           w.Key("tool");
           w.String("sandgate");
           w.Key("version");
           w.String(SANDGATE_VERSION);
           w.Key("ok");
           w.Bool(ok);
           w.Key("results");
           w.StartArray();
           for (const auto& rep : reports) {
             w.StartObject();
             w.Key("file");
             write_string(w, rep.file);
             w.Key("command");
             write_string(w, rep.command);
             render::write_result_members(w, rep.result);
             w.EndObject();
           }
           w.EndArray();
           w.EndObject();
         }) +
         "\n";
}

std::string codes_to_json() {
  return write_json(true, [&](auto& w) {
           w.StartArray();
           for (const auto& c : all_codes()) render::write_code_info(w, c);
           w.EndArray();
         }) +
         "\n";
}

}  // namespace sandgate
