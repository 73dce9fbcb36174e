// The properties of Engine::check, shared by fuzz_sandbox and fuzz_check.
#pragma once

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <optional>
#include <set>

#include "policy_properties.h"

namespace fuzz {

// The fixed inputs of a check: everything but the request layers.
struct CheckContext {
  const Engine* engine = nullptr;
  CheckOptions options;
  // Loaded trees of the fixed inputs, by input name (policy, runners, org), for path resolution.
  std::map<std::string, const Node*> roots;
};

inline std::string result_text(const Result& r) { return result_to_json(r, false); }

// The resolved sandbox without the values the policy put there (provenance "policy.…") and the
// platform's max_timeout_seconds: what a client would send again. Containers the removal empties are
// dropped too, so the policy's defaults apply again instead of an explicit `{}`.
inline bool strip_policy_values(Node& n, const std::string& path, const std::set<std::string>& drop) {
  if (drop.count(path)) return false;
  bool had_children = !n.items.empty() || !n.members.empty();
  if (n.is_array()) {
    std::vector<Node> kept;
    for (std::size_t i = 0; i < n.items.size(); ++i) {
      if (strip_policy_values(n.items[i], pointer_join(path, i), drop)) kept.push_back(std::move(n.items[i]));
    }
    n.items = std::move(kept);
  } else if (n.is_object()) {
    std::vector<Member> kept;
    for (auto& m : n.members) {
      if (strip_policy_values(m.value, pointer_join(path, m.key), drop)) kept.push_back(std::move(m));
    }
    n.members = std::move(kept);
  }
  return !(had_children && n.items.empty() && n.members.empty());
}

// No number JSON cannot carry back (see renders_faithfully): an integer past the double range, or
// a float that is not finite (`timeout_seconds: .nan` resolves to NaN, which JSON writes as null,
// and a null timeout is one not given).
inline bool renders_faithfully_numbers(const Node& n) {
  if (!integer_fits_json(n) || (n.kind == NodeKind::number && !std::isfinite(n.number))) return false;
  for (const auto& item : n.items) {
    if (!renders_faithfully_numbers(item)) return false;
  }
  for (const auto& m : n.members) {
    if (!renders_faithfully_numbers(m.value)) return false;
  }
  return true;
}

inline Node client_view(const Result& r) {
  std::set<std::string> drop;
  for (const auto& [pointer, from] : r.provenance()) {
    // What the policy filled in is filled in again; so is the platform's max_timeout_seconds, a
    // keyword a client may no longer write (SPEC §1.1). The platform's other defaults are resent:
    // leaving out a container's default resources would change what the request says.
    if (from.rfind("policy.", 0) == 0 || (from == "platform" && pointer == "/max_timeout_seconds")) drop.insert(pointer);
  }
  Node out = r.resolved();
  if (!strip_policy_values(out, "", drop)) out = Node::make_object();
  return out;
}

inline void check_renderers(const Result& r, const Document& sandbox, std::string_view text) {
  Report rep{sandbox.file, "check", r};
  std::vector<Report> reports{rep};
  SourceTexts sources{{sandbox.file, std::string(text)}};
  (void)render_text(reports, sources, TextOptions{});
  // The text renderer, the one that reads source lines and draws carets, runs on every input; the
  // explain tree and the machine renderers (plain walks of the same values) on one in eight, which
  // also read their output back as JSON. Rendering everything every time cost more than the check.
  if (!sampled(text)) return;
  (void)render_explain(rep, sources, TextOptions{});
  for (const std::string& out : {render_json(reports), render_sarif(reports), result_to_json(r, true)}) {
    expect_json(out);
  }
}

// The loaded layers of one request, and the same texts loaded a second time (for determinism).
struct LoadedRequest {
  Document sandbox;
  std::optional<Document> defaults, overrides;
  const Document* d() const { return defaults ? &*defaults : nullptr; }
  const Document* o() const { return overrides ? &*overrides : nullptr; }
};

inline LoadedRequest load_request(std::string_view sandbox_text, std::optional<std::string_view> defaults_text,
                                  std::optional<std::string_view> overrides_text) {
  auto load = [](std::optional<std::string_view> text, const char* input) -> std::optional<Document> {
    if (!text) return std::nullopt;
    return load_document(*text, Format::auto_detect, input, input);
  };
  return {load_document(sandbox_text, Format::auto_detect, "sandbox", "sandbox"), load(defaults_text, "defaults"),
          load(overrides_text, "overrides")};
}

// One request — its sandbox text, and optionally the defaults and overrides layers — checked in
// each of `contexts`. Every text is loaded once (and once more for the determinism property) for
// all contexts: loading, not checking, is what a fuzz execution spends most on.
inline void check_request(std::initializer_list<const CheckContext*> contexts, std::string_view sandbox_text,
                          std::optional<std::string_view> defaults_text = std::nullopt,
                          std::optional<std::string_view> overrides_text = std::nullopt) {
  const LoadedRequest first_load = load_request(sandbox_text, defaults_text, overrides_text);
  const LoadedRequest again = load_request(sandbox_text, defaults_text, overrides_text);
  const Document& sandbox = first_load.sandbox;
  const Document* d = first_load.d();
  const Document* o = first_load.o();

  // JSON and YAML forms of the same request, when its JSON rendering means the same thing.
  bool faithful = sandbox.loaded && renders_faithfully(sandbox.root) && (!d || (d->loaded && renders_faithfully(d->root))) &&
                  (!o || (o->loaded && renders_faithfully(o->root)));
  struct Form {
    Format format;
    LoadedRequest request;
  };
  std::vector<Form> forms;
  std::string sandbox_json;
  if (faithful) {
    sandbox_json = node_to_json(sandbox.root);
    std::optional<std::string> d_json, o_json;
    if (d) d_json = node_to_json(d->root);
    if (o) o_json = node_to_json(o->root);
    // Aliases can expand a small text past the size limit: such a rendering is refused for its size.
    auto too_large = [](const std::optional<std::string>& j) { return j && j->size() > Limits{}.max_bytes; };
    if (sandbox_json.size() > Limits{}.max_bytes || too_large(d_json) || too_large(o_json)) faithful = false;
    auto refused = [](const std::optional<std::string>& j) { return j && yaml_refuses_a_character_of(*j); };
    if (yaml_refuses_a_character_of(sandbox_json) || refused(d_json) || refused(o_json)) faithful = false;
    for (Format f : {Format::yaml, Format::json}) {
      if (!faithful) break;
      std::string ext = f == Format::json ? ".json" : ".yaml";
      auto rendered = [&](const std::optional<std::string>& json, const char* input) -> std::optional<Document> {
        if (!json) return std::nullopt;
        return load_document(*json, f, input + ext, input);
      };
      forms.push_back({f, {load_document(sandbox_json, f, "sandbox" + ext, "sandbox"), rendered(d_json, "defaults"),
                           rendered(o_json, "overrides")}});
    }
  }

  for (const CheckContext* ctx : contexts) {
    const Engine& engine = *ctx->engine;
    Result first = engine.check(sandbox, d, o, ctx->options);
    expect_no_internal_error(first.diagnostics());
    if (first.ok() != !has_errors(first.diagnostics())) fail("ok means no error", result_text(first));
    if (first.error_count() != first.errors().size()) fail("error_count counts the errors", result_text(first));

    // Loading and checking the same text again gives the identical result: every diagnostic word
    // for word and the same verdict, placement, runner and QoS on every input; on sampled inputs
    // the whole result as JSON (building and writing two resolved sandboxes per input cost more
    // than the checks).
    {
      Result second = engine.check(again.sandbox, again.d(), again.o(), ctx->options);
      expect_identical("checking the same request twice gives the identical diagnostics", first.diagnostics(),
                       second.diagnostics());
      bool same = first.ok() == second.ok() && first.placement_mode() == second.placement_mode() &&
                  first.runner_id() == second.runner_id() && first.qos_class() == second.qos_class();
      if (!same || sampled(sandbox_text)) {
        // The whole result — resolved sandbox, provenance, rules — as JSON text.
        std::string a = result_text(first), b = result_text(second);
        if (!same || a != b) fail("checking the same request twice gives the identical result", "first:\n" + a + "\nsecond:\n" + b);
      }
    }

    // Every path resolves in the input it names.
    std::map<std::string, const Node*> roots = ctx->roots;
    roots["sandbox"] = sandbox.loaded ? &sandbox.root : nullptr;
    if (d) roots["defaults"] = d->loaded ? &d->root : nullptr;
    if (o) roots["overrides"] = o->loaded ? &o->root : nullptr;
    expect_paths_resolve(first.diagnostics(), roots);

    check_renderers(first, sandbox, sandbox_text);

    // JSON and YAML forms of the same request give the same codes and paths.
    if (faithful && !has_text_only_error(first.diagnostics())) {
      auto want = form_signatures(first.diagnostics());
      for (const Form& form : forms) {
        Result r = engine.check(form.request.sandbox, form.request.d(), form.request.o(), ctx->options);
        auto got = form_signatures(r.diagnostics());
        if (got != want) {
          fail(form.format == Format::json ? "the JSON rendering of the request read as JSON gives the same codes and paths"
                                           : "the JSON rendering of the request read as YAML gives the same codes and paths",
               "sandbox json: " + sandbox_json + "\noriginal:\n" + describe(want) + "rendered:\n" + describe(got));
        }
        // (Only when the loader found nothing: its findings are the text's, not the value's.)
        auto clean = [](const Document* layer) { return !layer || (layer->loaded && layer->diagnostics.empty()); };
        if (form.format == Format::json && clean(&form.request.sandbox) && clean(form.request.d()) && clean(form.request.o())) {
          // The same request as a binding hands it over, each layer without positions.
          auto as_value = [](const Document* layer) -> std::optional<Document> {
            if (!layer || !layer->loaded) return std::nullopt;
            return document_from_node(without_positions(layer->root), layer->input);
          };
          std::optional<Document> s = as_value(&form.request.sandbox), dv = as_value(form.request.d()),
                                  ov = as_value(form.request.o());
          Result v = engine.check(*s, dv ? &*dv : nullptr, ov ? &*ov : nullptr, ctx->options);
          expect_native_reads_as_json("a request value reads in its JSON text's order", r.diagnostics(), v.diagnostics(),
                                      sandbox_json);
        }
      }
    }

    // A request that is ok, sent again as it resolved (minus what the policy supplies), is ok
    // again and resolves to the same thing.
    // Narrowed: with several containers the SDK requires each to say something about resources
    // (a `{cpu: null}` the policy then fills counts, nothing does not); a container whose every
    // resource the policy supplied would be resent without resources, which is refused.
    bool policy_filled_container_resources = false;
    if (const Node* cs = first.resolved().find("containers"); cs && cs->is_array() && cs->items.size() > 1) {
      for (const auto& [pointer, from] : first.provenance()) {
        if (pointer.rfind("/containers/", 0) == 0 && pointer.find("/resources/") != std::string::npos &&
            from.rfind("policy.", 0) == 0) {
          policy_filled_container_resources = true;
        }
      }
    }
    // Narrowed too: an integer past the double range (a 1,300-digit timeout, valid from YAML) is
    // written exactly, but RapidJSON cannot read it back (SG_INTEGER_RANGE), and a NaN or infinite
    // float is written as null: JSON's known limits, as for the JSON-form property (renders_faithfully).
    if (first.ok() && !policy_filled_container_resources && renders_faithfully_numbers(first.resolved())) {
      Node resend = client_view(first);
      // temp_dir is a SandboxDefaults field that Sandbox.run() does not take (an error there): when
      // the defaults set it, it goes back through the defaults (found by the bounded gate).
      Node defaults = Node::make_object();
      const auto& from = first.provenance();
      auto temp_dir = std::find_if(resend.members.begin(), resend.members.end(),
                                   [](const Member& m) { return m.key == "temp_dir"; });
      if (temp_dir != resend.members.end() &&
          std::find(from.begin(), from.end(), std::pair<std::string, std::string>{"/temp_dir", "defaults"}) != from.end()) {
        defaults.members.push_back(std::move(*temp_dir));
        resend.members.erase(temp_dir);
      }
      // A template sandbox's container overrides (resources, command, …) need container_image only
      // when the sandbox itself gives them (SG_TEMPLATE_OVERRIDES_WITHOUT_IMAGE): ones the function
      // layer or the defaults gave go back through that layer (found by a 25-minute fuzz_check run).
      Node overrides = Node::make_object();
      if (resend.find("template_id") != nullptr) {
        auto layers_of = [&](std::string_view key) {
          std::set<std::string> layers;
          const std::string top = "/" + std::string(key);
          for (const auto& [pointer, layer] : from) {
            if (pointer == top || pointer.rfind(top + "/", 0) == 0) layers.insert(layer);
          }
          return layers;
        };
        for (auto it = resend.members.begin(); it != resend.members.end();) {
          std::set<std::string> layers = layers_of(it->key);
          Node* to = layers == std::set<std::string>{"function"} ? &overrides
                     : layers == std::set<std::string>{"defaults"} ? &defaults
                                                                    : nullptr;
          if (to == nullptr) {
            ++it;
            continue;
          }
          to->members.push_back(std::move(*it));
          it = resend.members.erase(it);
        }
      }
      std::string resend_json = node_to_json(resend);
      std::string defaults_json = node_to_json(defaults);
      std::string overrides_json = node_to_json(overrides);
      Document resent = load_document(resend_json, Format::json, "resolved.json", "sandbox");
      Document resent_defaults = load_document(defaults_json, Format::json, "defaults.json", "defaults");
      Document resent_overrides = load_document(overrides_json, Format::json, "overrides.json", "overrides");
      Result r = engine.check(resent, defaults.members.empty() ? nullptr : &resent_defaults,
                              overrides.members.empty() ? nullptr : &resent_overrides, ctx->options);
      if (!r.ok() || !same_value(r.resolved(), first.resolved())) {
        fail("a resolved request sent again is ok with an unchanged `resolved`",
             "first:\n" + result_to_json(first, true) + "\nsent again:\n" + resend_json + "\nwith defaults:\n" +
                 defaults_json + "\nwith overrides:\n" + overrides_json + "\nsecond:\n" + result_to_json(r, true));
      }
    }
  }
}

}  // namespace fuzz
