// Findings become Diagnostics only when someone reads them: the message is formatted, and the
// places are located in their inputs (file, JSON Pointer, line:col).
#include "output/output.h"

namespace sandgate::output {
namespace {

void locate(const FindingContext& cx, const FindingPlace& p, std::string& input, std::string& path,
            std::optional<SourceLocation>& source) {
  const auto* o = static_cast<const model::Origin*>(p.origin);
  std::string file;
  switch (p.input) {
    case FindingInput::request: {
      Layer layer = o ? o->layer : Layer::sandbox;
      input = std::string(input_name(layer));
      file = cx.request.files[static_cast<std::size_t>(layer)];
      break;
    }
    case FindingInput::policy:
      input = cx.resolution.policy_of_runner ? "runners" : "policy";
      file = cx.resolution.policy ? cx.resolution.policy->file() : std::string();
      break;
    case FindingInput::runners:
      input = "runners";
      file = cx.inputs.runners ? cx.inputs.runners->file() : std::string();
      break;
    case FindingInput::org:
      input = "org";
      file = cx.inputs.org ? cx.inputs.org->file() : std::string();
      break;
  }
  if (!o) return;  // the request as a whole: no position
  path = o->path;
  Mark m = p.key && o->key_mark.known() ? o->key_mark : o->mark;
  if (m.known()) source = SourceLocation{std::move(file), m.line, m.column};
}

}  // namespace

Diagnostic materialize(const FindingContext& cx, const Finding& f) {
  Diagnostic d;
  d.code = f.code;
  d.severity = f.severity;
  f.format(cx, f, d.message, d.hint);
  if (f.other_client) {
    std::string sdk = d.info().side == Side::python ? "Python" : "TypeScript";
    std::string note = "only the " + sdk + " SDK rejects this before sending";
    d.hint = d.hint.empty() ? note : d.hint + " (" + note + ")";
  }
  locate(cx, f.at, d.input, d.path, d.source);
  if (f.related_note) {
    Related r;
    locate(cx, f.related, r.input, r.path, r.source);
    r.message = f.related_note;
    d.related.push_back(std::move(r));
  }
  return d;
}

}  // namespace sandgate::output
