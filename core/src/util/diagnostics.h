// Building diagnostics: one place that turns (code, where, what) into a Diagnostic.
#pragma once

#include <string>

#include "sandgate/diagnostic.h"
#include "sandgate/node.h"

namespace sandgate {

// Where diagnostics about one input go, and how they are labelled.
class DiagnosticSink {
 public:
  DiagnosticSink(Diagnostics& out, std::string file, std::string input)
      : out_(&out), file_(std::move(file)), input_(std::move(input)) {}

  // Appends a diagnostic with the code's default severity; returns it for adjustments.
  Diagnostic& add(Code code, std::string path, Mark mark, std::string message, std::string hint = {});

  const std::string& file() const { return file_; }
  const std::string& input() const { return input_; }
  Diagnostics& diagnostics() { return *out_; }

 private:
  Diagnostics* out_;
  std::string file_;
  std::string input_;
};

}  // namespace sandgate
