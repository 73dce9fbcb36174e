// Policy text read as JSON (no YAML fallback: the file is named *.json), with the properties of
// policy_properties.h. Run: build/fuzz/fuzz/fuzz_policy_json -dict=fuzz/dict/policy_json.dict CORPUS
#include <cstddef>
#include <cstdint>

#include "policy_properties.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  fuzz::check_policy_text(text, sandgate::Format::json, "policy.json");
  // Auto-detection (JSON first, YAML when a `{` text is flow YAML) must hold the same properties.
  fuzz::check_policy_text(text, sandgate::Format::auto_detect, "policy");
  return 0;
}
