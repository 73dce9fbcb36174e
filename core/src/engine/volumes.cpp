// R-VOL (SPEC §6.5) against the policy and the resolved resources: "N%" sizes resolve against the
// sandbox's memory request after defaults, the policy's media and per-volume size, and the 80 %
// rule per container. (Names, paths and sizes as written were checked when the request was
// compiled.)
#include "engine/rules.h"

namespace sandgate::engine {

std::optional<Quantity> resolved_volume_size(const model::RequestModel& req, const Resolution& res, std::size_t index) {
  const model::Volume& v = req.volumes[index];
  if (v.size == model::Volume::Size::absolute) return v.absolute;
  if (v.size != model::Volume::Size::percent) return std::nullopt;
  std::optional<Quantity> memory = sum_resolved(res, true, false);
  if (!memory) return std::nullopt;
  return memory->fraction_floor(v.percent, 100);
}

void check_volumes(const RuleInput& in, const model::PolicyModel& pm, Resolution& res, Findings& f) {
  const model::RequestModel& req = in.request;
  bool has_memory_request = sum_resolved(res, true, false).has_value();
  for (std::size_t i = 0; i < req.volumes.size(); ++i) {
    const model::Volume& v = req.volumes[i];
    bool memory = v.medium == model::Medium::memory;
    std::optional<Quantity> size = resolved_volume_size(req, res, i);
    if (v.size == model::Volume::Size::percent) {
      if (has_memory_request) {
        res.percent_sizes.push_back(static_cast<std::uint32_t>(i));
      } else if (!req.any_invalid()) {
        // No memory request to take the percentage of: the platform resolves it against its own
        // (unpublished) default, so the size is unknown (SPEC preamble: unknown → warning).
        Finding& found = f.add(Code::VOLUME_SIZE_INVALID, in_request(v.size_or_volume()), [](const FindingContext& cx, const Finding& x, std::string& m, std::string& h) {
          m = "size \"" + cx.request.volumes[static_cast<std::size_t>(x.n[0])].size_text +
              "\" is a percentage of the memory request, but no memory request is declared and the policy has no default_memory";
          h = "declare a memory request, or give the volume an absolute size";
        });
        found.severity = Severity::warning;
        found.n[0] = static_cast<std::int64_t>(i);
      }
    }
    // R-VOL-4: the policy's media and per-volume size.
    if (!pm.allowed_media.empty() && !(memory ? pm.allows_memory : pm.allows_disk)) {
      Finding& found = f.add(Code::VOLUME_MEDIUM_NOT_ALLOWED, in_request(v.medium_at ? *v.medium_at : v.at),
                         [](const FindingContext& cx, const Finding& x, std::string& m, std::string& h) {
                           const auto& vol = cx.request.volumes[static_cast<std::size_t>(x.n[0])];
                           bool in_memory = vol.medium == model::Medium::memory;
                           m = "volume \"" + vol.name + "\" is " + (in_memory ? "memory" : "disk") +
                               "-backed, and the policy's allowed_media does not include " +
                               (in_memory ? "STORAGE_MEDIUM_MEMORY" : "STORAGE_MEDIUM_DISK");
                           h = "use an allowed medium";
                         });
      found.n[0] = static_cast<std::int64_t>(i);
      relate_policy(found, pm.allowed_media_origin, "the allowed media are listed here");
    }
    if (size && pm.max_size.value && *size > *pm.max_size.value) {
      Finding& found = f.add(Code::VOLUME_TOO_LARGE, in_request(v.size_or_volume()), [](const FindingContext& cx, const Finding& x, std::string& m, std::string& h) {
        std::size_t index = static_cast<std::size_t>(x.n[0]);
        m = "volume \"" + cx.request.volumes[index].name + "\" is " + resolved_volume_size(cx.request, cx.resolution, index)->canonical() +
            ", larger than the policy's max_size " + cx.policy.max_size.text;
        h = "use at most " + cx.policy.max_size.text;
      });
      found.n[0] = static_cast<std::int64_t>(i);
      relate_policy(found, pm.max_size.origin, "the limit is set here");
    }
    // R-VOL-3 bookkeeping: memory-backed volumes count on the containers they are mounted on, or
    // toward the memory ceiling alone when mounted nowhere.
    if (!memory || !size) continue;
    if (v.containers.empty()) res.unmounted_memory_volumes = res.unmounted_memory_volumes.plus(*size);
    for (std::size_t t : v.containers) res.containers[t].memory_volumes = res.containers[t].memory_volumes.plus(*size);
  }

  // R-VOL-3: memory-backed volumes per container ≤ 80 % of its memory request.
  for (std::size_t ci = 0; ci < res.containers.size(); ++ci) {
    const ContainerResolution& c = res.containers[ci];
    if (c.memory_volumes.is_zero() || !c.req_mem) continue;
    if (c.memory_volumes.times(5) <= c.req_mem.value->times(4)) continue;
    FindingPlace at = in_request_or_root(req.volumes_at);
    for (const auto& v : req.volumes) {
      if (v.medium == model::Medium::memory) {
        at = in_request(v.size_or_volume());
        break;
      }
    }
    Finding& found = f.add(Code::MEMORY_VOLUMES_OVER_80_PERCENT, at, [](const FindingContext& cx, const Finding& x, std::string& m, std::string& h) {
      std::size_t index = static_cast<std::size_t>(x.n[0]);
      const ContainerResolution& cr = cx.resolution.containers[index];
      m = "memory-backed volumes on " +
          (cx.request.multi_container ? "container \"" + cx.request.containers[index].name + "\"" : std::string("the sandbox")) + " total " +
          human_bytes(cr.memory_volumes) + ", more than 80 % of its memory request " + *cr.req_mem.text;
      h = "shrink the volumes to at most " + human_bytes(cr.req_mem.value->fraction_floor(4, 5)) + " in all, or raise the memory request";
    });
    found.n[0] = static_cast<std::int64_t>(ci);
    if (c.req_mem.origin) {
      found.related = c.req_mem.from == ResolvedQuantity::From::policy_default ? in_policy(*c.req_mem.origin) : in_request(*c.req_mem.origin);
      found.related_note = "the memory request is set here";
    }
  }
}

}  // namespace sandgate::engine
