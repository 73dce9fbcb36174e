// The properties of a policy text, shared by fuzz_policy_yaml and fuzz_policy_json.
#pragma once

#include "document/yaml_characters.h"
#include "fuzz_common.h"

namespace fuzz {

// Loading-level codes that describe the TEXT, not the value it holds: they cannot survive the
// JSON rendering of the tree, so the JSON/YAML comparison ignores them (see keep_for_forms).
inline bool text_only_code(Code c) {
  switch (c) {
    case Code::YAML_TAG:          // the rendering has no tags
    case Code::YAML_MERGE_KEY:    // `<<` is rendered as an ordinary key "<<"
    case Code::YAML11_BOOLEAN:    // `yes` is rendered as `true`
    case Code::YAML_ALIAS_LIMIT:  // the rendering has no aliases (expanded in the tree)
    case Code::MULTIPLE_DOCUMENTS:  // the tree is the first document; the rendering has only it
    case Code::DUPLICATE_KEY:     // the tree keeps the first of the two members
    case Code::SYNTAX:            // in a document that loaded: a rejected key (`[a]: b`, `{a: b}: c`)
                                  // whose member the tree leaves out
      return true;
    default:
      return false;
  }
}

// Whether the original text has a text-only ERROR. Then the forms are not compared at all: the
// engine reports one error per path and treats everything at or below a path with an error as
// reported, and its rules skip a value with an error anywhere under it (a duplicate key at
// /constraints hides the schema findings under it; a tag on /resources/memory keeps the request's
// resources from the policy checks; a second YAML document, at "", hides everything). The
// rendering has no such error, so what the engine goes on to check differs.
inline bool has_text_only_error(const Diagnostics& ds) {
  for (const auto& d : ds) {
    if (text_only_code(d.code) && d.severity == Severity::error) return true;
  }
  return false;
}

// (input, code, path) of the diagnostics that must not depend on the text form. NOT_A_STRING is
// the YAML spelling of TYPE_MISMATCH: a plain YAML number or boolean where a string is wanted gets
// NOT_A_STRING with a hint to quote it (SPEC §1.2), the same value from JSON gets TYPE_MISMATCH;
// both are the same error at the same path, so the comparison treats them as one.
inline std::vector<Signature> form_signatures(const Diagnostics& ds) {
  std::vector<Signature> out;
  for (const auto& d : ds) {
    if (text_only_code(d.code)) continue;
    Code c = d.code == Code::NOT_A_STRING ? Code::TYPE_MISMATCH : d.code;
    out.emplace_back(d.input, std::string(code_info(c).name), d.path);
  }
  std::sort(out.begin(), out.end());
  // One error at a path is the same finding however many ways it was spelled.
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

// Whether the JSON rendering of `n` is the same value for a YAML reader. Two cases are not, and
// the SPEC allows both (§1.2 types plain YAML scalars as YAML 1.1 does):
//  - non-finite numbers (`.inf`, `.nan`) are rendered as null, since JSON has no such value;
//  - a float rendered without a dot (RapidJSON writes 1e300 as "1e300") is a string in YAML 1.1,
//    whose float form needs a dot;
//  - a key whose JSON form is longer than YAML's limit for implicit keys (1024 characters, YAML
//    1.2 §7.4.2; "\u0016" counts six): a YAML reader rejects `{"<1100 characters>": 1}`;
//  - an integer beyond the double range (300+ digits): RapidJSON, the JSON reader, refuses the
//    whole document (SG_INTEGER_RANGE, nothing loads), where YAML keeps the literal for the field
//    to reject. Both are errors; they differ in how much else gets reported.
//  - a string holding a character the YAML loader refuses written raw (U+0085, U+2028, U+2029,
//    U+FEFF, DEL, a C1 control): JSON allows them unescaped and RapidJSON writes them so, where a
//    YAML 1.1 reader and yaml-cpp disagree on them (yaml_characters.h).
// An integer past 300 digits is written exactly, but RapidJSON cannot read it back (SG_INTEGER_RANGE).
inline bool integer_fits_json(const Node& n) {
  return !(n.kind == NodeKind::integer && n.int_overflow && node_to_json(n).size() > 300);
}

// Whether the YAML loader refuses `json` for a character JSON writes raw (U+0085, U+2028, DEL, …;
// it escapes only controls below U+0020): the loader's own check, so the two cannot drift.
inline bool yaml_refuses_a_character_of(std::string_view json) {
  Diagnostics found;
  DiagnosticSink sink(found, "rendered.yaml", "rendered");
  return sandgate::detail::reject_unreadable_character(json, sandgate::LineIndex(json), sink);
}

inline bool renders_faithfully(const Node& n) {
  // A YAML tag naming an SDK class (`!SandboxDefaults {…}`) has no JSON form.
  if (n.given_as != GivenAs::none) return false;
  if (n.kind == NodeKind::number) {
    std::string j = node_to_json(n);
    return j.find('.') != std::string::npos && j.find_first_of("nN") == std::string::npos;
  }
  if (!integer_fits_json(n)) return false;
  for (const auto& item : n.items) {
    if (!renders_faithfully(item)) return false;
  }
  for (const auto& m : n.members) {
    if (m.key.size() > 150 && node_to_json(Node::make_string(m.key)).size() > 1000) return false;
    if (!renders_faithfully(m.value)) return false;
  }
  return true;
}

inline void check_renderers(const Result& r, std::string_view file, std::string_view text) {
  std::vector<Report> reports{{std::string(file), "policy validate", r}};
  SourceTexts sources{{std::string(file), std::string(text)}};
  (void)render_text(reports, sources, TextOptions{});
  (void)render_text(reports, sources, TextOptions{true, true});
  std::string json = render_json(reports), sarif = render_sarif(reports);
  if (!sampled(text)) return;
  // Machine output must be well-formed JSON in valid UTF-8.
  for (const std::string& out : {json, sarif}) {
    expect_json(out);
  }
}

// The tree as a binding would hand the same value over: no positions (line:column) anywhere.
inline Node without_positions(Node n) {
  n.mark = Mark{};
  for (auto& m : n.members) {
    m.key_mark = Mark{};
    m.value = without_positions(std::move(m.value));
  }
  for (auto& i : n.items) i = without_positions(std::move(i));
  return n;
}

// (input, code, path) of each diagnostic in the result's order, the text's own codes left out.
inline std::vector<Signature> reading_sequence(const Diagnostics& ds) {
  std::vector<Signature> out;
  for (const auto& d : ds) {
    if (!text_only_code(d.code)) out.emplace_back(d.input, std::string(code_info(d.code).name), d.path);
  }
  return out;
}

// A value without positions reads in the order of its JSON text (Mark::walk_order): the same
// diagnostics in the same order. JSON text, not YAML: a YAML block mapping stands where its first
// key does, so there the text itself cannot tell the mapping's diagnostic from that key's.
inline void expect_native_reads_as_json(const char* property, const Diagnostics& from_json, const Diagnostics& from_value,
                                        const std::string& json) {
  auto want = reading_sequence(from_json), got = reading_sequence(from_value);
  if (got != want) fail(property, "json: " + json + "\nfrom the text:\n" + describe(want) + "from the value:\n" + describe(got));
}

inline void check_policy_text(std::string_view text, Format format, const char* file) {
  PolicyLoad first = Policy::parse(text, format, file);
  PolicyLoad second = Policy::parse(text, format, file);
  expect_identical("loading the same policy twice gives identical diagnostics", first.diagnostics,
                   second.diagnostics);
  expect_no_internal_error(first.diagnostics);
  if (first.ok() != second.ok()) fail("loading twice gives the same verdict", describe(first.diagnostics));

  // Paths resolve in the tree of the text they name.
  Document doc = load_document(text, format, file, "policy");
  expect_paths_resolve(first.diagnostics, {{"policy", doc.loaded ? &doc.root : nullptr}});

  Result r = Result::from_diagnostics(first.diagnostics);
  check_renderers(r, file, text);

  // JSON and YAML forms of the same document give the same codes and paths.
  if (!doc.loaded || !renders_faithfully(doc.root) || has_text_only_error(first.diagnostics)) return;
  std::string json = node_to_json(doc.root);
  // Aliases can expand a small text past the size limit (found by fuzz_policy_yaml: 5 MB of JSON
  // from a few hundred bytes of YAML); the rendering is then refused for its size alone.
  if (json.size() > Limits{}.max_bytes || yaml_refuses_a_character_of(json)) return;
  auto want = form_signatures(first.diagnostics);
  PolicyLoad as_yaml = Policy::parse(json, Format::yaml, "rendered.yaml");
  auto got_yaml = form_signatures(as_yaml.diagnostics);
  if (got_yaml != want) {
    fail("the JSON rendering read as YAML gives the same codes and paths",
         "json: " + json + "\noriginal:\n" + describe(want) + "rendered, as YAML:\n" + describe(got_yaml));
  }
  PolicyLoad as_json = Policy::parse(json, Format::json, "rendered.json");
  auto got_json = form_signatures(as_json.diagnostics);
  if (got_json != want) {
    fail("the JSON rendering read as JSON gives the same codes and paths",
         "json: " + json + "\noriginal:\n" + describe(want) + "rendered, as JSON:\n" + describe(got_json));
  }
  Document json_doc = load_document(json, Format::json, "rendered.json", "policy");
  if (json_doc.loaded && json_doc.diagnostics.empty()) {  // the loader's findings are the text's, not the value's
    expect_native_reads_as_json("a policy value reads in its JSON text's order",
                                validate_policy(json, Format::json, "rendered.json").diagnostics(),
                                validate_policy(without_positions(std::move(json_doc.root))).diagnostics(), json);
  }
}

}  // namespace fuzz
