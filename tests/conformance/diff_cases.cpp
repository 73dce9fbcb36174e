// Policy diff cases (tests/conformance/diff/*.yaml, format in README.md), run through the shared
// core API `diff_policies` that the Python and Node bindings wrap.
#include <algorithm>
#include <sstream>

#include "conformance_cases.h"
#include "sandgate/diff.h"
#include "sandgate/render.h"

using namespace sandgate;

namespace conformance {
namespace {

std::optional<std::string> text_of(const Node& spec, const char* key) {
  const Node* n = spec.find(key);
  if (!n || !n->is_string()) return std::nullopt;
  return n->text;
}

std::string show(const std::optional<Node>& n) { return n ? node_to_json(*n) : std::string("absent"); }

// An expected value: `null` in a case means "absent".
bool same_value(const Node& expected, const std::optional<Node>& actual) {
  if (expected.is_null()) return !actual.has_value();
  return actual && *actual == expected;
}

std::string describe(const StaticChange& c) {
  std::ostringstream ss;
  ss << c.field << " " << to_string(c.kind) << " " << show(c.old_value) << " -> " << show(c.new_value);
  if (c.old_source) ss << " old@" << c.old_source->line;
  if (c.new_source) ss << " new@" << c.new_source->line;
  return ss.str();
}

// A static change as a case names it: {field, kind, old?, new?, old_line?, new_line?}, or just the field.
bool matches(const Node& e, const StaticChange& c) {
  if (e.is_string()) return e.text == c.field;
  const Node* field = e.find("field");
  if (!field || field->text != c.field) return false;
  if (const Node* k = e.find("kind"); k && k->text != to_string(c.kind)) return false;
  if (const Node* o = e.find("old"); o && !same_value(*o, c.old_value)) return false;
  if (const Node* n = e.find("new"); n && !same_value(*n, c.new_value)) return false;
  if (const Node* l = e.find("old_line"); l && (!c.old_source || c.old_source->line != l->integer)) return false;
  if (const Node* l = e.find("new_line"); l && (!c.new_source || c.new_source->line != l->integer)) return false;
  return true;
}

std::vector<std::string> strings(const Node* n) {
  std::vector<std::string> out;
  if (n && n->is_array()) {
    for (const auto& i : n->items) out.push_back(i.text);
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::string join(const std::vector<std::string>& v) {
  std::string s = "[";
  for (const auto& x : v) s += (s.size() > 1 ? ", " : "") + x;
  return s + "]";
}

void compare_record(const Node& e, const RecordDiff& r, const std::vector<StaticChange>& changes, std::vector<std::string>& f) {
  std::string at = "record " + std::to_string(r.line) + ": ";
  if (const Node* cls = e.find("class"); cls && cls->text != to_string(r.cls)) {
    f.push_back(at + "class " + std::string(to_string(r.cls)) + ", expected " + cls->text);
  }
  if (const Node* id = e.find("id"); id && (!r.id || *r.id != id->text)) f.push_back(at + "id " + r.id.value_or("(none)") + ", expected " + id->text);
  if (const Node* codes = e.find("codes")) {
    std::vector<std::string> actual;
    for (const auto& d : r.errors) {
      std::string c(d.name());
      if (std::find(actual.begin(), actual.end(), c) == actual.end()) actual.push_back(c);
    }
    std::sort(actual.begin(), actual.end());
    if (actual != strings(codes)) f.push_back(at + "codes " + join(actual) + ", expected " + join(strings(codes)));
  }
  if (const Node* codes = e.find("old_codes")) {
    std::vector<std::string> actual = r.old_codes;
    std::sort(actual.begin(), actual.end());
    if (actual != strings(codes)) f.push_back(at + "old_codes " + join(actual) + ", expected " + join(strings(codes)));
  }
  if (const Node* line = e.find("error_line")) {
    if (r.errors.empty() || !r.errors.front().source || r.errors.front().source->line != line->integer) {
      f.push_back(at + "the first error is not at line " + std::to_string(line->integer));
    }
  }
  if (const Node* causes = e.find("caused_by"); causes && causes->is_array()) {
    std::vector<bool> used(r.caused_by.size(), false);
    for (const auto& want : causes->items) {
      bool found = false;
      for (std::size_t i = 0; i < r.caused_by.size() && !found; ++i) {
        if (!used[i] && r.caused_by[i] < changes.size() && matches(want, changes[r.caused_by[i]])) used[i] = found = true;
      }
      if (!found) f.push_back(at + "not caused by " + node_to_json(want));
    }
    for (std::size_t i = 0; i < used.size(); ++i) {
      if (!used[i]) f.push_back(at + "also caused by " + describe(changes[r.caused_by[i]]));
    }
  }
  if (const Node* ch = e.find("changes"); ch && ch->is_object()) {
    for (const auto& m : ch->members) {
      auto it = std::find_if(r.changes.begin(), r.changes.end(), [&](const ValueChange& c) { return c.pointer == m.key; });
      if (it == r.changes.end()) {
        f.push_back(at + "no change at " + m.key);
        continue;
      }
      if (!m.value.is_array() || m.value.items.size() != 2 || !same_value(m.value.items[0], it->old_value) ||
          !same_value(m.value.items[1], it->new_value)) {
        f.push_back(at + m.key + " is " + show(it->old_value) + " -> " + show(it->new_value) + ", expected " + node_to_json(m.value));
      }
    }
    for (const auto& c : r.changes) {
      if (!ch->find(c.pointer)) f.push_back(at + "unexpected change at " + c.pointer + ": " + show(c.old_value) + " -> " + show(c.new_value));
    }
  }
}

}  // namespace

std::vector<std::string> run_diff_case(const Case& c) {
  std::vector<std::string> f;
  auto old_text = text_of(c.spec, "old"), new_text = text_of(c.spec, "new");
  if (!old_text || !new_text) return {"diff cases need `old` and `new` policy text"};
  PolicyLoad old_policy = Policy::parse(*old_text, Format::auto_detect, "old.yaml");
  PolicyLoad new_policy = Policy::parse(*new_text, Format::auto_detect, "new.yaml");
  std::shared_ptr<const Runners> runners;
  std::shared_ptr<const Org> org;
  if (auto t = text_of(c.spec, "runners")) runners = Runners::parse(*t, Format::auto_detect, "runners.yaml").runners;
  if (auto t = text_of(c.spec, "org")) org = Org::parse(*t, Format::auto_detect, "org.yaml").org;
  DiffOptions options;
  options.jobs = 2;  // the order of the answers must not depend on the threads
  if (const Node* o = c.spec.find("options"); o && o->is_object()) {
    if (const Node* cl = o->find("client")) options.check.client = cl->text;
    if (const Node* pl = o->find("placement")) options.check.placement = pl->text;
  }
  std::unique_ptr<RequestReader> reader;
  if (auto t = text_of(c.spec, "records")) reader = RequestReader::from_text(*t, "requests.jsonl");
  PolicyDiff d = diff_policies(old_policy, new_policy, reader.get(), runners, org, options);

  const Node* expect = c.spec.find("expect");
  int exit = d.ok() ? 0 : 1;
  if (exit != c.exit) f.push_back("exit " + std::to_string(exit) + ", expected " + std::to_string(c.exit));
  if (const Node* sc = expect->find("static_changes"); sc && sc->is_array()) {
    std::vector<bool> used(d.static_changes.size(), false);
    for (const auto& want : sc->items) {
      bool found = false;
      for (std::size_t i = 0; i < d.static_changes.size() && !found; ++i) {
        if (!used[i] && matches(want, d.static_changes[i])) used[i] = found = true;
      }
      if (!found) f.push_back("missing static change " + node_to_json(want));
    }
    for (std::size_t i = 0; i < used.size(); ++i) {
      if (!used[i]) f.push_back("unexpected static change " + describe(d.static_changes[i]));
    }
  }
  if (const Node* counts = expect->find("counts"); counts && counts->is_object()) {
    for (std::size_t i = 0; i < k_diff_classes; ++i) {
      std::string name(to_string(static_cast<DiffClass>(i)));
      const Node* n = counts->find(name);
      std::size_t want = n && n->is_int() ? static_cast<std::size_t>(n->integer) : 0;
      if (d.summary.counts[i] != want) {
        f.push_back("count " + name + " " + std::to_string(d.summary.counts[i]) + ", expected " + std::to_string(want));
      }
    }
    for (const auto& m : counts->members) {
      if (!diff_class_from_name(m.key)) f.push_back("counts: unknown class " + m.key);
    }
  }
  if (const Node* records = expect->find("records"); records && records->is_array()) {
    std::vector<bool> seen(d.records.size(), false);
    for (const auto& e : records->items) {
      const Node* line = e.find("record");
      auto it = std::find_if(d.records.begin(), d.records.end(),
                             [&](const RecordDiff& r) { return line && r.line == line->integer; });
      if (it == d.records.end()) {
        f.push_back("record " + (line ? std::to_string(line->integer) : std::string("?")) + " is unchanged or missing");
        continue;
      }
      seen[static_cast<std::size_t>(it - d.records.begin())] = true;
      compare_record(e, *it, d.static_changes, f);
    }
    for (std::size_t i = 0; i < seen.size(); ++i) {
      if (!seen[i]) {
        f.push_back("unexpected record " + std::to_string(d.records[i].line) + " " + std::string(to_string(d.records[i].cls)));
      }
    }
  }
  return f;
}

}  // namespace conformance
