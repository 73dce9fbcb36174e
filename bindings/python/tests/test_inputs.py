"""Every input kind sandgate accepts gives the same answer as the equivalent plain dict."""

from __future__ import annotations

import json
import types
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest
from cwsandbox import (
    Container,
    EgressRule,
    FileSystemSnapshotOptions,
    NetworkOptions,
    PlacementMode,
    ResourceOptions,
    SandboxDefaults,
    SecurityContext,
    ScratchVolumeOptions,
    Secret,
    Service,
)
from omegaconf import OmegaConf

import sandgate

RES = {"cpu": "1", "memory": "1Gi"}
POLICY = {"constraints": {"resources": {"max_cpu": "4", "max_memory": "8Gi"}}}


class FrozenMapping(Mapping[str, Any]):
    """A Mapping that is not a dict (like a config object or a proxy)."""

    def __init__(self, data: dict[str, Any]) -> None:
        self._data = data

    def __getitem__(self, key: str) -> Any:
        return self._data[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._data)

    def __len__(self) -> int:
        return len(self._data)


def summary(r: sandgate.Result) -> tuple[bool, list[tuple[str, str, str]], dict[str, Any]]:
    """What must not depend on the input kind: outcome, diagnostics (code, path, input), resolved."""
    return r.ok, [(d.code, d.path, d.input or "") for d in r.diagnostics], r.resolved


def same_as_dict(value: Any, as_dict: dict[str, Any], **kw: Any) -> sandgate.Result:
    got = sandgate.check(value, **kw)
    want = sandgate.check(as_dict, **kw)
    assert summary(got) == summary(want)
    return got


def test_plain_dict() -> None:
    r = sandgate.check({"container_image": "python:3.12", "resources": RES}, policy=POLICY)
    assert r.ok, r.diagnostics
    assert r.resolved["container_image"] == "python:3.12"
    assert r.qos_class == "Guaranteed"


def test_mapping_that_is_not_a_dict() -> None:
    value = FrozenMapping({"container_image": "python:3.12", "resources": FrozenMapping(dict(RES))})
    same_as_dict(value, {"container_image": "python:3.12", "resources": dict(RES)}, policy=FrozenMapping(POLICY))


def test_mapping_proxy() -> None:
    same_as_dict(types.MappingProxyType({"resources": RES}), {"resources": RES})


def test_lists_and_tuples_are_the_same() -> None:
    same_as_dict({"resources": RES, "tags": ("a", "b")}, {"resources": RES, "tags": ["a", "b"]})


def test_sdk_sandbox_defaults_as_the_defaults_layer() -> None:
    defaults = SandboxDefaults(container_image="python:3.12", max_lifetime_seconds=1200, annotations={"team": "ml"})
    r = sandgate.check({"resources": RES}, defaults=defaults)
    assert r.ok, r.diagnostics
    assert r.resolved["container_image"] == "python:3.12"
    assert r.resolved["max_lifetime_seconds"] == 1200
    assert r.resolved["annotations"] == {"team": "ml"}
    assert r.provenance["/container_image"] == "defaults"


def test_default_sandbox_defaults_add_no_diagnostics() -> None:
    r = sandgate.check({"resources": RES}, defaults=SandboxDefaults())
    assert r.ok and not r.warnings, r.diagnostics


def test_sdk_sandbox_defaults_fields_left_at_their_default_are_not_set() -> None:
    """SandboxDefaults(containers=…) still carries container_image="python:3.11", command, args…
    as field values; the SDK ignores those single-container defaults when containers are given,
    so sandgate must not read them as set (found by tests/differential)."""
    defaults = SandboxDefaults(containers=(Container(image="ghcr.io/org/app:1"),))
    r = sandgate.check({"tags": ["a"]}, defaults=defaults)
    assert r.ok, r.errors
    # a value the user did set is still read
    r = sandgate.check({"tags": ["a"]}, defaults=SandboxDefaults(container_image="python:3.12"))
    assert r.resolved["container_image"] == "python:3.12"
    assert r.provenance["/container_image"] == "defaults"


