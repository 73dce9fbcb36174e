// R-RES (SPEC §6.2): the policy's defaults, per-container bounds, sandbox-wide ceilings,
// require_limits and serverless's requests = limits; N-QOS (§5.3). The forms of `resources`
// (N-RES) were read when the request was compiled.
#include <algorithm>

#include "engine/rules.h"

namespace sandgate::engine {
namespace {

ResolvedQuantity from_request(const std::optional<model::QuantityValue>& q) {
  if (!q) return {};
  return {ResolvedQuantity::From::request, &q->value, &q->text, &q->origin};
}

ResolvedQuantity from_policy(const model::PolicyQuantity& q) {
  return {ResolvedQuantity::From::policy_default, &*q.value, &q.text, &q.origin};
}

// "container \"sidecar\": " in the multi-container form.
std::string who(const FindingContext& cx, const Finding& f) {
  const auto* c = static_cast<const model::Container*>(f.p[0]);
  return cx.request.multi_container ? "container \"" + c->name + "\": " : std::string();
}

// A problem with container `index`'s resolved cpu (or memory) request: located at the request
// value, or at the policy default that supplied it. The finding keeps the container (p[0]), the
// dimension (n[0]: 1 for cpu) and the index (n[1]); it never points into the Resolution, which
// moves with its Result.
Finding& report_value(Findings& f, Code code, const model::Container& c, std::size_t index, bool cpu, const ResolvedQuantity& q,
                      FindingFormat format) {
  FindingPlace at = q.from == ResolvedQuantity::From::policy_default ? in_policy(*q.origin)
                    : q.origin                                      ? in_request(*q.origin)
                                                                    : in_request(c.where());
  Finding& found = f.add(code, at, format);
  found.p[0] = &c;
  found.n[0] = cpu;
  found.n[1] = static_cast<std::int64_t>(index);
  return found;
}

const ResolvedQuantity& request_of(const FindingContext& cx, const Finding& f) {
  const auto& cr = cx.resolution.containers[static_cast<std::size_t>(f.n[1])];
  return f.n[0] ? cr.req_cpu : cr.req_mem;
}

// " (the value is the policy's default_cpu)" when the value is the policy's default.
std::string defaulted_note(const FindingContext& cx, const Finding& f) {
  if (request_of(cx, f).from != ResolvedQuantity::From::policy_default) return {};
  return std::string(" (the value is the policy's ") + (f.n[0] ? "default_cpu" : "default_memory") + ")";
}

std::string describe(const ResolvedQuantity& q) { return q ? *q.text : "unset"; }

}  // namespace

void apply_resource_defaults(const RuleInput& in, const model::PolicyModel& pm, Resolution& res) {
  res.containers.clear();
  for (const auto& c : in.request.containers) {
    ContainerResolution& cr = res.containers.emplace_back();
    cr.req_cpu = from_request(c.req_cpu);
    cr.req_mem = from_request(c.req_mem);
    cr.lim_cpu = from_request(c.lim_cpu);
    cr.lim_mem = from_request(c.lim_mem);
    cr.memory_volumes = Quantity::from_int(0);
    if (c.invalid) continue;
    // R-RES-1: a dimension missing on both sides takes the policy default for request and limit.
    if (!c.req_cpu && !c.lim_cpu && !c.req_cpu_written && pm.default_cpu.value) {
      cr.req_cpu = cr.lim_cpu = from_policy(pm.default_cpu);
      cr.defaulted_cpu = true;
    }
    if (!c.req_mem && !c.lim_mem && !c.req_mem_written && pm.default_memory.value) {
      cr.req_mem = cr.lim_mem = from_policy(pm.default_memory);
      cr.defaulted_mem = true;
    }
    // Kubernetes: a limit without a request makes the request equal to the limit.
    if (!cr.req_cpu && cr.lim_cpu) cr.req_cpu = cr.lim_cpu;
    if (!cr.req_mem && cr.lim_mem) cr.req_mem = cr.lim_mem;
  }
  res.unmounted_memory_volumes = Quantity::from_int(0);
}

void check_resources(const RuleInput& in, const model::PolicyModel& pm, const Resolution& res, Findings& f) {
  const auto& containers = in.request.containers;
  for (std::size_t i = 0; i < containers.size(); ++i) {
    const model::Container& c = containers[i];
    const ContainerResolution& cr = res.containers[i];
    // R-RES-2: per container bounds.
    for (bool cpu : {true, false}) {
      const ResolvedQuantity& req = cpu ? cr.req_cpu : cr.req_mem;
      if (!req || c.invalid) continue;
      const model::PolicyQuantity& max = cpu ? pm.max_cpu : pm.max_memory;
      const model::PolicyQuantity& min = cpu ? pm.min_cpu : pm.min_memory;
      if (max.value && *req.value > *max.value) {
        Finding& found = report_value(f, Code::RESOURCE_ABOVE_MAX, c, i, cpu, req, [](const FindingContext& cx, const Finding& x, std::string& m, std::string& h) {
          const auto& bound = x.n[0] ? cx.policy.max_cpu : cx.policy.max_memory;
          std::string dim = x.n[0] ? "cpu" : "memory";
          m = who(cx, x) + dim + " request " + describe(request_of(cx, x)) + " is above the policy's max_" + dim + " " + bound.text +
              defaulted_note(cx, x);
          h = "request at most " + bound.text;
        });
        relate_policy(found, max.origin, "the limit is set here");
      }
      if (min.value && *req.value < *min.value) {
        Finding& found = report_value(f, Code::RESOURCE_BELOW_MIN, c, i, cpu, req, [](const FindingContext& cx, const Finding& x, std::string& m, std::string& h) {
          const auto& bound = x.n[0] ? cx.policy.min_cpu : cx.policy.min_memory;
          std::string dim = x.n[0] ? "cpu" : "memory";
          m = who(cx, x) + dim + " request " + describe(request_of(cx, x)) + " is below the policy's min_" + dim + " " + bound.text +
              defaulted_note(cx, x);
          h = "request at least " + bound.text;
        });
        relate_policy(found, min.origin, "the limit is set here");
      }
    }
    // R-RES-4: require_limits, where filled values count only if the client gave one side.
    if (pm.require_limits && !c.invalid) {
      bool missing_cpu = !c.client_cpu || !cr.req_cpu || !cr.lim_cpu;
      bool missing_mem = !c.client_mem || !cr.req_mem || !cr.lim_mem;
      if (missing_cpu || missing_mem) {
        Finding& found = f.add(Code::LIMITS_REQUIRED, in_request(c.where()), [](const FindingContext& cx, const Finding& x, std::string& m, std::string& h) {
          std::string what = x.n[0] && x.n[1] ? "cpu and memory" : x.n[0] ? "cpu" : "memory";
          m = who(cx, x) + "the policy requires limits (require_limits), and the request does not declare " + what + " requests and limits itself";
          h = "declare resources={\"requests\": {...}, \"limits\": {...}} with cpu and memory";
        });
        found.p[0] = &c;
        found.n[0] = missing_cpu;
        found.n[1] = missing_mem;
        relate_policy(found, pm.require_limits_origin, "the policy requires limits here");
      }
    }
    // R-RES-5: serverless pins limits to requests.
    if (res.mode == PlacementMode::serverless && !c.invalid) {
      for (bool cpu : {true, false}) {
        const ResolvedQuantity& r = cpu ? cr.req_cpu : cr.req_mem;
        const ResolvedQuantity& l = cpu ? cr.lim_cpu : cr.lim_mem;
        if (!r && !l) continue;
        if (r && l && *r.value == *l.value) continue;
        report_value(f, Code::SERVERLESS_BURSTABLE, c, i, cpu, r, [](const FindingContext& cx, const Finding& x, std::string& m, std::string& h) {
          const auto& res_c = cx.resolution.containers[static_cast<std::size_t>(x.n[1])];
          bool is_cpu = x.n[0] != 0;
          m = who(cx, x) + (is_cpu ? "cpu" : "memory") + " request (" + describe(is_cpu ? res_c.req_cpu : res_c.req_mem) + ") and limit (" +
              describe(is_cpu ? res_c.lim_cpu : res_c.lim_mem) + ") differ, but serverless requires requests equal to limits" + defaulted_note(cx, x);
          h = "use placement_mode='cks' with a runner whose policy allows it";
        });
      }
    }
  }
  // R-RES-3: ceilings over the sum of requests (base containers and memory-backed volumes count).
  FindingPlace at = containers.front().resources_at ? in_request(*containers.front().resources_at) : request_root();
  if (pm.cpu_ceiling.value) {
    std::optional<Quantity> cpu = sum_resolved(res, true, true);
    if (pm.base_cpu_requests) cpu = cpu ? cpu->plus(*pm.base_cpu_requests) : *pm.base_cpu_requests;
    if (cpu && *cpu > *pm.cpu_ceiling.value) {
      Finding& found = f.add(Code::RESOURCE_CEILING, at, [](const FindingContext& cx, const Finding&, std::string& m, std::string& h) {
        Quantity sum = sum_resolved(cx.resolution, true, true).value_or(Quantity::from_int(0));
        if (cx.policy.base_cpu_requests) sum = sum.plus(*cx.policy.base_cpu_requests);
        m = "the sandbox requests " + sum.canonical() + " CPU in all, above the policy's cpu_ceiling " + cx.policy.cpu_ceiling.text;
        h = "request less CPU";
      });
      relate_policy(found, pm.cpu_ceiling.origin, "the ceiling is set here");
    }
  }
  if (pm.memory_ceiling.value) {
    Quantity total = sum_resolved(res, true, false).value_or(Quantity::from_int(0));
    if (pm.base_memory_requests) total = total.plus(*pm.base_memory_requests);
    for (const auto& cr : res.containers) total = total.plus(cr.memory_volumes);
    total = total.plus(res.unmounted_memory_volumes);
    if (total > *pm.memory_ceiling.value) {
      Finding& found = f.add(Code::RESOURCE_CEILING, at, [](const FindingContext& cx, const Finding&, std::string& m, std::string& h) {
        Quantity volumes = cx.resolution.unmounted_memory_volumes;
        for (const auto& cr : cx.resolution.containers) volumes = volumes.plus(cr.memory_volumes);
        Quantity sum = sum_resolved(cx.resolution, true, false).value_or(Quantity::from_int(0));
        if (cx.policy.base_memory_requests) sum = sum.plus(*cx.policy.base_memory_requests);
        sum = sum.plus(volumes);
        std::string with_volumes = volumes.is_zero() ? "" : " (including " + human_bytes(volumes) + " of memory-backed volumes)";
        m = "the sandbox requests " + human_bytes(sum) + " of memory in all" + with_volumes + ", above the policy's memory_ceiling " +
            cx.policy.memory_ceiling.text;
        h = "request less memory, or shrink memory-backed volumes";
      });
      relate_policy(found, pm.memory_ceiling.origin, "the ceiling is set here");
    }
  }
}

void resolve_qos(const RuleInput& in, Resolution& res, Findings& f) {
  bool any = false, guaranteed = true;
  for (const auto& c : res.containers) {
    for (bool cpu : {true, false}) {
      const ResolvedQuantity& r = cpu ? c.req_cpu : c.req_mem;
      const ResolvedQuantity& l = cpu ? c.lim_cpu : c.lim_mem;
      if (r || l) any = true;
      if (!r || !l || *r.value != *l.value) guaranteed = false;
    }
  }
  bool invalid = in.request.any_invalid();
  if (!any) {
    res.qos = QosClass::best_effort;
    // Rejected resources (N-RES errors) say nothing about platform defaults, and a template's
    // container has resources of its own, which the request does not show.
    if (!invalid && !in.request.from_template) {
      const auto& first = in.request.containers.front();
      f.add(Code::PLATFORM_DEFAULT_RESOURCES, first.resources_at ? in_request(*first.resources_at) : request_root(),
            [](const FindingContext&, const Finding&, std::string& m, std::string& h) {
              m = "no container declares cpu or memory and the policy has no default_cpu/default_memory: the platform's defaults apply";
              h = "declare resources, or set default_cpu and default_memory in the policy";
            });
    }
  } else {
    res.qos = guaranteed ? QosClass::guaranteed : QosClass::burstable;
  }
  // R-RES-6: with several containers, the sums are not visible in any one of them.
  if (in.request.multi_container && any && !invalid) {
    f.add(Code::QOS_CLASS, in_request_or_root(in.request.containers_at), [](const FindingContext& cx, const Finding&, std::string& m, std::string&) {
      auto show = [&](bool request, bool is_cpu) {
        auto s = sum_resolved(cx.resolution, request, is_cpu);
        return s ? (is_cpu ? s->canonical() : human_bytes(*s)) : std::string("unset");
      };
      m = "QoS class " + std::string(to_string(cx.resolution.qos)) + "; summed requests: cpu " + show(true, true) + ", memory " +
          show(true, false) + "; summed limits: cpu " + show(false, true) + ", memory " + show(false, false);
    });
  }
}

}  // namespace sandgate::engine
