"""Issue 12, item 6: one rule for a ``str`` input (path or text) in every function and constructor
that takes a document, ``None`` as "not given", and clear TypeErrors (docs/python.md, "Input kinds")."""

from __future__ import annotations

import dataclasses
import io
import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from cwsandbox import Sandbox
from helpers import EXAMPLES

import sandgate
from sandgate import presubmit

POLICY = EXAMPLES / "policies" / "production-cks.yaml"
RUNNERS = EXAMPLES / "runners.yaml"
POLICY_TEXT = POLICY.read_text()
TOO_BIG = {"resources": {"cpu": "64", "memory": "1Gi"}}


@pytest.fixture
def cwd(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    shutil.copy(POLICY, tmp_path / "policy.yaml")
    shutil.copy(RUNNERS, tmp_path / "runners.yaml")
    shutil.copy(POLICY, tmp_path / "policy-no-extension")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def codes(r: sandgate.Result) -> list[str]:
    return [d.code for d in r.errors]


@pytest.mark.parametrize("path", ["policy.yaml", "policy-no-extension", "./policy.yaml"])
def test_a_str_naming_a_file_is_a_path_everywhere(cwd: Path, path: str) -> None:
    by_text = sandgate.check(TOO_BIG, policy=POLICY_TEXT)
    assert "SG_RESOURCE_ABOVE_MAX" in codes(by_text)
    assert codes(sandgate.check(TOO_BIG, policy=path)) == codes(by_text)
    assert codes(sandgate.check(TOO_BIG, policy=sandgate.Policy(path))) == codes(by_text)
    assert sandgate.validate_policy(path).ok
    assert sandgate.Policy(path).ok and sandgate.Policy(path).file.endswith(path.lstrip("./"))
    assert sandgate.Runners("runners.yaml").ok
    assert sandgate.check(TOO_BIG, policy=path, runners="runners.yaml").errors


def test_text_is_text(cwd: Path) -> None:
    assert sandgate.Policy(POLICY_TEXT).ok
    assert sandgate.Policy('{"constraints": {}}').ok  # one line, no file of that name: JSON text
    assert sandgate.Policy(POLICY_TEXT.encode()).ok  # bytes: always text
    assert sandgate.Policy.from_text("policy.yaml").errors  # from_text: always text (a YAML string)
    assert [d.code for d in sandgate.Policy.from_dict("policy.yaml").errors] == ["SG_POLICY_NOT_OBJECT"]  # a value
    assert sandgate.Policy(Path("policy.yaml")).ok  # a Path: always a file
    assert sandgate.Policy.load("policy.yaml").ok
    assert sandgate.Org('{"gpu_allowed": true}').ok
    # A carriage return is a line break too: text, even when it ends in .yaml.
    cr = sandgate.Policy("constraints: {}\r# see policy.yaml")
    assert not cr.loaded and cr.errors[0].source is not None and cr.errors[0].source.file == "<policy>"


def test_the_text_line_and_column_come_from_text(cwd: Path) -> None:
    r = sandgate.check("resources:\n  cpu: '64'\n  memory: 1Gi\n", policy="policy.yaml")
    [d] = [d for d in r.errors if d.code == "SG_RESOURCE_ABOVE_MAX"]
    assert d.source is not None and d.source.line == 2
    (cwd / "bad.yaml").write_text("constraints: [unclosed\n")
    [d, *_] = sandgate.Policy("bad.yaml").diagnostics
    assert d.source is not None and d.source.file.endswith("bad.yaml")  # read as a file, named as one


def test_a_missing_file_says_how_to_pass_text(cwd: Path) -> None:
    # The suffix in any case: a missing file, not a YAML string.
    for name in ("missing.YAML", "missing.Yml", "missing.JSON"):
        with pytest.raises(FileNotFoundError):
            sandgate.Policy(name)
    with pytest.raises(FileNotFoundError, match="from_text"):
        sandgate.check({}, policy="missing.yaml")
    with pytest.raises(FileNotFoundError):
        sandgate.Policy("missing.json")
    with pytest.raises(FileNotFoundError):
        sandgate.Policy(Path("missing"))


def test_a_missing_file_is_told_the_path_it_most_likely_meant(cwd: Path) -> None:
    # The core's rules (sandgate/path_meant.h), as the CLI says them: part by part, case and close
    # spellings; the filename stays the path given. With a path meant, the str rule is no news.
    (cwd / "requests.jsonl").write_text('{"resources": {"cpu": "1"}}\n')
    (cwd / "sandboxes").mkdir()
    shutil.copy(EXAMPLES / "sandboxes" / "prod-ok.yaml", cwd / "sandboxes" / "prod-ok.yaml")
    calls: list[tuple[Any, str, str]] = [
        (lambda: sandgate.check({}, policy="policy.yml"), "policy.yml", "policy.yaml"),
        (lambda: sandgate.Policy.load(Path("Policy.yaml")), "Policy.yaml", "policy.yaml"),
        (lambda: sandgate.check("sandbox/prod-ok.yml"), "sandbox/prod-ok.yml", "sandboxes/prod-ok.yaml"),
        (lambda: sandgate.check_many("request.jsonl"), "request.jsonl", "requests.jsonl"),
        (lambda: sandgate.check_many(Path("request.jsonl")), "request.jsonl", "requests.jsonl"),
    ]
    for call, given, meant in calls:
        with pytest.raises(FileNotFoundError) as e:
            call()
        assert e.value.filename == given
        assert f"(did you mean {meant!r}?)" in str(e.value)
        assert "from_text" not in str(e.value) and "request stream;" not in str(e.value)
    # Another version of a file is not a typo of its name; nothing near: the str rule's hint.
    shutil.copy(POLICY, cwd / "policy-v2.yaml")
    with pytest.raises(FileNotFoundError) as e:
        sandgate.check({}, policy="policy-v3.yaml")
    assert "did you mean" not in str(e.value) and "from_text" in str(e.value)


def test_policy_constructor_builds_a_working_object(cwd: Path) -> None:
    source: object
    for source in ("policy.yaml", Path("policy.yaml"), POLICY_TEXT, POLICY_TEXT.encode(), {"constraints": {}}):
        p = sandgate.Policy(source)
        assert p.ok and p.loaded and repr(p).startswith("<sandgate.Policy")
        assert sandgate.check({}, policy=p).ok
    null = sandgate.Policy(None)
    assert null.is_null and null.is_null == sandgate.Policy.from_dict(None).is_null
    copy = sandgate.Policy(sandgate.Policy("policy.yaml"))
    assert copy.ok


@pytest.mark.parametrize(
    ("call", "match"),
    [
        (lambda: sandgate.Policy(io.StringIO(POLICY_TEXT)), r"open file.*f\.read\(\)"),
        (lambda: sandgate.check({}, policy=sandgate.Runners.from_dict([])), r"policy: got a sandgate\.Runners"),  # type: ignore[arg-type]
        (lambda: sandgate.check({}, runners=sandgate.Policy.from_dict({})), r"runners: got a sandgate\.Policy"),  # type: ignore[arg-type]
        (lambda: sandgate.check(sandgate.Policy.from_dict({})), r"sandbox: got a sandgate\.Policy"),  # type: ignore[arg-type]
        (lambda: sandgate.Runners(sandgate.Org.from_dict({})), r"runners: got a sandgate\.Org"),
        (lambda: sandgate.Policy(sandgate.Policy), r"got the class"),
        # A built Sandbox keeps no record of its keywords: what to pass instead, not "cannot be checked".
        (lambda: sandgate.check(Sandbox(container_image="python:3.12")), r"sandbox: a cwsandbox Sandbox keeps no record.*as a dict.*presubmit"),
        (lambda: sandgate.check({}, defaults=Sandbox()), r"defaults: a cwsandbox Sandbox keeps no record"),
        (lambda: sandgate.Policy.from_text({"constraints": {}}), r"Policy\.from_dict"),  # type: ignore[arg-type]
        (lambda: sandgate.Policy.from_text(Path("p.yaml")), r"Policy\.load"),  # type: ignore[arg-type]
        (lambda: sandgate.Policy.load({"constraints": {}}), r"takes a path"),  # type: ignore[arg-type]
        (lambda: sandgate.exception_for(3), r"grpc_code must be .*'INVALID_ARGUMENT'"),  # type: ignore[arg-type]
        (lambda: sandgate.exception_for("INVALID_ARGUMENT", 3), r"reason must be a str"),  # type: ignore[arg-type]
        (lambda: sandgate.is_spill_eligible(None), r"grpc_code must be"),  # type: ignore[arg-type]
        (lambda: sandgate.exception_ancestors(None), r"name must be"),  # type: ignore[arg-type]
    ],
)
def test_wrong_kinds_raise_a_clear_type_error(call: Any, match: str) -> None:
    with pytest.raises(TypeError, match=match):
        call()


def test_a_built_sandbox_among_check_many_records_is_told_what_to_pass() -> None:
    """check_many answers a record it cannot read (a result, not an exception): for a cwsandbox
    Sandbox its hint says what check()'s TypeError says, where any other object gets the general one."""
    sandbox, other = sandgate.check_many([Sandbox(container_image="python:3.12"), object()])
    (d,) = sandbox.errors
    assert d.code == "SG_VALUE_UNSUPPORTED" and d.message.startswith("a value of type Sandbox")
    assert "keeps no record of the keyword arguments" in d.hint and "presubmit.install" in d.hint
    assert "presubmit" not in other.errors[0].hint and "dicts, lists" in other.errors[0].hint
    with pytest.raises(TypeError) as raised:
        sandgate.check(Sandbox(container_image="python:3.12"))
    assert str(raised.value) == "sandbox: " + d.hint  # one wording


def test_none_means_not_given() -> None:
    assert sandgate.exception_for("INVALID_ARGUMENT", None, None) == sandgate.exception_for("INVALID_ARGUMENT")
    assert sandgate.exception_for("INVALID_ARGUMENT", None, None, None) == sandgate.exception_for("INVALID_ARGUMENT")
    # domain=None is cwsandbox.com, where reasons count (another domain's reason does not).
    reason = "CWSANDBOX_RUNNER_UNAVAILABLE"
    assert sandgate.exception_for("NOT_FOUND", reason, None) == sandgate.exception_for("NOT_FOUND", reason)
    assert sandgate.exception_for("NOT_FOUND", reason, None).python == "SandboxUnavailableError"
    assert sandgate.exception_for("NOT_FOUND", reason, "example.com").python == "SandboxNotFoundError"
    assert sandgate.is_spill_eligible("RESOURCE_EXHAUSTED", "CWSANDBOX_RUNNER_CAPACITY_EXHAUSTED", None)
    assert sandgate.exception_ancestors("SandboxError", None) == sandgate.exception_ancestors("SandboxError")
    assert sandgate.check({}, policy=None, runners=None, org=None, defaults=None, overrides=None).ok


def test_presubmit_install_takes_str_paths(cwd: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CWSANDBOX_DISABLE_SIGNAL_HANDLERS", "1")
    sent: list[Sandbox] = []

    async def fake_start(self: Sandbox) -> str:
        sent.append(self)
        return "sb-fake"

    monkeypatch.setattr(Sandbox, "_start_async", fake_start)
    with presubmit.install(policy="policy.yaml", runners="runners.yaml") as hook:
        assert hook.installed
        with pytest.raises(sandgate.exceptions.SandboxValidationError):
            Sandbox.run("sleep", "1", resources={"cpu": "64", "memory": "1Gi"})
        assert sent == []
    assert presubmit.active() is None


# ---- a str read as text whose document is one bare string: a hint that it was not read as a path ----

READ_AS_TEXT = "this str was read as YAML text, not as a path"


def test_a_bare_string_layer_says_it_was_read_as_text_and_that_no_such_file_exists(cwd: Path) -> None:
    for kw in ({"sandbox": "/etc/sandgate/sandbox"}, {"sandbox": {}, "defaults": "defaults"},
               {"sandbox": {}, "overrides": "overrides-file"}):
        layer, value = next((k, v) for k, v in kw.items() if isinstance(v, str))
        r = sandgate.check(**kw)  # type: ignore[arg-type]
        (error,) = r.errors
        assert (error.code, error.input, error.path) == ("SG_NOT_AN_OBJECT", layer, "")
        assert error.message == f"the {layer} must be an object of Sandbox.run() keyword arguments, not a string"
        assert error.hint is not None and error.hint.startswith(READ_AS_TEXT), error.hint
        assert f"no file named {value!r} exists" in error.hint and "pathlib.Path" in error.hint
        assert error.hint in str(error)
        assert json.loads(r.to_json())["diagnostics"][0]["hint"] == error.hint  # the engine's result holds it
    # a real file's name with white space around it; a directory
    (error,) = sandgate.check(" policy.yaml\n").errors
    assert error.hint is not None and "the file 'policy.yaml' exists: remove the white space" in error.hint
    (error,) = sandgate.check(str(cwd)).errors
    assert error.hint is not None and error.hint.endswith(f"{str(cwd)!r} is not a file")


def test_a_bare_string_policy_runners_or_org_says_so_where_their_diagnostics_are_read(cwd: Path) -> None:
    for cls, code in ((sandgate.Policy, "SG_POLICY_NOT_OBJECT"), (sandgate.Runners, "SG_TYPE_MISMATCH"),
                      (sandgate.Org, "SG_TYPE_MISMATCH")):
        (error,) = cls("/etc/sandgate/x").errors
        assert error.code == code and error.hint is not None and error.hint.startswith(READ_AS_TEXT)
    (error,) = sandgate.validate_policy("/etc/sandgate/policy").errors
    assert error.hint is not None and "no file named '/etc/sandgate/policy' exists" in error.hint
    with pytest.raises(sandgate.exceptions.SandboxValidationError, match="read as YAML text"):
        sandgate.Policy("/etc/sandgate/policy").raise_for_errors()


def test_only_a_str_read_as_text_gets_the_hint(cwd: Path) -> None:
    # bytes and from_text(...) are text by choice; a string inside a multi-line document is not a path
    for r in (sandgate.check(b"/etc/x"), sandgate.check("--- /etc/x\n...\n")):
        assert [(d.code, d.hint) for d in r.errors] == [("SG_NOT_AN_OBJECT", None)]
    assert sandgate.Policy.from_text("/etc/x").errors[0].hint is None
    assert sandgate.check({}, defaults="resources: {cpu: '1'}").ok  # an object: nothing to hint


@pytest.mark.parametrize(
    ("label", "cls", "code"),
    [("policy", sandgate.Policy, "SG_POLICY_NOT_OBJECT"), ("runners", sandgate.Runners, "SG_TYPE_MISMATCH"),
     ("org", sandgate.Org, "SG_TYPE_MISMATCH")],
)
def test_a_bare_string_policy_runners_or_org_says_so_in_check_and_check_many(
    cwd: Path, label: str, cls: type[sandgate.Policy | sandgate.Runners | sandgate.Org], code: str
) -> None:
    # The engine puts the compiled input's own copy of its error into every result; that copy had
    # no hint, so check(policy="/etc/x") said less than Policy("/etc/x") and validate_policy.
    value = f"/etc/sandgate/{label}"
    (want,) = cls(value).errors
    assert want.code == code and want.hint is not None and want.hint.startswith(READ_AS_TEXT)
    assert f"no file named {value!r} exists" in want.hint and "pathlib.Path" in want.hint
    without_hint = sandgate.check({}, **{label: cls.from_text(value)})  # text by choice: no hint
    results = {
        "check(str)": sandgate.check({}, **{label: value}),  # type: ignore[arg-type]
        "check(loaded)": sandgate.check({}, **{label: cls(value)}),  # type: ignore[arg-type]
        "check(str, defaults)": sandgate.check({}, defaults={}, **{label: value}),  # type: ignore[arg-type]
        "check_many(str)": next(sandgate.check_many([{}], threads=1, **{label: value})),  # type: ignore[arg-type]
        "check_many(loaded)": next(sandgate.check_many([{}], threads=1, **{label: cls(value)})),  # type: ignore[arg-type]
    }
    for how, r in results.items():
        (error,) = [d for d in r.errors if d.input == label]
        assert error == want, how
        assert json.loads(r.to_json())["diagnostics"][r.diagnostics.index(error)]["hint"] == want.hint, how
        # apart from the hint, the result is the one the engine made
        assert [dataclasses.replace(d, hint=None) if d is error else d for d in r.diagnostics] == [
            dataclasses.replace(d, hint=None) if d.input == label and d.code == code else d
            for d in without_hint.diagnostics
        ], how
        assert (r.ok, r.placement_mode, r.resolved) == (without_hint.ok, without_hint.placement_mode, without_hint.resolved)


def test_a_bare_string_new_policy_says_so_in_the_records_diff_policies_replays(cwd: Path) -> None:
    value = "/etc/sandgate/new-policy"
    d = sandgate.diff_policies({}, value, records=[{"resources": {"cpu": "1", "memory": "1Gi"}}])
    (want,) = d.new_errors
    assert want.hint is not None and want.hint.startswith(READ_AS_TEXT)
    (record,) = d.records
    assert record.cls == "newly_rejected" and record.errors == (want,)
