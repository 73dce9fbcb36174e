// R-GPU (SPEC §6.3): entitlement, counts, type/memory matching against the runners, and the
// runtime pitfalls of GPU sandboxes.
#include <algorithm>
#include <set>

#include "engine/rules.h"
#include "rules/policy_rules.h"

namespace sandgate::engine {
namespace {

std::string lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  return s;
}

bool offers_type(const model::Runner& r, const std::string& type) {
  if (r.offers_every_gpu) return true;
  return std::any_of(r.gpu_types.begin(), r.gpu_types.end(), [&](const model::GpuType& g) { return g.type == type; });
}

std::vector<std::string> types_with_memory(const model::Runner& r, std::int64_t memory_gb) {
  std::vector<std::string> out;
  for (const auto& g : r.gpu_types) {
    if (g.memory_gb >= memory_gb) out.push_back(g.type);
  }
  return out;
}

}  // namespace

// R-GPU-6/7: keep the candidates that offer the requested GPU (SPEC §1.4), and say why none do.
void filter_gpu_candidates(Context& ctx) {
  const GpuRequest* gpu = ctx.gpu();
  if (!gpu || ctx.candidates.empty()) return;
  GpuResolution res;
  res.count = gpu->count;
  res.type = gpu->type;
  res.memory_gb = gpu->memory_gb;
  std::vector<const model::Runner*> kept;
  std::set<std::string> eligible;
  for (const auto* r : ctx.candidates) {
    bool ok = true;
    if (!gpu->type.empty()) {
      ok = offers_type(*r, gpu->type);
      if (ok) eligible.insert(gpu->type);
    } else if (gpu->memory_gb > 0 && !r->offers_every_gpu) {
      auto types = types_with_memory(*r, gpu->memory_gb);
      ok = !types.empty();
      eligible.insert(types.begin(), types.end());
    } else {
      for (const auto& g : r->gpu_types) eligible.insert(g.type);
      ok = r->offers_every_gpu || !r->gpu_types.empty();
    }
    if (ok) kept.push_back(r);
  }
  res.eligible_types.assign(eligible.begin(), eligible.end());
  ctx.result.gpu = res;
  bool serverless = ctx.mode == "serverless";
  if (!kept.empty()) {
    ctx.candidates = kept;
    if (gpu->memory_gb > 0 && eligible.size() > 1) {
      std::string names;
      for (const auto& t : eligible) names += (names.empty() ? "" : ", ") + t;
      ctx.report(Code::GPU_TYPES_ELIGIBLE, gpu->at,
                 "memory_gb " + std::to_string(gpu->memory_gb) + " is met by " + std::to_string(eligible.size()) +
                     " GPU types (" + names + "); which one the sandbox gets is undefined",
                 "pin type instead if the model matters");
    }
    return;
  }
  // No candidate offers it. Name what is offered, and a case-insensitive match if there is one.
  std::set<std::string> offered;
  for (const auto* r : ctx.candidates) {
    for (const auto& g : r->gpu_types) offered.insert(g.type + (g.memory_gb ? " (" + std::to_string(g.memory_gb) + " GB)" : ""));
  }
  std::string offered_text;
  for (const auto& o : offered) offered_text += (offered_text.empty() ? "" : ", ") + o;
  if (!gpu->type.empty()) {
    std::string near;
    for (const auto* r : ctx.candidates) {
      for (const auto& g : r->gpu_types) {
        if (lower(g.type) == lower(gpu->type)) near = g.type;
      }
    }
    Cursor at = gpu->at["type"] ? gpu->at["type"] : gpu->at;
    if (serverless) {
      ctx.report(Code::GPU_SERVERLESS_TYPE, at,
                 "serverless offers only \"" + ctx.candidates.front()->gpu_types.front().type + "\", not \"" + gpu->type + "\"",
                 "omit type on serverless: the platform assigns the GPU");
    } else {
      ctx.report(Code::GPU_TYPE_UNAVAILABLE, at,
                 "no candidate runner offers GPU type \"" + gpu->type + "\"" +
                     (offered_text.empty() ? "" : " (offered: " + offered_text + ")"),
                 near.empty() ? "use a type from supported_gpu_types, or omit type"
                              : "GPU types are case-sensitive: did you mean \"" + near + "\"?");
    }
  } else if (gpu->memory_gb > 0) {
    ctx.report(Code::GPU_MEMORY_UNAVAILABLE, gpu->at["memory_gb"] ? gpu->at["memory_gb"] : gpu->at,
               "no candidate runner offers a GPU with at least " + std::to_string(gpu->memory_gb) + " GB" +
                   (offered_text.empty() ? "" : " (offered: " + offered_text + ")"),
               "lower memory_gb, or choose another runner");
  } else {
    ctx.report(Code::GPU_TYPE_UNAVAILABLE, gpu->at, "no candidate runner offers GPUs",
               "choose a runner with GPU nodes (runner_ids)");
  }
}