EMPTY_OPTION_OBJECTS = {
    "resources": (ResourceOptions(), {"cpu": "64", "memory": "1Ti"}),
    "resources_empty_side": (ResourceOptions(requests={}), {"cpu": "64", "memory": "1Ti"}),
    "network": (NetworkOptions(), {"egress": [{"any": True}]}),
    "security_context": (SecurityContext(), {"run_as_user": 5}),
}


@pytest.mark.parametrize("name", sorted(EMPTY_OPTION_OBJECTS))
def test_an_option_object_with_nothing_set_replaces_the_defaults_value(name: str) -> None:
    """cwsandbox asks `resources is not None` (and the same of network, security_context): an
    empty option object is a value given, so the defaults' value is never read, and the object
    sends nothing of its own (found by tests/differential: sandgate used to drop it as not given
    and resolve the defaults' value)."""
    empty, default = EMPTY_OPTION_OBJECTS[name]
    key = name.removesuffix("_empty_side")
    r = sandgate.check({key: empty, "tags": ["a"]}, defaults={key: default})
    assert r.ok, r.errors
    assert not [p for p, source in r.provenance.items() if p.startswith("/" + key) and source == "defaults"]
    assert r.resolved.get(key) in (None, {})
    # the same defaults, and no keyword: they are read
    r = sandgate.check({"tags": ["a"]}, defaults={key: default})
    assert [p for p, source in r.provenance.items() if p.startswith("/" + key) and source == "defaults"]


def test_an_empty_option_object_beside_a_template_still_overrides_its_container() -> None:
    """cwsandbox asks `security_context is not None` for a template: SecurityContext() is an
    override there (TypeError: it needs container_image), and nothing anywhere else."""
    with_template = sandgate.check({"template_id": "tmpl-1", "security_context": SecurityContext()})
    assert [d.code for d in with_template.errors] == ["SG_TEMPLATE_OVERRIDES_WITHOUT_IMAGE"]
    assert with_template.errors[0].python_exception == "TypeError"
    assert sandgate.check({"security_context": SecurityContext(), "resources": RES}).ok
    assert sandgate.check({"template_id": "tmpl-1", "network": NetworkOptions()}).ok


def test_a_template_request_reads_none_of_the_session_spec_defaults() -> None:
    """Sandbox(template_id=...) takes only the tags, the client's timeouts and its transport from
    SandboxDefaults (cwsandbox's skip_spec_defaults): a privileged default, which no policy here
    allows, fails every other request but is never sent with a template."""
    defaults = SandboxDefaults(security_context=SecurityContext(privileged=True), tags=("team-a",))
    r = sandgate.check({"template_id": "tmpl-1"}, defaults=defaults)
    assert r.ok, r.errors
    assert "security_context" not in r.resolved and "container_image" not in r.resolved
    assert r.resolved["tags"] == ["team-a"]
    r = sandgate.check({"container_image": "python:3.12", "resources": RES}, defaults=defaults)
    assert [d.code for d in r.errors] == ["SG_SECURITY_NOT_ALLOWED"]


def test_sdk_sandbox_defaults_credentials_are_not_read() -> None:
    class Exploding:
        def __getattribute__(self, name: str) -> Any:
            raise AssertionError("auth must not be read")

    defaults = SandboxDefaults(auth=Exploding())  # type: ignore[arg-type]
    assert sandgate.check({"resources": RES}, defaults=defaults).ok


def test_a_nested_dataclass_is_read_without_its_private_and_hidden_fields() -> None:
    # docs/python.md, Input kinds: "private fields and fields hidden from repr (the SDK's auth
    # credentials) are never read", inside a value as for a whole layer.
    import dataclasses

    @dataclasses.dataclass
    class Resources:
        cpu: str | None = None
        memory: str | None = None
        _cache: object = None
        token: object = dataclasses.field(default=None, repr=False)

    value = Resources(cpu="1", memory="1Gi", _cache=object(), token=object())
    got = same_as_dict({"resources": value}, {"resources": RES})
    assert got.ok
    # A field that is None is "not set": {"cpu": "1"}, not {"cpu": "1", "memory": None} (which is
    # cwsandbox's TypeError, SG_RESOURCE_VALUE_NONE).
    same_as_dict({"resources": Resources(cpu="1")}, {"resources": {"cpu": "1"}})
    assert "SG_RESOURCE_VALUE_NONE" in [d.code for d in sandgate.check({"resources": {"cpu": "1", "memory": None}}).errors]


