// Policy text read as YAML: Policy::parse (load + validate_policy), with the properties of
// policy_properties.h. Run: build/fuzz/fuzz/fuzz_policy_yaml -dict=fuzz/dict/policy_yaml.dict CORPUS
#include <cstddef>
#include <cstdint>

#include "policy_properties.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  fuzz::check_policy_text(text, sandgate::Format::yaml, "policy.yaml");
  return 0;
}
