#include "kept_results.h"

#include <array>
#include <cstdint>
#include <optional>

namespace sandgate_node {
namespace {

struct Ring {
  struct Slot {
    std::uint64_t id = 0;
    std::optional<sandgate::Result> result;
  };
  std::array<Slot, k_kept_results> slots;
  std::uint64_t next = 1;
};

// One ring per environment, freed with it (the addon's only instance data).
Ring& ring(Napi::Env env) {
  Ring* r = env.GetInstanceData<Ring>();
  if (!r) {
    r = new Ring();
    env.SetInstanceData(r);
  }
  return *r;
}

Ring::Slot* slot_of(Napi::Env env, double id) {
  constexpr double k_max_safe = 9007199254740991.0;
  if (!(id >= 1 && id <= k_max_safe)) return nullptr;  // NaN too
  const auto n = static_cast<std::uint64_t>(id);
  Ring::Slot& s = ring(env).slots[n % k_kept_results];
  return s.id == n && s.result ? &s : nullptr;
}

}  // namespace

double keep_result(Napi::Env env, sandgate::Result&& r) {
  Ring& g = ring(env);
  const std::uint64_t id = g.next++;
  Ring::Slot& s = g.slots[id % k_kept_results];
  s.id = id;
  s.result = std::move(r);  // frees the result this slot held
  return static_cast<double>(id);
}

const sandgate::Result* kept_result(Napi::Env env, double id) {
  Ring::Slot* s = slot_of(env, id);
  return s ? &*s->result : nullptr;
}

void drop_result(Napi::Env env, double id) {
  if (Ring::Slot* s = slot_of(env, id)) s->result.reset();
}

}  // namespace sandgate_node
