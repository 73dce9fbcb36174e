"""The public API of SPEC §9: Policy, check, Result, validate_policy, normalize_resources, quantities."""

from __future__ import annotations

import json
import subprocess
import sys
from decimal import Decimal
from pathlib import Path

import pytest
from cwsandbox import ResourceOptions
from cwsandbox._quantity import parse_quantity as sdk_parse_quantity
from cwsandbox._resources import normalize_resources as sdk_normalize_resources

import sandgate
from helpers import REPO

RES = {"cpu": "1", "memory": "1Gi"}
POLICY_TEXT = "constraints:\n  resources:\n    max_cpu: '4'\n    max_memory: 8Gi\n"


# ---- package --------------------------------------------------------------------------------------------


def test_version_is_the_repository_version() -> None:
    assert sandgate.__version__ == (REPO / "VERSION").read_text().strip()


def test_import_does_not_import_cwsandbox() -> None:
    code = "import sys, sandgate, sandgate.presubmit, sandgate.exceptions; print('cwsandbox' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_public_names() -> None:
    for name in sandgate.__all__:
        assert hasattr(sandgate, name), name


# ---- Policy ---------------------------------------------------------------------------------------------


def test_policy_from_text_dict_and_file_agree(tmp_path: Path) -> None:
    path = tmp_path / "policy.yaml"
    path.write_text(POLICY_TEXT)
    policies = [
        sandgate.Policy.from_text(POLICY_TEXT),
        sandgate.Policy.from_dict({"constraints": {"resources": {"max_cpu": "4", "max_memory": "8Gi"}}}),
        sandgate.Policy.load(path),
        sandgate.Policy.load(str(path)),
    ]
    for p in policies:
        assert p.ok and p.loaded and not p.is_null, p.diagnostics
        r = sandgate.check({"resources": {"cpu": "8", "memory": "1Gi"}}, policy=p)
        assert [d.code for d in r.errors] == ["SG_RESOURCE_ABOVE_MAX"]
    assert policies[2].file == str(path)


def test_policy_check_is_check_with_that_policy() -> None:
    policy = sandgate.Policy.load(REPO / "examples/policies/gpu-cks.yaml")
    runners = REPO / "examples/runners.yaml"
    sandbox = {
        "placement_mode": "cks",
        "runner_ids": ["gpu-us-east-1"],
        "resources": {"requests": RES, "limits": RES, "gpu": {"count": 1, "type": "h100"}},
    }
    cases: list[dict[str, object]] = [
        {},
        {"runners": runners, "org": {"gpu_allowed": True}},
        {"runners": runners, "org": {"gpu_allowed": True}, "client": "typescript", "placement": "serverless"},
        {"defaults": {"tags": ["a"]}, "overrides": {"resources": {"cpu": "64"}}, "runners": runners},
    ]
    answers = set()
    for kwargs in cases:
        mine = policy.check(sandbox, **kwargs)  # type: ignore[arg-type]
        theirs = sandgate.check(sandbox, policy=policy, **kwargs)  # type: ignore[arg-type]
        assert mine.to_dict() == theirs.to_dict(), kwargs
        answers.add(mine.to_json())
    assert len(answers) == len(cases)  # every keyword reaches the check


def test_policy_with_errors_is_still_a_policy() -> None:
    p = sandgate.Policy.from_text("base:\n  spec:\n    affinity: {}\n", name="runner.yaml")
    assert p.loaded and not p.ok
    [d] = p.errors
    assert d.code == "SG_BASE_FORBIDDEN_FIELD"
    assert str(d).startswith("runner.yaml:3:5: error[SG_BASE_FORBIDDEN_FIELD] ")
    r = sandgate.check({"resources": RES}, policy=p)
    assert not r.ok and [e.code for e in r.errors] == ["SG_BASE_FORBIDDEN_FIELD"]


def test_broken_policy_returns_its_load_errors_from_check() -> None:
    p = sandgate.Policy.from_text("constraints: [unclosed\n")
    assert not p.loaded and not p.ok
    assert p.errors and p.errors[0].input == "policy"
    r = sandgate.check({"resources": RES}, policy=p)
    assert not r.ok
    assert r.diagnostics == tuple(p.errors)
    assert r.placement_mode is None and r.resolved == {}


def test_null_policy_is_not_an_empty_policy() -> None:
    null = sandgate.Policy.from_text("null\n")
    empty = sandgate.Policy.from_text("{}\n")
    assert null.is_null and not empty.is_null
    assert [d.code for d in null.warnings] == ["SG_POLICY_NULL"]
    assert empty.ok and not empty.diagnostics
    assert sandgate.Policy.from_dict(None).is_null


