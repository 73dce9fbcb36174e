// N-PL (SPEC §5.4) and the runner inventory (SPEC §1.4): which runners are candidates, and so
// which policy the request is checked against.
#include "engine/rules.h"
#include "util/text.h"

namespace sandgate::engine {

void choose_candidates(const RuleInput& in, Resolution& res, Findings& f) {
  const model::RequestModel& req = in.request;
  res.mode = req.mode;
  if (req.mode == PlacementMode::serverless && !in.org.serverless_allowed) {
    Finding& found = f.add(Code::SERVERLESS_NOT_ALLOWED, in_request_or_root(req.mode_at), [](const FindingContext&, const Finding&, std::string& m, std::string& h) {
      m = "the organisation may not use serverless placement (serverless_allowed is false)";
      h = "place the sandbox on a CKS runner with placement_mode=\"cks\" and runner_ids";
    });
    relate_org(found, in.org.serverless_origin, "the entitlement is set here");
  }
  res.candidates.clear();
  if (req.mode == PlacementMode::serverless) {
    const model::Runner* own = nullptr;
    if (in.inventory) {
      for (const auto& r : in.inventory->runners) {
        if (r.mode == "serverless") {
          own = &r;
          break;
        }
      }
    }
    res.candidates.push_back(own ? own : &model::builtin_serverless_runner());
    return;
  }
  if (!in.inventory) {
    res.candidates.push_back(&model::anonymous_cks_runner());
    if (!req.runner_ids.empty()) res.runner_id = req.runner_ids.front().value;
    return;
  }
  if (!req.runner_ids.empty()) {
    for (const auto& id : req.runner_ids) {
      const model::Runner* r = in.inventory->find(id.value);
      if (!r) {
        f.add(Code::RUNNER_UNAVAILABLE, in_request(id.origin), [](const FindingContext&, const Finding& x, std::string& m, std::string& h) {
          m = "runner \"" + static_cast<const model::Text*>(x.p[0])->value + "\" is not in the runner inventory";
          h = "check the id with list_runners(); no eligible runner means a retryable unavailability";
        }).p[0] = &id;
      } else if (r->mode != "cks") {
        Finding& found = f.add(Code::RUNNER_UNAVAILABLE, in_request(id.origin), [](const FindingContext&, const Finding& x, std::string& m, std::string&) {
          auto* runner = static_cast<const model::Runner*>(x.p[0]);
          if (runner->mode == "serverless") {
            m = "runner \"" + runner->id + "\" is a serverless runner, not a CKS one";
          } else {
            // The runners file's own error reports the mode; this says why the runner is not used.
            m = "runner \"" + runner->id + "\" has the mode " + quoted(runner->mode) +
                " in the runner inventory, which is neither \"cks\" nor \"serverless\"";
          }
        });
        found.p[0] = r;
        found.related = in_runners(r->origin);
        found.related_note = "the runner is declared here";
      } else {
        res.candidates.push_back(r);
      }
    }
    return;
  }
  for (const auto& r : in.inventory->runners) {
    if (r.mode == "cks") res.candidates.push_back(&r);
  }
  if (res.candidates.empty()) {
    f.add(Code::RUNNER_UNAVAILABLE, in_request_or_root(req.mode_at), [](const FindingContext&, const Finding&, std::string& m, std::string& h) {
      m = "the runner inventory has no CKS runner";
      h = "add a CKS runner, or use serverless placement";
    });
  }
}

void choose_primary_runner(const RuleInput& in, Resolution& res, Findings& f) {
  res.primary = res.candidates.empty() ? nullptr : res.candidates.front();
  const Policy* policy = in.inputs.policy.get();
  res.policy_of_runner = false;
  if (res.primary && res.primary->policy) {
    policy = res.primary->policy.get();
    res.policy_of_runner = true;
  }
  res.policy = policy;
  res.policy_model = policy ? &policy->model() : &empty_policy_model();
  if (!res.primary) return;
  if (res.primary->builtin) {
    if (!res.primary->offers_every_gpu) res.runner_id = res.primary->id;  // the built-in serverless runner
    return;
  }
  res.runner_id = res.primary->id;
  f.add(Code::RUNNER_SELECTED, in_runners(res.primary->origin), [](const FindingContext& cx, const Finding&, std::string& m, std::string&) {
    const Resolution& r = cx.resolution;
    std::string others;
    for (std::size_t i = 1; i < r.candidates.size(); ++i) others += (i > 1 ? ", " : "") + r.candidates[i]->id;
    m = "checked against runner \"" + r.primary->id + "\" and " + (r.policy_of_runner ? "its own policy" : "the policy argument") +
        (others.empty() ? "" : "; other candidates: " + others);
  });
}

}  // namespace sandgate::engine