def test_a_layer_dataclass_leaves_out_fields_at_their_default_factory_value() -> None:
    # docs/python.md, Input kinds: a whole layer given as a dataclass leaves out the fields still
    # at their declared default, a default_factory's value included.
    import dataclasses

    @dataclasses.dataclass
    class Layer:
        annotations: dict[str, str] = dataclasses.field(default_factory=lambda: {"team": "platform"})
        max_lifetime_seconds: int | None = None

    r = sandgate.check({"resources": RES}, defaults=Layer(max_lifetime_seconds=600))
    assert r.resolved["max_lifetime_seconds"] == 600
    assert "annotations" not in r.resolved or r.resolved["annotations"] == {}
    r = sandgate.check({"resources": RES}, defaults=Layer(annotations={"team": "ml"}))
    assert r.resolved["annotations"] == {"team": "ml"}


def test_an_option_objects_hidden_field_is_never_read() -> None:
    import dataclasses

    @dataclasses.dataclass
    class Opt:
        cpu: str | None = None
        memory: str | None = None
        token: object = dataclasses.field(default=None, repr=False)

    for given, plain in [(Opt(token="secret"), {}), (Opt(cpu="1", memory="1Gi", token="secret"), {"cpu": "1", "memory": "1Gi"})]:
        assert summary(sandgate.check({"resources": given, "tags": ["a"]})) == summary(sandgate.check({"resources": plain, "tags": ["a"]}))


def test_sdk_resource_options() -> None:
    ro = ResourceOptions(requests={"cpu": "1", "memory": "1Gi"}, limits={"cpu": "2", "memory": "2Gi"})
    r = same_as_dict({"resources": ro}, {"resources": {"requests": ro.requests, "limits": ro.limits}})
    assert r.qos_class == "Burstable"


def test_sdk_network_options_and_egress_rules() -> None:
    net = NetworkOptions(egress=[EgressRule(dns_name="pypi.org")])
    same_as_dict(
        {"resources": RES, "network": net},
        {"resources": RES, "network": {"egress": [{"dns_name": "pypi.org", "any": False}]}},
    )


def test_sdk_secret() -> None:
    s = Secret(store="vault", name="token", env_var="TOKEN")
    same_as_dict(
        {"resources": RES, "secrets": [s]},
        {"resources": RES, "secrets": [{"store": "vault", "name": "token", "field": "", "env_var": "TOKEN"}]},
    )


def test_sdk_secrets_that_conflict_are_reported() -> None:
    a = Secret(store="vault", name="one", env_var="TOKEN")
    b = Secret(store="vault", name="two", env_var="TOKEN")
    r = sandgate.check({"resources": RES, "secrets": [a, b]})
    assert any(d.code == "SG_SECRET_CONFLICT" for d in r.errors), r.diagnostics


def test_sdk_scratch_volume_options() -> None:
    v = ScratchVolumeOptions(name="scratch", mount_path="/scratch", size="1Gi")
    same_as_dict(
        {"resources": RES, "volumes": [v]},
        {"resources": RES, "volumes": [{"name": "scratch", "mount_path": "/scratch", "size": "1Gi", "read_only": False}]},
    )


def test_sdk_scratch_volume_under_a_reserved_path_is_reported_at_its_field() -> None:
    v = ScratchVolumeOptions(name="bad", mount_path="/proc/x")
    r = sandgate.check({"resources": RES, "volumes": [v]})
    assert [d.path for d in r.errors] == ["/volumes/0/mount_path"], r.diagnostics


def test_sdk_service() -> None:
    same_as_dict(
        {"resources": RES, "services": [Service(port=8080, name="web")]},
        {"resources": RES, "services": [{"port": 8080, "name": "web"}]},
    )


def test_sdk_file_system_snapshot_options() -> None:
    fss = FileSystemSnapshotOptions(mount_path="/workspace")
    same_as_dict(
        {"resources": RES, "file_system_snapshot": fss},
        {"resources": RES, "file_system_snapshot": {"mount_path": "/workspace", "name": "workspace"}},
    )


