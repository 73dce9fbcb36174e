// A fuzzer-built (policy, sandbox) pair through Policy::parse and Engine::check.
//
// Input layout: one flags byte, then texts separated by a line holding only `%%`:
//   <flags>POLICY\n%%\nSANDBOX[\n%%\nDEFAULTS[\n%%\nOVERRIDES]]
// (`%` cannot start a line of a YAML document's content, so the separator never splits a real
// document.) Flags: bit 0 TypeScript client; bits 1-2 placement override (none, serverless, cks);
// bit 3 the fixed runner inventory; bit 4 the fixed org (GPUs allowed).
// Properties: the check ones (check_properties.h), and on sampled inputs the policy ones
// (policy_properties.h).
// Run: build/fuzz/fuzz/fuzz_check -dict=fuzz/dict/check.dict CORPUS
#include <cstddef>
#include <cstdint>
#include <vector>

#include "check_properties.h"
#include "fixtures.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::uint8_t flags = data[0];
  std::string_view rest(reinterpret_cast<const char*>(data) + 1, size - 1);
  std::vector<std::string_view> parts;
  constexpr std::string_view k_sep = "\n%%\n";
  while (parts.size() < 3) {
    std::size_t at = rest.find(k_sep);
    if (at == std::string_view::npos) break;
    parts.push_back(rest.substr(0, at));
    rest.remove_prefix(at + k_sep.size());
  }
  parts.push_back(rest);
  if (parts.size() < 2) parts.push_back("{}");  // no separator: the whole input is the policy

  const auto& fx = fuzz::fixtures();
  std::string_view policy_text = parts[0];
  // The policy text's own properties are fuzz_policy_yaml's and fuzz_policy_json's, which run them
  // on every input; here on one input in eight, so that this target's time goes to checks.
  if (fuzz::sampled(policy_text)) fuzz::check_policy_text(policy_text, sandgate::Format::auto_detect, "policy");

  sandgate::PolicyLoad load = sandgate::Policy::parse(policy_text, sandgate::Format::auto_detect, "policy");
  sandgate::Document policy_doc = sandgate::load_document(policy_text, sandgate::Format::auto_detect, "policy", "policy");
  sandgate::Engine engine(load.policy, (flags & 8) ? fx.runners : nullptr, (flags & 16) ? fx.org : nullptr);
  fuzz::CheckContext ctx;
  ctx.engine = &engine;
  ctx.options.client = (flags & 1) ? "typescript" : "python";
  static constexpr const char* k_placements[] = {"", "serverless", "cks", ""};
  ctx.options.placement = k_placements[(flags >> 1) & 3];
  ctx.roots = fx.roots();
  ctx.roots["policy"] = policy_doc.loaded ? &policy_doc.root : nullptr;

  std::optional<std::string_view> defaults, overrides;
  if (parts.size() > 2) defaults = parts[2];
  if (parts.size() > 3) overrides = parts[3];
  fuzz::check_request({&ctx}, parts[1], defaults, overrides);
  return 0;
}