def test_runner_document_takes_its_policy() -> None:
    doc = {"policy": {"constraints": {"resources": {"max_cpu": "4"}}}, "etag": "abc"}
    p = sandgate.Policy.from_text(json.dumps(doc))
    assert p.ok, p.diagnostics


# ---- validate_policy ------------------------------------------------------------------------------------


def test_validate_policy_every_kind(tmp_path: Path) -> None:
    bad = {"base": {"spec": {"affinity": {}}}}
    path = tmp_path / "p.json"
    path.write_text(json.dumps(bad))
    for doc in (bad, json.dumps(bad), path, sandgate.Policy.from_dict(bad)):
        r = sandgate.validate_policy(doc)
        assert not r.ok
        assert [(d.code, d.path) for d in r.errors] == [("SG_BASE_FORBIDDEN_FIELD", "/base/spec/affinity")]


def test_validate_policy_reports_everything() -> None:
    r = sandgate.validate_policy({"base": {"spec": {"affinity": {}, "initContainers": []}}})
    assert len(r.errors) == 2


# ---- Result ---------------------------------------------------------------------------------------------


def test_result_fields() -> None:
    r = sandgate.check(
        {"resources": {"requests": {"cpu": "1", "memory": "1Gi"}, "limits": {"cpu": "2", "memory": "2Gi"}}, "runner_ids": ["r1"]},
        runners={"runners": [{"runner_id": "r1"}, {"runner_id": "r2"}]},
    )
    assert r.ok, r.diagnostics
    assert r.placement_mode == "cks" and r.qos_class == "Burstable" and r.runner == "r1"
    assert r.resolved["resources"]["limits"] == {"cpu": "2", "memory": "2Gi"}
    assert r.provenance["/resources/limits/cpu"] == "sandbox"
    assert r.runtime_class is not None and set(r.runtime_class) == {"value", "from"}
    assert r.slurm is None and r.gpu is None
    d = r.to_dict()
    assert set(d) == set(json.loads(r.to_json()))
    assert d["resolved"] == json.loads(r.to_json())["resolved"]
    assert "ok=True" in repr(r)


def test_diagnostic_fields() -> None:
    r = sandgate.check({"resources": {"cpu": "8", "memory": "1Gi"}}, policy=POLICY_TEXT)
    [d] = r.errors
    assert (d.rule, d.code, d.severity) == ("R-RES-2", "SG_RESOURCE_ABOVE_MAX", "error")
    assert (d.reason, d.grpc_code) == ("CWSANDBOX_RESOURCE_CEILING_EXCEEDED", "INVALID_ARGUMENT")
    assert (d.python_exception, d.js_exception) == ("SandboxValidationError", "CWSandboxTransportError")
    assert (d.input, d.path, d.source) == ("sandbox", "/resources/cpu", None)
    assert d.message
    assert str(d).startswith("sandbox:/resources/cpu: error[SG_RESOURCE_ABOVE_MAX] ")
    assert d.to_dict()["code"] == "SG_RESOURCE_ABOVE_MAX"
    assert r.errors == [d] and r.warnings == []


def test_client_option() -> None:
    sandbox = {"resources": {"requests": RES}}
    py = sandgate.check(sandbox, client="python")
    ts = sandgate.check(sandbox, client="typescript")
    assert py.ok and not ts.ok
    with pytest.raises(ValueError):
        sandgate.check(sandbox, client="rust")  # type: ignore[arg-type]


def test_placement_option() -> None:
    r = sandgate.check({"resources": RES}, placement="cks")
    assert r.placement_mode == "cks"


# ---- normalize_resources --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "value",
    [
        {"cpu": "1", "memory": "1Gi"},
        {"cpu": "500m"},
        {"requests": {"cpu": "1"}},
        {"requests": {"cpu": "1", "memory": "1Gi"}, "limits": {"cpu": "2", "memory": "2Gi"}},
        {"cpu": "1", "memory": "1Gi", "gpu": 2},
        {"cpu": "1", "gpu": {"count": 1, "type": "H100"}},
    ],
)
def test_normalize_resources_agrees_with_the_sdk(value: dict[str, object]) -> None:
    ours = sandgate.normalize_resources(value)
    assert ours.ok, ours.diagnostics
    theirs = sdk_normalize_resources(value)
    assert theirs is not None
    resolved = ours.resolved
    assert resolved.get("requests") == theirs.requests
    assert resolved.get("limits") == theirs.limits
    assert resolved.get("gpu") == theirs.gpu


