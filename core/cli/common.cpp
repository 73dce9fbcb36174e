#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <sstream>

#include "cli.h"

namespace sandgate::cli {

void add_global_options(CLI::App& app, GlobalOptions& g) {
  app.add_option("--format", g.format, "Output format")
      ->check(CLI::IsMember({"text", "json", "sarif"}))
      ->capture_default_str();
  app.add_option("--color", g.color, "Colour in text output")
      ->check(CLI::IsMember({"auto", "always", "never"}))
      ->capture_default_str();
  app.add_flag("--no-info", g.quiet_info, "Hide info notes in text output");
  app.add_option("--max-bytes", g.limits.max_bytes, "Largest document accepted")->capture_default_str();
  app.add_option("--max-depth", g.limits.max_depth, "Deepest nesting accepted")->capture_default_str();
  app.add_option("--max-nodes", g.limits.max_nodes, "Most nodes accepted")->capture_default_str();
  app.add_option("--max-aliases", g.limits.max_alias_uses, "Most YAML alias uses accepted")->capture_default_str();
}

// Reads at most max_bytes + 1: enough for the loader to see that a larger input breaks the size limit,
// without reading an endless stream (/dev/zero, a pipe that never closes) into memory.
bool read_input(const std::string& path, std::string& text, const Limits& limits) {
  std::size_t cap = limits.max_bytes < SIZE_MAX ? limits.max_bytes + 1 : SIZE_MAX;
  std::ifstream file;
  std::istream* in = &std::cin;
  if (path != "-") {
    file.open(path, std::ios::binary);
    if (!file) {
      std::cerr << "sandgate: cannot read " << path << ": " << std::strerror(errno) << "\n";
      return false;
    }
    in = &file;
  }
  text.clear();
  char buffer[1 << 16];
  while (text.size() < cap && *in) {
    std::size_t want = std::min(sizeof buffer, cap - text.size());
    in->read(buffer, static_cast<std::streamsize>(want));
    text.append(buffer, static_cast<std::size_t>(in->gcount()));
  }
  if (in->bad()) {
    std::cerr << "sandgate: cannot read " << path << "\n";
    return false;
  }
  return true;
}

int print_reports(const std::vector<Report>& reports, const SourceTexts& sources, const GlobalOptions& g) {
  bool ok = true;
  for (const auto& r : reports) ok = ok && r.result.ok();
  if (g.format == "json") {
    std::cout << render_json(reports);
  } else if (g.format == "sarif") {
    std::cout << render_sarif(reports);
  } else {
    bool color = g.color == "always" ||
                 (g.color == "auto" && isatty(STDOUT_FILENO) && std::getenv("NO_COLOR") == nullptr);
    std::cout << render_text(reports, sources, TextOptions{color, !g.quiet_info});
  }
  std::cout.flush();
  return ok ? k_ok : k_invalid;
}

}  // namespace sandgate::cli
