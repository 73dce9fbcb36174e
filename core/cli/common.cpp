#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <limits>
#include <sstream>

#include "cli.h"
#include "path_hint.h"

namespace sandgate::cli {

void add_global_options(CLI::App& app, GlobalOptions& g) {
  app.add_option("--format", g.format, "Output format")
      ->check(one_of({"text", "json", "sarif"}))
      ->capture_default_str();
  app.add_option("--color", g.color, "Colour in text output")
      ->check(one_of({"auto", "always", "never"}))
      ->capture_default_str();
  app.add_flag("--no-info", g.quiet_info, "Hide info notes in text output");
  add_limit_options(app, g.limits, true);
}

void add_limit_options(CLI::App& app, Limits& limits, bool aliases) {
  // A limit below these is no limit a document could meet (a depth of -1, 0 bytes): a usage error.
  app.add_option("--max-bytes", limits.max_bytes, "Largest document accepted")
      ->check(whole_number(1, std::numeric_limits<std::size_t>::max()))
      ->capture_default_str();
  app.add_option("--max-depth", limits.max_depth, "Deepest nesting accepted")
      ->check(whole_number(1, std::numeric_limits<int>::max()))
      ->capture_default_str();
  app.add_option("--max-nodes", limits.max_nodes, "Most nodes accepted")
      ->check(whole_number(1, std::numeric_limits<std::size_t>::max()))
      ->capture_default_str();
  if (aliases) {
    app.add_option("--max-aliases", limits.max_alias_uses, "Most YAML alias uses accepted (0: none)")
        ->check(whole_number(0, std::numeric_limits<int>::max()))
        ->capture_default_str();
  }
}

std::string examples(std::initializer_list<std::string_view> lines) {
  std::string out = "Examples:";
  for (std::string_view line : lines) out.append("\n  sandgate ").append(line);
  return out;
}

std::string display_name(const std::string& path) {
  if (path == "-") return "<stdin>";
  // Linux file names are bytes; every output format is UTF-8 (JSON and SARIF must be), so a byte
  // that is not UTF-8 is shown as U+FFFD, as terminals and editors show it.
  std::string out;
  std::string_view rest = path;
  bool is_nul = false;
  for (std::size_t bad; (bad = find_invalid_utf8(rest, is_nul)) != std::string_view::npos;) {
    out.append(rest.substr(0, bad));
    out += "\xEF\xBF\xBD";
    rest.remove_prefix(bad + 1);
  }
  out.append(rest);
  return out;
}

bool stdin_at_most_once(std::string_view command, const std::vector<std::string>& inputs) {
  std::size_t uses = std::count(inputs.begin(), inputs.end(), std::string("-"));
  if (uses <= 1) return true;
  std::cerr << "sandgate " << command << ": standard input (-) is named " << uses
            << " times; it can be read once (give the other inputs as files)\n";
  return false;
}

// Reads at most max_bytes + 1: enough for the loader to see that a larger input breaks the size limit,
// without reading an endless stream (/dev/zero, a pipe that never closes) into memory.
bool read_input(const std::string& path, std::string& text, const Limits& limits) {
  std::size_t cap = limits.max_bytes < SIZE_MAX ? limits.max_bytes + 1 : SIZE_MAX;
  std::ifstream file;
  std::istream* in = &std::cin;
  if (path != "-") {
    // A directory opens as a stream that fails on its first read, with no reason to print.
    if (struct stat st{}; ::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) {
      std::cerr << "sandgate: cannot read " << display_name(path) << ": it is a directory; name a file\n";
      return false;
    }
    file.open(path, std::ios::binary);
    if (!file) {
      std::cerr << "sandgate: cannot read " << display_name(path) << ": " << open_failure(path, errno) << "\n";
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
    std::cerr << "sandgate: cannot read " << display_name(path) << ": " << std::strerror(errno) << "\n";
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
