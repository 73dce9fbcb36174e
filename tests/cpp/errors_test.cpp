// SPEC §8: the SDK exception mapping, the domain rule, spill-over, and the codes table's
// consistency with it.
#include <gtest/gtest.h>

#include <set>

#include "sandgate/diagnostic.h"
#include "sandgate/errors.h"

using namespace sandgate;

TEST(ExceptionFor, reasons_count_only_in_the_cwsandbox_domain) {
  auto trusted = exception_for("UNAVAILABLE", "CWSANDBOX_FSS_BACKEND_THROTTLED", "cwsandbox.com");
  EXPECT_EQ(trusted.python, "SnapshotBackendThrottledError");
  auto untrusted = exception_for("UNAVAILABLE", "CWSANDBOX_FSS_BACKEND_THROTTLED", "evil.example.com");
  EXPECT_EQ(untrusted.python, "SandboxUnavailableError");
  auto empty = exception_for("NOT_FOUND", "CWSANDBOX_FILE_NOT_FOUND", "");
  EXPECT_EQ(empty.python, "SandboxNotFoundError");
  EXPECT_EQ(exception_for("NOT_FOUND", "CWSANDBOX_FILE_NOT_FOUND").python, "SandboxFileError");
}

TEST(ExceptionFor, status_codes_map_as_the_combined_table_says) {
  EXPECT_EQ(exception_for("INVALID_ARGUMENT").python, "SandboxValidationError");
  EXPECT_EQ(exception_for("INVALID_ARGUMENT", "", "cwsandbox.com", false).python, "SandboxError");
  EXPECT_EQ(exception_for("INVALID_ARGUMENT").js, "CWSandboxTransportError");
  EXPECT_EQ(exception_for("PERMISSION_DENIED").python, "CWSandboxAuthenticationError");
  EXPECT_EQ(exception_for("CANCELLED").python, "SandboxNotRunningError");
  EXPECT_EQ(exception_for("CANCELLED").js, "CWSandboxTransportError");
  EXPECT_EQ(exception_for("RESOURCE_EXHAUSTED").js, "CWSandboxResourceExhaustedError");
  EXPECT_EQ(exception_for("FAILED_PRECONDITION", "CWSANDBOX_SERVERLESS_NOT_ALLOWED").python, "SandboxError");
  EXPECT_EQ(exception_for("DEADLINE_EXCEEDED", "CWSANDBOX_COMMAND_TIMEOUT").python, "SandboxCommandTimeoutError");
  EXPECT_EQ(exception_for("DEADLINE_EXCEEDED", "CWSANDBOX_COMMAND_TIMEOUT").js, "CWSandboxTimeoutError");
}

TEST(ExceptionFor, every_grpc_code_and_reason_maps_to_known_classes) {
  std::set<std::string_view> py, js;
  for (const auto& c : python_exception_classes()) py.insert(c.name);
  for (const auto& c : js_exception_classes()) js.insert(c.name);
  for (auto code : grpc_codes()) {
    for (auto reason : known_reasons()) {
      auto e = exception_for(code, reason);
      if (code == "OK") continue;
      EXPECT_TRUE(py.count(e.python)) << code << " " << reason << " → " << e.python;
      EXPECT_TRUE(js.count(e.js)) << code << " " << reason << " → " << e.js;
    }
  }
}

TEST(Spill, eligible_reasons_spill_only_with_a_matching_status_and_domain) {
  EXPECT_TRUE(is_spill_eligible("RESOURCE_EXHAUSTED", "CWSANDBOX_RUNNER_CAPACITY_EXHAUSTED"));
  EXPECT_TRUE(is_spill_eligible("UNAVAILABLE", "CWSANDBOX_RUNNER_UNAVAILABLE"));
  EXPECT_FALSE(is_spill_eligible("UNAVAILABLE", "CWSANDBOX_RUNNER_UNAVAILABLE", "example.com"));
  EXPECT_FALSE(is_spill_eligible("RESOURCE_EXHAUSTED", ""));
  EXPECT_FALSE(is_spill_eligible("FAILED_PRECONDITION", "CWSANDBOX_SERVERLESS_NOT_ALLOWED"));
  EXPECT_TRUE(is_spill_eligible("INVALID_ARGUMENT", "CWSANDBOX_RESOURCE_CEILING_EXCEEDED"));
  EXPECT_FALSE(is_spill_eligible("RESOURCE_EXHAUSTED", "CWSANDBOX_RESOURCE_CEILING_EXCEEDED"));
  EXPECT_FALSE(is_spill_eligible("INVALID_ARGUMENT", "CWSANDBOX_INVALID_REQUEST"));
}

