// R-RC (SPEC §6.6): a pin must be allowed; otherwise the policy's CPU/GPU default, the runner's
// own default, or the node default.
#include <algorithm>

#include "engine/rules.h"
#include "util/text.h"

namespace sandgate::engine {

void resolve_runtime_class(const RuleInput& in, const model::PolicyModel& pm, Resolution& res, Findings& f) {
  const model::Text& pin = in.request.runtime_class;
  bool gpu = in.request.gpu() != nullptr;
  if (pin) {
    res.runtime_class = pin.value;
    res.runtime_class_from = RuntimeClassFrom::request;
    const auto& allowed = pm.allowed_runtime_classes;
    if (std::find(allowed.begin(), allowed.end(), pin.value) == allowed.end()) {
      Finding& found = f.add(Code::RUNTIME_CLASS_NOT_ALLOWED, in_request(pin.origin), [](const FindingContext& cx, const Finding&, std::string& m, std::string& h) {
        const auto& classes = cx.policy.allowed_runtime_classes;
        std::vector<std::string> quoted_allowed;
        for (const auto& a : classes) quoted_allowed.push_back(quoted(a));
        m = "runtime_class \"" + cx.request.runtime_class.value + "\" is not allowed: " +
            (classes.empty() ? "the policy's allowed_runtime_classes is empty, so no runtime class can be pinned"
                             : "allowed_runtime_classes is " + join_or(quoted_allowed));
        std::string meant = nearest_allowed(cx.request.runtime_class.value, classes);
        h = classes.empty()  ? "leave runtime_class unset to get the policy's default"
            : meant.empty() ? "pin one of the allowed classes, or leave it unset"
                            : "did you mean " + quoted(meant) + "? Or leave it unset";
      });
      relate_policy(found, pm.allowed_runtime_classes_origin, "the allowed classes are listed here");
    }
  } else if (const std::string& def = gpu ? pm.default_gpu_runtime_class : pm.default_cpu_runtime_class; !def.empty()) {
    res.runtime_class = def;
    res.runtime_class_from = gpu ? RuntimeClassFrom::policy_gpu_default : RuntimeClassFrom::policy_cpu_default;
  } else if (res.primary && !(gpu ? res.primary->runtime_class_gpu : res.primary->runtime_class_cpu).empty()) {
    res.runtime_class = gpu ? res.primary->runtime_class_gpu : res.primary->runtime_class_cpu;
    res.runtime_class_from = RuntimeClassFrom::runner;
  } else {
    // SPEC §6.6: else the node default (on serverless the platform's nodes pick their isolation).
    res.runtime_class = "<node-default>";
    res.runtime_class_from = RuntimeClassFrom::platform;
  }
}

}  // namespace sandgate::engine
