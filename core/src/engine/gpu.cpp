// R-GPU (SPEC §6.3): entitlement, counts, type/memory matching against the runners, and the
// runtime pitfalls of GPU sandboxes. (R-GPU-3 and R-GPU-11 are about the request alone and are
// said when it is compiled.)
#include <algorithm>
#include <set>

#include "engine/rules.h"
#include "util/text.h"

namespace sandgate::engine {
namespace {

bool offers_type(const model::Runner& r, std::string_view type) {
  if (r.offers_every_gpu) return true;
  return std::any_of(r.gpu_types.begin(), r.gpu_types.end(), [&](const model::GpuType& g) { return g.type == type; });
}

// Adds `type` to the sorted, unique list.
void add_type(SmallVector<std::string_view, 4>& types, std::string_view type) {
  std::size_t i = 0;
  while (i < types.size() && types[i] < type) ++i;
  if (i < types.size() && types[i] == type) return;
  types.push_back(type);
  for (std::size_t k = types.size() - 1; k > i; --k) types[k] = types[k - 1];
  types[i] = type;
}

bool contains_ci(std::string_view hay, std::string_view needle) {
  if (needle.size() > hay.size()) return false;
  for (std::size_t i = 0; i + needle.size() <= hay.size(); ++i) {
    bool match = true;
    for (std::size_t k = 0; k < needle.size() && match; ++k) {
      char c = hay[i + k];
      match = (c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c) == needle[k];
    }
    if (match) return true;
  }
  return false;
}

// The types the candidate runners offer, for messages: "A100 (40 GB), H100 (80 GB)".
std::string offered(const Resolution& res) {
  std::set<std::string> names;
  for (const auto* r : res.candidates) {
    for (const auto& g : r->gpu_types) names.insert(g.type + (g.memory_gb ? " (" + std::to_string(g.memory_gb) + " GB)" : ""));
  }
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

const model::GpuRequest& gpu_of(const FindingContext& cx) { return *cx.request.gpu(); }

}  // namespace

// R-GPU-6/7: keep the candidates that offer the requested GPU (SPEC §1.4), and say why none do.
void filter_gpu_candidates(const RuleInput& in, Resolution& res, Findings& f) {
  const model::GpuRequest* gpu = in.request.gpu();
  if (!gpu || res.candidates.empty()) return;
  res.gpu = true;
  SmallVector<const model::Runner*, 4> kept;
  for (const auto* r : res.candidates) {
    bool ok = true;
    if (!gpu->type.empty()) {
      ok = offers_type(*r, gpu->type);
      if (ok) add_type(res.eligible_gpu_types, gpu->type);
    } else if (gpu->memory_gb > 0 && !r->offers_every_gpu) {
      ok = false;
      for (const auto& g : r->gpu_types) {
        if (g.memory_gb >= gpu->memory_gb) {
          add_type(res.eligible_gpu_types, g.type);
          ok = true;
        }
      }
    } else {
      for (const auto& g : r->gpu_types) add_type(res.eligible_gpu_types, g.type);
      ok = r->offers_every_gpu || !r->gpu_types.empty();
    }
    if (ok) kept.push_back(r);
  }
  if (!kept.empty()) {
    res.candidates = kept;
    if (gpu->memory_gb > 0 && res.eligible_gpu_types.size() > 1) {
      f.add(Code::GPU_TYPES_ELIGIBLE, in_request(gpu->at), [](const FindingContext& cx, const Finding&, std::string& m, std::string& h) {
        std::string names;
        for (auto t : cx.resolution.eligible_gpu_types) names += (names.empty() ? "" : ", ") + std::string(t);
        m = "memory_gb " + std::to_string(gpu_of(cx).memory_gb) + " is met by " + std::to_string(cx.resolution.eligible_gpu_types.size()) +
            " GPU types (" + names + "); which one the sandbox gets is undefined";
        h = "pin type instead if the model matters";
      });
    }
    return;
  }
  // No candidate offers it. Name what is offered, and a case-insensitive match if there is one.
  if (!gpu->type.empty()) {
    if (res.mode == PlacementMode::serverless) {
      f.add(Code::GPU_SERVERLESS_TYPE, in_request(gpu->type_or_gpu()), [](const FindingContext& cx, const Finding&, std::string& m, std::string& h) {
        m = "serverless offers only \"" + cx.resolution.candidates.front()->gpu_types.front().type + "\", not \"" + gpu_of(cx).type + "\"";
        h = "omit type on serverless: the platform assigns the GPU";
      });
    } else {
      f.add(Code::GPU_TYPE_UNAVAILABLE, in_request(gpu->type_or_gpu()), [](const FindingContext& cx, const Finding&, std::string& m, std::string& h) {
        const std::string& type = gpu_of(cx).type;
        std::string list = offered(cx.resolution), near;
        for (const auto* r : cx.resolution.candidates) {
          for (const auto& g : r->gpu_types) {
            if (ascii_lower(g.type) == ascii_lower(type)) near = g.type;
          }
        }
        m = "no candidate runner offers GPU type \"" + type + "\"" + (list.empty() ? "" : " (offered: " + list + ")");
        h = near.empty() ? "use a type from supported_gpu_types, or omit type" : "GPU types are case-sensitive: did you mean \"" + near + "\"?";
      });
    }
  } else if (gpu->memory_gb > 0) {
    f.add(Code::GPU_MEMORY_UNAVAILABLE, in_request(gpu->memory_or_gpu()), [](const FindingContext& cx, const Finding&, std::string& m, std::string& h) {
      std::string list = offered(cx.resolution);
      m = "no candidate runner offers a GPU with at least " + std::to_string(gpu_of(cx).memory_gb) + " GB" +
          (list.empty() ? "" : " (offered: " + list + ")");
      h = "lower memory_gb, or choose another runner";
    });
  } else {
    f.add(Code::GPU_TYPE_UNAVAILABLE, in_request(gpu->at), [](const FindingContext&, const Finding&, std::string& m, std::string& h) {
      m = "no candidate runner offers GPUs";
      h = "choose a runner with GPU nodes (runner_ids)";
    });
  }
}

void check_gpu(const RuleInput& in, const model::PolicyModel& pm, const Resolution& res, Findings& f) {
  const model::Container* primary = in.request.gpu_container();
  if (!primary) return;
  const model::GpuRequest& gpu = *primary->gpu;
  // R-GPU-1, R-GPU-2: organisation gates.
  if (!in.org.gpu_allowed) {
    Finding& found = f.add(Code::GPU_NOT_ALLOWED, in_request(gpu.at), [](const FindingContext&, const Finding&, std::string& m, std::string& h) {
      m = "this organization is not entitled to create GPU sandboxes";
      h = "GPU sandboxes are a private preview: ask your account team (or set gpu_allowed: true in --org)";
    });
    relate_org(found, in.org.gpu_allowed_origin, "the entitlement is set here");
  }
  if (in.org.max_gpus_per_sandbox && gpu.count > *in.org.max_gpus_per_sandbox) {
    Finding& found = f.add(Code::GPU_COUNT_EXCEEDED, in_request(gpu.count_or_gpu()), [](const FindingContext& cx, const Finding&, std::string& m, std::string& h) {
      m = std::to_string(gpu_of(cx).count) + " GPUs is above the organisation's limit of " +
          std::to_string(*cx.inputs.org_model.max_gpus_per_sandbox) + " per sandbox";
      h = "request fewer GPUs, or ask support to raise the limit";
    });
    relate_org(found, in.org.max_gpus_origin, "the limit is set here");
  }
  // R-GPU-4: the policy's per-container cap (omitted = no cap, 0 forbids).
  if (pm.max_gpu_count && gpu.count > *pm.max_gpu_count) {
    Finding& found = f.add(Code::GPU_POLICY_MAX, in_request(gpu.count_or_gpu()), [](const FindingContext& cx, const Finding&, std::string& m, std::string& h) {
      std::int64_t max = *cx.policy.max_gpu_count;
      m = max == 0 ? "the policy forbids GPUs (max_gpu_count is 0)"
                   : "gpu count exceeds the policy maximum: " + std::to_string(gpu_of(cx).count) + " > max_gpu_count " + std::to_string(max);
      h = "request fewer GPUs, or ask the admin to raise maxGpuCount";
    });
    relate_policy(found, pm.max_gpu_count_origin, "the limit is set here");
  }
  if (res.mode == PlacementMode::serverless) {
    // R-GPU-5
    if (gpu.count != 1) {
      f.add(Code::GPU_SERVERLESS_COUNT, in_request(gpu.count_or_gpu()), [](const FindingContext& cx, const Finding&, std::string& m, std::string& h) {
        m = "serverless GPU sandboxes get exactly 1 GPU, not " + std::to_string(gpu_of(cx).count);
        h = "request 1 GPU, or use a CKS runner for more";
      });
    }
    if (!gpu.type.empty() && res.gpu && !res.eligible_gpu_types.empty()) {
      f.add(Code::GPU_SERVERLESS_TYPE_SET, in_request(gpu.type_or_gpu()), [](const FindingContext& cx, const Finding&, std::string& m, std::string& h) {
        m = "type \"" + gpu_of(cx).type + "\" is the serverless GPU, but type acts as a filter there";
        h = "omit type on serverless: the platform assigns the GPU";
      });
    }
  } else if (!res.candidates.empty()) {
    // R-GPU-8: one node's GPUs bound a sandbox.
    std::optional<std::int64_t> most;
    bool unknown = false;
    for (const auto* r : res.candidates) {
      if (!r->max_gpu_count) {
        unknown = true;
        continue;
      }
      most = std::max(most.value_or(0), *r->max_gpu_count);
    }
    if (!unknown && most && gpu.count > *most) {
      Finding& found = f.add(Code::GPU_NODE_CAPACITY, in_request(gpu.count_or_gpu()), [](const FindingContext& cx, const Finding& x, std::string& m, std::string& h) {
        m = std::to_string(gpu_of(cx).count) + " GPUs is more than any eligible runner has on one node (at most " + std::to_string(x.n[0]) + ")";
        h = "a sandbox runs on a single node: request at most " + std::to_string(x.n[0]);
      });
      found.n[0] = *most;
    }
  }
  // R-GPU-10: a GPU request reserves GPUs only. The product documentation asks for both cpu and
  // memory; one left to nobody is reported too.
  const model::Container* last = nullptr;
  for (const auto& c : in.request.containers) {
    if (c.gpu) last = &c;
  }
  if (last) {
    bool no_cpu = !last->client_cpu && !pm.default_cpu.value;
    bool no_mem = !last->client_mem && !pm.default_memory.value;
    if (no_cpu || no_mem) {
      Finding& found = f.add(Code::GPU_WITHOUT_CPU_MEMORY, in_request(gpu.at), [](const FindingContext&, const Finding& x, std::string& m, std::string& h) {
        std::string missing = x.n[0] && x.n[1] ? "no cpu or memory is" : x.n[0] ? "no cpu is" : "no memory is";
        m = "a GPU request reserves only GPUs: " + missing + " declared and the policy has no default for it";
        h = "set cpu and memory for the work that runs beside the GPU";
      });
      found.n[0] = no_cpu;
      found.n[1] = no_mem;
    }
  }
}

void check_gpu_runtime(const RuleInput& in, const model::PolicyModel& pm, const Resolution& res, Findings& f) {
  const model::GpuRequest* gpu = in.request.gpu();
  if (!gpu) return;
  std::string_view rc = res.runtime_class;
  const model::Runner* runner = res.primary;
  const model::Text& pin = in.request.runtime_class;
  FindingPlace pin_place = pin ? in_request(pin.origin) : request_root();
  // R-GPU-9: a pinned runtime class is used verbatim, GPU or not. (An unpinned GPU sandbox never
  // gets the policy's CPU default: R-RC gives it the GPU default, the runner's or the node's.)
  if (res.runtime_class_from == RuntimeClassFrom::request) {
    auto named = [&](std::string_view a, std::string_view b) { return (!a.empty() && a == rc) || (!b.empty() && b == rc); };
    bool cpu_class = named(pm.default_cpu_runtime_class, runner ? std::string_view(runner->runtime_class_cpu) : std::string_view());
    bool gpu_class = named(pm.default_gpu_runtime_class, runner ? std::string_view(runner->runtime_class_gpu) : std::string_view());
    if (cpu_class && !gpu_class) {
      f.add(Code::GPU_RUNTIME_CLASS_CPU, pin_place, [](const FindingContext& cx, const Finding&, std::string& m, std::string& h) {
        m = "runtime_class \"" + std::string(cx.resolution.runtime_class) + "\" is a CPU runtime class: a GPU sandbox pinned to it has no GPU access";
        h = "leave runtime_class unset so the GPU class is chosen";
      });
    } else if (!gpu_class) {
      f.add(Code::GPU_RUNTIME_CLASS_UNKNOWN, pin_place, [](const FindingContext& cx, const Finding&, std::string& m, std::string& h) {
        m = "runtime_class \"" + std::string(cx.resolution.runtime_class) +
            "\" is pinned on a GPU sandbox, and neither the policy nor the runner names it as a GPU class";
        h = "leave runtime_class unset unless you know the class exposes GPUs";
      });
    }
  }
  if (res.mode == PlacementMode::cks) {
    // R-GPU-12
    if (contains_ci(rc, "kata") && (contains_ci(rc, "gpu") || contains_ci(rc, "nvidia"))) {
      if (pin) {
        f.add(Code::GPU_KATA_ON_CKS, pin_place, [](const FindingContext& cx, const Finding&, std::string& m, std::string& h) {
          m = "\"" + std::string(cx.resolution.runtime_class) + "\" is a Kata GPU runtime class, which CKS clusters do not support";
          h = "leave runtime_class unset: CKS GPU sandboxes run with the cluster's default runtime";
        });
      } else {
        f.add(Code::GPU_KATA_ON_CKS, in_policy(pm.default_gpu_runtime_class_origin), [](const FindingContext& cx, const Finding&, std::string& m, std::string& h) {
          m = "default_gpu_runtime_class \"" + std::string(cx.resolution.runtime_class) + "\" is a Kata GPU runtime class, which CKS clusters do not support";
          h = "leave defaultGpuRuntimeClass unset";
        });
      }
    } else if (rc == "<node-default>" || contains_ci(rc, "runc")) {
      f.add(Code::GPU_NOT_ISOLATED, in_request(gpu->at), [](const FindingContext&, const Finding&, std::string& m, std::string& h) {
        m = "this CKS GPU sandbox runs with the cluster's default runtime (runc): not a secure runtime; do not run untrusted code";
        h = "run untrusted code on serverless GPUs, which run in a VM";
      });
    }
  }
  // R-GPU-13
  if (res.slurm) {
    f.add(Code::GPU_ON_SUNK, in_request(gpu->at), [](const FindingContext& cx, const Finding&, std::string& m, std::string& h) {
      m = "runner \"" + std::string(cx.resolution.runner_id) + "\" schedules through Slurm (" + std::string(cx.resolution.scheduler) +
          "): SUNK integration is CPU-only";
      h = "use a runner without the SUNK scheduler for GPU sandboxes";
    });
  }
}

}  // namespace sandgate::engine
