// sandgate policy diff OLD NEW [--requests STREAM] (SPEC §10.3): the static changes between two
// policies, and — replayed over a request stream — which requests NEW would newly reject, accept or
// resolve differently, with the change behind each new rejection. Text, JSON or Markdown.
#include <unistd.h>

#include <iostream>
#include <limits>

#include "cli.h"
#include "path_hint.h"
#include "output.h"
#include "sandgate/diff.h"

namespace sandgate::cli {
namespace {

struct DiffArgs {
  std::string old_path, new_path, requests, runners, org, client = "python", format = "text", color = "auto";
  std::size_t examples = 5;
  unsigned jobs = 0;
  Limits limits;
};

// Reads and compiles one policy; false on an I/O error.
bool load_policy(const std::string& path, const Limits& limits, PolicyLoad& out) {
  std::string text;
  if (!read_input(path, text, limits)) return false;
  std::string name = display_name(path);
  out = Policy::parse(text, path == "-" ? Format::auto_detect : format_for_path(path), name, limits);
  return true;
}

void print_errors(const std::string& what, const Diagnostics& ds) {
  for (const auto& d : ds) {
    if (d.severity != Severity::error) continue;
    std::cerr << "sandgate: " << what << ": error[" << d.name() << "] " << d.message;
    if (d.source) std::cerr << " (" << d.source->file << ":" << d.source->line << ":" << d.source->column << ")";
    std::cerr << "\n";
  }
}

int run_diff(const DiffArgs& a) {
  if (a.old_path == "-" && a.new_path == "-") {
    std::cerr << "sandgate policy diff: OLD and NEW cannot both be standard input\n";
    return k_usage;
  }
  if (!stdin_at_most_once("policy diff", {a.old_path, a.new_path, a.requests, a.runners, a.org})) return k_usage;
  PolicyLoad old_policy, new_policy;
  if (!load_policy(a.old_path, a.limits, old_policy) || !load_policy(a.new_path, a.limits, new_policy)) return k_usage;

  // Runners and org are the same for both sides; one that cannot be used makes the replay meaningless.
  std::shared_ptr<const Runners> runners;
  std::shared_ptr<const Org> org;
  if (!a.runners.empty()) {
    std::string text;
    if (!read_input(a.runners, text, a.limits)) return k_usage;
    RunnersLoad r = Runners::parse(text, format_for_path(a.runners), display_name(a.runners), a.limits);
    if (!r.ok()) {
      print_errors(a.runners, r.diagnostics);
      std::cerr << "sandgate policy diff: the runners file has errors; fix them first\n";
      return k_invalid;
    }
    runners = r.runners;
  }
  if (!a.org.empty()) {
    std::string text;
    if (!read_input(a.org, text, a.limits)) return k_usage;
    OrgLoad o = Org::parse(text, format_for_path(a.org), display_name(a.org), a.limits);
    if (!o.ok()) {
      print_errors(a.org, o.diagnostics);
      std::cerr << "sandgate policy diff: the org file has errors; fix them first\n";
      return k_invalid;
    }
    org = o.org;
  }
  std::unique_ptr<RequestReader> reader;
  if (!a.requests.empty()) {
    StreamOptions so;
    so.limits = a.limits;
    std::string error;
    reader = RequestReader::open(a.requests, so, &error);
    if (!reader) {
      std::cerr << "sandgate: " << with_path_meant(error, a.requests) << "\n";
      return k_usage;
    }
  }

  PolicyDiff d = start_diff(old_policy, new_policy, a.examples);
  Stdout out;
  bool json = a.format == "json";
  if (reader && d.old_readable && d.new_readable) {
    // The JSON head is written before the records stream past: it must already say so.
    d.replayed = true;
    d.requests = reader->name();
  }
  if (json) out.write(diff_json_head(d));
  if (reader && d.old_readable && d.new_readable) {
    DiffOptions options;
    options.check.client = a.client;
    options.examples = a.examples;
    options.jobs = a.jobs;
    options.keep_records = false;  // a stream of any length: records are written as they come
    PolicyDiffer differ(old_policy.policy, new_policy.policy, runners, org, options.check);
    bool first = true;
    Progress progress(true);
    std::uint64_t n = 0;
    replay(d, differ, *reader, options, [&](const RecordDiff& r) {
      progress.update(++n, reader->bytes_read(), reader->size_hint());
      if (!json || r.cls == DiffClass::unchanged) return out.ok();
      std::string line = (first ? "" : ",\n") + record_diff_to_json(r, d.static_changes);
      first = false;
      return out.write(line);
    });
    progress.clear();
    if (json && !first) out.write("\n");
  }
  if (json) {
    out.write(diff_json_tail(d));
  } else if (a.format == "markdown") {
    out.write(diff_to_markdown(d));
  } else {
    bool color = a.color == "always" || (a.color == "auto" && isatty(STDOUT_FILENO) && std::getenv("NO_COLOR") == nullptr);
    out.write(diff_to_text(d, DiffTextOptions{color}));
  }
  if (!out.ok()) return k_usage;  // main() says why
  if (!d.error.empty()) {
    std::cerr << "sandgate: " << d.error << "\n";
    return k_usage;
  }
  return d.ok() ? k_ok : k_invalid;
}

}  // namespace

Runner add_policy_diff_command(CLI::App& app) {
  CLI::App* policy = app.get_subcommand("policy");
  auto* cmd = policy->add_subcommand(
      "diff", "What changes between two policies, and which requests NEW would reject, accept or resolve differently");
  cmd->footer(examples({
      "policy diff examples/policies/production-cks.yaml examples/policies/production-cks-v2.yaml",
      "policy diff examples/policies/production-cks.yaml examples/policies/production-cks-v2.yaml --requests examples/requests.jsonl --format markdown",
  }));
  auto a = std::make_shared<DiffArgs>();
  cmd->add_option("old", a->old_path, "The policy in force (YAML or JSON; - for stdin)")->required()->type_name("FILE");
  cmd->add_option("new", a->new_path, "The policy to apply")->required()->type_name("FILE");
  cmd->add_option("--requests", a->requests,
                  "Replay a request stream under both: JSON Lines, or a JSON/YAML list (- for stdin)")->type_name("STREAM");
  cmd->add_option("--runners", a->runners, "The runner inventory (SPEC §1.4), the same for both")->type_name("FILE");
  cmd->add_option("--org", a->org, "The organisation's entitlements, the same for both")->type_name("FILE");
  cmd->add_option("--client", a->client, "The SDK the requests are sent through")
      ->check(one_of({"python", "typescript"}))
      ->capture_default_str();
  cmd->add_option("--examples", a->examples, "Example records shown per class, code and value")
      ->check(whole_number(0, std::numeric_limits<std::size_t>::max()))
      ->capture_default_str();
  cmd->add_option("--jobs", a->jobs, "Threads replaying the requests (default: every core)")->check(whole_number(1, 1024));
  cmd->add_option("--format", a->format, "Output format (markdown: a summary for a pull-request comment)")
      ->check(one_of({"text", "json", "markdown"}))
      ->capture_default_str();
  cmd->add_option("--color", a->color, "Colour in text output")
      ->check(one_of({"auto", "always", "never"}))
      ->capture_default_str();
  add_limit_options(*cmd, a->limits, false);
  return [cmd, a]() -> int { return cmd->parsed() ? run_diff(*a) : -1; };
}

}  // namespace sandgate::cli
