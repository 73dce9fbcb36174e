#include "util/diagnostics.h"

namespace sandgate {

Diagnostic& DiagnosticSink::add(Code code, std::string path, Mark mark, std::string message,
                                std::string hint) {
  Diagnostic d;
  d.code = code;
  d.severity = code_info(code).severity;
  d.path = std::move(path);
  if (mark.known()) d.source = SourceLocation{file_, mark.line, mark.column};
  d.walk_order = mark.walk_order();
  d.input = input_;
  d.message = std::move(message);
  d.hint = std::move(hint);
  out_->push_back(std::move(d));
  return out_->back();
}

}  // namespace sandgate
