"""Server answers: sandgate's exception_for / is_spill_eligible / exception_ancestors against the
SDK's own translation of a real ``grpc.RpcError``.

Each case is a gRPC status code with ``google.rpc.Status`` details — an ``ErrorInfo`` (reason,
domain), ``BadRequest`` field violations, sometimes a ``RetryInfo`` and details the SDK must skip —
encoded by ``grpc_status.rpc_status.to_status`` into the ``grpc-status-details-bin`` trailer, and
raised as the ``grpc.aio.AioRpcError`` the SDK's async stubs raise. The SDK side is
``cwsandbox._sandbox._translate_rpc_error`` (what ``Sandbox.start()`` raises for a failed create)
and ``_is_spillover_eligible``; sandgate is given what the case means: the status name, the
reason and domain of the first ErrorInfo with a reason, and whether any violation carries data.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import grpc
import grpc.aio
import pytest
from cwsandbox import _error_info
from cwsandbox import _sandbox as sdk_sandbox
from cwsandbox import exceptions as sdk_exceptions
from google.protobuf import any_pb2, duration_pb2
from google.rpc import code_pb2, error_details_pb2, status_pb2
from grpc_status import rpc_status
from hypothesis import given, settings
from hypothesis import strategies as st

import sandgate
from diff_report import new_report

REPORT = new_report("differential: server errors vs cwsandbox 1.22's translation", "error-mapping cases",
                    ("reason", "status code"))
MIN_CASES = 2_000

# Every status but OK (an RpcError never carries OK).
CODES = [c for c in grpc.StatusCode if c is not grpc.StatusCode.OK]
# Every reason either side knows, and some neither knows.
SDK_REASONS = sorted(v for k, v in vars(_error_info).items() if k.startswith("CWSANDBOX_") and isinstance(v, str) and v.startswith("CWSANDBOX_"))
REASONS = sorted(set(SDK_REASONS) | set(sandgate._sandgate.known_reasons())) + [
    "", "CWSANDBOX_MADE_UP", "cwsandbox_runner_unavailable", "RUNNER_UNAVAILABLE",
]
DOMAINS = ["cwsandbox.com", "", "example.com", "CWSANDBOX.COM", "cwsandbox.com.", "api.cwsandbox.com"]
VIOLATIONS = ["none", "field+description", "field", "description", "localized", "reason", "empty"]


@dataclass(frozen=True)
class ErrorCase:
    code: grpc.StatusCode
    reason: str
    domain: str
    violations: str
    leading_empty_info: bool = False  # an ErrorInfo with no reason before the real one (skipped)
    retry_info: bool = False
    noise: bool = False  # a detail the SDK does not read (DebugInfo)


def _pack(msg: object) -> any_pb2.Any:
    a = any_pb2.Any()
    a.Pack(msg)
    return a


def build_error(case: ErrorCase) -> grpc.RpcError:
    details = []
    if case.noise:
        details.append(_pack(error_details_pb2.DebugInfo(detail="trace")))
    if case.leading_empty_info:
        details.append(_pack(error_details_pb2.ErrorInfo(reason="", domain="cwsandbox.com")))
    if case.reason or case.domain:
        details.append(_pack(error_details_pb2.ErrorInfo(reason=case.reason, domain=case.domain, metadata={"k": "v"})))
    if case.retry_info:
        details.append(_pack(error_details_pb2.RetryInfo(retry_delay=duration_pb2.Duration(seconds=2))))
    if case.violations != "none":
        v = error_details_pb2.BadRequest.FieldViolation()
        if case.violations in ("field+description", "field"):
            v.field = "spec.containers[0].resources"
        if case.violations in ("field+description", "description"):
            v.description = "too large"
        if case.violations == "localized":
            v.localized_message.message = "trop grand"
        if case.violations == "reason":
            v.reason = "RESOURCE_TOO_LARGE"
        details.append(_pack(error_details_pb2.BadRequest(field_violations=[v])))
    status = status_pb2.Status(code=getattr(code_pb2, case.code.name), message="server says no", details=details)
    converted = rpc_status.to_status(status)
    return grpc.aio.AioRpcError(
        converted.code, grpc.aio.Metadata(), grpc.aio.Metadata(*converted.trailing_metadata), converted.details
    )


def sandgate_view(case: ErrorCase) -> tuple[str, str | None, str, bool]:
    """The case as sandgate's parameters: code name, reason, domain, field violations present."""
    has_info = bool(case.reason)  # an ErrorInfo without a reason is skipped, domain and all
    violations = case.violations not in ("none", "empty")
    return case.code.name, case.reason if has_info else None, case.domain if has_info else "", violations


