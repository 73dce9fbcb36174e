// Shared pieces of the sandgate command: options every command takes, reading inputs, printing.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "sandgate/document.h"
#include "sandgate/engine.h"
#include "sandgate/render.h"
#include "usage_error.h"

namespace sandgate::cli {

enum ExitCode { k_ok = 0, k_invalid = 1, k_usage = 2 };

struct GlobalOptions {
  std::string format = "text";  // text | json | sarif
  std::string color = "auto";   // auto | always | never
  bool quiet_info = false;
  Limits limits;
};

void add_global_options(CLI::App& app, GlobalOptions& g);
// --max-bytes, --max-depth, --max-nodes (and --max-aliases), each refusing a value no document
// could meet.
void add_limit_options(CLI::App& app, Limits& limits, bool aliases);

// A help footer of command lines to copy ("Examples:" then each line, indented); they name the
// files of examples/, so that they run as they are in a checkout (tests/golden runs them).
std::string examples(std::initializer_list<std::string_view> lines);

// How outputs name a path: "<stdin>" for "-", and valid UTF-8 whatever bytes the name holds.
std::string display_name(const std::string& path);
// False (after saying why) when more than one of `inputs` is "-": standard input reads once.
bool stdin_at_most_once(std::string_view command, const std::vector<std::string>& inputs);

// Reads `path` ("-" = stdin) into `text`; on failure prints why and returns false.
// Reads a file (or stdin for "-"), stopping one byte past limits.max_bytes; false on an I/O error.
bool read_input(const std::string& path, std::string& text, const Limits& limits);

// Prints the reports in the chosen format and returns the exit code (0 all ok, 1 otherwise).
int print_reports(const std::vector<Report>& reports, const SourceTexts& sources, const GlobalOptions& g);

// Whether everything written to standard output arrived (flushing it first). A failed write or
// flush (a full disk, /dev/full, a closed pipe) is never a silent success: prints why on stderr
// and returns false, and the command exits 2.
bool output_ok();

// sandgate check --requests STREAM (SPEC §10.2): the inputs check_command.cpp has loaded.
struct BatchCheck {
  std::string requests;
  std::shared_ptr<const Policy> policy;
  std::shared_ptr<const Runners> runners;
  std::shared_ptr<const Org> org;
  Diagnostics setup_errors;  // errors of an input that could not be read at all (then every record has them)
  bool setup_fatal = false;
  CheckOptions options;
  unsigned jobs = 0;
  bool format_given = false;  // --format was given (else JSON Lines)
};
int run_batch_check(const BatchCheck& batch, const GlobalOptions& g);

// Registration of each command; each returns a callback that runs it and returns the exit code.
using Runner = std::function<int()>;
Runner add_policy_command(CLI::App& app, GlobalOptions& g);
Runner add_quantity_command(CLI::App& app, GlobalOptions& g);
Runner add_schema_command(CLI::App& app);
Runner add_codes_command(CLI::App& app);
Runner add_check_command(CLI::App& app, GlobalOptions& g);
Runner add_explain_command(CLI::App& app, GlobalOptions& g);
Runner add_policy_diff_command(CLI::App& app);  // after add_policy_command

}  // namespace sandgate::cli
