// Checks requests through the installed library, as a C++ user of find_package(sandgate) would.
// Exit 0 when every expectation holds; prints what differed otherwise.
#include <sandgate/sandgate.h>

#include <cstring>
#include <iostream>
#include <string_view>

namespace {

int failures = 0;

void expect(bool condition, std::string_view what) {
  if (!condition) {
    std::cerr << "FAILED: " << what << "\n";
    ++failures;
  }
}

bool has_code(const sandgate::Result& result, std::string_view code) {
  for (const auto& d : result.diagnostics()) {
    if (d.name() == code) return true;
  }
  return false;
}

}  // namespace

int main() {
  expect(std::strcmp(sandgate::version(), SANDGATE_EXPECTED_VERSION) == 0, "sandgate::version() is the package's version");

  auto load = sandgate::Policy::parse("constraints:\n  resources:\n    max_cpu: \"4\"\n", sandgate::Format::yaml,
                                      "policy.yaml");
  expect(load.ok(), "the policy loads and is valid");
  if (!load.policy) return 1;
  const sandgate::Engine engine{load.policy};

  // Within the policy's bounds: accepted.
  const auto fits = sandgate::load_document("resources: {cpu: \"4\", memory: 8Gi}\n", sandgate::Format::yaml,
                                            "fits.yaml");
  const auto ok = engine.check(fits);
  expect(ok.ok(), "a request at max_cpu is accepted");
  expect(ok.qos_class() == "Guaranteed", "requests == limits gives the Guaranteed QoS class");

  // Above max_cpu: rejected with the code the CLI, Python and Node report.
  const auto big = sandgate::load_document("resources: {cpu: 4001m, memory: 8Gi}\n", sandgate::Format::yaml,
                                           "big.yaml");
  const auto rejected = engine.check(big);
  expect(!rejected.ok(), "a request above max_cpu is rejected");
  expect(has_code(rejected, "SG_RESOURCE_ABOVE_MAX"), "the rejection is SG_RESOURCE_ABOVE_MAX");

  // An invalid policy is reported, not thrown.
  auto bad = sandgate::Policy::parse("constraints:\n  resources:\n    max_cpu: lots\n", sandgate::Format::yaml,
                                     "bad.yaml");
  expect(!bad.ok(), "a policy with an unreadable quantity is invalid");

  if (failures == 0) std::cout << "consumer: sandgate " << sandgate::version() << " ok\n";
  return failures == 0 ? 0 : 1;
}
