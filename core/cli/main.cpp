// The sandgate command: exit 0 when everything is valid (warnings allowed), 1 when something is
// invalid, 2 for a usage or I/O error.
#include <iostream>
#include <string>

#include "cli.h"

#if SANDGATE_WITH_MIMALLOC
#include <mimalloc.h>
#endif

namespace {
// The version, and the allocator the command runs on (its speed on streams depends on it).
std::string version_text() {
  std::string text = SANDGATE_VERSION;
#if SANDGATE_WITH_MIMALLOC
  int v = mi_version();
  text += "\nallocator: mimalloc " + std::to_string(v / 100) + "." + std::to_string(v / 10 % 10) + "." +
          std::to_string(v % 10);
#else
  text += "\nallocator: the C library's malloc";
#endif
  return text;
}
}  // namespace

int main(int argc, char** argv) {
  using namespace sandgate::cli;
  CLI::App app{"sandgate: check CoreWeave sandbox requests against runner policies before they are sent",
               "sandgate"};
  app.set_version_flag("--version", version_text());
  app.require_subcommand(1);
  app.footer(examples({
      "policy validate examples/policies/*.yaml",
      "check examples/sandboxes/cpu-above-max.yaml --policy examples/policies/production-cks.yaml --runners examples/runners.yaml",
      "explain examples/sandboxes/prod-ok.yaml --policy examples/policies/production-cks.yaml",
      "check --requests examples/requests.jsonl --policy examples/policies/production-cks.yaml --format text",
      "policy diff examples/policies/production-cks.yaml examples/policies/production-cks-v2.yaml --requests examples/requests.jsonl",
  }));
  GlobalOptions g;
  std::vector<Runner> runners = {
      add_policy_command(app, g),
      add_policy_diff_command(app),
      add_check_command(app, g),
      add_explain_command(app, g),
      add_quantity_command(app, g),
      add_schema_command(app),
      add_codes_command(app),
  };
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    int rc = app.exit(e);
    return output_ok() ? rc : k_usage;
  } catch (const CLI::CallForAllHelp& e) {
    int rc = app.exit(e);
    return output_ok() ? rc : k_usage;
  } catch (const CLI::CallForVersion& e) {
    int rc = app.exit(e);
    return output_ok() ? rc : k_usage;
  } catch (const CLI::ParseError& e) {
    std::cerr << usage_error_message(app, e) << "\n";
    return k_usage;
  }
  try {
    for (auto& run : runners) {
      int rc = run();
      if (rc >= 0) return output_ok() ? rc : k_usage;
    }
  } catch (const std::exception& e) {
    // Nothing a user types should get here; if it does, say so rather than abort.
    std::cerr << "sandgate: internal error: " << e.what() << "\n";
    return k_usage;
  }
  return k_usage;
}
