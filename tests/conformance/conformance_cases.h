// Reading and running conformance cases (format in README.md).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "sandgate/node.h"

namespace conformance {

// One of the diagnostic's related locations (SPEC §3): input and path, and line/column when given.
struct ExpectedRelated {
  std::string input, path;
  std::optional<int> line, column;
};

struct ExpectedDiagnostic {
  std::string code, path;
  std::optional<std::string> severity, input;
  std::optional<int> line, column;
  std::optional<std::string> hint;  // the whole hint, when given
  std::optional<std::string> message;  // the whole message, when given
  std::optional<std::string> message_contains;  // a part of the message, when given
  std::optional<ExpectedRelated> related;
  std::optional<std::string> python_exception;  // the class cwsandbox raises for it
};

struct Case {
  std::string file;  // relative to tests/conformance
  std::string name;
  std::string kind;  // "policy", "check" or "diff" (the directory the file is in)
  sandgate::Node spec;  // the case object as written
  int exit = 0;
  bool infos = false;
  std::vector<ExpectedDiagnostic> diagnostics;
};

std::vector<Case> load_cases(const std::string& text, const std::string& file, std::vector<std::string>& errors);
// Runs one case; returns the differences (empty = pass).
std::vector<std::string> run_case(const Case& c);
// A policy diff case (diff_cases.cpp).
std::vector<std::string> run_diff_case(const Case& c);

}  // namespace conformance
