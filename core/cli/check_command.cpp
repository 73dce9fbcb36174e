// sandgate check SANDBOX… and sandgate explain SANDBOX: what the server would do with a request.
#include <iostream>
#include <unistd.h>

#include "cli.h"
#include "sandgate/engine.h"

namespace sandgate::cli {
namespace {

struct CheckArgs {
  std::vector<std::string> sandboxes;
  std::string policy, defaults, overrides, runners, org, placement, client = "python";
  std::string requests;  // a request stream (SPEC §10.2): batch_command.cpp
  unsigned jobs = 0;
};

void add_check_options(CLI::App* cmd, CheckArgs& a, bool many) {
  if (many) {
    cmd->add_option("sandboxes", a.sandboxes, "Sandbox request files (YAML or JSON; - for stdin)")->type_name("FILE");
    cmd->add_option("--requests", a.requests,
                    "A request stream: JSON Lines, or a JSON/YAML list (- for stdin); one JSON Lines answer per record")
        ->type_name("STREAM");
    cmd->add_option("--jobs", a.jobs, "Threads checking a request stream (default: every core)")
        ->check(whole_number(1, 1024));
  } else {
    cmd->add_option("sandbox", a.sandboxes, "A sandbox request file (YAML or JSON; - for stdin)")
        ->required()
        ->expected(1)
        ->type_name("FILE");
  }
  cmd->add_option("--policy", a.policy, "The runner policy (default: none, i.e. {})")->type_name("FILE");
  cmd->add_option("--defaults", a.defaults, "The SandboxDefaults layer")->type_name("FILE");
  cmd->add_option("--overrides", a.overrides, "The @session.function overrides layer")->type_name("FILE");
  cmd->add_option("--runners", a.runners, "The runner inventory (SPEC §1.4)")->type_name("FILE");
  cmd->add_option("--org", a.org, "The organisation's entitlements")->type_name("FILE");
  cmd->add_option("--placement", a.placement, "Override placement_mode")->check(one_of({"serverless", "cks"}));
  cmd->add_option("--client", a.client, "The SDK the request is sent through")
      ->check(one_of({"python", "typescript"}))
      ->capture_default_str();
}

// Reads an optional input file; false on an I/O error.
bool read_optional(const std::string& path, std::string& text, std::string& name, const Limits& limits) {
  if (path.empty()) return true;
  name = display_name(path);
  return read_input(path, text, limits);
}

// Loads everything but the sandboxes; errors of these inputs are carried into each report.
struct Setup {
  std::shared_ptr<const Policy> policy;
  std::shared_ptr<const Runners> runners;
  std::shared_ptr<const Org> org;
  std::optional<Document> defaults, overrides;
  Diagnostics errors;  // error diagnostics of inputs that could not be read at all
  bool fatal = false;
};

bool load_setup(const CheckArgs& a, const GlobalOptions& g, Setup& s, SourceTexts& sources) {
  auto keep_errors = [&](const Diagnostics& ds, bool loaded) {
    if (loaded) return;  // Engine::check reports the errors of loaded inputs itself
    for (const auto& d : ds) {
      if (d.severity == Severity::error) s.errors.push_back(d);
    }
  };
  std::string text, name;
  if (!read_optional(a.policy, text, name, g.limits)) return false;
  if (!a.policy.empty()) {
    PolicyLoad p = Policy::parse(text, format_for_path(a.policy), name, g.limits);
    keep_errors(p.diagnostics, p.policy != nullptr);
    s.policy = p.policy;
    s.fatal = s.fatal || !p.policy;
    sources.emplace(name, text);
  }
  text.clear();
  if (!read_optional(a.runners, text, name, g.limits)) return false;
  if (!a.runners.empty()) {
    RunnersLoad r = Runners::parse(text, format_for_path(a.runners), name, g.limits);
    keep_errors(r.diagnostics, r.runners != nullptr);
    s.runners = r.runners;
    s.fatal = s.fatal || !r.runners;
    sources.emplace(name, text);
  }
  text.clear();
  if (!read_optional(a.org, text, name, g.limits)) return false;
  if (!a.org.empty()) {
    OrgLoad o = Org::parse(text, format_for_path(a.org), name, g.limits);
    keep_errors(o.diagnostics, o.org != nullptr);
    s.org = o.org;
    s.fatal = s.fatal || !o.org;
    sources.emplace(name, text);
  }
  for (auto [path, slot, input] : {std::tuple{a.defaults, &s.defaults, "defaults"}, std::tuple{a.overrides, &s.overrides, "overrides"}}) {
    text.clear();
    if (!read_optional(path, text, name, g.limits)) return false;
    if (path.empty()) continue;
    *slot = load_document(text, format_for_path(path), name, input, g.limits);
    sources.emplace(name, text);
  }
  return true;
}

int run(const CheckArgs& a, const GlobalOptions& g, bool explain, bool format_given) {
  if (!explain && a.sandboxes.empty() == a.requests.empty()) {
    std::cerr << "sandgate check: give SANDBOX files or --requests STREAM (one of them)\n";
    return k_usage;
  }
  if (!a.requests.empty() && (!a.defaults.empty() || !a.overrides.empty())) {
    std::cerr << "sandgate check: --defaults and --overrides do not apply to --requests; a record carries its own "
                 "(\"defaults\", \"overrides\")\n";
    return k_usage;
  }
  std::vector<std::string> inputs = a.sandboxes;
  inputs.insert(inputs.end(), {a.policy, a.defaults, a.overrides, a.runners, a.org, a.requests});
  if (!stdin_at_most_once(explain ? "explain" : "check", inputs)) return k_usage;
  Setup setup;
  SourceTexts sources;
  if (!load_setup(a, g, setup, sources)) return k_usage;
  if (!a.requests.empty()) {
    BatchCheck b{a.requests, setup.policy, setup.runners, setup.org, setup.errors, setup.fatal,
                 CheckOptions{a.client, a.placement}, a.jobs, format_given};
    return run_batch_check(b, g);
  }
  Engine engine(setup.policy, setup.runners, setup.org);
  CheckOptions options;
  options.client = a.client;
  options.placement = a.placement;
  std::vector<Report> reports;
  for (const auto& file : a.sandboxes) {
    std::string text;
    if (!read_input(file, text, g.limits)) return k_usage;
    std::string name = display_name(file);
    Document doc = load_document(text, file == "-" ? Format::auto_detect : format_for_path(file), name, "sandbox", g.limits);
    sources.emplace(name, text);
    Report rep{name, explain ? "explain" : "check", {}};
    if (setup.fatal) {
      rep.result = Result::from_diagnostics(setup.errors);
    } else {
      rep.result = engine.check(doc, setup.defaults ? &*setup.defaults : nullptr, setup.overrides ? &*setup.overrides : nullptr, options);
    }
    reports.push_back(std::move(rep));
  }
  if (explain && g.format == "text") {
    bool color = g.color == "always" || (g.color == "auto" && isatty(STDOUT_FILENO) && std::getenv("NO_COLOR") == nullptr);
    std::cout << render_explain(reports.front(), sources, TextOptions{color, !g.quiet_info});
    return reports.front().result.ok() ? k_ok : k_invalid;
  }
  return print_reports(reports, sources, g);
}

}  // namespace

Runner add_check_command(CLI::App& app, GlobalOptions& g) {
  auto* cmd = app.add_subcommand("check", "Check sandbox requests against a runner policy: what the server would do");
  cmd->footer(examples({
      "check examples/sandboxes/cpu-above-max.yaml --policy examples/policies/production-cks.yaml --runners examples/runners.yaml",
      "check examples/sandboxes/*.yaml --policy examples/policies/production-cks.yaml --format json",
      "check --requests examples/requests.jsonl --policy examples/policies/production-cks.yaml --jobs 2 --format text",
  }));
  auto args = std::make_shared<CheckArgs>();
  add_check_options(cmd, *args, true);
  add_global_options(*cmd, g);
  return [cmd, args, &g]() -> int { return cmd->parsed() ? run(*args, g, false, cmd->count("--format") > 0) : -1; };
}

Runner add_explain_command(CLI::App& app, GlobalOptions& g) {
  auto* cmd = app.add_subcommand("explain", "Show the resolved sandbox with where every value came from");
  cmd->footer(examples({"explain examples/sandboxes/prod-ok.yaml --policy examples/policies/production-cks.yaml --runners examples/runners.yaml"}));
  auto args = std::make_shared<CheckArgs>();
  add_check_options(cmd, *args, false);
  add_global_options(*cmd, g);
  return [cmd, args, &g]() -> int { return cmd->parsed() ? run(*args, g, true, true) : -1; };
}

}  // namespace sandgate::cli
