"""The exception mapping: SDK class names, built from the C++ table, caught by cwsandbox's classes."""

from __future__ import annotations

import ast
import inspect
import subprocess
import sys
from pathlib import Path

import cwsandbox.exceptions as sdk
import pytest

import sandgate
from sandgate import _sandgate, exceptions

RES = {"cpu": "1", "memory": "1Gi"}
MAX_CPU = {"constraints": {"resources": {"max_cpu": "4", "max_memory": "8Gi"}}}
RUNNERS = {"runners": [{"runner_id": "gpu-east", "gpu_types": [{"type": "H100", "memory_gb": 80}], "max_gpu_count": 8}]}


# ---- exception_for / is_spill_eligible (SPEC §8, reference/sdk-behaviour.md §1.11, §3) ------------


@pytest.mark.parametrize(
    ("grpc", "reason", "domain", "violations", "python", "js"),
    [
        ("INVALID_ARGUMENT", None, "cwsandbox.com", True, "SandboxValidationError", "CWSandboxTransportError"),
        ("INVALID_ARGUMENT", None, "cwsandbox.com", False, "SandboxError", "CWSandboxTransportError"),
        ("UNAVAILABLE", None, "cwsandbox.com", True, "SandboxUnavailableError", "CWSandboxUnavailableError"),
        ("RESOURCE_EXHAUSTED", None, "cwsandbox.com", True, "SandboxResourceExhaustedError", "CWSandboxResourceExhaustedError"),
        ("UNAUTHENTICATED", None, "cwsandbox.com", True, "CWSandboxAuthenticationError", "CWSandboxAuthenticationError"),
        ("PERMISSION_DENIED", None, "cwsandbox.com", True, "CWSandboxAuthenticationError", "CWSandboxAuthenticationError"),
        ("NOT_FOUND", None, "cwsandbox.com", True, "SandboxNotFoundError", "CWSandboxNotFoundError"),
        ("DEADLINE_EXCEEDED", None, "cwsandbox.com", True, "SandboxRequestTimeoutError", "CWSandboxTimeoutError"),
        ("INTERNAL", None, "cwsandbox.com", True, "SandboxError", "CWSandboxTransportError"),
        # a trusted reason wins over the status code …
        ("FAILED_PRECONDITION", "CWSANDBOX_RUNNER_UNAVAILABLE", "cwsandbox.com", True, "SandboxUnavailableError", "CWSandboxUnavailableError"),
        # … only from the trusted domain
        ("FAILED_PRECONDITION", "CWSANDBOX_RUNNER_UNAVAILABLE", "evil.example", True, "SandboxError", "CWSandboxTransportError"),
        ("OK", None, "cwsandbox.com", True, None, None),
    ],
)
def test_exception_for(grpc: str, reason: str | None, domain: str, violations: bool, python: str | None, js: str | None) -> None:
    got = sandgate.exception_for(grpc, reason, domain=domain, field_violations=violations)
    assert got == (python, js)
    assert (got.python, got.js) == (python, js)


def test_is_spill_eligible() -> None:
    assert sandgate.is_spill_eligible("RESOURCE_EXHAUSTED", "CWSANDBOX_RUNNER_CAPACITY_EXHAUSTED")
    assert not sandgate.is_spill_eligible("RESOURCE_EXHAUSTED", "CWSANDBOX_RUNNER_CAPACITY_EXHAUSTED", "other.example")
    assert not sandgate.is_spill_eligible("RESOURCE_EXHAUSTED")
    assert not sandgate.is_spill_eligible("FAILED_PRECONDITION", "CWSANDBOX_SERVERLESS_DISABLED")


def test_exception_ancestors() -> None:
    assert sandgate.exception_ancestors("SandboxUnavailableError")[:3] == [
        "SandboxUnavailableError",
        "SandboxNotRunningError",
        "SandboxError",
    ]


# ---- the hierarchy ------------------------------------------------------------------------------------


