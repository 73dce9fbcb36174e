// SPEC §8: the SDKs' exception mapping, as data. Sources: reference/sdk-behaviour.md §1.10, §1.11,
// §2.1, §2.2, §3 and reference/coreweave-policy-model.md §4.2–4.4; checked against cwsandbox's
// _error_info.py and _sandbox.py (_is_spillover_eligible).
#include <algorithm>
#include <array>

#include "sandgate/errors.h"

namespace sandgate {
namespace {

constexpr std::string_view k_domain = "cwsandbox.com";

struct ReasonRow {
  std::string_view reason;
  std::string_view python;  // "" = falls through to the status code
  std::string_view js;      // "" = falls through to the status code
};

// Reasons the SDKs map to a class of their own (only when the domain is cwsandbox.com).
constexpr ReasonRow k_reason_rows[] = {
    {"CWSANDBOX_FILE_NOT_FOUND", "SandboxFileError", "CWSandboxFileError"},
    {"CWSANDBOX_FILE_IS_DIRECTORY", "SandboxFileError", "CWSandboxFileError"},
    {"CWSANDBOX_FILE_IO_FAILED", "SandboxFileError", "CWSandboxFileError"},
    {"CWSANDBOX_FILE_PERMISSION_DENIED", "SandboxFileError", "CWSandboxFileError"},
    {"CWSANDBOX_FILE_TOO_LARGE", "SandboxFileError", "CWSandboxFileError"},
    {"CWSANDBOX_FILE_TRUNCATED", "SandboxFileError", "CWSandboxFileError"},
    {"CWSANDBOX_SANDBOX_NOT_FOUND", "SandboxNotFoundError", "CWSandboxNotFoundError"},
    {"CWSANDBOX_COMMAND_TIMEOUT", "SandboxCommandTimeoutError", "CWSandboxTimeoutError"},
    {"CWSANDBOX_RUNNER_UNAVAILABLE", "SandboxUnavailableError", "CWSandboxUnavailableError"},
    {"CWSANDBOX_BACKEND_UNAVAILABLE", "SandboxUnavailableError", "CWSandboxUnavailableError"},
    // cwsandbox 1.22 counts it among UNAVAILABLE_REASONS (_error_info.py); found by tests/differential.
    {"CWSANDBOX_RUNNER_SHARD_RETIRING", "SandboxUnavailableError", "CWSandboxUnavailableError"},
    {"CWSANDBOX_FSS_NOT_FOUND", "SnapshotNotFoundError", "CWSandboxNotFoundError"},
    {"CWSANDBOX_FSS_NOT_READY", "SnapshotNotReadyError", ""},
    {"CWSANDBOX_FSS_NOT_SUPPORTED", "SnapshotNotSupportedError", "CWSandboxNotImplementedError"},
    {"CWSANDBOX_FSS_SIZE_EXCEEDED", "SnapshotSizeExceededError", "CWSandboxSnapshotSizeExceededError"},
    {"CWSANDBOX_FSS_QUOTA_EXCEEDED", "SnapshotQuotaExceededError", "CWSandboxSnapshotQuotaExceededError"},
    {"CWSANDBOX_FSS_BUCKET_MISMATCH", "SnapshotBucketMismatchError", "CWSandboxSnapshotBucketMismatchError"},
    {"CWSANDBOX_FSS_BUCKET_UNAVAILABLE", "SandboxSnapshotError", ""},
    {"CWSANDBOX_FSS_RESTORE_FAILED", "SandboxSnapshotError", ""},
    {"CWSANDBOX_FSS_CREATE_FAILED", "SandboxSnapshotError", ""},
    {"CWSANDBOX_FSS_CREATE_TIMED_OUT", "SandboxSnapshotError", ""},
    {"CWSANDBOX_FSS_AUTH_FAILED", "SandboxSnapshotError", ""},
    {"CWSANDBOX_FSS_TRANSPORT_FAILED", "SandboxSnapshotError", ""},
    {"CWSANDBOX_FSS_CANCELED", "SandboxSnapshotError", ""},
    {"CWSANDBOX_FSS_WAIT_TIMEOUT", "SnapshotWaitTimeoutError", ""},
    {"CWSANDBOX_FSS_BACKEND_THROTTLED", "SnapshotBackendThrottledError", "CWSandboxUnavailableError"},
    {"CWSANDBOX_FSS_INFLIGHT_LIMIT", "SnapshotBackendThrottledError", "CWSandboxUnavailableError"},
    // cwsandbox 1.22 maps it (the 1.6 mirror the reference read did not): observed in its _sandbox.py.
    {"CWSANDBOX_FSS_BUCKET_PROVISIONING", "SnapshotBucketProvisioningError", "CWSandboxUnavailableError"},
    {"CWSANDBOX_VOLUME_NOT_FOUND", "VolumeNotFoundError", ""},
    {"CWSANDBOX_VOLUME_NOT_READY", "VolumeNotReadyError", ""},
    {"CWSANDBOX_VOLUME_PLACEMENT_CONFLICT", "VolumePlacementConflictError", ""},
    {"CWSANDBOX_VOLUME_TYPE_NOT_SUPPORTED", "VolumeTypeNotSupportedError", ""},
    {"CWSANDBOX_VOLUME_NOT_SNAPSHOTTABLE", "VolumeNotSnapshottableError", ""},
    {"CWSANDBOX_VOLUME_RUNNER_INELIGIBLE", "VolumeRunnerIneligibleError", ""},
    {"CWSANDBOX_VOLUME_BACKEND_NOT_FOUND", "VolumeBackendNotFoundError", ""},
    {"CWSANDBOX_VOLUME_IN_USE", "VolumeInUseError", ""},
    {"CWSANDBOX_VOLUME_QUOTA_EXCEEDED", "VolumeQuotaExceededError", ""},
    {"CWSANDBOX_VOLUME_RUNNER_UNAVAILABLE", "VolumeRunnerUnavailableError", ""},
};

// Every reason in the catalogue (policy model §4.2), including those mapped by status code only.
constexpr std::string_view k_reasons[] = {
    "CWSANDBOX_GPU_NOT_ALLOWED",
    "CWSANDBOX_GPU_COUNT_EXCEEDED",
    "CWSANDBOX_RESOURCE_CEILING_EXCEEDED",
    "CWSANDBOX_RUNNER_UNAVAILABLE",
    "CWSANDBOX_PLACEMENT_CONSTRAINT_UNSATISFIED",
    "CWSANDBOX_RUNNER_CAPACITY_EXHAUSTED",
    "CWSANDBOX_PLACEMENT_REJECTED",
    "CWSANDBOX_RUNNER_OVERLOADED",
    "CWSANDBOX_NO_SUITABLE_RUNNER",
    "CWSANDBOX_SERVERLESS_NOT_ALLOWED",
    "CWSANDBOX_SERVERLESS_DISABLED",
    "CWSANDBOX_SERVERLESS_MISCONFIGURED",
    "CWSANDBOX_INVALID_REQUEST",
    "CWSANDBOX_SECRET_STORE_NOT_PROVISIONED",
    "CWSANDBOX_NOT_IMPLEMENTED",
    "CWSANDBOX_VOLUME_NOT_SNAPSHOTTABLE",
    "CWSANDBOX_VOLUME_NOT_FOUND",
    "CWSANDBOX_VOLUME_NOT_READY",
    "CWSANDBOX_VOLUME_PLACEMENT_CONFLICT",
    "CWSANDBOX_VOLUME_TYPE_NOT_SUPPORTED",
    "CWSANDBOX_VOLUME_RUNNER_INELIGIBLE",
    "CWSANDBOX_VOLUME_BACKEND_NOT_FOUND",
    "CWSANDBOX_VOLUME_IN_USE",
    "CWSANDBOX_VOLUME_QUOTA_EXCEEDED",
    "CWSANDBOX_VOLUME_RUNNER_UNAVAILABLE",
    "CWSANDBOX_SANDBOX_NOT_FOUND",
    "CWSANDBOX_RUNNER_NOT_FOUND",
    "CWSANDBOX_PROFILE_NOT_FOUND",
    "CWSANDBOX_BACKEND_UNAVAILABLE",
    "CWSANDBOX_RUNNER_SHARD_RETIRING",
    "CWSANDBOX_INTERNAL_ERROR",
    "CWSANDBOX_COMMAND_TIMEOUT",
    "CWSANDBOX_FILE_NOT_FOUND",
    "CWSANDBOX_FILE_IS_DIRECTORY",
    "CWSANDBOX_FILE_IO_FAILED",
    "CWSANDBOX_FILE_PERMISSION_DENIED",
    "CWSANDBOX_FILE_TOO_LARGE",
    "CWSANDBOX_FILE_TRUNCATED",
    "CWSANDBOX_FSS_NOT_FOUND",
    "CWSANDBOX_FSS_NOT_READY",
    "CWSANDBOX_FSS_NOT_SUPPORTED",
    "CWSANDBOX_FSS_SIZE_EXCEEDED",
    "CWSANDBOX_FSS_QUOTA_EXCEEDED",
    "CWSANDBOX_FSS_BUCKET_MISMATCH",
    "CWSANDBOX_FSS_BUCKET_UNAVAILABLE",
    "CWSANDBOX_FSS_BUCKET_PROVISIONING",
    "CWSANDBOX_FSS_RESTORE_FAILED",
    "CWSANDBOX_FSS_CREATE_FAILED",
    "CWSANDBOX_FSS_CREATE_TIMED_OUT",
    "CWSANDBOX_FSS_AUTH_FAILED",
    "CWSANDBOX_FSS_TRANSPORT_FAILED",
    "CWSANDBOX_FSS_WAIT_TIMEOUT",
    "CWSANDBOX_FSS_CANCELED",
    "CWSANDBOX_FSS_BACKEND_THROTTLED",
    "CWSANDBOX_FSS_INFLIGHT_LIMIT",
    "CWSANDBOX_PROFILE_MISMATCH",
    // Declared in cwsandbox 1.22's _error_info.py; they fall through to the status code.
    "CWSANDBOX_REQUEST_ID_CONFLICT",
    "CWSANDBOX_TLS_PASSTHROUGH_ENDPOINTS_NOT_SUPPORTED",
    "CWSANDBOX_HTTPS_SHARE_TOKEN_NOT_SUPPORTED",
};

constexpr std::string_view k_grpc_codes[] = {
    "OK", "CANCELLED", "UNKNOWN", "INVALID_ARGUMENT", "DEADLINE_EXCEEDED", "NOT_FOUND", "ALREADY_EXISTS",
    "PERMISSION_DENIED", "RESOURCE_EXHAUSTED", "FAILED_PRECONDITION", "ABORTED", "OUT_OF_RANGE",
    "UNIMPLEMENTED", "INTERNAL", "UNAVAILABLE", "DATA_LOSS", "UNAUTHENTICATED",
};

constexpr std::string_view k_spill_eligible[] = {
    "CWSANDBOX_RUNNER_CAPACITY_EXHAUSTED", "CWSANDBOX_PLACEMENT_REJECTED", "CWSANDBOX_PLACEMENT_CONSTRAINT_UNSATISFIED",
    "CWSANDBOX_NO_SUITABLE_RUNNER", "CWSANDBOX_RUNNER_OVERLOADED", "CWSANDBOX_RUNNER_UNAVAILABLE",
};

template <typename Range>
bool contains(const Range& r, std::string_view v) {
  return std::find(std::begin(r), std::end(r), v) != std::end(r);
}

std::string_view python_by_status(std::string_view code, bool field_violations) {
  if (code == "OK") return "";
  if (code == "NOT_FOUND") return "SandboxNotFoundError";
  if (code == "CANCELLED") return "SandboxNotRunningError";
  if (code == "DEADLINE_EXCEEDED") return "SandboxRequestTimeoutError";
  if (code == "UNAVAILABLE") return "SandboxUnavailableError";
  if (code == "RESOURCE_EXHAUSTED") return "SandboxResourceExhaustedError";
  if (code == "INVALID_ARGUMENT") return field_violations ? "SandboxValidationError" : "SandboxError";
  if (code == "UNAUTHENTICATED" || code == "PERMISSION_DENIED") return "CWSandboxAuthenticationError";
  return "SandboxError";
}

std::string_view js_by_status(std::string_view code) {
  if (code == "OK") return "";
  if (code == "UNAUTHENTICATED" || code == "PERMISSION_DENIED") return "CWSandboxAuthenticationError";
  if (code == "NOT_FOUND") return "CWSandboxNotFoundError";
  if (code == "DEADLINE_EXCEEDED") return "CWSandboxTimeoutError";
  if (code == "UNAVAILABLE") return "CWSandboxUnavailableError";
  if (code == "RESOURCE_EXHAUSTED") return "CWSandboxResourceExhaustedError";
  return "CWSandboxTransportError";
}

const ExceptionClass k_python_classes[] = {
    {"Exception", {}},
    {"ValueError", {"Exception"}},
    {"TypeError", {"Exception"}},
    {"CWSandboxError", {"Exception"}},
    {"CWSandboxAuthenticationError", {"CWSandboxError"}},
    {"CWSandboxValidationError", {"CWSandboxError"}},
    {"SandboxError", {"CWSandboxError"}},
    {"SandboxValidationError", {"SandboxError", "CWSandboxValidationError"}},
    {"SandboxNotRunningError", {"SandboxError"}},
    {"SandboxTimeoutError", {"SandboxError"}},
    {"SandboxTerminatedError", {"SandboxError"}},
    {"SandboxFailedError", {"SandboxError"}},
    {"SandboxNotFoundError", {"SandboxError"}},
    {"SandboxExecutionError", {"SandboxError"}},
    {"SandboxStreamBackpressureError", {"SandboxExecutionError"}},
    {"SandboxStreamTruncatedError", {"SandboxExecutionError"}},
    {"SandboxFileError", {"SandboxError"}},
    {"SandboxUnavailableError", {"SandboxNotRunningError"}},
    {"SandboxRequestTimeoutError", {"SandboxTimeoutError"}},
    {"SandboxCommandTimeoutError", {"SandboxTimeoutError"}},
    {"SandboxResourceExhaustedError", {"SandboxError"}},
    {"SandboxTerminalStateUnavailableError", {"SandboxError"}},
    {"SandboxProtocolError", {"SandboxError"}},
    {"SandboxSnapshotError", {"SandboxError"}},
    {"SnapshotNotFoundError", {"SandboxSnapshotError"}},
    {"SnapshotNotReadyError", {"SandboxSnapshotError"}},
    {"SnapshotNotSupportedError", {"SandboxSnapshotError"}},
    {"SnapshotSizeExceededError", {"SandboxSnapshotError"}},
    {"SnapshotQuotaExceededError", {"SandboxSnapshotError"}},
    {"SnapshotBucketMismatchError", {"SandboxSnapshotError"}},
    {"SnapshotWaitTimeoutError", {"SandboxTimeoutError", "SandboxSnapshotError"}},
    {"SnapshotBucketProvisioningError", {"SandboxUnavailableError", "SandboxSnapshotError"}},
    {"SnapshotBackendThrottledError", {"SandboxUnavailableError", "SandboxSnapshotError"}},
    {"SnapshotOnStopConflictError", {"SandboxSnapshotError"}},
    {"VolumeError", {"SandboxError"}},
    {"VolumeNotFoundError", {"VolumeError"}},
    {"VolumeNotReadyError", {"VolumeError"}},
    {"VolumePlacementConflictError", {"VolumeError"}},
    {"VolumeTypeNotSupportedError", {"VolumeError"}},
    {"VolumeNotSnapshottableError", {"VolumeError"}},
    {"VolumeRunnerIneligibleError", {"VolumeError"}},
    {"VolumeBackendNotFoundError", {"VolumeError"}},
    {"VolumeInUseError", {"VolumeError"}},
    {"VolumeQuotaExceededError", {"VolumeError"}},
    {"VolumeRunnerUnavailableError", {"VolumeError", "SandboxUnavailableError"}},
    {"VolumeWaitTimeoutError", {"SandboxTimeoutError"}},
    {"DiscoveryError", {"CWSandboxError"}},
    {"DiscoveryValidationError", {"DiscoveryError", "CWSandboxValidationError"}},
    {"RunnerNotFoundError", {"DiscoveryError"}},
    {"ProfileNotFoundError", {"DiscoveryError"}},
    {"FunctionError", {"CWSandboxError"}},
    {"AsyncFunctionError", {"FunctionError"}},
};

const ExceptionClass k_js_classes[] = {
    {"Error", {}},
    {"CWSandboxError", {"Error"}},
    {"CWSandboxConfigurationError", {"CWSandboxError"}},
    {"CWSandboxValidationError", {"CWSandboxError"}},
    {"CWSandboxNotImplementedError", {"CWSandboxError"}},
    {"CWSandboxExecutionError", {"CWSandboxError"}},
    {"CWSandboxStreamBackpressureError", {"CWSandboxExecutionError"}},
    {"CWSandboxStreamTruncatedError", {"CWSandboxExecutionError"}},
    {"CWSandboxFailedError", {"CWSandboxError"}},
    {"CWSandboxTerminatedError", {"CWSandboxError"}},
    {"CWSandboxTransportError", {"CWSandboxError"}},
    {"CWSandboxAuthenticationError", {"CWSandboxTransportError"}},
    {"CWSandboxNotFoundError", {"CWSandboxTransportError"}},
    {"CWSandboxTerminalStateUnavailableError", {"CWSandboxTransportError"}},
    {"CWSandboxTimeoutError", {"CWSandboxTransportError"}},
    {"CWSandboxUnavailableError", {"CWSandboxTransportError"}},
    {"CWSandboxResourceExhaustedError", {"CWSandboxTransportError"}},
    {"CWSandboxFileError", {"CWSandboxTransportError"}},
    {"CWSandboxSnapshotSizeExceededError", {"CWSandboxTransportError"}},
    {"CWSandboxSnapshotQuotaExceededError", {"CWSandboxTransportError"}},
    {"CWSandboxSnapshotBucketMismatchError", {"CWSandboxTransportError"}},
};

}  // namespace

ExceptionClasses exception_for(std::string_view grpc_code, std::string_view reason, std::string_view domain,
                               bool field_violations) {
  ExceptionClasses out{python_by_status(grpc_code, field_violations), js_by_status(grpc_code)};
  if (domain != k_domain || reason.empty()) return out;
  for (const auto& row : k_reason_rows) {
    if (row.reason != reason) continue;
    if (!row.python.empty()) out.python = row.python;
    if (!row.js.empty()) out.js = row.js;
    break;
  }
  return out;
}

bool is_spill_eligible(std::string_view grpc_code, std::string_view reason, std::string_view domain) {
  if (domain != k_domain) return false;
  // Ceilings differ between modes, so the other mode may accept it — but only as INVALID_ARGUMENT.
  if (reason == "CWSANDBOX_RESOURCE_CEILING_EXCEEDED") return grpc_code == "INVALID_ARGUMENT";
  return contains(k_spill_eligible, reason) &&
         (grpc_code == "RESOURCE_EXHAUSTED" || grpc_code == "FAILED_PRECONDITION" || grpc_code == "UNAVAILABLE");
}

std::span<const ExceptionClass> python_exception_classes() { return k_python_classes; }
std::span<const ExceptionClass> js_exception_classes() { return k_js_classes; }

namespace {

// Python's C3 linearisation (what `cls.__mro__` lists), so the order is the SDK's own: with
// multiple inheritance (SnapshotBackendThrottledError) breadth first would put SandboxSnapshotError
// before SandboxNotRunningError, which Python does not. Empty when the hierarchy is inconsistent.
std::vector<std::string_view> linearise(std::span<const ExceptionClass> classes, std::string_view name, int depth) {
  auto it = std::find_if(classes.begin(), classes.end(), [&](const ExceptionClass& c) { return c.name == name; });
  if (it == classes.end() || depth > 64) return {};
  std::vector<std::vector<std::string_view>> seqs;
  for (auto b : it->bases) {
    auto l = linearise(classes, b, depth + 1);
    if (!l.empty()) seqs.push_back(std::move(l));
  }
  seqs.emplace_back(it->bases.begin(), it->bases.end());
  std::vector<std::string_view> out{name};
  for (;;) {
    seqs.erase(std::remove_if(seqs.begin(), seqs.end(), [](const auto& s) { return s.empty(); }), seqs.end());
    if (seqs.empty()) return out;
    std::string_view head;
    for (const auto& s : seqs) {
      bool in_tail = std::any_of(seqs.begin(), seqs.end(), [&](const auto& o) {
        return std::find(o.begin() + 1, o.end(), s.front()) != o.end();
      });
      if (!in_tail) {
        head = s.front();
        break;
      }
    }
    if (head.empty()) return {};
    out.push_back(head);
    for (auto& s : seqs) {
      if (!s.empty() && s.front() == head) s.erase(s.begin());
    }
  }
}

}  // namespace

std::vector<std::string_view> exception_ancestors(std::string_view name, bool js) {
  return linearise(js ? js_exception_classes() : python_exception_classes(), name, 0);
}

std::span<const std::string_view> known_reasons() { return k_reasons; }
std::span<const std::string_view> grpc_codes() { return k_grpc_codes; }

}  // namespace sandgate
