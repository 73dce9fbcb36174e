// R-TIME (SPEC §6.4): the lifetime defaults to the policy's, else the platform's 600 s; an
// operation timeout that outlives the sandbox is worth a warning. (The ranges of R-TIME-1/3/5 are
// the request's own and were checked when it was compiled.)
#include "engine/rules.h"

namespace sandgate::engine {

void resolve_lifetime(const RuleInput& in, const model::PolicyModel& pm, Resolution& res, Findings& f) {
  const model::RequestModel& req = in.request;
  // R-TIME-2
  if (req.lifetime) {
    res.lifetime = *req.lifetime;
    res.lifetime_from = LifetimeFrom::request;
  } else if (pm.default_lifetime_seconds > 0) {
    res.lifetime = pm.default_lifetime_seconds;
    res.lifetime_from = LifetimeFrom::policy;
  } else {
    res.lifetime = 600;
    res.lifetime_from = LifetimeFrom::platform;
  }
  // R-TIME-4: an operation that would outlive the sandbox.
  if (req.operation_timeout && *req.operation_timeout >= static_cast<double>(res.lifetime)) {
    Finding& found = f.add(Code::OPERATION_TIMEOUT_EXCEEDS_LIFETIME, in_request(*req.operation_timeout_at),
                       [](const FindingContext& cx, const Finding&, std::string& m, std::string& h) {
                         m = "timeout_seconds " + cx.request.operation_timeout_text + " is not below the sandbox's lifetime of " +
                             std::to_string(cx.resolution.lifetime) + " s: the sandbox ends first";
                         h = "raise max_lifetime_seconds or lower timeout_seconds";
                       });
    if (res.lifetime_from == LifetimeFrom::policy) {
      relate_policy(found, pm.default_lifetime_seconds_origin, "the lifetime is set here");
    } else if (res.lifetime_from == LifetimeFrom::request) {
      found.related = in_request(*req.lifetime_at);
      found.related_note = "the lifetime is set here";
    }
  }
}

}  // namespace sandgate::engine