def test_sdk_str_enums_are_their_values() -> None:
    r = same_as_dict(
        {"resources": RES, "placement_mode": PlacementMode.CKS},
        {"resources": RES, "placement_mode": "cks"},
    )
    assert r.placement_mode == "cks"


def test_omegaconf_dictconfig() -> None:
    cfg = OmegaConf.create(
        {
            "image": "python:3.12",
            "sandbox": {"container_image": "${image}", "resources": RES, "tags": ["a", "b"]},
        }
    )
    r = same_as_dict(cfg.sandbox, {"container_image": "python:3.12", "resources": RES, "tags": ["a", "b"]})
    assert r.resolved["tags"] == ["a", "b"]


def test_omegaconf_dictconfig_policy() -> None:
    policy = sandgate.Policy.from_dict(OmegaConf.create(POLICY))
    assert policy.ok, policy.diagnostics
    r = sandgate.check({"resources": {"cpu": "8", "memory": "1Gi"}}, policy=policy)
    assert [d.code for d in r.errors] == ["SG_RESOURCE_ABOVE_MAX"]


def test_omegaconf_missing_value_is_a_diagnostic() -> None:
    cfg = OmegaConf.create({"container_image": "???", "resources": RES})
    r = sandgate.check(cfg)
    assert not r.ok
    assert [(d.code, d.path) for d in r.errors] == [("SG_VALUE_READ_FAILED", "")]
    assert "MissingMandatoryValue" in r.errors[0].message


def test_yaml_text() -> None:
    r = same_as_dict("resources: {cpu: '1', memory: 1Gi}\n", {"resources": RES})
    assert r.ok


def test_text_diagnostics_have_positions() -> None:
    r = sandgate.check("resources:\n  cpu: 1\n  memory: 1Gi\n")
    [d] = r.errors
    assert d.source is not None and (d.source.line, d.source.column) == (2, 8)
    assert str(d) == f"<sandbox>:2:8: error[{d.code}] {d.message}" + (f" — {d.hint}" if d.hint else "")


def test_json_text_and_bytes() -> None:
    text = json.dumps({"resources": RES})
    same_as_dict(text, {"resources": RES})
    same_as_dict(text.encode(), {"resources": RES})


def test_files(tmp_path: Path) -> None:
    sandbox = tmp_path / "sandbox.yaml"
    sandbox.write_text("resources:\n  cpu: 16\n  memory: 1Gi\n")
    policy = tmp_path / "policy.json"
    policy.write_text(json.dumps(POLICY))
    r = sandgate.check(sandbox, policy=policy)
    [d] = r.errors
    assert d.source is not None and d.source.file == str(sandbox)
    assert str(d).startswith(f"{sandbox}:2:8: error[")


def test_missing_file_raises_oserror(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        sandgate.check(tmp_path / "nope.yaml")
    with pytest.raises(FileNotFoundError):
        sandgate.Policy.load(tmp_path / "nope.yaml")


def test_every_input_kind_for_runners_and_org(tmp_path: Path) -> None:
    runners = {"runners": [{"runner_id": "gpu-east", "gpu_types": [{"type": "H100", "memory_gb": 80}], "max_gpu_count": 8}]}
    sandbox = {"runner_ids": ["gpu-east"], "resources": {"cpu": "8", "memory": "64Gi", "gpu": {"count": 1, "type": "H100"}}}
    org = {"gpu_allowed": True}
    path = tmp_path / "runners.json"
    path.write_text(json.dumps(runners))
    for r_in, o_in in [(runners, org), (json.dumps(runners), "gpu_allowed: true"), (path, FrozenMapping(org))]:
        r = sandgate.check(sandbox, runners=r_in, org=o_in)
        assert r.ok, r.diagnostics
        assert r.runner == "gpu-east"
        assert r.gpu is not None and r.gpu["count"] == 1


def test_overrides_layer_wins() -> None:
    # a keyword session.function takes (max_lifetime_seconds is not one: SG_NOT_A_PYTHON_KEYWORD)
    r = sandgate.check(
        {"resources": RES, "request_timeout_seconds": 10},
        defaults={"request_timeout_seconds": 20},
        overrides={"request_timeout_seconds": 30},
    )
    assert r.ok
    assert r.resolved["request_timeout_seconds"] == 30
    assert r.provenance["/request_timeout_seconds"] == "function"
