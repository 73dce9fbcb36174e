"""The whole public API of sandgate, typed: `mypy --strict` must pass on this file.

Run it:  .venv/bin/python bindings/python/examples/typed_usage.py
Check it: .venv/bin/mypy --strict bindings/python/examples/typed_usage.py
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from collections.abc import Iterator
from typing import Any

import sandgate
from sandgate import (
    Diagnostic,
    ExceptionClasses,
    Org,
    Policy,
    PolicyDiff,
    Quantity,
    RecordDiff,
    Result,
    Runners,
    SourceLocation,
    StaticChange,
)
from sandgate.exceptions import SandboxValidationError, SandgateError, SandgateValueError

POLICY_YAML = """
constraints:
  resources:
    max_cpu: "4"
    max_memory: 8Gi
  metadata:
    denied_annotation_prefixes: ["sunk.coreweave.com/"]
"""


def describe(result: Result) -> str:
    lines: list[str] = [f"ok={result.ok} placement={result.placement_mode} qos={result.qos_class} runner={result.runner}"]
    for d in result.diagnostics:
        lines.append(str(d))
    return "\n".join(lines)


def main() -> None:
    print("sandgate", sandgate.__version__)

    # Policies: from text, from a dict, from a file. A Policy always comes back.
    policy: Policy = Policy.from_text(POLICY_YAML, name="policy.yaml")
    assert policy.ok and policy.loaded and not policy.is_null
    from_dict = Policy.from_dict({"constraints": {"resources": {"max_cpu": "4"}}})
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "policy.yaml"
        path.write_text(POLICY_YAML)
        from_file = Policy.load(path)
    for p in (from_dict, from_file):
        p.raise_for_errors()
    errors: list[Diagnostic] = Policy.from_text("base: {spec: {affinity: {}}}").errors
    print([d.code for d in errors])

    # check: every input may be a Mapping, a dataclass, text or a file.
    sandbox: dict[str, Any] = {"resources": {"cpu": "8", "memory": "1Gi"}, "annotations": {"team": "ml"}}
    result = sandgate.check(
        sandbox,
        policy=policy,
        defaults={"max_lifetime_seconds": 1200},
        overrides="max_lifetime_seconds: 3600\n",
        runners=Runners.from_dict({"runners": [{"runner_id": "cpu-east"}]}),
        org=Org.from_text("gpu_allowed: false\n"),
        client="python",
        placement="cks",
    )
    print(describe(result))
    same: Result = policy.check(sandbox, defaults={"max_lifetime_seconds": 1200}, placement="cks")
    print(same.ok)
    resolved: dict[str, Any] = result.resolved
    provenance: dict[str, str] = result.provenance
    print(resolved.get("max_lifetime_seconds"), provenance.get("/max_lifetime_seconds"))
    gpu = result.gpu
    runtime = result.runtime_class
    slurm = result.slurm
    print(gpu, runtime["value"] if runtime else None, slurm, result.other_candidates, result.rules_applied)
    warnings: list[Diagnostic] = result.warnings
    print(len(warnings), len(result.infos), result.to_dict()["ok"], len(result.to_json()))
    for d in result.errors:
        source: SourceLocation | None = d.source
        where = source.line if source is not None else d.path
        print(d.rule, d.code, d.severity, d.reason, d.grpc_code, d.python_exception, d.js_exception, d.input, where, d.hint)

    # raise_for_errors: the SDK's class names (also caught by cwsandbox's classes when installed).
    try:
        result.raise_for_errors()
    except SandboxValidationError as e:
        print("SandboxValidationError", e.reason, e.grpc_code, e.code, len(e.diagnostics), e.field_violations)
    except SandgateError as e:
        print(type(e).__name__, e.code)

    try:
        sandgate.check({"resources": {"cpu": "1", "gpu": True}}).raise_for_errors()
    except SandgateValueError as e:
        print("ValueError:", e.diagnostics[0].message)

    # validate_policy and normalize_resources
    validation: Result = sandgate.validate_policy({"base": {"spec": {"initContainers": []}}})
    print(validation.ok, [d.code for d in validation.errors])
    normalized = sandgate.normalize_resources({"requests": {"cpu": "1"}, "limits": {"cpu": "2"}})
    print(normalized.qos_class, normalized.resolved)

    # Quantities: exact, ordered, hashable.
    q: Quantity = sandgate.parse_quantity("1.5Gi")
    milli: int = q.milli
    print(q.decimal, q.canonical, milli, q > sandgate.parse_quantity("1Gi"), hash(q) == hash(Quantity("1536Mi")))
    try:
        sandgate.parse_quantity("1K")
    except ValueError as e:
        print("ValueError:", e)

    # Many requests (SPEC §10): check_many is a lazy iterator of Results in input order.
    many: Iterator[Result] = sandgate.check_many(
        [{"resources": {"cpu": "2"}}, {"id": "x", "sandbox": {}}], policy=policy, threads=2
    )
    print([r.ok for r in many])
    diff: PolicyDiff = sandgate.diff_policies(policy, {"constraints": {"resources": {"max_cpu": "1"}}},
                                              records=[{"resources": {"cpu": "2"}}])
    changes: tuple[StaticChange, ...] = diff.static_changes
    rejected: list[RecordDiff] = [r for r in diff.records if r.cls == "newly_rejected"]
    newly: int = diff.counts["newly_rejected"]
    print(diff.ok, len(changes), newly, [c.field for r in rejected for c in r.caused_by], len(diff.to_markdown()))

    # Error mapping (SPEC §8) and the codes table.
    classes: ExceptionClasses = sandgate.exception_for("RESOURCE_EXHAUSTED", "CWSANDBOX_RUNNER_CAPACITY_EXHAUSTED")
    python_class: str | None = classes.python
    print(python_class, classes.js, sandgate.is_spill_eligible("RESOURCE_EXHAUSTED", "CWSANDBOX_RUNNER_CAPACITY_EXHAUSTED"))
    print(sandgate.exception_ancestors("SandboxUnavailableError"))
    rows = sandgate.codes()
    print(len(rows), rows[0]["code"], rows[0]["python_exception"])

    # The pre-submit hook (needs cwsandbox): installed for the block, restored after it.
    try:
        import cwsandbox  # noqa: F401
    except ImportError:
        return
    with sandgate.presubmit.install(policy=policy, org={"gpu_allowed": False}, warn=False) as hook:
        check: Result = hook.check({"resources": {"cpu": "2", "memory": "2Gi"}})
        print("hook", hook.installed, check.ok, sandgate.presubmit.active() is hook)
    sandgate.presubmit.uninstall()


if __name__ == "__main__":
    main()
