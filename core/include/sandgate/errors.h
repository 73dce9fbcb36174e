// What the SDKs raise for a server answer (SPEC §8): exception classes by gRPC code, reason and
// error domain; spill-over eligibility; and the Python exception hierarchy, all as data.
#pragma once

#include <span>
#include <string_view>
#include <vector>

namespace sandgate {

struct ExceptionClasses {
  std::string_view python;  // e.g. "SandboxValidationError"
  std::string_view js;      // e.g. "CWSandboxTransportError"
};

// The classes the Python and TypeScript SDKs raise for a failed RPC. Reasons count only when
// `domain` is "cwsandbox.com". `field_violations`: whether the status carries BadRequest details
// (an INVALID_ARGUMENT without them is a plain SandboxError in Python).
ExceptionClasses exception_for(std::string_view grpc_code, std::string_view reason = {},
                               std::string_view domain = "cwsandbox.com", bool field_violations = true);

// Whether the Python SDK's placement spill-over retries a failed create in the other mode.
bool is_spill_eligible(std::string_view grpc_code, std::string_view reason, std::string_view domain = "cwsandbox.com");

struct ExceptionClass {
  std::string_view name;
  std::vector<std::string_view> bases;  // direct bases, in MRO order
};

// The Python SDK's exception classes (cwsandbox.exceptions) plus the builtins sandgate raises.
std::span<const ExceptionClass> python_exception_classes();
// The TypeScript SDK's error classes.
std::span<const ExceptionClass> js_exception_classes();
// `name` and all its ancestors in Python's C3 order (what `cls.__mro__` lists, without `object`), no duplicates.
std::vector<std::string_view> exception_ancestors(std::string_view name, bool js = false);

// Every CWSANDBOX_* reason sandgate knows, and every gRPC status code name.
std::span<const std::string_view> known_reasons();
std::span<const std::string_view> grpc_codes();

}  // namespace sandgate
