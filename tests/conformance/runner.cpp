// Runs the conformance vectors (tests/conformance/**/*.yaml) through the C++ API; the Python and
// Node suites run the same files through their bindings. See README.md for the format.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "conformance_cases.h"

namespace fs = std::filesystem;
using namespace sandgate;

namespace {

std::string read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string sanitize(std::string s) {
  for (auto& c : s) {
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  return s;
}

class CaseTest : public testing::Test {
 public:
  CaseTest(conformance::Case c) : case_(std::move(c)) {}
  void TestBody() override {
    std::vector<std::string> failures = conformance::run_case(case_);
    for (const auto& f : failures) ADD_FAILURE() << case_.file << " :: " << case_.name << "\n" << f;
  }

 private:
  conformance::Case case_;
};

}  // namespace

int main(int argc, char** argv) {
  testing::InitGoogleTest(&argc, argv);
  if (argc < 2) {
    std::cerr << "usage: sandgate_conformance DIR\n";
    return 2;
  }
  fs::path root = argv[1];
  std::vector<fs::path> files;
  for (const auto& e : fs::recursive_directory_iterator(root)) {
    if (e.is_regular_file() && e.path().extension() == ".yaml") files.push_back(e.path());
  }
  std::sort(files.begin(), files.end());
  std::size_t count = 0;
  for (const auto& f : files) {
    std::string rel = fs::relative(f, root).string();
    std::vector<std::string> errors;
    auto cases = conformance::load_cases(read_file(f), rel, errors);
    for (const auto& e : errors) {
      std::cerr << rel << ": " << e << "\n";
    }
    if (!errors.empty()) return 1;
    for (auto& c : cases) {
      std::string suite = sanitize(fs::path(rel).replace_extension().string());
      std::string name = sanitize(c.name);
      ++count;
      testing::RegisterTest(suite.c_str(), name.c_str(), nullptr, nullptr, __FILE__, __LINE__,
                            [c]() -> testing::Test* { return new CaseTest(c); });
    }
  }
  std::cout << "conformance: " << count << " cases in " << files.size() << " files\n";
  return RUN_ALL_TESTS();
}
