// N-LAYER (SPEC §5.1): SandboxDefaults ◀ Sandbox.run() kwargs ◀ @session.function overrides.
#include "engine/rules.h"

#include <algorithm>
#include <unordered_map>

#include "schema/shape.h"
#include "schema/validate.h"
#include "util/diagnostics.h"

namespace sandgate::engine {
namespace {

constexpr std::string_view k_map_fields[] = {"annotations", "environment_variables"};
constexpr std::string_view k_single_container_fields[] = {
    "container_image", "command", "args", "resources", "mounted_files", "secrets",
    "image_pull_credentials", "environment_variables", "security_context", "working_dir"};

bool is_one_of(std::string_view key, const auto& list) {
  return std::find(std::begin(list), std::end(list), key) != std::end(list);
}

Member* find_member(Node& obj, std::string_view key) {
  for (auto& m : obj.members) {
    if (m.key == key) return &m;
  }
  return nullptr;
}

void set_member(Node& obj, const Member& m) {
  if (Member* existing = find_member(obj, m.key)) {
    *existing = m;
  } else {
    obj.members.push_back(m);
  }
}

}  // namespace

bool prepare_layers(Context& ctx) {
  bool usable = true;
  for (std::uint8_t layer : {k_defaults, k_sandbox, k_function}) {
    const Document* doc = ctx.layers[layer];
    if (!doc) continue;
    auto& diags = ctx.result.diagnostics;
    diags.insert(diags.end(), doc->diagnostics.begin(), doc->diagnostics.end());
    if (!doc->loaded) {
      usable = false;
      continue;
    }
    Node& root = ctx.prepared[layer];
    root = doc->root;
    DiagnosticSink sink(diags, doc->file, k_input_names[layer]);
    if (root.is_null()) root = Node::make_object();  // an empty layer (`null`) sets nothing
    if (!root.is_object()) {
      sink.add(Code::NOT_AN_OBJECT, "", root.mark,
               std::string("the ") + k_input_names[layer] + " must be an object of Sandbox.run() keyword arguments, not " +
                   std::string(root.kind_name()));
      usable = false;
      continue;
    }
    const auto& cs = schema::get("sandbox");
    // A value the loader or a binding already reported (and replaced) is not reported again.
    schema::ReportedPaths reported;
    for (const auto& d : doc->diagnostics) {
      if (d.severity == Severity::error) reported.insert(d.path);
    }
    schema::ShapeOptions opts;
    // SandboxDefaults.from_dict ignores unknown keys silently: the user believes a setting applies.
    if (layer == k_defaults) opts.unknown_key_severity = Severity::warning;
    opts.alias_conflict_code = Code::DUPLICATE_SPELLING;
    std::size_t first_schema_diagnostic = diags.size();
    schema::shape(root, cs, "", sink, reported, opts);
    schema::validate(root, cs, "", sink, reported);
    // Schema codes that only one SDK checks (gpu shorthand, removed keys, …) follow SPEC §1.3 too.
    for (std::size_t i = first_schema_diagnostic; i < diags.size(); ++i) apply_client(diags[i], ctx.options.client);
    if (layer == k_defaults) {
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
    stamp(root, layer);
  }
  return usable;
}

void merge_layers(Context& ctx) {
  Node& req = ctx.req;
  std::uint8_t containers_layer = k_no_layer;
  for (std::uint8_t layer : {k_defaults, k_sandbox, k_function}) {
    if (!ctx.layers[layer]) continue;
    for (const auto& m : ctx.prepared[layer].members) {
      const Node& v = m.value;
      if (m.key == "containers") containers_layer = layer;
      ctx.layer_spelling[m.key][layer] = std::string(m.input_key());
      if (is_one_of(m.key, k_map_fields)) {
        // Shallow merge; an empty map leaves the earlier one; keys cannot be removed.
        if (!v.is_object()) {
          set_member(req, m);
          continue;
        }
        Member* existing = find_member(req, m.key);
        if (!existing || !existing->value.is_object()) {
          if (!v.members.empty() || !existing) set_member(req, m);
          continue;
        }
        // Indexed by key once: merging n keys into m must not search the m keys n times.
        Node& into = existing->value;
        std::unordered_map<std::string, std::size_t> position;
        for (std::size_t i = 0; i < into.members.size(); ++i) position.emplace(into.members[i].key, i);
        for (const auto& entry : v.members) {
          auto [it, added] = position.emplace(entry.key, into.members.size());
          if (added) {
            into.members.push_back(entry);
          } else {
            into.members[it->second] = entry;
          }
        }
        continue;
      }
      if (m.key == "tags" || m.key == "secrets") {
        // Earlier layers first, then later ones, duplicates kept as the SDK sends them.
        Member* existing = find_member(req, m.key);
        auto& index = ctx.merged_list_index[m.key];
        if (existing && existing->value.is_array() && v.is_array()) {
          for (std::size_t i = 0; i < v.items.size(); ++i) {
            existing->value.items.push_back(v.items[i]);
            index.push_back(i);
          }
        } else {
          set_member(req, m);
          index.clear();
          for (std::size_t i = 0; i < v.items.size(); ++i) index.push_back(i);
        }
        continue;
      }
      if ((m.key == "container_image" || m.key == "command") && v.is_string() && v.text.empty()) continue;
      set_member(req, m);  // scalars, lists (runner_ids: [] clears) and whole objects (resources, network)
    }
  }
  if (containers_layer == k_no_layer) return;
  // containers= does not inherit the single-container fields from SandboxDefaults, and cannot be
  // combined with them in the same call.
  std::vector<Member> kept;
  for (auto& m : req.members) {
    if (!is_one_of(m.key, k_single_container_fields)) {
      kept.push_back(std::move(m));
      continue;
    }
    if (m.value.origin >= containers_layer) {
      Cursor at{&m.value, &m, pointer_join("", m.input_key())};
      ctx.report(Code::CONTAINERS_WITH_SINGLE_FIELDS, at,
                 "\"" + std::string(m.input_key()) + "\" is a single-container field, and containers= is set",
                 "move it into the container it belongs to");
    }
  }
  req.members = std::move(kept);
}

}  // namespace sandgate::engine
