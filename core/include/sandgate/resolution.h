// What `check` decides about a request: each rule family writes its own slice. It holds no strings
// and no heap memory of its own — only values, small inline lists, and pointers into the compiled
// Request, Policy and Runners that the Result keeps alive — so a passing check allocates nothing.
// `resolved`, provenance and the explain tree are made from Request ⊕ Resolution on demand.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "sandgate/quantity.h"
#include "sandgate/request.h"
#include "sandgate/small_vector.h"

namespace sandgate {

class Policy;
namespace model {
struct Runner;
struct Origin;
struct PolicyModel;
}  // namespace model

enum class PlacementMode : std::uint8_t { serverless, cks };
// Where the placement mode came from (SPEC §7): the request, --placement, the SDK (runner_ids or
// a spillover imply CKS) or the platform's default.
enum class ModeSource : std::uint8_t { request, option, sdk, platform };
enum class QosClass : std::uint8_t { best_effort, burstable, guaranteed };
std::string_view to_string(PlacementMode m);
std::string_view to_string(QosClass q);

// A resolved cpu or memory value: the request's own, or the policy's default.
struct ResolvedQuantity {
  enum class From : std::uint8_t { none, request, policy_default };
  From from = From::none;
  const Quantity* value = nullptr;    // null when unset
  const std::string* text = nullptr;  // as written where it came from
  const model::Origin* origin = nullptr;
  explicit operator bool() const { return value != nullptr; }
};

struct ContainerResolution {
  ResolvedQuantity req_cpu, req_mem, lim_cpu, lim_mem;
  bool defaulted_cpu = false, defaulted_mem = false;  // R-RES-1
  Quantity memory_volumes;  // memory-backed volumes mounted on this container (R-VOL-3)
};

enum class LifetimeFrom : std::uint8_t { request, policy, platform };
enum class RuntimeClassFrom : std::uint8_t { request, policy_cpu_default, policy_gpu_default, runner, platform };
enum class NetworkFrom : std::uint8_t { none, declared, denied, policy_default };

struct Resolution {
  // N-PL, SPEC §1.4
  PlacementMode mode = PlacementMode::serverless;
  SmallVector<const model::Runner*, 4> candidates;
  const model::Runner* primary = nullptr;
  std::string_view runner_id;  // the primary runner's id ("" for the built-in serverless runner)
  const Policy* policy = nullptr;                    // the policy the request is checked against
  const model::PolicyModel* policy_model = nullptr;  // never null after check
  bool policy_of_runner = false;                     // the primary runner's own policy

  // N-RES, R-RES, N-QOS
  SmallVector<ContainerResolution, 2> containers;  // one per request container
  QosClass qos = QosClass::best_effort;
  Quantity unmounted_memory_volumes;  // count toward memory_ceiling only

  // R-GPU
  bool gpu = false;
  SmallVector<std::string_view, 4> eligible_gpu_types;  // sorted, unique

  // R-ANN-7: sunk.coreweave.com/group-id follows user-id
  bool group_id_from_user_id = false;

  // R-TIME
  std::int64_t lifetime = 600;
  LifetimeFrom lifetime_from = LifetimeFrom::platform;

  // R-VOL-2: volumes whose "N%" size was resolved against the memory request
  SmallVector<std::uint32_t, 4> percent_sizes;

  // R-RC
  std::string_view runtime_class;  // "<node-default>" when nothing assigns one
  RuntimeClassFrom runtime_class_from = RuntimeClassFrom::platform;

  // R-NET
  NetworkFrom egress_from = NetworkFrom::none, ingress_from = NetworkFrom::none;

  // R-SUNK
  bool slurm = false;
  bool slurm_by_name = false;  // no runners input: taken for Slurm because the name contains "slurm"
  std::string_view scheduler;
  std::int64_t cpus_per_task = 0, min_memory_node = 0;
};

}  // namespace sandgate
