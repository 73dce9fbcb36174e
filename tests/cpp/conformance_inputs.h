// The texts of the conformance vectors (tests/conformance), for unit tests that run every input
// text through one part of the engine: each case's string members (sandbox, policy, defaults, …).
#pragma once

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "sandgate/document.h"

namespace sandgate::test {

inline std::string read_file(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

struct ConformanceInput {
  std::string file;   // the vector file's name
  std::string field;  // the case's member: "sandbox", "policy", …
  std::string text;
};

// Every string member of every case, in file order.
inline std::vector<ConformanceInput> conformance_inputs() {
  std::vector<ConformanceInput> out;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(std::filesystem::path(SANDGATE_SOURCE_DIR) / "tests" / "conformance")) {
    if (entry.path().extension() != ".yaml") continue;
    Document cases = load_document(read_file(entry.path()), Format::yaml, entry.path().string(), "cases");
    const Node* list = cases.loaded ? cases.root.find("cases") : nullptr;
    if (!list) continue;
    for (const auto& c : list->items) {
      for (const auto& m : c.members) {
        if (m.value.is_string()) out.push_back({entry.path().filename().string(), m.key, m.value.text});
      }
    }
  }
  return out;
}

}  // namespace sandgate::test
