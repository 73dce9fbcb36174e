"""The one-call paths of check() and validate_policy() (issue 12: a plain dict with inputs loaded
once goes to the extension in one call, _sandgate.check_plain / validate_plain) answer exactly as
the general path does, on every conformance case that decodes to Python values, and step aside
(None) for every argument they do not take."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

import sandgate
from sandgate import _api, _inputs, _sandgate
from test_conformance import CASES, Case, as_values


def _general_check(sandbox: Any, policy: Any, runners: Any, org: Any, client: str) -> _sandgate.CheckResult:
    return _api._check_general(sandbox, policy, None, None, runners, org, client, None)


def _one_call_cases() -> list[tuple[Case, dict[str, Any]]]:
    out = []
    for case in CASES:
        values = as_values(case)
        if isinstance(values, str):
            continue
        options = case.spec.get("options") if isinstance(case.spec.get("options"), dict) else {}
        if case.kind == "check" and ("defaults" in values or "overrides" in values or options.get("placement")):
            continue  # the general path's arguments
        out.append((case, values))
    return out


ONE_CALL = _one_call_cases()


def test_most_cases_can_take_the_one_call_path() -> None:
    assert sum(1 for c, _ in ONE_CALL if c.kind == "check") > 200
    assert sum(1 for c, _ in ONE_CALL if c.kind == "policy") > 100


@pytest.mark.parametrize("case,values", ONE_CALL, ids=[f"{c.file}::{c.name}" for c, _ in ONE_CALL])
def test_the_one_call_path_answers_as_the_general_path(case: Case, values: dict[str, Any]) -> None:
    if case.kind == "policy":
        fast = _sandgate.validate_plain(values["policy"]) if type(values["policy"]) is dict else None
        if fast is None:
            pytest.skip("the policy is not a plain dict")
        slow = _inputs.policy(sandgate.Policy.from_dict(values["policy"])).result()
        assert fast.to_json(True) == slow.to_json(True)
        return
    options = case.spec.get("options") if isinstance(case.spec.get("options"), dict) else {}
    client = options.get("client", "python")
    sandbox = values.get("sandbox", {})
    policy = None if "policy" not in values else sandgate.Policy.from_dict(values["policy"])
    runners = None if "runners" not in values else sandgate.Runners.from_dict(values["runners"])
    org = None if "org" not in values else sandgate.Org.from_dict(values["org"])
    fast = _sandgate.check_plain(sandbox, policy, runners, org, client)
    slow = _general_check(sandbox, policy, runners, org, client)
    if fast is None:
        # Only a sandbox that is not a dict, or holds an SDK option object, steps aside here.
        assert type(sandbox) is not dict or any(
            dataclasses.is_dataclass(v) and not isinstance(v, type) for v in sandbox.values()
        )
        return
    assert fast.to_json(True) == slow.to_json(True)
    assert [d.code for d in sandgate.check(sandbox, policy=policy, runners=runners, org=org, client=client).diagnostics] == [
        d[1] for d in slow.diagnostics
    ]


@dataclasses.dataclass
class _Options:
    cpu: str = "1"


class _NotAPolicy:
    _raw = "not a LoadedPolicy"


POLICY = sandgate.Policy.from_dict({})
RUNNERS = sandgate.Runners.from_dict({"runners": []})


@pytest.mark.parametrize(
    "sandbox,policy,runners,org,client",
    [
        ("container_image: python:3.12\n", None, None, None, "python"),  # text
        (b"{}", None, None, None, "python"),  # bytes
        ({"resources": _Options()}, None, None, None, "python"),  # a dataclass value: _inputs' rules
        ({}, {}, None, None, "python"),  # a policy as a dict: loaded by the general path
        ({}, "policy.yaml", None, None, "python"),  # a path
        ({}, RUNNERS, None, None, "python"),  # the wrong kind: the general path raises
        ({}, _NotAPolicy(), None, None, "python"),
        ({}, POLICY, POLICY, None, "python"),
        ({}, None, None, None, 3),  # not a str: the general path raises
    ],
)
def test_the_one_call_path_steps_aside_for_anything_else(sandbox: Any, policy: Any, runners: Any, org: Any, client: Any) -> None:
    assert _sandgate.check_plain(sandbox, policy, runners, org, client) is None


def test_validate_plain_steps_aside_for_anything_but_a_dict() -> None:
    for value in ("{}", b"{}", [], None, POLICY, _Options()):
        assert _sandgate.validate_plain(value) is None


def test_the_public_functions_still_raise_what_the_general_path_raises() -> None:
    with pytest.raises(TypeError):
        sandgate.check({}, policy=RUNNERS)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        sandgate.check({}, policy=POLICY, client="java")  # type: ignore[arg-type]
    assert sandgate.check({}, policy=POLICY).ok
    assert sandgate.validate_policy({}).ok
    assert not sandgate.validate_policy({"constraints": {"resources": {"max_cpu": "lots"}}}).ok


class _Medium(str):  # a str subclass, as the SDK's StrEnum values are
    pass


def test_values_beyond_the_plain_types_take_the_one_call_path_and_answer_the_same() -> None:
    import types

    sandbox = {
        "container_image": _Medium("python:3.12"),
        "resources": types.MappingProxyType({"cpu": "500m", "memory": "1Gi"}),  # a Mapping, not a dict
        "tags": ("a", "b"),
    }
    fast = _sandgate.check_plain(sandbox, POLICY, None, None, "python")
    assert fast is not None
    assert fast.to_json(True) == _general_check(sandbox, POLICY, None, None, "python").to_json(True)
    assert fast.ok


def test_loaded_inputs_that_differ_only_in_the_org_get_their_own_answer() -> None:
    # The extension keeps the engine of the last loaded (policy, runners, org): a call with the same
    # policy and runners but another org must not reuse it, whichever order the calls come in.
    policy = sandgate.Policy({})
    runners = sandgate.Runners({})
    allowed, refused = sandgate.Org({"gpu_allowed": True}), sandgate.Org({"gpu_allowed": False})
    request = {"resources": {"cpu": "1", "memory": "1Gi", "gpu": {"count": 1, "type": "H100"}}}
    for org, want in ((allowed, False), (refused, True), (allowed, False), (refused, True)):
        r = sandgate.check(request, policy=policy, runners=runners, org=org)
        assert ("SG_GPU_NOT_ALLOWED" in [d.code for d in r.errors]) is want
