// R-RC (SPEC §6.6): a pin must be allowed; otherwise the policy's CPU/GPU default, the runner's
// own default, or the node default.
#include <algorithm>

#include "engine/rules.h"
#include "util/text.h"

namespace sandgate::engine {

void resolve_runtime_class(Context& ctx) {
  const auto& pm = *ctx.pm;
  RuntimeClassResolution rc;
  Cursor pin = ctx.root()["runtime_class"];
  bool gpu = ctx.gpu() != nullptr;
  if (pin && pin.node->is_string() && !pin.node->text.empty()) {
    rc.value = pin.node->text;
    rc.from = ctx.layer_name(*pin.node);
    const auto& allowed = pm.allowed_runtime_classes;
    if (std::find(allowed.begin(), allowed.end(), rc.value) == allowed.end()) {
      std::vector<std::string> quoted_allowed;
      for (const auto& a : allowed) quoted_allowed.push_back(quoted(a));
      ctx.report(Code::RUNTIME_CLASS_NOT_ALLOWED, pin,
                 "runtime_class \"" + rc.value + "\" is not allowed: " +
                     (allowed.empty() ? "the policy's allowed_runtime_classes is empty, so no runtime class can be pinned"
                                      : "allowed_runtime_classes is " + join_or(quoted_allowed)),
                 allowed.empty() ? "leave runtime_class unset to get the policy's default" : "pin one of the allowed classes, or leave it unset");
    }
  } else if (const std::string& def = gpu ? pm.default_gpu_runtime_class : pm.default_cpu_runtime_class; !def.empty()) {
    rc.value = def;
    rc.from = gpu ? "policy.constraints.security.default_gpu_runtime_class"
                  : "policy.constraints.security.default_cpu_runtime_class";
  } else if (ctx.primary && !(gpu ? ctx.primary->runtime_class_gpu : ctx.primary->runtime_class_cpu).empty()) {
    rc.value = gpu ? ctx.primary->runtime_class_gpu : ctx.primary->runtime_class_cpu;
    rc.from = "runner";
  } else {
    // SPEC §6.6: else the node default (on serverless the platform's nodes pick their isolation).
    rc.value = "<node-default>";
    rc.from = "platform";
  }
  ctx.result.runtime_class = rc;
}

}  // namespace sandgate::engine