@pytest.mark.parametrize(
    "value",
    [{}, {"cpu": 1}, {"cpu": "1", "gpu": True}, {"cpu": "1", "gpu": "1"}, {"cpu": "1", "gpu": 0}, {"cpus": "1"},
     {"requests": {"cpu": "2"}, "limits": {"cpu": "1"}}, {"cpu": "abc"}],
)
def test_normalize_resources_rejects_what_the_sdk_rejects(value: dict[str, object]) -> None:
    ours = sandgate.normalize_resources(value)
    assert not ours.ok
    with pytest.raises((TypeError, ValueError)):
        sdk_normalize_resources(value)
    with pytest.raises((TypeError, ValueError)):
        ours.raise_for_errors()


def test_normalize_resources_accepts_resource_options() -> None:
    ro = ResourceOptions(requests={"cpu": "1"}, limits={"cpu": "2"})
    r = sandgate.normalize_resources(ro)
    assert r.ok and r.resolved["limits"] == {"cpu": "2"}
    assert r.qos_class == "Burstable"


# ---- quantities -----------------------------------------------------------------------------------------


# Values past 28 significant digits are left out: the SDK's Decimal context rounds them (both accept).
@pytest.mark.parametrize("text", ["1", "500m", "1.5Gi", "2e3", "1k", " 2Gi ", "0.1", "100Mi", "1E3", "1E", "1Ei", "10E"])
def test_quantity_values_agree_with_the_sdk(text: str) -> None:
    q = sandgate.parse_quantity(text)
    assert Decimal(q.decimal) == sdk_parse_quantity(text)


@pytest.mark.parametrize("text", ["", "-1", "1K", "1e3Mi", "abc", "1.2.3Gi", "m", "1gi", "Ki"])
def test_quantity_errors_agree_with_the_sdk(text: str) -> None:
    with pytest.raises(ValueError) as ours:
        sandgate.parse_quantity(text)
    with pytest.raises(ValueError):
        sdk_parse_quantity(text)
    assert str(ours.value)


def test_quantity_forms_order_and_hash() -> None:
    q = sandgate.parse_quantity("1.5Gi")
    assert (q.decimal, q.canonical, q.milli) == ("1610612736", "1536Mi", 1610612736000)
    assert sandgate.parse_quantity("100m").decimal == "0.1"
    assert sandgate.parse_quantity("1Gi") > sandgate.parse_quantity("1000Mi")
    assert sandgate.parse_quantity("1000m") == sandgate.parse_quantity("1")
    assert len({sandgate.parse_quantity("1000m"), sandgate.parse_quantity("1"), sandgate.parse_quantity("1k")}) == 2
    assert sorted(sandgate.parse_quantity(t) for t in ["1Gi", "1", "500m"])[0].text == "500m"
    assert sandgate.parse_quantity(" 1 ").trimmed
    assert repr(q) == "Quantity('1.5Gi')"


def test_quantities_past_int64_are_exact_and_milli_overflows() -> None:
    # SPEC §9: the SDK's Decimal has no upper bound; only the integer view says it does not fit.
    q = sandgate.parse_quantity("1Ei")
    assert (q.decimal, q.canonical) == ("1152921504606846976", "1Ei")
    with pytest.raises(OverflowError):
        q.milli
    assert sandgate.parse_quantity("9223372036854775807m").milli == 2**63 - 1
    with pytest.raises(OverflowError):
        sandgate.parse_quantity("9223372036854775808m").milli
    assert sandgate.parse_quantity("9223372036854775808m") > sandgate.parse_quantity("9223372036854775807m")
    assert sandgate.check({"resources": {"cpu": "1E", "memory": "1Ei"}}, placement="cks").ok


def test_quantity_grammars() -> None:
    with pytest.raises(ValueError):
        sandgate.parse_quantity("1u")
    assert sandgate.parse_quantity("1u", grammar="kubernetes").decimal == "0.000001"
    with pytest.raises(TypeError):
        sandgate.parse_quantity(1)  # type: ignore[arg-type]


# ---- codes ----------------------------------------------------------------------------------------------


def test_codes_table() -> None:
    rows = sandgate.codes()
    names = [r["code"] for r in rows]
    assert len(names) == len(set(names)) and "SG_GPU_TYPE_AND_MEMORY" in names
    row = next(r for r in rows if r["code"] == "SG_GPU_TYPE_AND_MEMORY")
    assert row["rule"] == "R-GPU-3" and row["python_exception"] == "ValueError"