def test_hierarchy_is_built_from_the_cpp_table() -> None:
    roots = {"Exception": exceptions.SandgateError, "ValueError": exceptions.SandgateValueError, "TypeError": exceptions.SandgateTypeError}
    for name, bases in _sandgate.python_exception_classes():
        cls = roots.get(name) or getattr(exceptions, name)
        assert issubclass(cls, exceptions.SandgateError)
        if name not in roots:
            assert cls.__name__ == name
            assert cls.__bases__ == tuple(roots.get(b) or getattr(exceptions, b) for b in bases)


def test_hierarchy_mirrors_the_installed_sdk() -> None:
    for name, bases in _sandgate.python_exception_classes():
        theirs = getattr(sdk, name, None)
        if theirs is None or name in ("Exception", "ValueError", "TypeError"):
            continue
        assert tuple(b.__name__ for b in theirs.__bases__) == bases, name


def test_stubs_list_every_class() -> None:
    stub = Path(exceptions.__file__).with_suffix(".pyi")
    tree = ast.parse(stub.read_text())
    stubbed = {n.name for n in tree.body if isinstance(n, ast.ClassDef)}
    runtime = {n for n, c in vars(exceptions).items() if inspect.isclass(c) and issubclass(c, BaseException)}
    assert runtime - {"Exception", "ValueError", "TypeError"} <= stubbed
    assert {n for n, _ in _sandgate.python_exception_classes()} - {"Exception", "ValueError", "TypeError"} <= stubbed


def test_builtin_rows_are_builtin_subclasses() -> None:
    assert issubclass(sandgate.SandgateValueError, ValueError)
    assert issubclass(sandgate.SandgateTypeError, TypeError)
    assert exceptions.exception_class("ValueError") is sandgate.SandgateValueError


# ---- raising -------------------------------------------------------------------------------------------


def test_server_rule_raises_sandbox_validation_error_caught_by_the_sdk_class() -> None:
    r = sandgate.check({"resources": {"cpu": "8", "memory": "1Gi"}}, policy=MAX_CPU)
    with pytest.raises(sdk.SandboxValidationError) as info:
        r.raise_for_errors()
    e = info.value
    assert isinstance(e, exceptions.SandboxValidationError)
    assert isinstance(e, sdk.SandboxError) and isinstance(e, sdk.CWSandboxValidationError)
    assert isinstance(e, sdk.CWSandboxError) and isinstance(e, sandgate.SandgateError)
    assert type(e).__name__ == "SandboxValidationError"
    assert e.reason == "CWSANDBOX_RESOURCE_CEILING_EXCEEDED"
    assert e.grpc_code == "INVALID_ARGUMENT"
    assert e.code == "SG_RESOURCE_ABOVE_MAX"
    assert [d.code for d in e.diagnostics] == ["SG_RESOURCE_ABOVE_MAX"]
    assert str(e) == str(e.diagnostics[0])
    # the SDK's own attributes are there and meaningful
    assert e.metadata == {} and e.retry_delay is None
    assert [(v.field, type(v)) for v in e.field_violations] == [("/resources/cpu", sdk.FieldViolation)]


def test_sdk_catch_order_is_respected() -> None:
    r = sandgate.check({"resources": {"cpu": "8", "memory": "1Gi"}}, policy=MAX_CPU)
    try:
        r.raise_for_errors()
    except sdk.SandboxNotRunningError:
        pytest.fail("caught by an unrelated SDK class")
    except sdk.SandboxError:
        pass


def test_unavailable_gpu_type_raises_sandbox_unavailable_error() -> None:
    sandbox = {"runner_ids": ["gpu-east"], "resources": {"cpu": "8", "memory": "64Gi", "gpu": {"count": 1, "type": "B200"}}}
    r = sandgate.check(sandbox, runners=RUNNERS, org={"gpu_allowed": True})
    with pytest.raises(sdk.SandboxUnavailableError) as info:
        r.raise_for_errors()
    assert info.value.reason == "CWSANDBOX_RUNNER_UNAVAILABLE"
    assert isinstance(info.value, sdk.SandboxNotRunningError)


