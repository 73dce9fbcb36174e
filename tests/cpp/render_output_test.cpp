// What the renderers write for hand-made diagnostics: SARIF 2.1.0 (rules and ruleIndex, URIs,
// regions, messages with the hint, relatedLocations, properties), the text form (the caret, notes,
// the facts line, the verdict), JSON and explain; then a related location in the org file, two
// error-mapping rows and Result::other_candidates. Each expectation here was left unpinned by the
// existing tests and a mutant of core/src/render, output or errors survived without it.
#include <gtest/gtest.h>

#include <rapidjson/document.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "sandgate/errors.h"
#include "sandgate/sandgate.h"

namespace {

using namespace sandgate;

Diagnostic make(Code code, Severity severity, std::string input, std::string path, std::string message,
                std::string hint = {}) {
  Diagnostic d;
  d.code = code;
  d.severity = severity;
  d.input = std::move(input);
  d.path = std::move(path);
  d.message = std::move(message);
  d.hint = std::move(hint);
  return d;
}

std::vector<Report> sarif_reports() {
  // Report 1: an error in a file whose name needs escaping in a URI, with a hint and a related
  // location in the policy; then an info (QOS_CLASS) about the request as a whole.
  Diagnostic above = make(Code::RESOURCE_ABOVE_MAX, Severity::error, "sandbox", "/resources/cpu",
                          "cpu 4 is above the policy's max_cpu 2", "ask for at most 2");
  above.source = SourceLocation{"dir/a b#1.yaml", 3, 7};
  Related rel;
  rel.input = "policy";
  rel.path = "";
  rel.source = SourceLocation{"policy.yaml", 2, 5};
  rel.message = "the limit is set here";
  above.related.push_back(rel);
  Related second;
  second.input = "policy";
  second.path = "/constraints";
  second.message = "and here";
  above.related.push_back(second);
  Diagnostic qos = make(Code::QOS_CLASS, Severity::info, "sandbox", "", "QoS class Burstable");
  std::vector<Report> reports;
  reports.push_back(Report{"dir/a b#1.yaml", "check", Result::from_diagnostics({above, qos})});
  // Report 2: a diagnostic with no source: the report's file is its location, with no region.
  Diagnostic dup = make(Code::TAG_DUPLICATE, Severity::warning, "sandbox", "", "tag nightly twice");
  reports.push_back(Report{"b.yaml", "check", Result::from_diagnostics({dup})});
  return reports;
}

const rapidjson::Value& member(const rapidjson::Value& v, const char* key) {
  EXPECT_TRUE(v.IsObject()) << key;
  auto it = v.FindMember(key);
  EXPECT_NE(it, v.MemberEnd()) << "no member " << key;
  static const rapidjson::Value null_value;
  return it == v.MemberEnd() ? null_value : it->value;
}

std::string str(const rapidjson::Value& v) { return v.IsString() ? std::string(v.GetString(), v.GetStringLength()) : "<not a string>"; }

class Sarif : public ::testing::Test {
 protected:
  void SetUp() override {
    text = render_sarif(sarif_reports());
    doc.Parse(text.c_str());
    ASSERT_FALSE(doc.HasParseError()) << text;
    run = &member(doc, "runs")[0];
    results = &member(*run, "results");
    ASSERT_TRUE(results->IsArray());
    ASSERT_EQ(results->Size(), 3u) << text;
  }
  // In reading order: the info about the whole request (no line) first, then line 3, then report 2.
  std::string text;
  rapidjson::Document doc;
  const rapidjson::Value* run = nullptr;
  const rapidjson::Value* results = nullptr;
};

TEST_F(Sarif, each_rule_index_points_at_its_rule_once_per_code_in_table_order) {
  const auto& rules = member(member(member(*run, "tool"), "driver"), "rules");
  ASSERT_TRUE(rules.IsArray());
  ASSERT_EQ(rules.Size(), 3u);
  // Table order: QOS_CLASS, RESOURCE_ABOVE_MAX, TAG_DUPLICATE (codes.def order).
  EXPECT_EQ(str(member(rules[0], "id")), "SG_QOS_CLASS");
  EXPECT_EQ(str(member(rules[1], "id")), "SG_RESOURCE_ABOVE_MAX");
  EXPECT_EQ(str(member(rules[2], "id")), "SG_TAG_DUPLICATE");
  for (const auto& r : results->GetArray()) {
    int index = member(r, "ruleIndex").GetInt();
    ASSERT_GE(index, 0);
    ASSERT_LT(index, 3);
    EXPECT_EQ(str(member(rules[static_cast<rapidjson::SizeType>(index)], "id")), str(member(r, "ruleId")));
  }
}

TEST_F(Sarif, levels_follow_the_diagnostic_severity) {
  EXPECT_EQ(str(member((*results)[1], "level")), "error");
  EXPECT_EQ(str(member((*results)[0], "level")), "note");  // SARIF has no "info"
  EXPECT_EQ(str(member((*results)[2], "level")), "warning");
}

TEST_F(Sarif, physical_location_escapes_the_uri_and_keeps_line_and_column) {
  const auto& loc = member((*results)[1], "locations")[0];
  const auto& phys = member(loc, "physicalLocation");
  EXPECT_EQ(str(member(member(phys, "artifactLocation"), "uri")), "dir/a%20b%231.yaml");
  const auto& region = member(phys, "region");
  EXPECT_EQ(member(region, "startLine").GetInt(), 3);
  EXPECT_EQ(member(region, "startColumn").GetInt(), 7);  // 1-based code points, as the diagnostic has it
  EXPECT_EQ(str(member(member(loc, "logicalLocations")[0], "fullyQualifiedName")), "sandbox:/resources/cpu");
}

TEST_F(Sarif, message_carries_the_hint) {
  EXPECT_EQ(str(member(member((*results)[1], "message"), "text")), "cpu 4 is above the policy's max_cpu 2. ask for at most 2");
  EXPECT_EQ(str(member(member((*results)[0], "message"), "text")), "QoS class Burstable");
}

TEST_F(Sarif, a_diagnostic_without_source_is_placed_in_its_report_file_without_region) {
  const auto& loc = member((*results)[2], "locations")[0];
  const auto& phys = member(loc, "physicalLocation");
  EXPECT_EQ(str(member(member(phys, "artifactLocation"), "uri")), "b.yaml");
  EXPECT_FALSE(phys.HasMember("region"));
  // The whole input: its pointer is "/" (never empty).
  EXPECT_EQ(str(member(member(loc, "logicalLocations")[0], "fullyQualifiedName")), "sandbox:/");
}

TEST_F(Sarif, related_locations_are_numbered_from_zero_with_region_and_message) {
  const auto& related = member((*results)[1], "relatedLocations");
  ASSERT_TRUE(related.IsArray());
  ASSERT_EQ(related.Size(), 2u);
  EXPECT_EQ(member(related[0], "id").GetInt(), 0);
  EXPECT_EQ(member(related[1], "id").GetInt(), 1);
  const auto& phys = member(related[0], "physicalLocation");
  EXPECT_EQ(str(member(member(phys, "artifactLocation"), "uri")), "policy.yaml");
  EXPECT_EQ(member(member(phys, "region"), "startLine").GetInt(), 2);
  EXPECT_EQ(member(member(phys, "region"), "startColumn").GetInt(), 5);
  EXPECT_EQ(str(member(member(related[0], "logicalLocations")[0], "fullyQualifiedName")), "policy:/");
  EXPECT_EQ(str(member(member(related[0], "message"), "text")), "the limit is set here");
  EXPECT_FALSE(related[1].HasMember("physicalLocation"));  // no source: logical location only
  EXPECT_EQ(str(member(member(related[1], "logicalLocations")[0], "fullyQualifiedName")), "policy:/constraints");
  EXPECT_FALSE((*results)[2].HasMember("relatedLocations"));
}

TEST_F(Sarif, properties_name_reason_and_grpc_code_only_when_the_code_has_them) {
  const auto& p0 = member((*results)[1], "properties");
  EXPECT_EQ(str(member(p0, "rule")), "R-RES-2");
  EXPECT_EQ(str(member(p0, "path")), "/resources/cpu");
  EXPECT_EQ(str(member(p0, "reason")), "CWSANDBOX_RESOURCE_CEILING_EXCEEDED");
  EXPECT_EQ(str(member(p0, "grpcCode")), "INVALID_ARGUMENT");
  const auto& p2 = member((*results)[2], "properties");
  EXPECT_FALSE(p2.HasMember("reason"));
  EXPECT_FALSE(p2.HasMember("grpcCode"));
  EXPECT_EQ(str(member(*run, "columnKind")), "unicodeCodePoints");
}

// Standard input ("<stdin>" as the CLI names it) and a binding's text labels ("<sandbox>") are not
// files: `<` and `>` may not be in a URI, so there is no physicalLocation, only the logical one.
TEST(SarifLabels, standard_input_and_text_labels_get_no_uri) {
  for (const char* name : {"<stdin>", "<sandbox>", "-"}) {
    Diagnostic d = make(Code::RESOURCE_ABOVE_MAX, Severity::error, "sandbox", "/resources/cpu", "cpu 4 is above 2");
    d.source = SourceLocation{name, 1, 12};
    Related rel;
    rel.input = "policy";
    rel.source = SourceLocation{"<policy>", 2, 5};
    d.related.push_back(rel);
    std::vector<Report> reports;
    reports.push_back(Report{name, "check", Result::from_diagnostics({d})});
    rapidjson::Document doc;
    doc.Parse(render_sarif(reports).c_str());
    ASSERT_FALSE(doc.HasParseError()) << name;
    const auto& result = member(member(doc, "runs")[0], "results")[0];
    const auto& loc = member(result, "locations")[0];
    EXPECT_FALSE(loc.HasMember("physicalLocation")) << name;
    EXPECT_EQ(str(member(member(loc, "logicalLocations")[0], "fullyQualifiedName")), "sandbox:/resources/cpu");
    EXPECT_FALSE(member(result, "relatedLocations")[0].HasMember("physicalLocation")) << name;
  }
}

// A CRLF file with a tab before the value, a diagnostic with a related location whose pointer is
// the whole input, one placed in a file but at no line, and one on a long line.
std::string text_output() {
  std::string long_line = "k: " + std::string(200, 'a') + " tok " + std::string(200, 'b');
  SourceTexts sources{{"s.yaml", "a: 1\r\nname:\t\"x y\"  # c\r\n" + long_line + "\n"},
                      {"p.yaml", "x: 1\nmax: \"2\"\n"}};
  Diagnostic above = make(Code::RESOURCE_ABOVE_MAX, Severity::error, "sandbox", "/resources/cpu", "too much", "ask less");
  above.source = SourceLocation{"s.yaml", 2, 7};
  Related rel;
  rel.input = "policy";
  rel.source = SourceLocation{"p.yaml", 2, 6};
  rel.message = "the limit is set here";
  above.related.push_back(rel);
  Diagnostic unplaced = make(Code::TAG_DUPLICATE, Severity::error, "sandbox", "/tags/1", "twice");
  unplaced.source = SourceLocation{"other.yaml", 0, 0};
  Diagnostic far = make(Code::TAG_DUPLICATE, Severity::warning, "sandbox", "/k", "far away");
  far.source = SourceLocation{"s.yaml", 3, 205};
  std::vector<Report> reports;
  reports.push_back(Report{"s.yaml", "check", Result::from_diagnostics({above, unplaced, far})});
  reports.push_back(Report{"p.yaml", "policy validate", Result::from_diagnostics({})});
  return render_text(reports, sources, TextOptions{false, true});
}

TEST(TextRender, quotes_a_crlf_line_with_tabs_as_spaces_and_the_caret_under_the_value) {
  std::string out = text_output();
  EXPECT_NE(out.find(" --> s.yaml:2:7\n  |\n2 | name:    \"x y\"  # c\n  | " + std::string(9, ' ') + "^^^^^\n"), std::string::npos)
      << out;
}

TEST(TextRender, facts_line_names_rule_reason_grpc_code_and_exception) {
  std::string out = text_output();
  EXPECT_NE(out.find("  = at sandbox /resources/cpu · rule R-RES-2 · CWSANDBOX_RESOURCE_CEILING_EXCEEDED · "
                     "INVALID_ARGUMENT · SandboxValidationError\n  = help: ask less\n"),
            std::string::npos)
      << out;
}

TEST(TextRender, a_note_quotes_the_related_line_with_dashes_and_names_the_whole_input_as_slash) {
  std::string out = text_output();
  EXPECT_NE(out.find("note: the limit is set here\n --> p.yaml:2:6\n  |\n2 | max: \"2\"\n  |      ---\n  = at policy /\n"),
            std::string::npos)
      << out;
}

TEST(TextRender, a_location_without_a_line_names_the_file) {
  std::string out = text_output();
  EXPECT_NE(out.find("error[SG_TAG_DUPLICATE]: twice\n  --> other.yaml\n   = at sandbox /tags/1 · rule R-MISC"), std::string::npos)
      << out;
}

TEST(TextRender, a_long_line_is_cut_around_the_column_and_the_caret_follows) {
  std::string out = text_output();
  std::string shown = "…" + std::string(99, 'a') + " tok " + std::string(96, 'b') + "…";
  EXPECT_NE(out.find("3 | " + shown + "\n  | " + std::string(101, ' ') + "^^^\n"), std::string::npos) << out;
}

TEST(TextRender, the_caret_under_a_nul_a_control_character_or_a_byte_that_is_not_utf8_is_one_column) {
  // Binary text has no blank to end a token: the caret ran to the end of the line.
  for (std::string bad : {std::string(1, '\0'), std::string("\x01"), std::string("\xFF")}) {
    SourceTexts sources{{"b.yaml", "k: \"a" + bad + "b\"xyz\n"}};
    Diagnostic d = make(Code::NUL_BYTE, Severity::error, "policy", "", "bad byte");
    d.source = SourceLocation{"b.yaml", 1, 6};
    std::vector<Report> reports;
    reports.push_back(Report{"b.yaml", "policy validate", Result::from_diagnostics({d})});
    std::string out = render_text(reports, sources, TextOptions{false, true});
    EXPECT_NE(out.find("\n  | " + std::string(5, ' ') + "^\n"), std::string::npos) << out;
  }
}

TEST(TextRender, the_caret_under_a_flow_collection_covers_it_to_its_closing_bracket_on_the_line) {
  struct Case {
    std::string line;
    int width;
  };
  // A quoted bracket does not close; an unclosed collection is marked at its bracket alone.
  for (const Case& c : {Case{"k: {a: \"}\", b: [1, 2]} # c", 19}, Case{"k: [x, 'y]']", 9}, Case{"k: {a: 1,", 1},
                        Case{"k: {a:\tb}", 9}}) {  // a tab in the span is the 4 columns it is shown as
    SourceTexts sources{{"f.yaml", c.line + "\n"}};
    Diagnostic d = make(Code::TYPE_MISMATCH, Severity::error, "sandbox", "/k", "wrong");
    d.source = SourceLocation{"f.yaml", 1, 4};
    std::vector<Report> reports;
    reports.push_back(Report{"f.yaml", "check", Result::from_diagnostics({d})});
    std::string out = render_text(reports, sources, TextOptions{false, true});
    EXPECT_NE(out.find("\n  |    " + std::string(static_cast<std::size_t>(c.width), '^') + "\n"), std::string::npos) << out;
  }
}

TEST(TextRender, the_verdict_counts_and_words_depend_on_the_command) {
  std::string out = text_output();
  EXPECT_NE(out.find("s.yaml: rejected (2 errors, 1 warning)\n"), std::string::npos) << out;
  EXPECT_NE(out.find("p.yaml: valid\n"), std::string::npos) << out;
}

TEST(JsonRender, ok_is_false_when_any_report_is_rejected_and_each_names_its_command) {
  std::vector<Report> reports;
  reports.push_back(Report{"bad.yaml", "policy validate",
                           Result::from_diagnostics({make(Code::TAG_DUPLICATE, Severity::error, "policy", "", "bad")})});
  reports.push_back(Report{"good.yaml", "explain", Result::from_diagnostics({})});
  rapidjson::Document doc;
  std::string text = render_json(reports);
  doc.Parse(text.c_str());
  ASSERT_FALSE(doc.HasParseError()) << text;
  EXPECT_FALSE(member(doc, "ok").GetBool());
  const auto& results = member(doc, "results");
  ASSERT_EQ(results.Size(), 2u);
  EXPECT_EQ(str(member(results[0], "command")), "policy validate");
  EXPECT_EQ(str(member(results[1], "command")), "explain");
  EXPECT_FALSE(member(results[0], "ok").GetBool());
  EXPECT_TRUE(member(results[1], "ok").GetBool());
}

// --no-info hides the notes, never the errors: explain still lists why a request is rejected.
TEST(ExplainRender, errors_are_shown_when_info_notes_are_hidden) {
  Diagnostic d;
  d.code = Code::TAG_DUPLICATE;
  d.severity = Severity::error;
  d.input = "sandbox";
  d.path = "/tags/1";
  d.message = "twice";
  Report rep{"s.yaml", "explain", Result::from_diagnostics({d})};
  std::string out = render_explain(rep, {}, TextOptions{false, false});
  EXPECT_NE(out.find("s.yaml: rejected"), std::string::npos) << out;
  EXPECT_NE(out.find("error[SG_TAG_DUPLICATE]: twice\n"), std::string::npos) << out;
}

// reference/sdk-behaviour.md: a reason in SPILLOVER_ELIGIBLE spills, whatever status carries it.
TEST(ErrorMapping, an_eligible_reason_under_failed_precondition_spills) {
  EXPECT_TRUE(is_spill_eligible("FAILED_PRECONDITION", "CWSANDBOX_PLACEMENT_CONSTRAINT_UNSATISFIED", "cwsandbox.com"));
}

// reference/sdk-behaviour.md §3 combined table: CWSANDBOX_FILE_* is CWSandboxFileError in JS, not
// the status code's class.
TEST(ErrorMapping, a_file_reason_maps_to_the_js_file_error_not_the_status_class) {
  ExceptionClasses e = exception_for("NOT_FOUND", "CWSANDBOX_FILE_NOT_FOUND", "cwsandbox.com");
  EXPECT_EQ(e.python, "SandboxFileError");
  EXPECT_EQ(e.js, "CWSandboxFileError");
}

// The other candidates are the runners after the chosen one, in inventory order: never the
// chosen one itself, and none left out.
TEST(ResultAccessors, other_candidates_leave_out_the_selected_runner) {
  std::ifstream in(std::string(SANDGATE_SOURCE_DIR) + "/examples/runners.yaml");
  std::stringstream text;
  text << in.rdbuf();
  auto runners = Runners::parse(text.str(), Format::yaml, "runners.yaml").runners;
  ASSERT_TRUE(runners);
  Document sandbox = load_document("placement_mode: cks\nresources: {cpu: \"1\", memory: 1Gi}\n", Format::yaml,
                                   "sandbox.yaml", "sandbox");
  Result r = Engine(nullptr, runners, nullptr).check(sandbox, nullptr, nullptr, {});
  EXPECT_EQ(r.runner_id(), "prod-us-east-1");
  EXPECT_EQ(r.other_candidates(), (std::vector<std::string>{"gpu-us-east-1", "sunk-us-east-1"}));
}

}  // namespace