void check_gpu(Context& ctx) {
  // R-GPU-11: GPUs only on the primary container.
  for (const auto& c : ctx.containers) {
    if (c.gpu && !c.primary) {
      ctx.report(Code::GPU_NOT_PRIMARY, c.gpu->at, "container \"" + c.name + "\" requests a GPU but is not the primary container",
                 "move the GPU to the primary container");
    }
  }
  const GpuRequest* gpu = ctx.gpu();
  if (!gpu) return;
  const auto& pm = *ctx.pm;
  // R-GPU-1, R-GPU-2: organisation gates.
  if (!ctx.org.gpu_allowed) {
    ctx.report(Code::GPU_NOT_ALLOWED, gpu->at, "this organization is not entitled to create GPU sandboxes",
               "GPU sandboxes are a private preview: ask your account team (or set gpu_allowed: true in --org)");
  }
  if (ctx.org.max_gpus_per_sandbox && gpu->count > *ctx.org.max_gpus_per_sandbox) {
    ctx.report(Code::GPU_COUNT_EXCEEDED, gpu->at["count"] ? gpu->at["count"] : gpu->at,
               std::to_string(gpu->count) + " GPUs is above the organisation's limit of " +
                   std::to_string(*ctx.org.max_gpus_per_sandbox) + " per sandbox",
               "request fewer GPUs, or ask support to raise the limit");
  }
  // R-GPU-4: the policy's per-container cap (omitted = no cap, 0 forbids).
  if (pm.max_gpu_count && gpu->count > *pm.max_gpu_count) {
    ctx.report(Code::GPU_POLICY_MAX, gpu->at["count"] ? gpu->at["count"] : gpu->at,
               *pm.max_gpu_count == 0 ? "the policy forbids GPUs (max_gpu_count is 0)"
                                      : "gpu count exceeds the policy maximum: " + std::to_string(gpu->count) + " > max_gpu_count " +
                                            std::to_string(*pm.max_gpu_count),
               "request fewer GPUs, or ask the admin to raise maxGpuCount");
  }
  if (ctx.mode == "serverless") {
    // R-GPU-5
    if (gpu->count != 1) {
      ctx.report(Code::GPU_SERVERLESS_COUNT, gpu->at["count"] ? gpu->at["count"] : gpu->at,
                 "serverless GPU sandboxes get exactly 1 GPU, not " + std::to_string(gpu->count),
                 "request 1 GPU, or use a CKS runner for more");
    }
    if (!gpu->type.empty() && ctx.result.gpu && !ctx.result.gpu->eligible_types.empty()) {
      ctx.report(Code::GPU_SERVERLESS_TYPE_SET, gpu->at["type"],
                 "type \"" + gpu->type + "\" is the serverless GPU, but type acts as a filter there",
                 "omit type on serverless: the platform assigns the GPU");
    }
  } else if (!ctx.candidates.empty()) {
    // R-GPU-8: one node's GPUs bound a sandbox.
    std::optional<std::int64_t> most;
    bool unknown = false;
    for (const auto* r : ctx.candidates) {
      if (!r->max_gpu_count) {
        unknown = true;
        continue;
      }
      most = std::max(most.value_or(0), *r->max_gpu_count);
    }
    if (!unknown && most && gpu->count > *most) {
      ctx.report(Code::GPU_NODE_CAPACITY, gpu->at["count"] ? gpu->at["count"] : gpu->at,
                 std::to_string(gpu->count) + " GPUs is more than any eligible runner has on one node (at most " +
                     std::to_string(*most) + ")",
                 "a sandbox runs on a single node: request at most " + std::to_string(*most));
    }
  }
  // R-GPU-10: a GPU request reserves GPUs only.
  const ContainerResources* primary = nullptr;
  for (const auto& c : ctx.containers) {
    if (c.gpu) primary = &c;
  }
  // The product documentation asks for both cpu and memory; one left to nobody is reported too.
  if (primary) {
    bool no_cpu = !primary->client_cpu && !pm.default_cpu.value;
    bool no_mem = !primary->client_mem && !pm.default_memory.value;
    std::string missing = no_cpu && no_mem ? "no cpu or memory is" : no_cpu ? "no cpu is" : "no memory is";
    if (no_cpu || no_mem) {
      ctx.report(Code::GPU_WITHOUT_CPU_MEMORY, gpu->at,
                 "a GPU request reserves only GPUs: " + missing + " declared and the policy has no default for it",
                 "set cpu and memory for the work that runs beside the GPU");
    }
  }
}

