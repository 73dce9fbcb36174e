// The properties of Engine::check, shared by fuzz_sandbox and fuzz_check.
#pragma once

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

// The resolved sandbox without the values the policy put there (provenance "policy.…"): what a
// client would send again. Containers the removal empties are dropped too, so the policy's
// defaults apply again instead of an explicit `{}`.
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

inline Node client_view(const Result& r) {
  std::set<std::string> drop;
  for (const auto& [pointer, from] : r.provenance()) {
    if (from.rfind("policy.", 0) == 0) drop.insert(pointer);
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
  (void)render_explain(rep, sources, TextOptions{});
  std::string json = render_json(reports), sarif = render_sarif(reports), result = result_to_json(r, true);
  if (!sampled(text)) return;
  for (const std::string& out : {json, sarif, result}) {
    Document back = load_document(out, Format::json, "render.json", "render", Limits{64u << 20, 64, 10000000, 100});
    if (!back.loaded) fail("renderer output is JSON", out + "\n" + describe(back.diagnostics));
  }
}

// One request: its sandbox text, and optionally the defaults and overrides layers.
inline void check_request(const CheckContext& ctx, std::string_view sandbox_text,
                          std::optional<std::string_view> defaults_text = std::nullopt,
                          std::optional<std::string_view> overrides_text = std::nullopt) {
  const Engine& engine = *ctx.engine;
  auto load = [](std::optional<std::string_view> text, const char* input) -> std::optional<Document> {
    if (!text) return std::nullopt;
    return load_document(*text, Format::auto_detect, input, input);
  };
  Document sandbox = load_document(sandbox_text, Format::auto_detect, "sandbox", "sandbox");
  std::optional<Document> defaults = load(defaults_text, "defaults");
  std::optional<Document> overrides = load(overrides_text, "overrides");
  const Document* d = defaults ? &*defaults : nullptr;
  const Document* o = overrides ? &*overrides : nullptr;

  Result first = engine.check(sandbox, d, o, ctx.options);
  expect_no_internal_error(first.diagnostics());
  if (first.ok() != !has_errors(first.diagnostics())) fail("ok means no error", result_text(first));
  if (first.error_count() != first.errors().size()) fail("error_count counts the errors", result_text(first));

  // Loading and checking the same text again gives the identical result.
  {
    Document again = load_document(sandbox_text, Format::auto_detect, "sandbox", "sandbox");
    std::optional<Document> d2 = load(defaults_text, "defaults");
    std::optional<Document> o2 = load(overrides_text, "overrides");
    Result second = engine.check(again, d2 ? &*d2 : nullptr, o2 ? &*o2 : nullptr, ctx.options);
    std::string a = result_text(first), b = result_text(second);
    if (a != b) fail("checking the same request twice gives the identical result", "first:\n" + a + "\nsecond:\n" + b);
  }

  // Every path resolves in the input it names.
  std::map<std::string, const Node*> roots = ctx.roots;
  roots["sandbox"] = sandbox.loaded ? &sandbox.root : nullptr;
  if (defaults) roots["defaults"] = defaults->loaded ? &defaults->root : nullptr;
  if (overrides) roots["overrides"] = overrides->loaded ? &overrides->root : nullptr;
  expect_paths_resolve(first.diagnostics(), roots);

  check_renderers(first, sandbox, sandbox_text);

  // JSON and YAML forms of the same request give the same codes and paths.
  bool faithful = sandbox.loaded && renders_faithfully(sandbox.root) && (!d || (d->loaded && renders_faithfully(d->root))) &&
                  (!o || (o->loaded && renders_faithfully(o->root)));
  if (faithful && !has_text_only_error(first.diagnostics())) {
    auto want = form_signatures(first.diagnostics());
    for (Format f : {Format::yaml, Format::json}) {
      const char* ext = f == Format::json ? ".json" : ".yaml";
      auto rendered = [&](const Document* doc, const char* input) -> std::optional<Document> {
        if (!doc) return std::nullopt;
        return load_document(node_to_json(doc->root), f, std::string(input) + ext, input);
      };
      std::optional<Document> s2 = rendered(&sandbox, "sandbox");
      std::optional<Document> d2 = rendered(d, "defaults");
      std::optional<Document> o2 = rendered(o, "overrides");
      Result r = engine.check(*s2, d2 ? &*d2 : nullptr, o2 ? &*o2 : nullptr, ctx.options);
      auto got = form_signatures(r.diagnostics());
      if (got != want) {
        fail(f == Format::json ? "the JSON rendering of the request read as JSON gives the same codes and paths"
                               : "the JSON rendering of the request read as YAML gives the same codes and paths",
             "sandbox json: " + node_to_json(sandbox.root) + "\noriginal:\n" + describe(want) + "rendered:\n" + describe(got));
      }
    }
  }

  // A request that is ok, sent again as it resolved (minus what the policy supplies), is ok again
  // and resolves to the same thing.
  if (first.ok()) {
    Node resend = client_view(first);
    std::string resend_json = node_to_json(resend);
    Document again = load_document(resend_json, Format::json, "resolved.json", "sandbox");
    Result r = engine.check(again, nullptr, nullptr, ctx.options);
    if (!r.ok() || !same_value(r.resolved(), first.resolved())) {
      fail("a resolved request sent again is ok with an unchanged `resolved`",
           "first:\n" + result_to_json(first, true) + "\nsent again:\n" + resend_json + "\nsecond:\n" + result_to_json(r, true));
    }
  }
}

}  // namespace fuzz
