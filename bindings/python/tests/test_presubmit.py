"""The pre-submit hook against the real cwsandbox SDK, with the create RPC replaced by a fake.

The fake stands in for ``Sandbox._start_async`` (the coroutine that opens the channel and sends
CreateSandbox), so the SDK's own ``run`` → ``__init__`` → ``start()`` path runs for real; the
autouse ``no_network`` fixture fails any test that tries to open a socket anyway.
"""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import cwsandbox
import cwsandbox.exceptions as sdk
import pytest
from cwsandbox import ResourceOptions, Sandbox, SandboxDefaults, Session

import sandgate
from sandgate import presubmit

POLICY = """
constraints:
  resources:
    max_cpu: "4"
    max_memory: 8Gi
  metadata:
    denied_annotation_prefixes: ["sunk.coreweave.com/"]
"""
RES = {"cpu": "1", "memory": "1Gi"}


@pytest.fixture
def sent(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[Sandbox]]:
    """Sandboxes whose create request would have been sent."""
    monkeypatch.setenv("CWSANDBOX_DISABLE_SIGNAL_HANDLERS", "1")
    calls: list[Sandbox] = []

    async def fake_start(self: Sandbox) -> str:
        calls.append(self)
        return "sb-fake"

    monkeypatch.setattr(Sandbox, "_start_async", fake_start)
    yield calls


@pytest.fixture
def hook() -> Iterator[presubmit.PresubmitHook]:
    h = presubmit.install(policy=POLICY)
    yield h
    h.uninstall()


def test_sdk_is_at_least_1_14() -> None:
    major, minor = (int(x) for x in cwsandbox.__version__.split(".")[:2])
    assert (major, minor) >= (1, 14)


def test_run_that_breaks_the_policy_raises_before_anything_is_sent(sent: list[Sandbox], hook: Any) -> None:
    with pytest.raises(sdk.SandboxValidationError) as info:
        Sandbox.run("sleep", "1", resources={"cpu": "8", "memory": "1Gi"})
    assert sent == []
    assert info.value.code == "SG_RESOURCE_ABOVE_MAX"
    assert info.value.reason == "CWSANDBOX_RESOURCE_CEILING_EXCEEDED"


def test_run_that_passes_is_sent(sent: list[Sandbox], hook: Any) -> None:
    sb = Sandbox.run("sleep", "1", resources=RES, annotations={"team": "ml"})
    assert sent == [sb]


def test_the_exact_keyword_arguments_are_checked(sent: list[Sandbox], hook: Any) -> None:
    with pytest.raises(sdk.SandboxValidationError) as info:
        Sandbox.run(resources=RES, annotations={"sunk.coreweave.com/partition": "hpc"})
    [d] = info.value.diagnostics
    assert (d.code, d.input, d.path) == ("SG_ANNOTATION_DENIED_PREFIX", "sandbox", "/annotations/sunk.coreweave.com~1partition")


def test_sdk_dataclasses_in_the_call(sent: list[Sandbox], hook: Any) -> None:
    with pytest.raises(sdk.SandboxValidationError) as info:
        Sandbox.run(
            placement_mode="cks",
            resources=ResourceOptions(requests={"cpu": "8", "memory": "1Gi"}, limits={"cpu": "8", "memory": "2Gi"}),
        )
    assert [d.code for d in info.value.diagnostics] == ["SG_RESOURCE_ABOVE_MAX"]
    Sandbox.run(
        placement_mode="cks",
        resources=ResourceOptions(requests={"cpu": "1", "memory": "1Gi"}, limits={"cpu": "2", "memory": "2Gi"}),
    )
    assert len(sent) == 1


def test_client_side_rules_raise_the_sdk_builtin(sent: list[Sandbox], hook: Any) -> None:
    with pytest.raises(ValueError) as info:
        Sandbox.run(resources={"cpu": "1", "memory": "1Gi", "gpu": True})
    assert isinstance(info.value, sandgate.SandgateValueError)
    assert sent == []


def test_direct_construction_is_checked(hook: Any) -> None:
    with pytest.raises(sdk.SandboxValidationError):
        Sandbox(resources={"cpu": "8", "memory": "1Gi"})
    Sandbox(resources=RES)


def test_session_defaults_are_the_defaults_layer(sent: list[Sandbox], hook: Any) -> None:
    bad = Session(SandboxDefaults(annotations={"sunk.coreweave.com/partition": "hpc"}))
    good = Session(SandboxDefaults(annotations={"team": "ml"}, max_lifetime_seconds=600))
    try:
        with pytest.raises(sdk.SandboxValidationError) as info:
            bad.sandbox(resources=RES)
        assert [d.input for d in info.value.diagnostics] == ["defaults"]
        sb = good.sandbox(resources=RES, annotations={"owner": "me"}, command="sleep", args=["1"])
        sb.start().result()
        assert sent == [sb]
    finally:
        bad.close().result()
        good.close().result()


def test_session_from_a_mapping(hook: Any) -> None:
    session = Session({"container_image": "python:3.12", "resources": {"cpu": "16", "memory": "1Gi"}})
    try:
        with pytest.raises(sdk.SandboxValidationError) as info:
            session.sandbox()
        assert [(d.input, d.path) for d in info.value.diagnostics] == [("defaults", "/resources/cpu")]
    finally:
        session.close().result()