TEST(Ancestors, python_hierarchy_has_multiple_inheritance) {
  auto a = exception_ancestors("SandboxValidationError");
  std::set<std::string_view> s(a.begin(), a.end());
  EXPECT_TRUE(s.count("SandboxError"));
  EXPECT_TRUE(s.count("CWSandboxValidationError"));
  EXPECT_TRUE(s.count("CWSandboxError"));
  EXPECT_EQ(a.front(), "SandboxValidationError");
  auto js = exception_ancestors("CWSandboxUnavailableError", true);
  EXPECT_EQ(js, (std::vector<std::string_view>{"CWSandboxUnavailableError", "CWSandboxTransportError", "CWSandboxError", "Error"}));
}

TEST(CodesTable, names_are_unique_and_rules_are_spec_ids) {
  std::set<std::string_view> names;
  for (const auto& c : all_codes()) {
    EXPECT_TRUE(names.insert(c.name).second) << c.name;
    EXPECT_EQ(c.name.substr(0, 3), "SG_");
    char k = c.rule.empty() ? '?' : c.rule[0];
    EXPECT_TRUE(k == 'L' || k == 'S' || k == 'Q' || k == 'P' || k == 'N' || k == 'R') << c.name << " " << c.rule;
    EXPECT_FALSE(c.summary.empty()) << c.name;
    EXPECT_EQ(code_from_name(c.name), c.code);
  }
}

TEST(CodesTable, server_codes_name_the_exceptions_the_sdks_raise_for_their_status) {
  for (const auto& c : all_codes()) {
    if (c.grpc_code.empty()) continue;
    auto e = exception_for(c.grpc_code, c.reason);
    if (c.side == Side::server || c.side == Side::typescript_server) {
      EXPECT_EQ(c.python_exception, e.python) << c.name;
    }
    if (c.side == Side::server || c.side == Side::python_server) {
      EXPECT_EQ(c.js_exception, e.js) << c.name;
    }
    if (c.side == Side::python_server) {
      EXPECT_TRUE(c.python_exception == "ValueError" || c.python_exception == "TypeError") << c.name;
    }
    if (c.side == Side::typescript_server) {
      EXPECT_EQ(c.js_exception, "CWSandboxValidationError") << c.name;
    }
  }
}

TEST(CodesTable, warnings_and_notes_never_claim_an_exception) {
  for (const auto& c : all_codes()) {
    if (c.severity == Severity::error) {
      EXPECT_TRUE(!c.python_exception.empty() || !c.js_exception.empty()) << c.name;
    }
  }
}

// Every gRPC status without a reason, both SDKs, as the reference tables give them
// (../shared/reference/sdk-behaviour.md: Python "gRPC status (no mapped reason)", TS §2.2 "status").
TEST(ExceptionFor, every_status_without_a_reason_maps_as_each_sdks_table_says) {
  struct Row {
    const char* code;
    const char* python;
    const char* js;
  } rows[] = {
      {"NOT_FOUND", "SandboxNotFoundError", "CWSandboxNotFoundError"},
      {"CANCELLED", "SandboxNotRunningError", "CWSandboxTransportError"},
      {"DEADLINE_EXCEEDED", "SandboxRequestTimeoutError", "CWSandboxTimeoutError"},
      {"UNAVAILABLE", "SandboxUnavailableError", "CWSandboxUnavailableError"},
      {"RESOURCE_EXHAUSTED", "SandboxResourceExhaustedError", "CWSandboxResourceExhaustedError"},
      {"INVALID_ARGUMENT", "SandboxValidationError", "CWSandboxTransportError"},
      {"UNAUTHENTICATED", "CWSandboxAuthenticationError", "CWSandboxAuthenticationError"},
      {"PERMISSION_DENIED", "CWSandboxAuthenticationError", "CWSandboxAuthenticationError"},
      {"FAILED_PRECONDITION", "SandboxError", "CWSandboxTransportError"},
      {"INTERNAL", "SandboxError", "CWSandboxTransportError"},
      {"UNKNOWN", "SandboxError", "CWSandboxTransportError"},
      {"ALREADY_EXISTS", "SandboxError", "CWSandboxTransportError"},
      {"UNIMPLEMENTED", "SandboxError", "CWSandboxTransportError"},
      {"ABORTED", "SandboxError", "CWSandboxTransportError"},
      {"OUT_OF_RANGE", "SandboxError", "CWSandboxTransportError"},
      {"DATA_LOSS", "SandboxError", "CWSandboxTransportError"},
  };
  for (const Row& r : rows) {
    auto e = exception_for(r.code);
    EXPECT_EQ(e.python, r.python) << r.code;
    EXPECT_EQ(e.js, r.js) << r.code;
  }
}
