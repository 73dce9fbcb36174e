// Engine::check — the one ordered list of rules (SPEC §6: placement → the policy that applies →
// apply base → fill defaults → check constraints) over a compiled Request. Each step is a rule
// function in this directory that writes its slice of the Resolution and reports Findings.
#include "engine/rules.h"

namespace sandgate {

Document document_from_node(Node root, std::string input, std::string file) {
  place_in_walk_order(root);
  Document d;
  d.root = std::move(root);
  d.input = std::move(input);
  d.file = std::move(file);
  d.loaded = true;
  return d;
}

namespace {

// A request checked against a broken policy (or inventory) is not ok, whatever it asks for.
Diagnostics errors_of(const Policy* policy, const Runners* runners, const Org* org) {
  Diagnostics out;
  for (const Diagnostics* ds : {policy ? &policy->diagnostics() : nullptr, runners ? &runners->diagnostics() : nullptr,
                                org ? &org->diagnostics() : nullptr}) {
    if (!ds) continue;
    for (const auto& d : *ds) {
      if (d.severity == Severity::error) out.push_back(d);
    }
  }
  return out;
}

}  // namespace

Engine::Engine(std::shared_ptr<const Policy> policy, std::shared_ptr<const Runners> runners, std::shared_ptr<const Org> org)
    : Engine(policy, runners, org, errors_of(policy.get(), runners.get(), org.get())) {}

Engine::Engine(std::shared_ptr<const Policy> policy, std::shared_ptr<const Runners> runners, std::shared_ptr<const Org> org,
               Diagnostics input_errors) {
  auto in = std::make_shared<CheckInputs>();
  in->errors = std::move(input_errors);
  if (org) in->org_model = org->model();
  in->policy = std::move(policy);
  in->runners = std::move(runners);
  in->org = std::move(org);
  inputs_ = std::move(in);
}

const model::PolicyModel& empty_policy_model() {
  static const model::PolicyModel empty{};
  return empty;
}

const Policy* Engine::policy() const { return inputs_->policy.get(); }

Result Engine::check(const Document& sandbox, const Document* defaults, const Document* overrides,
                     const CheckOptions& options) const {
  return check(Request::compile({defaults, &sandbox, overrides}, options));
}

Result Engine::check(std::shared_ptr<const Request> request) const {
  Result result;
  const CheckInputs& inputs = *inputs_;
  result.inputs_ = inputs_;
  bool ok = inputs.errors.empty() && !request->has_errors();
  if (!request->usable()) {
    result.request_ = std::move(request);
    result.ok_ = false;
    return result;
  }
  const model::RequestModel& req = request->model();
  result.request_ = std::move(request);
  result.checked_ = true;
  Resolution& res = result.resolution_;
  engine::Findings f(result.findings_, req.client);
  engine::RuleInput in{req, inputs, inputs.runners ? &inputs.runners->model() : nullptr, inputs.org_model};
  try {
    engine::choose_candidates(in, res, f);
    engine::filter_gpu_candidates(in, res, f);
    engine::choose_primary_runner(in, res, f);
    const model::PolicyModel& pm = *res.policy_model;
    engine::resolve_scheduler(in, pm, res);
    engine::apply_resource_defaults(in, pm, res);
    engine::check_annotations(in, pm, res, f);
    engine::resolve_lifetime(in, pm, res, f);
    engine::check_volumes(in, pm, res, f);
    engine::check_resources(in, pm, res, f);
    engine::resolve_qos(in, res, f);
    engine::check_gpu(in, pm, res, f);
    engine::resolve_runtime_class(in, pm, res, f);
    engine::check_gpu_runtime(in, pm, res, f);
    engine::check_network(in, pm, res, f);
    engine::check_image_security_instance(in, pm, f);
    engine::check_sunk(in, pm, res, f);
  } catch (const std::exception& e) {
    // A bug, not an input problem: say so instead of crashing the host process.
    Diagnostic d;
    d.code = Code::SCHEMA_VIOLATION;
    d.severity = Severity::error;
    d.input = "sandbox";
    d.message = std::string("internal error while checking: ") + e.what();
    result.eager_.push_back(std::move(d));
    ok = false;
  }
  result.ok_ = ok && !f.any_error();
  return result;
}

namespace engine {

Finding& Findings::add(Code code, FindingPlace at, FindingFormat format) {
  Finding& f = out_.emplace_back();
  f.code = code;
  f.severity = code_info(code).severity;
  if (f.severity == Severity::error && is_other_clients_rule(code_info(code).side, client_)) {
    f.severity = Severity::warning;
    f.other_client = true;
  }
  f.at = at;
  f.format = format;
  return f;
}

bool Findings::any_error() const {
  for (const auto& f : out_) {
    if (f.severity == Severity::error) return true;
  }
  return false;
}

std::string human_bytes(const Quantity& q) {
  auto bytes = q.ceil_units();
  if (!bytes || *bytes < 1024 || q.ceil_units() != q.ceil_div(1)) return q.canonical();
  static constexpr const char* k_units[] = {"Ki", "Mi", "Gi", "Ti", "Pi"};
  std::int64_t v = *bytes;
  int unit = -1;
  while (v % 1024 == 0 && unit < 4) {
    v /= 1024;
    ++unit;
  }
  if (unit >= 0 && (unit >= 1 || v < 1024)) return std::to_string(v) + k_units[unit];
  return "≈" + std::to_string(q.ceil_div(1024 * 1024).value_or(0)) + "Mi";
}

std::optional<Quantity> sum_resolved(const Resolution& res, bool request, bool cpu) {
  std::optional<Quantity> sum;
  for (const auto& c : res.containers) {
    const ResolvedQuantity& q = request ? (cpu ? c.req_cpu : c.req_mem) : (cpu ? c.lim_cpu : c.lim_mem);
    if (q) sum = sum ? sum->plus(*q.value) : *q.value;
  }
  return sum;
}

}  // namespace engine

std::string_view to_string(PlacementMode m) { return m == PlacementMode::cks ? "cks" : "serverless"; }

std::string_view to_string(QosClass q) {
  switch (q) {
    case QosClass::guaranteed: return "Guaranteed";
    case QosClass::burstable: return "Burstable";
    case QosClass::best_effort: return "BestEffort";
  }
  return "BestEffort";
}

}  // namespace sandgate
