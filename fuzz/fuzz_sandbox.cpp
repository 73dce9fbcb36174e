// Sandbox text through Engine::check with the fixed policy of fixtures.h, twice: once with the
// policy alone (Python client: the built-in serverless runner, no GPUs), once with the runner
// inventory and an org that may use GPUs (TypeScript client). Properties: check_properties.h; the
// JSON loader's two readers (document/json_direct_reader.h, RapidJSON) make the same document of
// the text; and the Node binding's direct JSON reader (sandgate/json_value.h) accepts only text that
// the JSON loader reads without an error, into the same tree when no number in it is past 2^53.
// Run: build/fuzz/fuzz/fuzz_sandbox -dict=fuzz/dict/sandbox.dict CORPUS
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <tuple>
#include <vector>

#include "check_properties.h"
#include "document/loaders.h"
#include "document/node_identity.h"
#include "fixtures.h"
#include "sandgate/json_value.h"

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

// Each diagnostic's code, path and position.
std::vector<std::tuple<sandgate::Code, std::string, int, int>> diagnostic_keys(const sandgate::Document& d) {
  std::vector<std::tuple<sandgate::Code, std::string, int, int>> out;
  for (const auto& x : d.diagnostics) out.emplace_back(x.code, x.path, x.source ? x.source->line : 0, x.source ? x.source->column : 0);
  return out;
}

// A number a JS double does not hold exactly, which the direct reader rounds as one and the loader
// keeps.
bool has_big_number(const sandgate::Node& n) {
  if (n.is_int() && (n.int_overflow || n.integer > (std::int64_t{1} << 53) || n.integer < -(std::int64_t{1} << 53))) return true;
  // 2E023: the loader keeps a double, the direct reader (JS semantics) a whole number past int64.
  if (n.kind == sandgate::NodeKind::number && std::fabs(n.number) > 9007199254740992.0) return true;
  for (const auto& i : n.items) {
    if (has_big_number(i)) return true;
  }
  for (const auto& m : n.members) {
    if (has_big_number(m.value)) return true;
  }
  return false;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const Engines engines;
  std::string_view text(reinterpret_cast<const char*>(data), size);
  fuzz::check_request({&engines.plain_ctx, &engines.inventory_ctx}, text);
  sandgate::detail::set_json_direct_reader(false);
  const sandgate::Document slow = sandgate::load_document(text, sandgate::Format::json, "", "sandbox");
  sandgate::detail::set_json_direct_reader(true);
  const sandgate::Document fast = sandgate::load_document(text, sandgate::Format::json, "", "sandbox");
  std::string why;
  if (fast.loaded != slow.loaded || !sandgate::detail::identical(fast.root, slow.root, why) ||
      diagnostic_keys(fast) != diagnostic_keys(slow)) {
    fuzz::fail("JSON readers", "the direct reader and RapidJSON made different documents: " + why);
  }
  if (std::optional<sandgate::Node> direct = sandgate::node_from_json_value(std::string(text))) {
    sandgate::Document loaded = sandgate::load_document(text, sandgate::Format::json, "", "sandbox");
    if (!loaded.loaded || sandgate::has_errors(loaded.diagnostics)) fuzz::fail("direct JSON reader", "accepted what the JSON loader refuses");
    if (!(*direct == loaded.root) && !has_big_number(loaded.root)) fuzz::fail("direct JSON reader", "a tree other than the JSON loader's");
  }
  return 0;
}
