// SARIF 2.1.0 output, so GitHub code scanning (and other SARIF viewers) can show the results.
// One run; one reportingDescriptor per code used; columns are Unicode code points.
#include <map>

#include "render/json_writer.h"

namespace sandgate {

namespace {

// Whether a source's name is a file a URI can point at: not standard input ("-", shown as
// "<stdin>") nor a label for text a binding was given ("<sandbox>", "<records>"); `<` and `>` may
// not appear in a URI (RFC 3986), which SARIF's artifactLocation.uri must be.
bool names_a_file(const std::string& name) {
  if (name.empty() || name == "-") return false;
  return !(name.front() == '<' && name.back() == '>');
}

std::string_view level(Severity s) {
  switch (s) {
    case Severity::error: return "error";
    case Severity::warning: return "warning";
    case Severity::info: return "note";
  }
  return "error";
}

// SARIF wants a URI reference; file names are relative paths in practice.
std::string to_uri(std::string_view file) {
  std::string out;
  for (char c : file) {
    unsigned char u = static_cast<unsigned char>(c);
    if (c == ' ' || c == '%' || c == '#' || c == '?' || u < 0x20) {
      char buf[4];
      std::snprintf(buf, sizeof buf, "%%%02X", u);
      out += buf;
    } else {
      out += c;
    }
  }
  return out;
}

// The members of a SARIF location: a physicalLocation when `file` names one (with a region when
// the line is known) and always the logicalLocation `input:path`. A result's location and its
// relatedLocations share them; the caller adds the id or message around them.
template <typename W>
void write_location_members(W& w, const std::string& file, const std::optional<SourceLocation>& source,
                            const std::string& input, const std::string& path) {
  using sandgate::write_string;
  if (names_a_file(file)) {
    w.Key("physicalLocation");
    w.StartObject();
    w.Key("artifactLocation");
    w.StartObject();
    w.Key("uri");
    write_string(w, to_uri(file));
    w.EndObject();
    if (source && source->line > 0) {
      w.Key("region");
      w.StartObject();
      w.Key("startLine");
      w.Int(source->line);
      w.Key("startColumn");
      w.Int(source->column);
      w.EndObject();
    }
    w.EndObject();
  }
  w.Key("logicalLocations");
  w.StartArray();
  w.StartObject();
  w.Key("fullyQualifiedName");
  write_string(w, (input.empty() ? std::string() : input + ":") + (path.empty() ? "/" : path));
  w.Key("kind");
  w.String("member");
  w.EndObject();
  w.EndArray();
}

}  // namespace

std::string render_sarif(const std::vector<Report>& reports) {
  // Rules: every code that occurs, in table order, so ruleIndex is stable within the log.
  std::map<Code, int> rule_index;
  for (const auto& rep : reports) {
    for (const auto& d : rep.result.diagnostics()) rule_index.emplace(d.code, 0);
  }
  int next = 0;
  for (auto& [code, idx] : rule_index) idx = next++;

  return render::write_json(true, [&](auto& w) {
           using sandgate::write_string;
           w.StartObject();
           w.Key("$schema");
           w.String("https://json.schemastore.org/sarif-2.1.0.json");
           w.Key("version");
           w.String("2.1.0");
           w.Key("runs");
           w.StartArray();
           w.StartObject();
           w.Key("tool");
           w.StartObject();
           w.Key("driver");
           w.StartObject();
           w.Key("name");
           w.String("sandgate");
           w.Key("version");
           w.String(SANDGATE_VERSION);
           w.Key("semanticVersion");
           w.String(SANDGATE_VERSION);
           w.Key("informationUri");
           w.String("https://github.com/sandgate/sandgate");
           w.Key("rules");
           w.StartArray();
           for (const auto& [code, idx] : rule_index) {
             const CodeInfo& c = code_info(code);
             w.StartObject();
             w.Key("id");
             write_string(w, c.name);
             w.Key("name");
             write_string(w, c.rule);
             w.Key("shortDescription");
             w.StartObject();
             w.Key("text");
             write_string(w, c.summary);
             w.EndObject();
             w.Key("helpUri");
             write_string(w, "https://github.com/sandgate/sandgate/blob/main/docs/codes.md#" + std::string(c.name));
             w.Key("defaultConfiguration");
             w.StartObject();
             w.Key("level");
             write_string(w, level(c.severity));
             w.EndObject();
             w.Key("properties");
             w.StartObject();
             w.Key("rule");
             write_string(w, c.rule);
             w.Key("side");
             write_string(w, to_string(c.side));
             w.EndObject();
             w.EndObject();
           }
           w.EndArray();
           w.EndObject();  // driver
           w.EndObject();  // tool
           w.Key("columnKind");
           w.String("unicodeCodePoints");
           w.Key("results");
           w.StartArray();
           for (const auto& rep : reports) {
             for (const auto& d : rep.result.diagnostics()) {
               const CodeInfo& c = d.info();
               w.StartObject();
               w.Key("ruleId");
               write_string(w, c.name);
               w.Key("ruleIndex");
               w.Int(rule_index[d.code]);
               w.Key("level");
               write_string(w, level(d.severity));
               w.Key("message");
               w.StartObject();
               w.Key("text");
               write_string(w, d.hint.empty() ? d.message : d.message + ". " + d.hint);
               w.EndObject();
               w.Key("locations");
               w.StartArray();
               w.StartObject();
               write_location_members(w, d.source ? d.source->file : rep.file, d.source, d.input, d.path);
               w.EndObject();
               w.EndArray();  // locations
               if (!d.related.empty()) {
                 // SPEC §3 `related`: the policy field, denied prefix or first occurrence.
                 w.Key("relatedLocations");
                 w.StartArray();
                 int id = 0;
                 for (const auto& r : d.related) {
                   w.StartObject();
                   w.Key("id");
                   w.Int(id++);
                   write_location_members(w, r.source ? r.source->file : std::string(), r.source, r.input, r.path);
                   w.Key("message");
                   w.StartObject();
                   w.Key("text");
                   write_string(w, r.message);
                   w.EndObject();
                   w.EndObject();
                 }
                 w.EndArray();
               }
               w.Key("properties");
               w.StartObject();
               w.Key("rule");
               write_string(w, c.rule);
               w.Key("path");
               write_string(w, d.path);
               if (!c.reason.empty()) {
                 w.Key("reason");
                 write_string(w, c.reason);
               }
               if (!c.grpc_code.empty()) {
                 w.Key("grpcCode");
                 write_string(w, c.grpc_code);
               }
               w.EndObject();
               w.EndObject();
             }
           }
           w.EndArray();  // results
           w.EndObject();  // run
           w.EndArray();   // runs
           w.EndObject();
         }) +
         "\n";
}

}  // namespace sandgate
