// Sandbox text through Engine::check with the fixed policy of fixtures.h, twice: once with the
// policy alone (Python client: the built-in serverless runner, no GPUs), once with the runner
// inventory and an org that may use GPUs (TypeScript client). Properties: check_properties.h.
// Run: build/fuzz/fuzz/fuzz_sandbox -dict=fuzz/dict/sandbox.dict CORPUS
#include <cstddef>
#include <cstdint>

#include "check_properties.h"
#include "fixtures.h"

namespace {

struct Engines {
  sandgate::Engine plain;
  sandgate::Engine inventory;
  fuzz::CheckContext plain_ctx, inventory_ctx;
  Engines()
      : plain(fuzz::fixtures().policy),
        inventory(fuzz::fixtures().policy, fuzz::fixtures().runners, fuzz::fixtures().org) {
    plain_ctx.engine = &plain;
    plain_ctx.options.client = "python";
    plain_ctx.roots = fuzz::fixtures().roots();
    inventory_ctx.engine = &inventory;
    inventory_ctx.options.client = "typescript";
    inventory_ctx.roots = fuzz::fixtures().roots();
  }
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const Engines engines;
  std::string_view text(reinterpret_cast<const char*>(data), size);
  fuzz::check_request({&engines.plain_ctx, &engines.inventory_ctx}, text);
  return 0;
}
