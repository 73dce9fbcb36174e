// Measures the work sandgate does on many documents, through the public API only, for the scaling
// test (tests/scaling/scaling.py, which writes the documents and the plan and reads the numbers).
//
//   sandgate_scaling PLAN
//
// Every line of PLAN is one measurement, tab-separated:
//   ID  KIND  FILE  POLICY  RUNNERS  ORG  [DEFAULTS]
// KIND is `policy` (validate_policy on FILE), `runners` (Runners::parse), `org` (Org::parse) or
// `check` (load_document on FILE and on DEFAULTS, the SandboxDefaults layer, when given; then
// Engine(policy, runners, org).check). POLICY, RUNNERS and ORG are files or "-" and are loaded
// before the measurement starts (a scaled policy is measured by its own `policy` line). Files are
// read before the measurement too.
//
// Under callgrind (valgrind --tool=callgrind --collect-atstart=no), each measurement collects
// only its own instructions and dumps them with the ID as the dump's reason, so ONE valgrind
// process measures every document. Without valgrind the client requests do nothing; the driver then
// prints the wall time of each measurement (one run), which is what bench/scaling.sh can use too.
#include <valgrind/callgrind.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "sandgate/sandgate.h"

namespace {

using namespace sandgate;

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::vector<std::string> split_tabs(const std::string& line) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (true) {
    auto tab = line.find('\t', start);
    out.push_back(line.substr(start, tab == std::string::npos ? std::string::npos : tab - start));
    if (tab == std::string::npos) return out;
    start = tab + 1;
  }
}

struct Measurement {
  std::string id, kind, file, policy, runners, org, defaults = "-";
};

// A result's size, printed so that the work cannot be optimised away and a reader can see that
// each document was answered (and with how many diagnostics).
std::size_t g_sink = 0;

void run(const Measurement& m, bool collect) {
  std::string text = read_file(m.file);
  std::string defaults_text = m.defaults == "-" ? std::string() : read_file(m.defaults);
  Format format = format_for_path(m.file);
  std::shared_ptr<const Policy> policy;
  std::shared_ptr<const Runners> runners;
  std::shared_ptr<const Org> org;
  if (m.kind == "check") {
    if (m.policy != "-") policy = Policy::parse(read_file(m.policy), format_for_path(m.policy), m.policy).policy;
    if (m.runners != "-") runners = Runners::parse(read_file(m.runners), format_for_path(m.runners), m.runners).runners;
    if (m.org != "-") org = Org::parse(read_file(m.org), format_for_path(m.org), m.org).org;
  }
  std::size_t diagnostics = 0;
  auto start = std::chrono::steady_clock::now();
  if (collect) {
    CALLGRIND_ZERO_STATS;
    CALLGRIND_TOGGLE_COLLECT;
  }
  if (m.kind == "policy") {
    Result r = validate_policy(text, format, m.file);
    diagnostics = r.diagnostics().size();
  } else if (m.kind == "runners") {
    RunnersLoad r = Runners::parse(text, format, m.file);
    diagnostics = r.diagnostics.size();
  } else if (m.kind == "org") {
    OrgLoad r = Org::parse(text, format, m.file);
    diagnostics = r.diagnostics.size();
  } else if (m.kind == "check") {
    Document doc = load_document(text, format, m.file, "sandbox");
    std::optional<Document> defaults;
    if (m.defaults != "-") defaults = load_document(defaults_text, format_for_path(m.defaults), m.defaults, "defaults");
    Engine engine(policy, runners, org);
    Result r = engine.check(doc, defaults ? &*defaults : nullptr);
    diagnostics = r.diagnostics().size();
  } else {
    throw std::runtime_error("unknown kind " + m.kind);
  }
  if (collect) {
    CALLGRIND_TOGGLE_COLLECT;
    CALLGRIND_DUMP_STATS_AT(m.id.c_str());
  }
  double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  g_sink += diagnostics;
  std::printf("%s\t%zu\t%.3f\n", m.id.c_str(), diagnostics, ms);
  std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s PLAN\n", argv[0]);
    return 2;
  }
  try {
    std::vector<Measurement> plan;
    std::istringstream lines(read_file(argv[1]));
    for (std::string line; std::getline(lines, line);) {
      if (line.empty() || line[0] == '#') continue;
      auto f = split_tabs(line);
      if (f.size() != 6 && f.size() != 7) throw std::runtime_error("plan line needs 6 or 7 fields: " + line);
      plan.push_back(Measurement{f[0], f[1], f[2], f[3], f[4], f[5], f.size() == 7 ? f[6] : "-"});
    }
    // Warm up every kind once (embedded schemas are compiled on first use) outside the counts.
    std::vector<std::string> warmed;
    for (const auto& m : plan) {
      bool done = false;
      for (const auto& k : warmed) done = done || k == m.kind;
      if (done) continue;
      warmed.push_back(m.kind);
      std::printf("# warm-up ");
      run(m, false);
    }
    for (const auto& m : plan) run(m, true);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "sandgate_scaling: %s\n", e.what());
    return 2;
  }
  return g_sink == static_cast<std::size_t>(-1) ? 1 : 0;
}
