// The one place the batch check and the policy diff read a check `Result`: everything they need,
// as plain values, reading only what is needed (an accepted request's findings are never put
// into words). A change of Result's API is a change of result_view.cpp.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "sandgate/diagnostic.h"
#include "sandgate/node.h"
#include "sandgate/request.h"
#include "sandgate/result.h"
#include "sandgate/stream.h"

namespace sandgate::stream {

struct ResultView {
  bool ok = false;
  Diagnostics errors;         // severity error, in the result's order
  std::size_t warnings = 0;   // severity warning
  std::string placement_mode, qos_class, runner;  // "" when the check did not get that far
  std::optional<std::string> runtime_class;       // the resolved class's value
  // Slurm job parameters: scheduler, CPUsPerTask, MinMemoryNode, then partition, account, …
  std::vector<std::pair<std::string, std::string>> slurm;
  bool has_slurm = false;
  Node resolved;  // the effective request (only when asked for)
};

// What a reader of the view needs beyond ok, errors, warnings, placement, QoS and runner.
enum class ViewDetail : std::uint8_t {
  summary,     // nothing more: the batch check's answer line, a diff of a record either policy rejects
  resolution,  // also the resolved sandbox, runtime class and Slurm parameters, which a diff compares
};

// Takes what is needed out of `r` (which may be left empty).
ResultView view_of(Result&& r, ViewDetail detail);

// Two results of one request (a policy diff): the resolved sandboxes are made only when both
// accept it, the one case where they are compared.
std::pair<ResultView, ResultView> view_pair(Result&& a, Result&& b);

// The result of a record that cannot be read: its one problem, not ok.
Result problem_result(const Diagnostic& problem);

// Compiles a readable record's layers into a Request, handing their trees over (no copy): the
// record keeps its index, line and id. One compiled request can be checked under many policies.
std::shared_ptr<const Request> compile_record(RequestRecord&& record, const CheckOptions& options);

// The policy pointers a diagnostic names (SPEC §3): its own path when it is about the policy, and
// each `related` location in the policy. `policy_base` ("" or "/policy" for a runner document) is
// removed, so the pointers are relative to the policy object, as Policy::document() is.
std::vector<std::string> policy_locations(const Diagnostic& d, const std::string& policy_base);

}  // namespace sandgate::stream
