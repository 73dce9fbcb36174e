#include "conformance_cases.h"

#include <algorithm>
#include <sstream>

#include "sandgate/document.h"
#include "sandgate/engine.h"
#include "sandgate/policy.h"
#include "sandgate/render.h"

using namespace sandgate;

namespace conformance {
namespace {

std::string str(const Node* n) { return n && n->is_string() ? n->text : std::string(); }

std::string describe(const Diagnostic& d) {
  std::ostringstream ss;
  ss << d.name() << " " << to_string(d.severity) << " " << d.input << ":" << (d.path.empty() ? "/" : d.path);
  if (d.source) ss << " @" << d.source->line << ":" << d.source->column;
  ss << " — " << d.message;
  if (!d.hint.empty()) ss << " (hint: " << d.hint << ")";
  for (const Related& r : d.related) {
    ss << " [related: " << r.input << ":" << (r.path.empty() ? "/" : r.path);
    if (r.source) ss << " @" << r.source->line << ":" << r.source->column;
    ss << "]";
  }
  return ss.str();
}

std::string describe(const ExpectedDiagnostic& e) {
  std::ostringstream ss;
  ss << e.code << " " << e.severity.value_or("*") << " " << e.input.value_or("*") << ":" << (e.path.empty() ? "/" : e.path);
  if (e.line) ss << " @" << *e.line << ":" << e.column.value_or(0);
  if (e.hint) ss << " hint: " << *e.hint;
  if (e.message) ss << " message: " << *e.message;
  if (e.message_contains) ss << " message containing: " << *e.message_contains;
  if (e.python_exception) ss << " python_exception: " << *e.python_exception;
  if (e.related) {
    ss << " related: " << e.related->input << ":" << e.related->path;
    if (e.related->line) ss << " @" << *e.related->line << ":" << e.related->column.value_or(0);
  }
  return ss.str();
}

bool matches(const ExpectedDiagnostic& e, const Diagnostic& d) {
  if (e.code != d.name() || e.path != d.path) return false;
  if (e.severity && *e.severity != to_string(d.severity)) return false;
  if (e.input && *e.input != d.input) return false;
  if (e.line && (!d.source || d.source->line != *e.line)) return false;
  if (e.column && (!d.source || d.source->column != *e.column)) return false;
  if (e.hint && *e.hint != d.hint) return false;
  if (e.python_exception && *e.python_exception != d.info().python_exception) return false;
  if (e.message && *e.message != d.message) return false;
  if (e.message_contains && d.message.find(*e.message_contains) == std::string::npos) return false;
  if (e.related && std::none_of(d.related.begin(), d.related.end(), [&](const Related& r) {
        const ExpectedRelated& x = *e.related;
        return r.input == x.input && r.path == x.path && (!x.line || (r.source && r.source->line == *x.line)) &&
               (!x.column || (r.source && r.source->column == *x.column));
      })) {
    return false;
  }
  return true;
}

}  // namespace

std::vector<Case> load_cases(const std::string& text, const std::string& file, std::vector<std::string>& errors) {
  std::vector<Case> out;
  Document doc = load_document(text, Format::yaml, file, "cases");
  for (const auto& d : doc.diagnostics) errors.push_back("cannot read case file: " + d.message);
  if (!doc.loaded) return out;
  const Node* cases = doc.root.find("cases");
  if (!cases || !cases->is_array()) {
    errors.push_back("no `cases` list");
    return out;
  }
  std::string kind = file.rfind("check", 0) == 0 ? "check" : file.rfind("diff", 0) == 0 ? "diff" : "policy";
  for (const auto& c : cases->items) {
    Case k;
    k.file = file;
    k.kind = kind;
    k.name = str(c.find("name"));
    k.spec = c;
    if (k.name.empty()) {
      errors.push_back("a case has no name");
      continue;
    }
    const Node* expect = c.find("expect");
    if (!expect || !expect->is_object()) {
      errors.push_back(k.name + ": no `expect`");
      continue;
    }
    const Node* exit = expect->find("exit");
    k.exit = exit && exit->is_int() ? static_cast<int>(exit->integer) : 0;
    if (const Node* infos = c.find("infos")) k.infos = infos->is_bool() && infos->boolean;
    if (const Node* diags = expect->find("diagnostics"); diags && diags->is_array()) {
      for (const auto& d : diags->items) {
        ExpectedDiagnostic e;
        // A misspelt key would be an expectation that is never checked.
        for (const auto& m : d.members) {
          static constexpr std::string_view k_keys[] = {"code", "path", "severity", "input", "line", "column",
                                                        "hint", "message", "message_contains", "related",
                                                        "python_exception"};
          if (std::find(std::begin(k_keys), std::end(k_keys), m.key) == std::end(k_keys)) {
            errors.push_back(k.name + ": an expected diagnostic has the unknown key \"" + m.key + "\"");
          }
        }
        e.code = str(d.find("code"));
        e.path = str(d.find("path"));
        if (const Node* s = d.find("severity")) e.severity = s->text;
        if (const Node* i = d.find("input")) e.input = i->text;
        if (const Node* l = d.find("line"); l && l->is_int()) e.line = static_cast<int>(l->integer);
        if (const Node* col = d.find("column"); col && col->is_int()) e.column = static_cast<int>(col->integer);
        if (const Node* h = d.find("hint")) e.hint = h->text;
        if (const Node* m = d.find("message")) e.message = m->text;
        if (const Node* m = d.find("message_contains")) e.message_contains = m->text;
        if (const Node* x = d.find("python_exception")) e.python_exception = x->text;
        if (const Node* r = d.find("related"); r && r->is_object()) {
          ExpectedRelated x;
          x.input = str(r->find("input"));
          x.path = str(r->find("path"));
          if (const Node* l = r->find("line"); l && l->is_int()) x.line = static_cast<int>(l->integer);
          if (const Node* col = r->find("column"); col && col->is_int()) x.column = static_cast<int>(col->integer);
          e.related = std::move(x);
        }
        if (e.code.empty()) errors.push_back(k.name + ": an expected diagnostic has no code");
        k.diagnostics.push_back(std::move(e));
      }
    }
    out.push_back(std::move(k));
  }
  return out;
}

std::vector<std::string> compare_diagnostics(const Case& c, const Result& r) {
  std::vector<std::string> failures;
  std::vector<const Diagnostic*> actual;
  for (const auto& d : r.diagnostics()) {
    if (d.severity != Severity::info || c.infos) actual.push_back(&d);
  }
  std::vector<bool> used(actual.size(), false);
  for (const auto& e : c.diagnostics) {
    bool found = false;
    for (std::size_t i = 0; i < actual.size(); ++i) {
      if (!used[i] && matches(e, *actual[i])) {
        used[i] = found = true;
        break;
      }
    }
    if (!found) failures.push_back("missing: " + describe(e));
  }
  for (std::size_t i = 0; i < actual.size(); ++i) {
    if (!used[i]) failures.push_back("unexpected: " + describe(*actual[i]));
  }
  int exit = r.ok() ? 0 : 1;
  if (exit != c.exit) failures.push_back("exit " + std::to_string(exit) + ", expected " + std::to_string(c.exit));
  return failures;
}

namespace {

std::optional<std::string> text_of(const Case& c, const char* key) {
  const Node* n = c.spec.find(key);
  if (!n || !n->is_string()) return std::nullopt;
  return n->text;
}

// The scalar or tree at `pointer` in the resolved sandbox (nullptr when absent).
std::string show(const Node* n) { return n ? node_to_json(*n) : std::string("absent"); }

std::vector<std::string> run_check(const Case& c) {
  Diagnostics load_errors;
  auto keep = [&](const Diagnostics& ds) {
    for (const auto& d : ds) {
      if (d.severity == Severity::error) load_errors.push_back(d);
    }
  };
  std::shared_ptr<const Policy> policy;
  std::shared_ptr<const Runners> runners;
  std::shared_ptr<const Org> org;
  if (auto t = text_of(c, "policy")) {
    PolicyLoad p = Policy::parse(*t, Format::auto_detect, "policy.yaml");
    if (!p.policy) keep(p.diagnostics);
    policy = p.policy;
  }
  if (auto t = text_of(c, "runners")) {
    RunnersLoad r = Runners::parse(*t, Format::auto_detect, "runners.yaml");
    if (!r.runners) keep(r.diagnostics);
    runners = r.runners;
  }
  if (auto t = text_of(c, "org")) {
    OrgLoad o = Org::parse(*t, Format::auto_detect, "org.yaml");
    if (!o.org) keep(o.diagnostics);
    org = o.org;
  }
  std::optional<Document> defaults, overrides;
  if (auto t = text_of(c, "defaults")) defaults = load_document(*t, Format::auto_detect, "defaults.yaml", "defaults");
  if (auto t = text_of(c, "overrides")) overrides = load_document(*t, Format::auto_detect, "overrides.yaml", "overrides");
  Document sandbox = load_document(text_of(c, "sandbox").value_or("{}"), Format::auto_detect, "sandbox.yaml", "sandbox");
  CheckOptions options;
  if (const Node* o = c.spec.find("options"); o && o->is_object()) {
    if (const Node* cl = o->find("client")) options.client = cl->text;
    if (const Node* pl = o->find("placement")) options.placement = pl->text;
  }
  Result r;
  if (!load_errors.empty()) {
    r = Result::from_diagnostics(load_errors);
  } else {
    r = Engine(policy, runners, org).check(sandbox, defaults ? &*defaults : nullptr, overrides ? &*overrides : nullptr, options);
  }
  std::vector<std::string> failures = compare_diagnostics(c, r);
  // The stream's answer takes only the errors (Result::take_errors): the same ones, in the same
  // order, as the errors of the diagnostics a reader of the result gets.
  std::vector<std::string> want, got;
  for (const auto& d : r.diagnostics()) {
    if (d.severity == Severity::error) want.push_back(std::string(d.name()) + " " + d.input + " " + d.path + " " + d.message);
  }
  for (const auto& d : Result(r).take_errors()) {
    got.push_back(std::string(d.name()) + " " + d.input + " " + d.path + " " + d.message);
  }
  if (got != want) failures.push_back("take_errors() gives " + std::to_string(got.size()) + " errors in another order or form than diagnostics()");
  const Node* expect = c.spec.find("expect");
  auto expect_text = [&](const char* key, const std::string& actual) {
    if (const Node* e = expect->find(key); e && e->is_string() && e->text != actual) {
      failures.push_back(std::string(key) + " is \"" + actual + "\", expected \"" + e->text + "\"");
    }
  };
  expect_text("placement_mode", std::string(r.placement_mode()));
  expect_text("qos_class", std::string(r.qos_class()));
  auto runtime_class = r.runtime_class();
  expect_text("runtime_class", runtime_class ? runtime_class->value : "");
  expect_text("runtime_class_from", runtime_class ? runtime_class->from : "");
  expect_text("runner", std::string(r.runner_id()));
  // `provenance` and `rules_applied`: a JSON Pointer into the resolved sandbox → the note expected
  // there (null: no note at that pointer).
  for (const char* key : {"provenance", "rules_applied"}) {
    const Node* wanted_notes = expect->find(key);
    if (!wanted_notes || !wanted_notes->is_object()) continue;
    const PointerNotes& notes = std::string_view(key) == "provenance" ? r.provenance() : r.rules_applied();
    for (const auto& m : wanted_notes->members) {
      auto it = std::find_if(notes.begin(), notes.end(), [&](const auto& n) { return n.first == m.key; });
      std::string actual = it == notes.end() ? "absent" : "\"" + it->second + "\"";
      std::string wanted = m.value.is_null() ? "absent" : "\"" + m.value.text + "\"";
      if (actual != wanted) failures.push_back(std::string(key) + " " + m.key + " is " + actual + ", expected " + wanted);
    }
  }
  // `slurm`: null = no Slurm mapping; else each given key (scheduler, CPUsPerTask, MinMemoryNode,
  // or a job parameter such as partition) must equal the mapping's value.
  if (const Node* slurm = expect->find("slurm")) {
    auto mapping = r.slurm();
    if (slurm->is_null()) {
      if (mapping) failures.push_back("slurm mapping present, expected none");
    } else if (!mapping) {
      failures.push_back("no slurm mapping, expected one");
    } else if (slurm->is_object()) {
      Node actual = Node::make_object();
      actual.add("scheduler", Node::make_string(mapping->scheduler));
      actual.add("CPUsPerTask", Node::make_int(mapping->cpus_per_task));
      actual.add("MinMemoryNode", Node::make_int(mapping->min_memory_node));
      for (const auto& [k, v] : mapping->job_parameters) actual.add(k, Node::make_string(v));
      for (const auto& m : slurm->members) {
        const Node* a = actual.find(m.key);
        if (!a || !(*a == m.value)) failures.push_back("slurm " + m.key + " is " + show(a) + ", expected " + show(&m.value));
      }
    }
  }
  if (const Node* resolved = expect->find("resolved"); resolved && resolved->is_object()) {
    for (const auto& m : resolved->members) {
      const Node* actual = pointer_resolve(r.resolved(), m.key);
      bool ok = m.value.is_null() ? actual == nullptr : actual && *actual == m.value;
      if (!ok) failures.push_back("resolved " + m.key + " is " + show(actual) + ", expected " + show(m.value.is_null() ? nullptr : &m.value));
    }
  }
  return failures;
}

}  // namespace

std::vector<std::string> run_case(const Case& c) {
  if (c.kind == "policy") {
    const Node* policy = c.spec.find("policy");
    if (!policy || !policy->is_string()) return {"policy cases need `policy` text"};
    Result r = validate_policy(policy->text, Format::auto_detect, "policy.yaml");
    return compare_diagnostics(c, r);
  }
  if (c.kind == "check") return run_check(c);
  if (c.kind == "diff") return run_diff_case(c);
  return {"unknown case kind " + c.kind};
}

}  // namespace conformance