def test_warnings_are_python_warnings(hook: Any) -> None:
    with pytest.warns(sandgate.SandgateWarning, match="SG_QUANTITY_WHITESPACE"):
        Sandbox(resources={"cpu": " 1 ", "memory": "1Gi"})


def test_warnings_can_be_silenced() -> None:
    with presubmit.install(policy=POLICY, warn=False), warnings.catch_warnings():
        warnings.simplefilter("error")
        Sandbox(resources={"cpu": " 1 ", "memory": "1Gi"})


def test_uninstall_restores_the_sdk(sent: list[Sandbox]) -> None:
    original = Sandbox.__init__
    h = presubmit.install(policy=POLICY)
    assert Sandbox.__init__ is not original and h.installed
    h.uninstall()
    assert Sandbox.__init__ is original and not h.installed
    Sandbox.run(resources={"cpu": "8", "memory": "1Gi"})
    assert len(sent) == 1


def test_context_manager_form(sent: list[Sandbox]) -> None:
    original = Sandbox.__init__
    with presubmit.install(policy=POLICY):
        with pytest.raises(sdk.SandboxValidationError):
            Sandbox.run(resources={"cpu": "8", "memory": "1Gi"})
    assert Sandbox.__init__ is original
    assert presubmit.active() is None


def test_nested_hooks_apply_the_innermost(sent: list[Sandbox]) -> None:
    with presubmit.install(policy=POLICY) as outer:
        with presubmit.install(policy="{}"):
            Sandbox.run(resources={"cpu": "8", "memory": "1Gi"})
        assert presubmit.active() is outer
        with pytest.raises(sdk.SandboxValidationError):
            Sandbox.run(resources={"cpu": "8", "memory": "1Gi"})
    assert len(sent) == 1


def test_module_level_uninstall() -> None:
    original = Sandbox.__init__
    presubmit.install(policy=POLICY)
    presubmit.uninstall()
    assert Sandbox.__init__ is original


def test_policy_file_runners_and_org(tmp_path: Path, sent: list[Sandbox]) -> None:
    policy = tmp_path / "policy.yaml"
    policy.write_text(POLICY)
    runners = {"runners": [{"runner_id": "gpu-east", "gpu_types": [{"type": "H100", "memory_gb": 80}], "max_gpu_count": 8}]}
    with presubmit.install(policy=policy, runners=runners, org={"gpu_allowed": True}):
        gpu = {"cpu": "4", "memory": "8Gi", "gpu": {"count": 1, "type": "H100"}}
        Sandbox.run(runner_ids=["gpu-east"], resources=gpu)
        with pytest.raises(sdk.SandboxUnavailableError):
            Sandbox.run(runner_ids=["gpu-east"], resources={**gpu, "gpu": {"count": 1, "type": "B200"}})
    assert len(sent) == 1


def test_a_broken_policy_fails_at_install() -> None:
    with pytest.raises(sdk.SandboxValidationError):
        presubmit.install(policy="base:\n  spec:\n    affinity: {}\n")
    with pytest.raises(sandgate.SandgateError):
        presubmit.install(policy="constraints: [unclosed\n")
    assert presubmit.active() is None


def test_binary_mounted_file_content_in_every_shape_the_hook_reads(hook: presubmit.PresubmitHook) -> None:
    # docs/python.md: binary mounted-file content is replaced by a placeholder naming its size, so
    # the hook never rejects a call the SDK accepts: bytearray too, a {path: content} mapping, and
    # list items that say "content" as well as "file_content".
    binary = bytes(range(256))
    for files in (
        [{"mount_path": "/data/b.bin", "file_content": bytearray(binary)}],
        [{"path": "/data/b.bin", "content": binary}],
        {"/data/b.bin": binary},
    ):
        r = hook.check({"resources": RES, "mounted_files": files})
        assert r.ok, (files, r.diagnostics)
    # Content that is text is checked as it is.
    r = hook.check({"resources": RES, "mounted_files": {"/data/a.txt": b"text"}})
    assert r.ok, r.diagnostics


def test_hook_check_for_inspection(hook: presubmit.PresubmitHook) -> None:
    r = hook.check({"resources": RES, "defaults": SandboxDefaults(), "auth": object(), "tags": None})
    assert r.ok, r.diagnostics


def test_warnings_point_at_the_users_call(hook: Any) -> None:
    with pytest.warns(sandgate.SandgateWarning) as record:
        Sandbox(resources={"cpu": " 1 ", "memory": "1Gi"})
    assert record[0].filename == __file__


def test_binary_mounted_files_that_the_sdk_accepts_are_not_rejected(sent: list[Sandbox], hook: Any) -> None:
    binary = bytes(range(256))
    Sandbox.run(resources=RES, mounted_files=[{"mount_path": "/data/blob.bin", "file_content": binary}])
    Sandbox.run(resources=RES, mounted_files=[{"mount_path": "/data/a.txt", "file_content": "text"}])
    assert len(sent) == 2
    with pytest.raises(sandgate.SandgateError):  # the path rules still apply
        Sandbox.run(resources=RES, mounted_files=[{"mount_path": "relative.bin", "file_content": binary}])