def compare(case: ErrorCase) -> None:
    err = build_error(case)
    translated = sdk_sandbox._translate_rpc_error(err, operation="Create sandbox")
    sdk_spill = sdk_sandbox._is_spillover_eligible(err)
    code, reason, domain, violations = sandgate_view(case)
    ours = sandgate.exception_for(code, reason, domain=domain, field_violations=violations)
    mro = [c.__name__ for c in type(translated).__mro__ if issubclass(c, sdk_exceptions.CWSandboxError)] + ["Exception"]
    problems = []
    if ours.python != type(translated).__name__:
        problems.append(f"exception_for → {ours.python}, the SDK raises {type(translated).__name__}")
    if sandgate.is_spill_eligible(code, reason, domain) != sdk_spill:
        problems.append(f"is_spill_eligible → {not sdk_spill}, the SDK's _is_spillover_eligible → {sdk_spill}")
    if ours.python is not None and sandgate.exception_ancestors(ours.python) != mro:
        problems.append(f"exception_ancestors → {sandgate.exception_ancestors(ours.python)}, the SDK's MRO {mro}")
    family = "trusted reason" if reason and domain == "cwsandbox.com" else "status code"
    REPORT.add(family, code, "disagree" if problems else "agree", key=(family, code, str(reason), *problems),
               example=repr(case))
    assert not problems, f"{case}: " + "; ".join(problems)


SWEEP = [
    ErrorCase(code, reason, domain, violations)
    for code, reason, domain, violations in itertools.product(
        CODES, REASONS, ["cwsandbox.com", "example.com"], ["none", "field+description"]
    )
]


def test_sweep_every_status_reason_domain_and_violation() -> None:
    """Every status × every reason × trusted/untrusted domain × with/without violations."""
    for case in SWEEP:
        compare(case)


error_cases = st.builds(
    ErrorCase,
    code=st.sampled_from(CODES),
    reason=st.sampled_from(REASONS),
    domain=st.sampled_from(DOMAINS),
    violations=st.sampled_from(VIOLATIONS),
    leading_empty_info=st.booleans(),
    retry_info=st.booleans(),
    noise=st.booleans(),
)


@settings(max_examples=max(settings.default.max_examples // 4, 100))
@given(error_cases)
def _one_error(case: ErrorCase) -> None:
    compare(case)


def test_generated_error_details() -> None:
    """Domains that are almost trusted, every violation form, skipped and extra details."""
    _one_error()


def test_enough_error_mapping_cases() -> None:
    assert REPORT.total >= MIN_CASES, REPORT.total


@pytest.mark.parametrize("name", [n for n, _ in sandgate._sandgate.python_exception_classes() if n not in ("Exception", "ValueError", "TypeError")])
def test_every_class_in_the_table_has_the_sdks_mro(name: str) -> None:
    sdk_cls = getattr(sdk_exceptions, name)
    mro = [c.__name__ for c in sdk_cls.__mro__ if issubclass(c, sdk_exceptions.CWSandboxError)] + ["Exception"]
    assert sandgate.exception_ancestors(name) == mro


def test_the_sdk_sees_the_details() -> None:
    """The harness: the SDK parses the trailer built here (a mistake would make every case 'no details')."""
    err = build_error(ErrorCase(grpc.StatusCode.UNAVAILABLE, "CWSANDBOX_RUNNER_UNAVAILABLE", "cwsandbox.com", "field"))
    parsed = _error_info.parse_error_info(err)
    assert parsed is not None and parsed.reason == "CWSANDBOX_RUNNER_UNAVAILABLE" and parsed.domain == "cwsandbox.com"
    assert isinstance(sdk_sandbox._translate_rpc_error(err), sdk_exceptions.SandboxUnavailableError)
