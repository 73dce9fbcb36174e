// R-SUNK (SPEC §6.8): when the policy routes pods through a Slurm (SUNK) scheduler, the pod
// becomes a Slurm job: report its parameters, and check what the SUNK scheduler rejects.
#include <fmt/format.h>

#include "engine/rules.h"

namespace sandgate::engine {
namespace {

bool contains_slurm(std::string_view s) {
  constexpr std::string_view k = "slurm";
  for (std::size_t i = 0; i + k.size() <= s.size(); ++i) {
    bool match = true;
    for (std::size_t j = 0; j < k.size() && match; ++j) {
      char c = s[i + j];
      match = (c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c) == k[j];
    }
    if (match) return true;
  }
  return false;
}

// With a runners input, the runner names its SUNK scheduler (or has none); without one, a
// scheduler is taken for Slurm by its name (SPEC §6.8).
bool knows_runner(const RuleInput& in, const Resolution& res) { return in.inventory && res.primary && !res.primary->builtin; }

std::string detected(const FindingContext& cx) {
  if (!cx.resolution.slurm_by_name) return {};
  return " (scheduler \"" + std::string(cx.resolution.scheduler) + "\" is taken for Slurm because its name contains \"slurm\")";
}

FindingPlace resources_or_root(const model::RequestModel& req) { return in_request_or_root(req.resources_at); }

}  // namespace

void resolve_scheduler(const RuleInput& in, const model::PolicyModel& pm, Resolution& res) {
  res.scheduler = pm.scheduler_name;
  res.slurm = false;
  if (res.scheduler.empty()) return;
  if (knows_runner(in, res)) {
    res.slurm = res.primary->sunk_scheduler && *res.primary->sunk_scheduler == res.scheduler;
  } else {
    res.slurm = contains_slurm(res.scheduler);
    res.slurm_by_name = res.slurm;
  }
}

void check_sunk(const RuleInput& in, const model::PolicyModel& pm, Resolution& res, Findings& f) {
  if (!res.slurm) return;
  const model::RequestModel& req = in.request;
  for (std::size_t i = 0; i < req.containers.size(); ++i) {
    const model::Container& c = req.containers[i];
    const ContainerResolution& cr = res.containers[i];
    // The scheduler verifies non-zero requests on every container.
    for (bool cpu : {true, false}) {
      const ResolvedQuantity& r = cpu ? cr.req_cpu : cr.req_mem;
      if (c.invalid || (r && !r.value->is_zero())) continue;
      Finding& found = f.add(Code::SUNK_ZERO_REQUESTS, c.resources_at ? in_request(*c.resources_at) : request_root(),
                         [](const FindingContext& cx, const Finding& x, std::string& m, std::string& h) {
                           const auto* container = static_cast<const model::Container*>(x.p[0]);
                           m = std::string("the SUNK scheduler needs a non-zero ") + (x.n[0] ? "cpu" : "memory") + " request" +
                               (cx.request.multi_container ? " on container \"" + container->name + "\"" : "") + detected(cx);
                           h = "declare it, or have the policy set default_cpu/default_memory or min_cpu/min_memory";
                         });
      found.p[0] = &c;
      found.n[0] = cpu;
    }
  }
  std::optional<Quantity> cpu = sum_resolved(res, true, true), mem = sum_resolved(res, true, false);
  res.cpus_per_task = cpu ? cpu->ceil_units().value_or(0) : 0;
  res.min_memory_node = mem ? mem->ceil_div(1024 * 1024).value_or(0) : 0;
  f.add(Code::SLURM_MAPPING, resources_or_root(req), [](const FindingContext& cx, const Finding&, std::string& m, std::string&) {
    // One buffer (fmt): the concatenation of temporaries this was made of allocated once per piece.
    fmt::memory_buffer out;
    fmt::format_to(std::back_inserter(out), "the pod becomes a Slurm job: CPUsPerTask={}, MinMemoryNode={}M",
                   cx.resolution.cpus_per_task, cx.resolution.min_memory_node);
    for (const auto& [k, v] : slurm_job_parameters(cx.request, cx.policy, cx.resolution)) fmt::format_to(std::back_inserter(out), ", {}={}", k, v);
    m = fmt::to_string(out) + detected(cx);
  });

  // terminationGracePeriodSeconds must be strictly below KillWait − 5.
  std::int64_t grace = req.snapshot_storage ? 300 : 30;
  std::optional<std::int64_t> kill_wait = knows_runner(in, res) ? res.primary->kill_wait_seconds : std::nullopt;
  if (kill_wait) {
    if (grace >= *kill_wait - 5) {
      Finding& found = f.add(Code::SUNK_KILL_WAIT, in_runners(res.primary->kill_wait_origin), [](const FindingContext& cx, const Finding& x, std::string& m, std::string& h) {
        m = "termination grace period must be less than Slurm KillWait - 5 s: the pod's grace period is " + std::to_string(x.n[0]) + " s" +
            (cx.request.snapshot_storage ? " (snapshot storage)" : "") + " and KillWait is " + std::to_string(x.n[1]) + " s";
        h = "set KillWait to at least " + std::to_string(x.n[0] + 6) + " s in the Slurm Helm values (slurmConfig.KillWait)";
      });
      found.n[0] = grace;
      found.n[1] = *kill_wait;
    }
  } else {
    Finding& found = f.add(Code::SUNK_KILL_WAIT, in_policy(pm.scheduler_name_origin), [](const FindingContext& cx, const Finding& x, std::string& m, std::string& h) {
      m = "Slurm's KillWait is not known (SUNK's default is 30 s); the pod's grace period is " + std::to_string(x.n[0]) +
          " s, so KillWait must be above " + std::to_string(x.n[0] + 5) + " s" + detected(cx);
      h = "check --slurm-kill-wait, set KillWait to at least " + std::to_string(x.n[0] + 6) +
          " s, and declare it as sunk.kill_wait_seconds in --runners";
    });
    found.severity = Severity::warning;
    found.n[0] = grace;
  }
  // Slurm accounts requests only.
  std::optional<Quantity> cpu_limit = sum_resolved(res, false, true), mem_limit = sum_resolved(res, false, false);
  if ((cpu && cpu_limit && *cpu_limit > *cpu) || (mem && mem_limit && *mem_limit > *mem)) {
    f.add(Code::SUNK_BURST_ACCOUNTING, resources_or_root(req), [](const FindingContext& cx, const Finding&, std::string& m, std::string&) {
      auto show = [&](bool request, bool is_cpu, const char* none) {
        auto s = sum_resolved(cx.resolution, request, is_cpu);
        return s ? s->canonical() : std::string(none);
      };
      m = fmt::format("sacct will show {} CPU and {} of memory (the requests); the sandbox may burst up to {} CPU and {} when the node has room",
                      show(true, true, "0"), show(true, false, "0"), show(false, true, "?"), show(false, false, "?"));
    });
  }
}

}  // namespace sandgate::engine
