// sandgate policy validate FILE… — the offline twin of `cwic sandbox runner policy validate -f`.
#include "cli.h"
#include "sandgate/policy.h"

namespace sandgate::cli {

Runner add_policy_command(CLI::App& app, GlobalOptions& g) {
  auto* policy = app.add_subcommand("policy", "Work with runner policy files");
  policy->require_subcommand(1);
  auto* validate = policy->add_subcommand("validate", "Validate policy files (SPEC §4): every problem at once");
  validate->footer(examples({"policy validate examples/policies/*.yaml", "policy validate - < examples/policies/production-cks.yaml"}));
  struct Args {
    std::vector<std::string> files;
    std::string sunk_scheduler;
  };
  auto args = std::make_shared<Args>();
  validate->add_option("files", args->files, "Policy files (YAML or JSON; - for stdin)")->required()->type_name("FILE");
  validate->add_option("--sunk-scheduler", args->sunk_scheduler,
                       "The runner's SUNK scheduler name (otherwise any scheduler containing \"slurm\" is one)");
  add_global_options(*validate, g);
  return [validate, args, &g]() -> int {
    if (!validate->parsed()) return -1;
    if (!stdin_at_most_once("policy validate", args->files)) return k_usage;
    std::vector<Report> reports;
    SourceTexts sources;
    PolicyContext ctx;
    if (!args->sunk_scheduler.empty()) ctx.sunk_scheduler = args->sunk_scheduler;
    for (const auto& file : args->files) {
      std::string text;
      if (!read_input(file, text, g.limits)) return k_usage;
      std::string name = display_name(file);
      Format format = file == "-" ? Format::auto_detect : format_for_path(file);
      Report rep{name, "policy validate", validate_policy(text, format, name, g.limits, ctx)};
      sources.emplace(name, std::move(text));
      reports.push_back(std::move(rep));
    }
    return print_reports(reports, sources, g);
  };
}

}  // namespace sandgate::cli
