#include "stream/result_view.h"

namespace sandgate::stream {
namespace {

void add_policy_pointer(std::vector<std::string>& out, const std::string& path, const std::string& base) {
  std::string p = path;
  if (!base.empty() && p.compare(0, base.size(), base) == 0 && (p.size() == base.size() || p[base.size()] == '/')) {
    p.erase(0, base.size());
  }
  out.push_back(std::move(p));
}

// `related` (SPEC §3) is being added to Diagnostic; read it once it is there.
template <typename D>
void add_related(const D& d, std::vector<std::string>& out, const std::string& base) {
  if constexpr (requires { d.related; }) {
    for (const auto& r : d.related) {
      if (r.input == "policy") add_policy_pointer(out, r.path, base);
    }
  }
}

}  // namespace

ResultView view_of(Result&& r, bool with_resolved) {
  ResultView v;
  v.ok = r.ok;
  for (auto& d : r.diagnostics) {
    if (d.severity == Severity::error) {
      v.errors.push_back(std::move(d));
    } else if (d.severity == Severity::warning) {
      ++v.warnings;
    }
  }
  v.placement_mode = std::move(r.placement_mode);
  v.qos_class = std::move(r.qos_class);
  v.runner = std::move(r.runner_id);
  if (r.runtime_class) v.runtime_class = std::move(r.runtime_class->value);
  if (r.slurm) {
    v.has_slurm = true;
    v.slurm.emplace_back("scheduler", r.slurm->scheduler);
    v.slurm.emplace_back("CPUsPerTask", std::to_string(r.slurm->cpus_per_task));
    v.slurm.emplace_back("MinMemoryNode", std::to_string(r.slurm->min_memory_node));
    for (auto& p : r.slurm->job_parameters) v.slurm.push_back(std::move(p));
  }
  if (with_resolved) v.resolved = std::move(r.resolved);
  return v;
}

Result problem_result(const Diagnostic& problem) {
  Result r;
  r.diagnostics.push_back(problem);
  r.finish();
  return r;
}

std::vector<std::string> policy_locations(const Diagnostic& d, const std::string& policy_base) {
  std::vector<std::string> out;
  if (d.input == "policy") add_policy_pointer(out, d.path, policy_base);
  add_related(d, out, policy_base);
  return out;
}

}  // namespace sandgate::stream
