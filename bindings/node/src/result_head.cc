// The head of a result as JSON text (result_head.h): the core's own writer of the result
// (core/src/render/json_writer.h, which expands core/include/sandgate/result_shape.def) with the
// output fields deferred, handed over when JSON.parse reads every number back exactly.
#include "result_head.h"

#include "sandgate/render.h"

namespace sandgate_node {
namespace {

constexpr std::int64_t k_max_safe = 9007199254740991;  // Number.MAX_SAFE_INTEGER

bool safe(std::int64_t v) { return v >= -k_max_safe && v <= k_max_safe; }

// The head's only integers that come from an input: result_to_js makes a BigInt of one beyond
// 2^53, which JSON.parse cannot.
bool exact_in_json(const sandgate::Result& r) {
  if (!r.checked()) return true;
  if (auto g = r.gpu(); g && !(safe(g->count) && safe(g->memory_gb))) return false;
  if (auto s = r.slurm(); s && !(safe(s->cpus_per_task) && safe(s->min_memory_node))) return false;
  return true;
}

}  // namespace

bool result_head_json(const sandgate::Result& r, std::string& out) {
  if (!exact_in_json(r)) return false;
  out = sandgate::result_head_to_json(r);
  return true;
}

}  // namespace sandgate_node