def test_node_capacity_raises_sandbox_resource_exhausted_error() -> None:
    sandbox = {"runner_ids": ["gpu-east"], "resources": {"cpu": "8", "memory": "64Gi", "gpu": {"count": 16, "type": "H100"}}}
    r = sandgate.check(sandbox, runners=RUNNERS, org={"gpu_allowed": True})
    with pytest.raises(sdk.SandboxResourceExhaustedError):
        r.raise_for_errors()


def test_client_rule_raises_a_value_error() -> None:
    r = sandgate.check({"resources": {"cpu": "1", "memory": "1Gi", "gpu": True}})
    with pytest.raises(ValueError) as info:
        r.raise_for_errors()
    assert isinstance(info.value, sandgate.SandgateValueError)
    assert info.value.grpc_code is None


def test_client_rule_raises_a_type_error() -> None:
    r = sandgate.check({"resources": RES, "runner_ids": "gpu-east"})
    with pytest.raises(TypeError):
        r.raise_for_errors()


def test_the_first_error_by_position_decides_and_all_are_attached() -> None:
    text = "resources:\n  cpu: '8'\n  memory: 1Gi\nmax_lifetime_seconds: -5\n"
    r = sandgate.check(text, policy=MAX_CPU)
    assert len(r.errors) >= 2
    first = r.errors[0]
    with pytest.raises(sandgate.SandgateError) as info:
        r.raise_for_errors()
    assert info.value.code == first.code
    assert list(info.value.diagnostics) == r.errors
    assert str(info.value).splitlines()[0] == str(first)


def test_the_message_lists_twenty_errors_then_counts_the_rest() -> None:
    # Warnings are not errors: neither listed nor attached.
    r = sandgate.check({"resources": {"cpu": " 1 ", "memory": "1Gi"}, "tags": [1] * 25})
    assert len(r.errors) == 25 and r.warnings
    with pytest.raises(sandgate.SandgateError) as info:
        r.raise_for_errors()
    lines = str(info.value).splitlines()
    assert lines[:20] == [str(d) for d in r.errors[:20]]
    assert lines[20:] == ["… and 5 more errors"]
    assert list(info.value.diagnostics) == r.errors


def test_no_errors_no_raise() -> None:
    sandgate.check({"resources": RES}).raise_for_errors()


def test_policy_raise_for_errors() -> None:
    p = sandgate.Policy.from_text("base:\n  spec:\n    affinity: {}\n")
    with pytest.raises(sdk.SandboxValidationError) as info:
        p.raise_for_errors()
    assert info.value.code == "SG_BASE_FORBIDDEN_FIELD"


def test_without_cwsandbox_sandgate_classes_still_work() -> None:
    code = """
import sys
sys.modules["cwsandbox"] = None  # not importable
import sandgate
r = sandgate.check({"resources": {"cpu": "8", "memory": "1Gi"}}, policy={"constraints": {"resources": {"max_cpu": "4"}}})
try:
    r.raise_for_errors()
except sandgate.exceptions.SandboxValidationError as e:
    assert type(e) is sandgate.exceptions.SandboxValidationError
    assert e.reason == "CWSANDBOX_RESOURCE_CEILING_EXCEEDED"
    print("ok")
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "ok"


def test_exceptions_survive_pickling() -> None:
    import pickle

    r = sandgate.check({"resources": {"cpu": "8", "memory": "1Gi"}}, policy=MAX_CPU)
    with pytest.raises(sandgate.SandgateError) as info:
        r.raise_for_errors()
    copy = pickle.loads(pickle.dumps(info.value))
    assert type(copy) is type(info.value)
    assert isinstance(copy, sdk.SandboxValidationError)
    assert (str(copy), copy.reason, copy.code, copy.diagnostics) == (
        str(info.value), info.value.reason, info.value.code, info.value.diagnostics)
    value_error = pickle.loads(pickle.dumps(sandgate.SandgateValueError("x", code="SG_GPU_INVALID")))
    assert isinstance(value_error, ValueError) and value_error.code == "SG_GPU_INVALID"
