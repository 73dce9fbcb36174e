#include "stream/result_view.h"

#include "sandgate/request.h"

namespace sandgate::stream {
namespace {

void add_policy_pointer(std::vector<std::string>& out, const std::string& path, const std::string& base) {
  std::string p = path;
  if (!base.empty() && p.compare(0, base.size(), base) == 0 && (p.size() == base.size() || p[base.size()] == '/')) {
    p.erase(0, base.size());
  }
  out.push_back(std::move(p));
}

// Warnings without putting every finding into words (what Result::diagnostics() would do): the
// request's own diagnostics and the rules' findings. A result made of diagnostics only (an
// unreadable record) counts them directly.
std::size_t warning_count(const Result& r) {
  std::size_t n = 0;
  if (!r.request()) {
    for (const auto& d : r.diagnostics()) n += d.severity == Severity::warning;
    return n;
  }
  for (const auto& d : r.request()->diagnostics()) n += d.severity == Severity::warning;
  for (const auto& f : r.findings()) n += f.severity == Severity::warning;
  return n;
}

}  // namespace

ResultView view_of(Result&& r, ViewDetail detail) {
  ResultView v;
  v.ok = r.ok();
  v.warnings = warning_count(r);
  v.placement_mode = std::string(r.placement_mode());
  v.qos_class = std::string(r.qos_class());
  v.runner = std::string(r.runner_id());
  if (!v.ok) {
    // An accepted request has no errors, and a rejected one's other findings are not written: they
    // need not be put into words. The result is done with, so its errors move here (what follows
    // reads its resolution only).
    v.errors = std::move(r).take_errors();
  }
  if (detail == ViewDetail::summary) return v;
  if (auto rc = r.runtime_class()) v.runtime_class = std::move(rc->value);
  if (auto s = r.slurm()) {
    v.has_slurm = true;
    v.slurm.emplace_back("scheduler", s->scheduler);
    v.slurm.emplace_back("CPUsPerTask", std::to_string(s->cpus_per_task));
    v.slurm.emplace_back("MinMemoryNode", std::to_string(s->min_memory_node));
    for (auto& p : s->job_parameters) v.slurm.push_back(std::move(p));
  }
  if (r.checked()) v.resolved = r.resolved();
  return v;
}

std::pair<ResultView, ResultView> view_pair(Result&& a, Result&& b) {
  // The resolutions are compared only when both policies accept the request.
  ViewDetail detail = a.ok() && b.ok() ? ViewDetail::resolution : ViewDetail::summary;
  return {view_of(std::move(a), detail), view_of(std::move(b), detail)};
}

Result problem_result(const Diagnostic& problem) { return Result::from_diagnostics({problem}); }

std::shared_ptr<const Request> compile_record(RequestRecord&& record, const CheckOptions& options) {
  Request::OwnedLayers layers;
  layers.sandbox = std::move(record.sandbox);
  layers.defaults = std::move(record.defaults);
  layers.overrides = std::move(record.overrides);
  record.defaults.reset();
  record.overrides.reset();
  return Request::compile(std::move(layers), options);
}

std::vector<std::string> policy_locations(const Diagnostic& d, const std::string& policy_base) {
  std::vector<std::string> out;
  if (d.input == "policy") add_policy_pointer(out, d.path, policy_base);
  for (const auto& r : d.related) {
    if (r.input == "policy") add_policy_pointer(out, r.path, policy_base);
  }
  return out;
}

}  // namespace sandgate::stream
