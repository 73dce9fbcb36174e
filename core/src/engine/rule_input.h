// What every check rule reads (the compiled request, the runners, the organisation, the client)
// and how it reports: a Finding — code, place, related place and a few values — put into words
// only when someone reads the diagnostics.
#pragma once

#include <memory>

#include "model/request_model.h"
#include "model/runners_model.h"
#include "sandgate/engine.h"
#include "sandgate/result.h"

namespace sandgate {

// The engine's inputs, shared by the engine and every result it returns.
struct CheckInputs {
  std::shared_ptr<const Policy> policy;
  std::shared_ptr<const Runners> runners;
  std::shared_ptr<const Org> org;
  Diagnostics errors;         // errors of the three inputs: part of every result
  model::OrgModel org_model;  // the org's, or the default entitlements
};

// No policy: {} (permissive). One for the process: the bindings build an Engine per call, and a
// PolicyModel in every one was built and torn down each time.
const model::PolicyModel& empty_policy_model();

// What a finding's formatter may read.
struct FindingContext {
  const model::RequestModel& request;
  const Resolution& resolution;
  const model::PolicyModel& policy;  // the policy the request was checked against
  const CheckInputs& inputs;
};

namespace engine {

struct RuleInput {
  const model::RequestModel& request;
  const CheckInputs& inputs;
  const model::RunnersModel* inventory;  // null: no runners input
  const model::OrgModel& org;
};

// Where findings go. A client rule of the SDK not in use is a warning (SPEC §1.3).
class Findings {
 public:
  Findings(SmallVector<Finding, 8>& out, Client client) : out_(out), client_(client) {}
  Finding& add(Code code, FindingPlace at, FindingFormat format);
  bool any_error() const;

 private:
  SmallVector<Finding, 8>& out_;
  Client client_;
};

inline FindingPlace in_request(const model::Origin& o) { return {&o, FindingInput::request, false}; }
inline FindingPlace in_request_key(const model::Origin& o) { return {&o, FindingInput::request, true}; }
inline FindingPlace request_root() { return {nullptr, FindingInput::request, false}; }
inline FindingPlace in_policy(const model::Origin& o) { return {&o, FindingInput::policy, false}; }
inline FindingPlace in_runners(const model::Origin& o) { return {&o, FindingInput::runners, false}; }
inline FindingPlace in_org(const model::Origin& o) { return {&o, FindingInput::org, false}; }
inline FindingPlace in_request_or_root(const std::optional<model::Origin>& o) { return o ? in_request(*o) : request_root(); }

// The field of another input that a finding's request value was checked against, as its other
// side (SPEC §3), when that input writes it: as text (a known mark) or as a value (a path).
inline void relate(Finding& f, const model::Origin& o, FindingPlace (*in)(const model::Origin&), const char* note) {
  if (o.path.empty() && !o.mark.known()) return;
  f.related = in(o);
  f.related_note = note;
}
inline void relate_policy(Finding& f, const model::Origin& o, const char* note) { relate(f, o, in_policy, note); }
inline void relate_org(Finding& f, const model::Origin& o, const char* note) { relate(f, o, in_org, note); }

// A memory size for messages: "4Gi", or "≈3687Mi" when it is not a whole number of Mi.
std::string human_bytes(const Quantity& q);

}  // namespace engine
}  // namespace sandgate
