// N-LAYER (SPEC §5.1): SandboxDefaults ◀ Sandbox.run() kwargs ◀ @session.function overrides.
// Each layer goes through the spelling layer and the schema on its own; the merge then records,
// for every field (and every entry of a merged map or list), the layer and input path it came
// from, so no later step has to work a merged pointer back into an input.
#include <algorithm>
#include <unordered_map>

#include "model/replaced_defaults.h"
#include "model/request_compiler.h"
#include "model/unread_defaults.h"
#include "schema/shape.h"
#include "schema/validate.h"
#include "util/diagnostics.h"

namespace sandgate::model {
namespace {

constexpr std::string_view k_map_fields[] = {"annotations", "environment_variables"};
constexpr std::string_view k_list_fields[] = {"tags", "secrets"};
constexpr std::string_view k_single_container_fields[] = {
    "container_image", "command", "args", "resources", "mounted_files", "secrets",
    "image_pull_credentials", "environment_variables", "security_context", "working_dir"};

// The keywords both SDKs removed in 1.x that sandgate still reads for the documented older rules
// (SPEC §1.1, §6.7, R-TIME-3): an error with either client, naming the replacement.
struct RemovedKeyword {
  std::string_view key;
  std::string_view replacement;
};
constexpr RemovedKeyword k_removed_top[] = {
    {"ports", "expose ports with services=[{port: 8080, visibility: public}]"},
    {"max_timeout_seconds", "use request_timeout_seconds"},
};
constexpr RemovedKeyword k_removed_network[] = {
    {"ingress_mode", "expose ports with services (visibility public or private) and network.ingress rules"},
    {"exposed_ports", "expose ports with services=[{port: …}]"},
    {"egress_mode", "use network.egress rules, or deny_egress"},
};

// Schema fields and aliases that cwsandbox's Sandbox(...) does not take (TypeError "unexpected
// keyword argument"), that SandboxDefaults.from_dict ignores, and session.function's keywords.
// instance_type (R-INST) and timeout_seconds (R-TIME-4) are SPEC's own inputs and are read in
// every layer (docs/sdk-differences.md, spec-fields).
constexpr std::string_view k_spec_fields[] = {"instance_type", "timeout_seconds"};
constexpr std::string_view k_not_run_keywords[] = {"primary_container", "temp_dir"};
constexpr std::string_view k_not_defaults_keywords[] = {"primary_container", "mounted_files", "image_pull_credentials",
                                                        "template_id"};
constexpr std::string_view k_aliases_not_python[] = {"mode", "files"};
constexpr std::string_view k_function_keywords[] = {
    "container_image", "temp_dir", "runner_ids", "resources", "mounted_files", "network", "services", "volumes",
    "file_system_snapshot", "placement_mode", "placement_spillover", "runtime_class", "security_context",
    "working_dir", "object_storage_access", "environment_variables", "annotations", "request_timeout_seconds",
    "data_plane_mode",
    // removed in 1.x: reported as such (session.function raises TypeError for them too)
    "ports", "max_timeout_seconds"};

// What Sandbox(template_id=…) never takes from SandboxDefaults (cwsandbox 1.22: skip_spec_defaults
// and from_template): all but the tags, the client's timeouts and its transport.
constexpr std::string_view k_template_unread[] = {
    "container_image", "command",    "args",       "resources",       "network",          "file_system_snapshot",
    "max_lifetime_seconds", "environment_variables", "annotations", "runner_ids", "placement_mode",
    "placement_spillover", "services", "volumes",   "runtime_class",   "security_context", "working_dir",
    "object_storage_access", "secrets", "containers"};

constexpr Layer k_layers[] = {Layer::defaults, Layer::sandbox, Layer::function};
std::size_t index(Layer l) { return static_cast<std::size_t>(l); }

// `path` empty: a field's, which defer_origins sets once the merge is done.
Origin member_origin(const Member& m, Layer layer, std::string path = {}) {
  return {std::move(path), m.value.mark.placed() ? m.value.mark : m.key_mark, m.key_mark, layer};
}

}  // namespace

void apply_client(Diagnostic& d, Client client) {
  Side side = d.info().side;
  if (d.severity != Severity::error || !is_other_clients_rule(side, client)) return;
  d.severity = Severity::warning;
  add_other_client_note(d.hint, side);
}

Cursor RequestCompiler::root() const { return Cursor{nullptr, nullptr, "", Layer::sandbox}; }

// A merged field's cursor starts at the request's root and takes one step, onto the field's
// member, so its pointer (the key as its layer spelled it) is written only when asked for.
Cursor RequestCompiler::field(std::string_view key) const {
  const MergedField* f = m.field(key);
  if (!f) return {};
  Cursor c{&f->member.value, &f->member, "", f->origin.layer, true};
  c.steps.push_back({&f->member, 0});
  return c;
}

std::vector<Cursor> RequestCompiler::parts(std::string_view key) const {
  std::vector<Cursor> out;
  const MergedField* f = m.field(key);
  if (!f) return out;
  const Node& v = f->member.value;
  out.reserve(std::min(f->parts.size(), v.is_object() ? v.members.size() : v.items.size()));  // one allocation
  if (v.is_object()) {
    for (std::size_t i = 0; i < v.members.size() && i < f->parts.size(); ++i) {
      out.push_back(Cursor{&v.members[i].value, &v.members[i], f->parts[i].path.written(), f->parts[i].layer, true});
    }
  } else if (v.is_array()) {
    for (std::size_t i = 0; i < v.items.size() && i < f->parts.size(); ++i) {
      out.push_back(Cursor{&v.items[i], nullptr, f->parts[i].path.written(), f->parts[i].layer, true});
    }
  }
  return out;
}

Diagnostic& RequestCompiler::report_at(Code code, const Origin& at, std::string message, std::string hint) {
  DiagnosticSink sink(diags, m.files[index(at.layer)], std::string(input_name(at.layer)));
  Diagnostic& d = sink.add(code, at.path, at.mark, std::move(message), std::move(hint));
  apply_client(d, m.client);
  return d;
}

Diagnostic& RequestCompiler::report(Code code, const Cursor& at, std::string message, std::string hint) {
  return report_at(code, origin_of(at), std::move(message), std::move(hint));
}

Diagnostic& RequestCompiler::report_key(Code code, const Cursor& at, std::string message, std::string hint) {
  Origin o = origin_of(at);
  if (o.key_mark.placed()) o.mark = o.key_mark;
  return report_at(code, o, std::move(message), std::move(hint));
}

void RequestCompiler::relate(Diagnostic& d, const Origin& first, std::string message) {
  Related r;
  r.input = std::string(input_name(first.layer));
  r.path = first.path;
  if (first.mark.known()) r.source = SourceLocation{m.files[index(first.layer)], first.mark.line, first.mark.column};
  r.message = std::move(message);
  d.related.push_back(std::move(r));
}

namespace {
bool path_under(const std::string& p, const std::string& path) {
  return p == path || (p.size() > path.size() && p.compare(0, path.size(), path) == 0 && p[path.size()] == '/');
}
}  // namespace

// The same path may stand in two layers (a default the call replaces, and the call's own value).
bool RequestCompiler::error_under(Layer layer, const std::string& path) const {
  return std::any_of(diags.begin(), diags.end(), [&](const Diagnostic& d) {
    return d.severity == Severity::error && d.input == input_name(layer) && path_under(d.path, path);
  });
}

bool RequestCompiler::error_at(Layer layer, const std::string& path) const {
  return std::any_of(diags.begin(), diags.end(), [&](const Diagnostic& d) {
    return d.severity == Severity::error && d.input == input_name(layer) && d.path == path;
  });
}

bool RequestCompiler::reported_under(Layer layer, const std::string& path) const {
  return std::any_of(diags.begin(), diags.end(),
                     [&](const Diagnostic& d) { return d.input == input_name(layer) && path_under(d.path, path); });
}

namespace {

// SandboxDefaults.from_dict ignores keys it does not know, sandgate's aliases among them: they
// are not read (and so cannot collide with the field they would spell).
void drop_defaults_aliases(RequestCompiler& c, Node& root, DiagnosticSink& sink) {
  for (auto it = root.members.begin(); it != root.members.end();) {
    if (!is_one_of(it->key, k_aliases_not_python)) {
      ++it;
      continue;
    }
    Diagnostic& d = sink.add(Code::NOT_A_PYTHON_KEYWORD, pointer_join("", it->key), it->key_mark,
                             "SandboxDefaults has no field \"" + it->key + "\": from_dict ignores it",
                             "write \"" + std::string(it->key == "mode" ? "placement_mode" : "mounted_files") + "\"");
    d.severity = Severity::warning;
    apply_client(d, c.m.client);
    it = root.members.erase(it);
  }
}

void report_removed(RequestCompiler& c, DiagnosticSink& sink, const Member& m, const std::string& path,
                    const RemovedKeyword& r) {
  std::string key(m.input_key());
  Diagnostic& d = sink.add(Code::REMOVED_KEY, path, m.key_mark,
                           "\"" + key + "\" was removed in cwsandbox 1.x (the TypeScript SDK: \"" + key +
                               " is not supported in v1\")",
                           std::string(r.replacement));
  apply_client(d, c.m.client);
}

// SPEC §1.1: the removed keywords, and (client rules of the Python SDK, §1.3) the keywords that
// cwsandbox's Sandbox(...), SandboxDefaults.from_dict or session.function do not take.
void check_keywords(RequestCompiler& c, Node& root, Layer layer, DiagnosticSink& sink) {
  for (auto it = root.members.begin(); it != root.members.end();) {
    const Member& m = *it;
    // Built only for a report: most members have none, and this runs for every member of every layer.
    auto path = [&] { return pointer_join("", m.input_key()); };
    bool erase = false;
    if (layer != Layer::defaults || m.key != "max_timeout_seconds") {  // defaults: SG_FIELD_NOT_ALLOWED_IN_DEFAULTS
      for (const auto& r : k_removed_top) {
        if (m.key == r.key) report_removed(c, sink, m, path(), r);
      }
    }
    if (m.key == "network" && m.value.is_object()) {
      for (const auto& nm : m.value.members) {
        for (const auto& r : k_removed_network) {
          if (nm.key == r.key) report_removed(c, sink, nm, pointer_join(path(), nm.input_key()), r);
        }
      }
    }
    bool alias = is_one_of(m.original_key, k_aliases_not_python);
    std::string what;
    if (layer == Layer::sandbox && (alias || is_one_of(m.key, k_not_run_keywords))) {
      what = "Sandbox.run() got an unexpected keyword argument '" + std::string(m.input_key()) + "'";
    } else if (layer == Layer::defaults && (alias || is_one_of(m.key, k_not_defaults_keywords))) {
      what = "SandboxDefaults has no field \"" + std::string(m.input_key()) + "\": from_dict ignores it";
      erase = true;  // the SDK never reads it
    } else if (layer == Layer::function && (alias || !(is_one_of(m.key, k_function_keywords) || is_one_of(m.key, k_spec_fields)))) {
      what = "session.function() got an unexpected keyword argument '" + std::string(m.input_key()) + "'";
    }
    if (!what.empty()) {
      std::string hint = alias ? "write \"" + m.key + "\" (\"" + m.original_key + "\" is sandgate's alias)"
                       : layer == Layer::function ? "set it in SandboxDefaults or per sandbox"
                                                  : "leave it out: the Python SDK does not take it";
      Diagnostic& d = sink.add(Code::NOT_A_PYTHON_KEYWORD, path(), m.key_mark, what, hint);
      if (layer == Layer::defaults) d.severity = Severity::warning;
      apply_client(d, c.m.client);
    }
    if (layer == Layer::function && m.key == "mounted_files" && m.value.is_object() && !m.value.members.empty()) {
      Diagnostic& d = sink.add(Code::TYPE_MISMATCH, path(), m.value.mark.placed() ? m.value.mark : m.key_mark,
                               "session.function() takes mounted_files as a list of {mount_path, file_content} dicts, "
                               "not a mapping (it keeps only the mapping's keys)",
                               "write [{mount_path: …, file_content: …}]");
      if (c.m.client == Client::typescript) d.severity = Severity::warning;  // a Python API's rule
    }
    it = erase ? root.members.erase(it) : it + 1;
  }
}

}  // namespace

bool prepare_layers(RequestCompiler& c) {
  bool usable = true;
  for (Layer layer : k_layers) {
    const Document* doc = c.docs[index(layer)];
    if (!doc) continue;
    c.diags.insert(c.diags.end(), doc->diagnostics.begin(), doc->diagnostics.end());
    if (!doc->loaded) {
      usable = false;
      continue;
    }
    Node& root = c.prepared[index(layer)];
    if (Document* own = c.owned[index(layer)]) {
      root = std::move(own->root);
    } else {
      root = doc->root;
    }
    DiagnosticSink sink(c.diags, doc->file, std::string(input_name(layer)));
    if (root.is_null()) root = Node::make_object();  // an empty layer (`null`) sets nothing
    if (!root.is_object()) {
      sink.add(Code::NOT_AN_OBJECT, "", root.mark,
               "the " + std::string(input_name(layer)) + " must be an object of Sandbox.run() keyword arguments, not " +
                   std::string(root.kind_name()));
      usable = false;
      continue;
    }
    if (layer == Layer::sandbox) c.m.root = Origin{"", {}, {}, Layer::sandbox};
    if (layer == Layer::defaults) c.defaults_dataclass = root.given_as == GivenAs::sandbox_defaults;
    if (layer == Layer::defaults) drop_defaults_aliases(c, root, sink);
    const auto& cs = schema::get("sandbox");
    schema::ReportedPaths reported = schema::reported_before(doc->diagnostics);
    schema::ShapeOptions opts;
    // SandboxDefaults.from_dict ignores unknown keys silently: the user believes a setting applies.
    if (layer == Layer::defaults) opts.unknown_key_severity = Severity::warning;
    opts.alias_conflict_code = Code::DUPLICATE_SPELLING;
    std::size_t first_schema_diagnostic = c.diags.size();
    schema::shape(root, cs, "", sink, reported, opts);
    schema::validate(root, cs, "", sink, reported);
    // Schema codes that only one SDK checks (gpu shorthand, removed keys, …) follow SPEC §1.3 too.
    for (std::size_t i = first_schema_diagnostic; i < c.diags.size(); ++i) apply_client(c.diags[i], c.m.client);
    check_keywords(c, root, layer, sink);
    if (layer == Layer::defaults) {
      c.defaults_schema_begin = first_schema_diagnostic;
      c.defaults_schema_end = c.diags.size();
    }
    if (layer == Layer::defaults) {
      for (auto it = root.members.begin(); it != root.members.end();) {
        if (it->key == "max_timeout_seconds") {
          sink.add(Code::FIELD_NOT_ALLOWED_IN_DEFAULTS, pointer_join("", it->input_key()), it->key_mark,
                   "max_timeout_seconds is accepted by Sandbox.run() and session.sandbox(), not by SandboxDefaults",
                   "set it per sandbox or per function");
          it = root.members.erase(it);
        } else {
          ++it;
        }
      }
    }
  }
  return usable;
}

namespace {

// A single-container map or list (secrets, environment_variables) that a later layer merged into
// the defaults' value: the key as that layer wrote it.
struct GivenLater {
  std::string key;
  std::string input_key;  // as that layer spells it
  Origin at;              // the key in that layer, its path written
};

void report_single_container_field(RequestCompiler& c, std::string_view input_key, const Origin& at) {
  c.report_at(Code::CONTAINERS_WITH_SINGLE_FIELDS, at,
              "\"" + std::string(input_key) + "\" is a single-container field, and containers= is set",
              "move it into the container it belongs to");
}

// Leaves in a merged map or list only the entries `layer` gave.
void keep_entries_of(MergedField& f, Layer layer) {
  Node& v = f.member.value;
  const bool map = v.is_object();
  const std::size_t n = std::min(map ? v.members.size() : v.items.size(), f.parts.size());
  std::size_t kept = 0;
  for (std::size_t i = 0; i < n; ++i) {
    if (f.parts[i].layer != layer) continue;
    if (kept != i) {
      if (map) {
        v.members[kept] = std::move(v.members[i]);
      } else {
        v.items[kept] = std::move(v.items[i]);
      }
      f.parts[kept] = std::move(f.parts[i]);
    }
    ++kept;
  }
  if (map) {
    v.members.erase(v.members.begin() + static_cast<std::ptrdiff_t>(kept), v.members.end());
  } else {
    v.items.erase(v.items.begin() + static_cast<std::ptrdiff_t>(kept), v.items.end());
  }
  f.parts.erase(f.parts.begin() + static_cast<std::ptrdiff_t>(kept), f.parts.end());
}

// containers= (or SandboxDefaults.containers) does not inherit the single-container fields from
// SandboxDefaults, and cannot be combined with them as explicit keywords; the SDK compares only
// the explicit keywords, so single-container fields beside containers in the defaults are
// dropped, not refused. A later layer's secrets or environment_variables merged into the
// defaults' are explicit keywords all the same (found by fuzz_check: they were dropped with the
// defaults, and the defaults were checked with the later layer's entries in them).
void drop_single_container_fields(RequestCompiler& c, const std::vector<GivenLater>& given_later) {
  std::vector<MergedField> kept;
  for (auto& f : c.m.fields) {
    if (!is_one_of(f.member.key, k_single_container_fields)) {
      kept.push_back(std::move(f));
      continue;
    }
    if (f.origin.layer == Layer::defaults) {
      auto later = std::find_if(given_later.rbegin(), given_later.rend(), [&](const GivenLater& g) { return g.key == f.member.key; });
      if (later != given_later.rend()) {
        report_single_container_field(c, later->input_key, later->at);
        keep_entries_of(f, Layer::defaults);
      }
      note_unread_default(c, f.member, ReplacedBy::containers());
      keep_replaced(c, f, ReplacedBy::containers());
    } else {
      Origin at = f.origin;
      at.path = pointer_join("", f.member.input_key());  // dropped: defer_origins never sees it
      report_single_container_field(c, f.member.input_key(), at);
    }
  }
  c.m.fields = std::move(kept);
}

// The defaults' `mem`, which this request never uses (`by` says why), leaves the merge: what the
// SDK never reads of it is noted, and what a constructor checked is kept (unread_defaults.h,
// replaced_defaults.h).
void drop_default(RequestCompiler& c, Member& mem, ReplacedBy by) {
  note_unread_default(c, mem, by);
  MergedField dropped;
  dropped.member = std::move(mem);
  dropped.origin.layer = Layer::defaults;
  keep_replaced(c, dropped, by);
}

// The merged fields are final and stay where they are for the request's life: each field's
// origin becomes a one-step walk from the request's root onto its member (input_pointer.h),
// written only for a diagnostic that names it. Written during the merge, every field made a
// string, a heap block past 15 characters ("/container_image"), and most are never read. The
// entries of maps and lists keep the pointers the merge writes: diagnostics name them often, and
// a written pointer is cheaper to copy than a two-step walk with escapes ("/annotations/
// slurm.coreweave.com~1partition") is to write each time.
void defer_origins(RequestModel& m) {
  for (MergedField& f : m.fields) {
    const Cursor::Step step{&f.member, 0};
    f.origin.path = InputPointer::deferred("", &step, 1);
  }
}

}  // namespace

void merge_layers(RequestCompiler& c) {
  auto& fields = c.m.fields;
  auto find = [&](std::string_view key) -> MergedField* {
    for (auto& f : fields) {
      if (f.member.key == key) return &f;
    }
    return nullptr;
  };
  // Replaces (or adds) a whole field; maps and lists record the origin of each entry or item.
  // The prepared layers are ours: their members move into the merged request. `existing` is
  // find(mem.key), looked up once by the caller.
  auto set = [&](Member& mem, Origin&& origin, MergedField* existing, bool map, bool list) {
    MergedField* f = existing;
    if (f) {
      if (f->origin.layer == Layer::defaults) note_unread_default(c, f->member, ReplacedBy::value_of(origin.layer));
      keep_replaced(c, *f, ReplacedBy::value_of(origin.layer));  // may move *f away: it is overwritten below
    }
    if (!f) f = &fields.emplace_back();
    f->member = std::move(mem);
    f->origin = std::move(origin);
    f->parts.clear();
    const Layer layer = f->origin.layer;
    const Node& v = f->member.value;
    if ((map && v.is_object()) || (list && v.is_array())) {
      const std::string at = pointer_join("", f->member.input_key());
      if (v.is_object()) {
        f->parts.reserve(v.members.size());
        for (const auto& e : v.members) f->parts.push_back(member_origin(e, layer, pointer_join(at, e.input_key())));
      } else {
        f->parts.reserve(v.items.size());
        for (std::size_t i = 0; i < v.items.size(); ++i) f->parts.push_back({pointer_join(at, i), v.items[i].mark, {}, layer});
      }
    }
  };

  std::size_t most = 0;
  for (const auto& p : c.prepared) most += p.members.size();
  fields.reserve(most);
  std::optional<Layer> containers_layer;
  std::vector<GivenLater> given_later;
  // A later layer's single-container map or list merged into the defaults' (see above).
  auto note_given_later = [&](const Member& mem, const MergedField& existing, const Origin& o, Layer layer) {
    if (layer == Layer::defaults || existing.origin.layer != Layer::defaults || !is_one_of(mem.key, k_single_container_fields)) return;
    GivenLater& g = given_later.emplace_back(GivenLater{mem.key, std::string(mem.input_key()), o});
    g.at.path = pointer_join("", mem.input_key());
  };
  if (c.docs[index(Layer::sandbox)]) {
    const Node* tpl = c.prepared[index(Layer::sandbox)].find("template_id");
    c.m.from_template = tpl && !tpl->is_null();
  }
  for (Layer layer : k_layers) {
    if (!c.docs[index(layer)]) continue;
    for (auto& mem : c.prepared[index(layer)].members) {
      Node& v = mem.value;
      Origin o = member_origin(mem, layer);
      if (mem.key == "containers" && layer == Layer::defaults) {
        // RemoteFunction builds its sandbox with defaults.with_overrides(containers=None): the
        // session's containers (checked by from_dict, above) never reach a function's sandbox.
        // Elsewhere an empty list is not None: Sandbox's _validate_containers refuses it.
        if (c.docs[index(Layer::function)]) {
          Origin at_key = o;
          at_key.path = pointer_join("", mem.input_key());  // never merged: written now
          if (at_key.key_mark.placed()) at_key.mark = at_key.key_mark;
          c.report_at(Code::CONTAINERS_DROPPED_BY_FUNCTION, at_key,
                      "@session.function drops SandboxDefaults.containers: the function's sandbox has one container",
                      "set the function's container with container_image and resources");
          drop_default(c, mem, ReplacedBy::value_of(Layer::function));
          continue;
        }
      }
      if (layer == Layer::defaults && c.m.from_template && is_one_of(mem.key, k_template_unread)) {
        drop_default(c, mem, ReplacedBy::template_id());
        continue;
      }
      if (mem.key == "containers") containers_layer = layer;
      MergedField* existing = find(mem.key);
      const bool is_map = is_one_of(mem.key, k_map_fields), is_list = !is_map && is_one_of(mem.key, k_list_fields);
      if (is_map) {
        // Shallow merge; an empty map leaves the earlier one; keys cannot be removed.
        if (!v.is_object()) {
          set(mem, std::move(o), existing, is_map, is_list);
        } else if (!existing || !existing->member.value.is_object()) {
          if (!v.members.empty() || !existing) set(mem, std::move(o), existing, is_map, is_list);
        } else {
          note_given_later(mem, *existing, o, layer);
          Node& map = existing->member.value;
          // Keys by position, so a merge costs linear time whatever the sizes (the reserve keeps
          // the views valid while entries are added).
          map.members.reserve(map.members.size() + v.members.size());
          std::unordered_map<std::string_view, std::size_t> at;
          for (std::size_t i = 0; i < map.members.size(); ++i) at.emplace(map.members[i].key, i);
          const std::string at_map = pointer_join("", mem.input_key());
          for (auto& e : v.members) {
            Origin eo = member_origin(e, layer, pointer_join(at_map, e.input_key()));
            if (auto it = at.find(e.key); it != at.end()) {
              // The key stays (it is the same, and `at` views it); the rest is the later layer's.
              Member& kept = map.members[it->second];
              kept.original_key = std::move(e.original_key);
              kept.key_mark = e.key_mark;
              kept.value = std::move(e.value);
              existing->parts[it->second] = std::move(eo);
            } else {
              map.members.push_back(std::move(e));
              existing->parts.push_back(std::move(eo));
              at.emplace(map.members.back().key, map.members.size() - 1);
            }
          }
        }
        continue;
      }
      if (is_list) {
        // Earlier layers first, then later ones, duplicates kept as the SDK sends them.
        if (existing && existing->member.value.is_array() && v.is_array()) {
          note_given_later(mem, *existing, o, layer);
          const std::string at_list = pointer_join("", mem.input_key());
          for (std::size_t i = 0; i < v.items.size(); ++i) {
            existing->parts.push_back({pointer_join(at_list, i), v.items[i].mark, {}, layer});
            existing->member.value.items.push_back(std::move(v.items[i]));
          }
        } else {
          set(mem, std::move(o), existing, is_map, is_list);
        }
        continue;
      }
      if ((mem.key == "container_image" || mem.key == "command") && v.is_string() && v.text.empty()) continue;
      set(mem, std::move(o), existing, is_map, is_list);  // scalars, lists (runner_ids: [] clears) and whole objects (resources, network)
    }
  }
  if (containers_layer) drop_single_container_fields(c, given_later);
  report_unread_defaults(c);
  defer_origins(c.m);
  c.m.index_fields();  // the fields are final
}

}  // namespace sandgate::model
