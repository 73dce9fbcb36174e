// R-SUNK (SPEC §6.8): when the policy routes pods through a Slurm (SUNK) scheduler, the pod
// becomes a Slurm job: report its parameters, and check what the SUNK scheduler rejects.
#include "engine/rules.h"
#include "rules/policy_rules.h"

namespace sandgate::engine {

void resolve_scheduler(Context& ctx) {
  ctx.scheduler = ctx.pm->scheduler_name;
  if (ctx.scheduler.empty()) return;
  std::optional<std::string> sunk;
  if (ctx.inventory && ctx.primary && !ctx.primary->builtin) {
    sunk = ctx.primary->sunk_scheduler.value_or(std::string("\x01"));  // a runner without sunk: never Slurm
    ctx.kill_wait = ctx.primary->kill_wait_seconds;
  }
  ctx.slurm = rules::is_slurm_scheduler(ctx.scheduler, sunk);
}

void check_sunk(Context& ctx) {
  if (!ctx.slurm) return;
  constexpr std::string_view k_prefix = "sunk.coreweave.com/";
  SlurmMapping map;
  map.scheduler = ctx.scheduler;
  // Without a runners input, the scheduler is taken for Slurm by its name (SPEC §6.8): say so.
  bool by_name = !(ctx.inventory && ctx.primary && !ctx.primary->builtin);
  std::string detected = by_name ? " (scheduler \"" + ctx.scheduler + "\" is taken for Slurm because its name contains \"slurm\")" : "";
  std::optional<Quantity> cpu, mem, cpu_limit, mem_limit;
  for (const auto& c : ctx.containers) {
    // The scheduler verifies non-zero requests on every container.
    for (bool is_cpu : {true, false}) {
      const auto& r = is_cpu ? c.req_cpu : c.req_mem;
      if (!c.invalid && (!r || r->is_zero())) {
        ctx.report(Code::SUNK_ZERO_REQUESTS, c.at ? c.at : ctx.root(),
                   std::string("the SUNK scheduler needs a non-zero ") + (is_cpu ? "cpu" : "memory") + " request" +
                       (ctx.multi_container ? " on container \"" + c.name + "\"" : "") + detected,
                   "declare it, or have the policy set default_cpu/default_memory or min_cpu/min_memory");
      }
    }
    if (c.req_cpu) cpu = cpu ? cpu->plus(*c.req_cpu) : *c.req_cpu;
    if (c.req_mem) mem = mem ? mem->plus(*c.req_mem) : *c.req_mem;
    if (c.lim_cpu) cpu_limit = cpu_limit ? cpu_limit->plus(*c.lim_cpu) : *c.lim_cpu;
    if (c.lim_mem) mem_limit = mem_limit ? mem_limit->plus(*c.lim_mem) : *c.lim_mem;
  }
  map.cpus_per_task = cpu ? cpu->ceil_units().value_or(0) : 0;
  map.min_memory_node = mem ? mem->ceil_div(1024 * 1024).value_or(0) : 0;
  if (const Node* ann = ctx.result.resolved.find("annotations"); ann && ann->is_object()) {
    for (const auto& m : ann->members) {
      if (m.key.compare(0, k_prefix.size(), k_prefix) == 0) map.job_parameters.emplace_back(m.key.substr(k_prefix.size()), m.value.text);
    }
  }
  std::string params;
  for (const auto& [k, v] : map.job_parameters) params += ", " + k + "=" + v;
  ctx.report(Code::SLURM_MAPPING, ctx.root()["resources"] ? ctx.root()["resources"] : ctx.root(),
             "the pod becomes a Slurm job: CPUsPerTask=" + std::to_string(map.cpus_per_task) +
                 ", MinMemoryNode=" + std::to_string(map.min_memory_node) + "M" + params + detected);

  // terminationGracePeriodSeconds must be strictly below KillWait − 5.
  Cursor root = ctx.root();
  bool snapshot = static_cast<bool>(root["file_system_snapshot"]);
  Cursor vols = root["volumes"];
  for (std::size_t i = 0; i < vols.size(); ++i) snapshot = snapshot || !vols.at(i)["restore_from_snapshot_id"].str().empty();
  std::int64_t grace = snapshot ? 300 : 30;
  std::int64_t needed = grace + 5 + 1;
  if (ctx.kill_wait) {
    if (grace >= *ctx.kill_wait - 5) {
      ctx.report_input(Code::SUNK_KILL_WAIT, "runners", ctx.runners_file, ctx.primary->kill_wait_origin.path,
                       ctx.primary->kill_wait_origin.mark,
                       "termination grace period must be less than Slurm KillWait - 5 s: the pod's grace period is " +
                           std::to_string(grace) + " s" + (snapshot ? " (snapshot storage)" : "") + " and KillWait is " +
                           std::to_string(*ctx.kill_wait) + " s",
                       "set KillWait to at least " + std::to_string(needed) + " s in the Slurm Helm values (slurmConfig.KillWait)");
    }
  } else {
    Cursor sched = Cursor{ctx.pm->base, nullptr, ctx.pm->base_origin.path}["spec"]["schedulerName"];
    Diagnostic& d = ctx.report_policy(Code::SUNK_KILL_WAIT, {sched.path, sched.mark()},
                                      "Slurm's KillWait is not known (SUNK's default is 30 s); the pod's grace period is " +
                                          std::to_string(grace) + " s, so KillWait must be above " + std::to_string(grace + 5) + " s" + detected,
                                      "check --slurm-kill-wait, set KillWait to at least " + std::to_string(needed) +
                                          " s, and declare it as sunk.kill_wait_seconds in --runners");
    d.severity = Severity::warning;
  }
  // Slurm accounts requests only.
  bool bursts = (cpu && cpu_limit && *cpu_limit > *cpu) || (mem && mem_limit && *mem_limit > *mem);
  if (bursts) {
    ctx.report(Code::SUNK_BURST_ACCOUNTING, root["resources"] ? root["resources"] : root,
               "sacct will show " + (cpu ? cpu->canonical() : std::string("0")) + " CPU and " + (mem ? mem->canonical() : std::string("0")) +
                   " of memory (the requests); the sandbox may burst up to " + (cpu_limit ? cpu_limit->canonical() : std::string("?")) +
                   " CPU and " + (mem_limit ? mem_limit->canonical() : std::string("?")) + " when the node has room");
  }
  ctx.result.slurm = std::move(map);
}

}  // namespace sandgate::engine
