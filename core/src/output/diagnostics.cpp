// Findings become Diagnostics only when someone reads them: the message is formatted, and the
// places are located in their inputs (file, JSON Pointer, line:col).
#include "output/output.h"

namespace sandgate::output {
namespace {

// The input a place points into, named as diagnostics name it.
std::string_view input_of(const FindingContext& cx, const FindingPlace& p) {
  switch (p.input) {
    case FindingInput::request: {
      const auto* o = static_cast<const model::Origin*>(p.origin);
      return input_name(o ? o->layer : Layer::sandbox);
    }
    case FindingInput::policy:
      return cx.resolution.policy_of_runner ? "runners" : "policy";
    case FindingInput::runners:
      return "runners";
    case FindingInput::org:
      return "org";
  }
  return "sandbox";
}

// Where in its input: none for the request as a whole or a value without a mark.
Mark mark_of(const FindingPlace& p) {
  const auto* o = static_cast<const model::Origin*>(p.origin);
  if (!o) return Mark{};
  return p.key && o->key_mark.placed() ? o->key_mark : o->mark;
}

void locate(const FindingContext& cx, const FindingPlace& p, std::string& input, std::string& path,
            std::optional<SourceLocation>& source) {
  input = std::string(input_of(cx, p));
  const auto* o = static_cast<const model::Origin*>(p.origin);
  if (!o) return;  // the request as a whole: no position
  path = o->path;
  Mark m = mark_of(p);
  if (!m.known()) return;
  std::string file;
  switch (p.input) {
    case FindingInput::request:
      file = cx.request.files[static_cast<std::size_t>(o->layer)];
      break;
    case FindingInput::policy:
      file = cx.resolution.policy ? cx.resolution.policy->file() : std::string();
      break;
    case FindingInput::runners:
      file = cx.inputs.runners ? cx.inputs.runners->file() : std::string();
      break;
    case FindingInput::org:
      file = cx.inputs.org ? cx.inputs.org->file() : std::string();
      break;
  }
  source = SourceLocation{std::move(file), m.line, m.column};
}

}  // namespace

Diagnostic materialize(const FindingContext& cx, const Finding& f) {
  Diagnostic d;
  d.code = f.code;
  d.severity = f.severity;
  f.format(cx, f, d.message, d.hint);
  if (f.other_client) add_other_client_note(d.hint, d.info().side);
  locate(cx, f.at, d.input, d.path, d.source);
  d.walk_order = mark_of(f.at).walk_order();
  if (f.related_note) {
    Related r;
    locate(cx, f.related, r.input, r.path, r.source);
    r.message = f.related_note;
    d.related.push_back(std::move(r));
  }
  return d;
}

ReadingPlace reading_place(const FindingContext& cx, const Finding& f) {
  Mark m = mark_of(f.at);
  if (!m.placed()) return ReadingPlace{input_of(cx, f.at)};
  return ReadingPlace{input_of(cx, f.at), m.line, m.column};
}

}  // namespace sandgate::output
