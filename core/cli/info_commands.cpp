// sandgate schema NAME and sandgate codes: the published schemas and the codes table.
#include <iostream>

#include "cli.h"
#include "schema/embedded.h"

namespace sandgate::cli {

Runner add_schema_command(CLI::App& app) {
  auto* cmd = app.add_subcommand("schema", "Print a JSON Schema (for editors: yaml-language-server, VS Code)");
  auto name = std::make_shared<std::string>();
  cmd->add_option("name", *name, "policy, sandbox, runners or org")
      ->required()
      ->check(one_of({"policy", "sandbox", "runners", "org"}));
  return [cmd, name]() -> int {
    if (!cmd->parsed()) return -1;
    for (const auto& s : schema::embedded_schemas()) {
      if (s.name == *name) {
        std::cout << s.text;
        return k_ok;
      }
    }
    return k_usage;
  };
}

Runner add_codes_command(CLI::App& app) {
  auto* cmd = app.add_subcommand("codes", "Print the table of diagnostic codes");
  auto format = std::make_shared<std::string>("text");
  cmd->add_option("--format", *format, "text, json or markdown (docs/codes.md)")
      ->check(one_of({"text", "json", "markdown"}));
  return [cmd, format]() -> int {
    if (!cmd->parsed()) return -1;
    if (*format == "json") {
      std::cout << codes_to_json();
    } else if (*format == "markdown") {
      std::cout << codes_to_markdown();
    } else {
      for (const auto& c : all_codes()) {
        std::cout << c.name << "  " << c.rule << "  " << to_string(c.severity) << "  " << c.summary << "\n";
      }
    }
    return k_ok;
  };
}

}  // namespace sandgate::cli