void check_gpu_runtime(Context& ctx) {
  const GpuRequest* gpu = ctx.gpu();
  if (!gpu || !ctx.result.runtime_class) return;
  const auto& pm = *ctx.pm;
  const auto& rc = *ctx.result.runtime_class;
  const model::Runner* runner = ctx.primary;
  // R-GPU-9: a pinned runtime class is used verbatim, GPU or not.
  if (rc.from != "policy.constraints.security.default_gpu_runtime_class" && rc.from != "runner" &&
      rc.from != "platform") {
    std::set<std::string> cpu_classes, gpu_classes;
    if (!pm.default_cpu_runtime_class.empty()) cpu_classes.insert(pm.default_cpu_runtime_class);
    if (!pm.default_gpu_runtime_class.empty()) gpu_classes.insert(pm.default_gpu_runtime_class);
    if (runner && !runner->runtime_class_cpu.empty()) cpu_classes.insert(runner->runtime_class_cpu);
    if (runner && !runner->runtime_class_gpu.empty()) gpu_classes.insert(runner->runtime_class_gpu);
    Cursor at = ctx.root()["runtime_class"];
    if (cpu_classes.count(rc.value) && !gpu_classes.count(rc.value)) {
      ctx.report(Code::GPU_RUNTIME_CLASS_CPU, at,
                 "runtime_class \"" + rc.value + "\" is a CPU runtime class: a GPU sandbox pinned to it has no GPU access",
                 "leave runtime_class unset so the GPU class is chosen");
    } else if (!gpu_classes.count(rc.value)) {
      ctx.report(Code::GPU_RUNTIME_CLASS_UNKNOWN, at,
                 "runtime_class \"" + rc.value + "\" is pinned on a GPU sandbox, and neither the policy nor the runner names it as a GPU class",
                 "leave runtime_class unset unless you know the class exposes GPUs");
    }
  }
  if (ctx.mode == "cks") {
    // R-GPU-12
    std::string v = lower(rc.value);
    if (v.find("kata") != std::string::npos && (v.find("gpu") != std::string::npos || v.find("nvidia") != std::string::npos)) {
      Cursor at = ctx.root()["runtime_class"];
      if (at) {
        ctx.report(Code::GPU_KATA_ON_CKS, at, "\"" + rc.value + "\" is a Kata GPU runtime class, which CKS clusters do not support",
                   "leave runtime_class unset: CKS GPU sandboxes run with the cluster's default runtime");
      } else {
        ctx.report_policy(Code::GPU_KATA_ON_CKS, pm.default_gpu_runtime_class_origin,
                          "default_gpu_runtime_class \"" + rc.value + "\" is a Kata GPU runtime class, which CKS clusters do not support",
                          "leave defaultGpuRuntimeClass unset");
      }
    } else if (rc.value == "<node-default>" || v.find("runc") != std::string::npos) {
      ctx.report(Code::GPU_NOT_ISOLATED, gpu->at,
                 "this CKS GPU sandbox runs with the cluster's default runtime (runc): not a secure runtime; do not run untrusted code",
                 "run untrusted code on serverless GPUs, which run in a VM");
    }
  }
  // R-GPU-13
  if (ctx.slurm) {
    ctx.report(Code::GPU_ON_SUNK, gpu->at,
               "runner \"" + (runner ? runner->id : std::string()) + "\" schedules through Slurm (" + ctx.scheduler +
                   "): SUNK integration is CPU-only",
               "use a runner without the SUNK scheduler for GPU sandboxes");
  }
}

}  // namespace sandgate::engine
