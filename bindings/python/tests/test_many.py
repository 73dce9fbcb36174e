"""check_many (SPEC §10): one result per record, in input order, the same as check() one by one,
whatever the number of threads, with the GIL released while the engine runs."""

from __future__ import annotations

import dataclasses
import json
import os
import threading
import time
from pathlib import Path
from typing import Any

import pytest

import sandgate

from helpers import REPO

EXAMPLES = REPO / "examples"
POLICY = EXAMPLES / "policies" / "production-cks.yaml"
REQUESTS = EXAMPLES / "requests.jsonl"


def records(n: int) -> list[Any]:
    """Varied records: accepted, rejected (several codes), wrapped with id/defaults/overrides."""
    out: list[Any] = []
    for i in range(n):
        sandbox: dict[str, Any] = {"resources": {"cpu": str(1 + i % 12), "memory": f"{1 + i % 40}Gi"}}
        if i % 5 == 0:
            sandbox["annotations"] = {"kubernetes.io/x": "y"} if i % 10 == 0 else {"team": "ml"}
        if i % 7 == 0:
            out.append({"id": f"r{i}", "sandbox": sandbox, "defaults": {"max_lifetime_seconds": 600 + i}})
        else:
            out.append(sandbox)
    return out


def summary(r: sandgate.Result) -> tuple[Any, ...]:
    return (
        r.ok,
        tuple((d.code, d.severity, d.input, d.path, d.message) for d in r.diagnostics),
        json.dumps(r.resolved, sort_keys=True),
        r.placement_mode,
        r.qos_class,
        r.runner,
    )


@pytest.fixture(scope="module")
def policy() -> sandgate.Policy:
    return sandgate.Policy.load(POLICY)


def test_results_keep_the_input_order_and_equal_check_one_by_one(policy: sandgate.Policy) -> None:
    items = records(3000)
    many = [summary(r) for r in sandgate.check_many(items, policy=policy, threads=2)]
    assert len(many) == len(items)
    one = []
    for item in items:
        if "sandbox" in item:
            one.append(summary(sandgate.check(item["sandbox"], policy=policy, defaults=item.get("defaults"))))
        else:
            one.append(summary(sandgate.check(item, policy=policy)))
    assert many == one
    assert {ok for ok, *_ in many} == {True, False}  # both kinds are exercised


def test_one_thread_and_two_give_identical_results(policy: sandgate.Policy) -> None:
    items = records(5000)
    one = [summary(r) for r in sandgate.check_many(items, policy=policy, threads=1)]
    two = [summary(r) for r in sandgate.check_many(items, policy=policy, threads=2)]
    every_core = [summary(r) for r in sandgate.check_many(items, policy=policy)]
    assert one == two == every_core


def test_results_kept_while_others_are_dropped_stay_whole(policy: sandgate.Policy, monkeypatch: pytest.MonkeyPatch) -> None:
    # Dropped results are freed by the next chunk (bind_many.cpp); kept ones must not be among
    # them. Chunks of 16, every third result kept and read only at the end, its lazy fields too.
    monkeypatch.setattr(sandgate._many, "_CHUNK", 16)
    items = records(200)
    kept = [(i, r) for i, r in enumerate(sandgate.check_many(items, policy=policy, threads=2)) if i % 3 == 0]
    assert len(kept) == 67
    for i, r in kept:
        item = items[i]
        if "sandbox" in item:
            one = sandgate.check(item["sandbox"], policy=policy, defaults=item.get("defaults"))
        else:
            one = sandgate.check(item, policy=policy)
        assert summary(r) == summary(one), i


def test_order_is_kept_across_chunks(policy: sandgate.Policy) -> None:
    # cpu i % 12 + 1 > 8 is rejected: the pattern of verdicts pins every result to its record
    items = [{"resources": {"cpu": str(1 + i % 12), "memory": "1Gi"}} for i in range(10_000)]
    oks = [r.ok for r in sandgate.check_many(items, policy=policy, threads=2)]
    assert oks == [1 + i % 12 <= 8 for i in range(10_000)]


def test_a_bad_record_is_answered_in_its_place_and_the_rest_go_on(policy: sandgate.Policy) -> None:
    items: list[Any] = [
        {"resources": {"cpu": "1", "memory": "1Gi"}},
        "{not json",
        7,
        {"id": 3, "sandbox": {}},
        {"sandbox": {}, "polcy": 1},
        '{"resources": {"cpu": "2", "memory": "1Gi"}}',
        {"resources": {"cpu": "99"}},
        {"resources": {"cpu": "1", "memory": "1Gi"}},
    ]
    results = list(sandgate.check_many(items, policy=policy))
    assert len(results) == len(items)
    codes = [[d.code for d in r.errors] for r in results]
    assert results[0].ok and results[5].ok and results[7].ok
    assert codes[1] == ["SG_SYNTAX"]
    assert codes[2] == ["SG_NOT_AN_OBJECT"]
    assert codes[3] == ["SG_TYPE_MISMATCH"]
    assert codes[4] == ["SG_UNKNOWN_KEY"]
    assert "SG_RESOURCE_ABOVE_MAX" in codes[6]
    with pytest.raises(sandgate.SandgateError):
        results[1].raise_for_errors()


def test_sdk_style_values_read_as_check_reads_them(policy: sandgate.Policy) -> None:
    @dataclasses.dataclass
    class ResourceOptions:
        cpu: str | None = None
        memory: str | None = None

    @dataclasses.dataclass
    class SandboxDefaults:
        container_image: str = "python:3.11"
        max_lifetime_seconds: int | None = None
        resources: ResourceOptions | None = None

    values: list[Any] = [
        SandboxDefaults(max_lifetime_seconds=900, resources=ResourceOptions(cpu="2", memory="1Gi")),
        {"resources": ResourceOptions(), "container_image": "python:3.12"},
        {"sandbox": SandboxDefaults(resources=ResourceOptions(cpu="12")), "id": "big"},
    ]
    many = [summary(r) for r in sandgate.check_many(values, policy=policy)]
    one = [
        summary(sandgate.check(values[0], policy=policy)),
        summary(sandgate.check(values[1], policy=policy)),
        summary(sandgate.check(values[2]["sandbox"], policy=policy)),
    ]
    assert many == one


def test_a_stream_path_text_bytes_and_file_object_read_the_same(policy: sandgate.Policy, tmp_path: Path) -> None:
    text = REQUESTS.read_text(encoding="utf-8")
    n = sum(1 for line in text.splitlines() if line.strip())
    from_path = [summary(r) for r in sandgate.check_many(REQUESTS, policy=policy)]
    assert len(from_path) == n
    assert [summary(r) for r in sandgate.check_many(str(REQUESTS), policy=policy)] == from_path
    from_bytes = [summary(r) for r in sandgate.check_many(text.encode(), policy=policy)]
    with open(REQUESTS, "rb") as f:
        from_file = [summary(r) for r in sandgate.check_many(f, policy=policy)]
    strip = [s[:1] + (tuple(d[:4] for d in s[1]),) + s[2:] for s in from_path]  # messages name the file
    assert [s[:1] + (tuple(d[:4] for d in s[1]),) + s[2:] for s in from_bytes] == strip
    assert [s[:1] + (tuple(d[:4] for d in s[1]),) + s[2:] for s in from_file] == strip
    yaml_list = tmp_path / "requests.yaml"
    yaml_list.write_text("- {resources: {cpu: '2', memory: 1Gi}}\n- {resources: {cpu: '64'}}\n", encoding="utf-8")
    assert [r.ok for r in sandgate.check_many(yaml_list, policy=policy)] == [True, False]


def test_argument_errors_are_raised_at_the_call(policy: sandgate.Policy) -> None:
    with pytest.raises(TypeError):
        sandgate.check_many(5, policy=policy)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        sandgate.check_many({"resources": {}}, policy=policy)  # one request: check()
    with pytest.raises(ValueError):
        sandgate.check_many([], policy=policy, threads=0)
    with pytest.raises(TypeError):
        sandgate.check_many([], policy=policy, threads=1.5)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        sandgate.check_many([], policy=policy, client="rust")  # type: ignore[arg-type]
    with pytest.raises(FileNotFoundError):
        sandgate.check_many("no-such-requests.jsonl", policy=policy)
    assert list(sandgate.check_many([], policy=policy)) == []


def test_an_unreadable_policy_answers_every_record_with_its_errors() -> None:
    results = list(sandgate.check_many([{}, {}, "x"], policy=b"constraints: [unclosed"))
    assert len(results) == 3
    assert all(not r.ok and r.errors[0].input == "policy" for r in results)


def test_an_iterator_that_raises_yields_what_came_before_then_raises(policy: sandgate.Policy) -> None:
    def gen() -> Any:
        for i in range(5000):
            yield {"resources": {"cpu": "1", "memory": "1Gi"}}
        raise RuntimeError("source broke")

    seen = 0
    with pytest.raises(RuntimeError, match="source broke"):
        for r in sandgate.check_many(gen(), policy=policy, threads=2):
            assert r.ok
            seen += 1
    assert seen == 5000


def test_the_iterator_is_lazy(policy: sandgate.Policy) -> None:
    consumed = 0

    def gen() -> Any:
        nonlocal consumed
        while True:
            consumed += 1
            yield {"resources": {"cpu": "1", "memory": "1Gi"}}

    it = sandgate.check_many(gen(), policy=policy, threads=2)
    first = [next(it) for _ in range(10)]
    assert all(r.ok for r in first)
    assert consumed < 20_000  # an endless source: only a chunk was read


def test_a_threaded_stream_matches_one_thread_record_for_record(policy: sandgate.Policy) -> None:
    text = b"".join(b'{"id": "r%d", "sandbox": {"resources": {"cpu": "%d", "memory": "1Gi"}}}\n' % (i, 1 + i % 12)
                    for i in range(5000))
    one = [(r.ok, [d.code for d in r.errors]) for r in sandgate.check_many(text, policy=policy, threads=1)]
    two = [(r.ok, [d.code for d in r.errors]) for r in sandgate.check_many(text, policy=policy, threads=2)]
    assert len(one) == 5000
    assert one == two
    assert {ok for ok, _ in one} == {True, False}


def test_the_gil_is_released_while_records_are_checked(policy: sandgate.Policy) -> None:
    text = b"".join(b'{"resources": {"cpu": "%d", "memory": "1Gi"}}\n' % (1 + i % 12) for i in range(100_000))
    ticks = 0
    done = threading.Event()

    def ticker() -> None:
        nonlocal ticks
        while not done.is_set():
            ticks += 1
            time.sleep(0.001)

    t = threading.Thread(target=ticker)
    t.start()
    try:
        time.sleep(0.05)
        many = sandgate._sandgate.check_many(text, None, "text", "<records>", sandgate.Policy.load(POLICY)._raw, None, None,
                                             "python", "", 1)
        before = ticks
        n = len(many.next_chunk(100_000))  # one call into C++ for every record
        during = ticks - before
    finally:
        done.set()
        t.join()
    assert n == 100_000
    # with the GIL held for the whole call the ticker could not have run at all during it
    assert during >= 10, during


# ---- diff_policies beyond the shared cases (tests/conformance/diff: test_conformance_diff.py) ----

NEW_POLICY = EXAMPLES / "policies" / "production-cks-v2.yaml"


def test_diff_policies_over_the_example_stream() -> None:
    lines = sum(1 for line in REQUESTS.read_text(encoding="utf-8").splitlines() if line.strip())
    one = sandgate.diff_policies(POLICY, NEW_POLICY, REQUESTS, threads=1)
    two = sandgate.diff_policies(sandgate.Policy.load(POLICY), sandgate.Policy.load(NEW_POLICY), REQUESTS, threads=2)
    assert sum(one.counts.values()) == lines
    assert one.counts == two.counts and one.records == two.records and one.to_json() == two.to_json()
    assert not one.ok and one.counts["newly_rejected"] > 0 and one.replayed
    assert all(r.cls != "unchanged" for r in one.records)
    rejected = [r for r in one.records if r.cls == "newly_rejected"]
    assert all(r.caused_by and r.errors for r in rejected)
    assert "NEW would reject" in one.to_markdown()
    data = json.loads(one.to_json())
    assert data["counts"] == one.counts and len(data["records"]) == len(one.records)
    assert "newly_rejected" in repr(one)


def test_diff_policies_static_part_only() -> None:
    d = sandgate.diff_policies(POLICY, NEW_POLICY)
    assert not d.replayed and d.records == () and d.ok
    cpu = [c for c in d.static_changes if c.field == "constraints.resources.max_cpu"]
    assert len(cpu) == 1 and (cpu[0].old, cpu[0].new, cpu[0].kind) == ("8", "4", "changed")
    assert cpu[0].old_source is not None and cpu[0].old_source.file.endswith("production-cks.yaml")


def test_diff_policies_an_invalid_new_policy_is_not_ok() -> None:
    d = sandgate.diff_policies(POLICY, b"constraints: {resources: {max_cpu: lots}}", [{}])
    assert not d.ok and d.new_errors


def test_diff_policies_refuses_runners_with_errors_and_bad_arguments() -> None:
    with pytest.raises(ValueError, match="runners have errors"):
        sandgate.diff_policies(POLICY, NEW_POLICY, [{}], runners=b"runners: 5")
    with pytest.raises(TypeError):
        sandgate.diff_policies(POLICY, NEW_POLICY, 5)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        sandgate.diff_policies(POLICY, NEW_POLICY, [], threads=0)


# ---- records handed to the workers as node tapes -----------------------------------------------
# A plain record is written flat (a node tape: plain_tape.cpp) and its tree built by the worker
# that checks it; anything else is converted to a tree on the calling thread (convert.cpp). Both
# must give the same answer, in every field, as check() on the same values, on any number of
# threads.


def everything(r: sandgate.Result) -> tuple[Any, ...]:
    return (
        r.ok,
        tuple(dataclasses.astuple(d) for d in r.diagnostics),
        json.dumps(r.resolved, sort_keys=True),
        sorted(r.provenance.items()),
        sorted(r.rules_applied.items()),
        r.placement_mode,
        r.qos_class,
        r.runner,
        r.runtime_class,
        r.slurm,
    )


class _Size(str):
    """A str subclass, as the SDK's StrEnum values are."""


def awkward_records() -> list[Any]:
    """Records that are plain data (written as tapes) and records that are not (converted)."""
    deep: Any = {"x": "y"}
    for _ in range(40):  # past half the depth limit: converted
        deep = {"n": deep}
    cyclic: dict[str, Any] = {"resources": {"cpu": "1"}}
    cyclic["annotations"] = cyclic
    return [
        {"resources": {"cpu": "1", "memory": "1Gi"}, "tags": ["a", "b\"c\\d", "e\nf\x01", "é ✓ 𝄞"]},
        {"resources": {"cpu": 2, "memory": "1Gi"}, "max_lifetime_seconds": 3600},
        {"resources": {"cpu": 0.5, "memory": "1Gi"}, "max_lifetime_seconds": 1e400},  # floats, one infinite
        {"resources": {"cpu": "1", "memory": "1Gi"}, "max_lifetime_seconds": 1.5, "tags": [2.5, -0.0]},  # shown in messages
        {"resources": {"cpu": "1", "memory": "1Gi"}, "max_lifetime_seconds": 2**70},  # past int64
        {"resources": {"cpu": "1", "memory": "1Gi"}, "max_lifetime_seconds": -(2**63)},
        {"resources": {"cpu": "1", "memory": "1Gi"}, "tags": ["nul\x00inside"]},
        {"resources": {"cpu": "1", "memory": "1Gi"}, "tags": ["lone \ud800 surrogate"]},
        {"resources": {"cpu": "1", "memory": "1Gi"}, "tags": ("a", "tuple")},
        {"resources": {"cpu": _Size("1"), "memory": "1Gi"}},
        {"resources": {"cpu": "1", "memory": "1Gi"}, "tags": [b"bytes"]},
        {"resources": {"cpu": "1", "memory": "1Gi"}, 7: "a key that is not a string"},
        {"resources": {"cpu": "1", "memory": "1Gi"}, "annotations": deep},
        cyclic,
        {"resources": {"cpu": "1", "memory": "1Gi"}, "enable": True, "flag": None, "imagee": "typo"},
        {"resources": {"cpu": "1", "memory": "1Gi"}, "security_context": {"read_only_root_filesystem": True,
                                                                          "privileged": False}},  # resolved
        {"id": "w", "sandbox": {"resources": {"cpu": "99"}}, "defaults": {"max_lifetime_seconds": 60}, "overrides": None},
        {"id": 3, "sandbox": {}},
        {"sandbox": {}, "polcy": 1},
        [1, 2],
        "not a record",
    ]


UNREADABLE_VALUE = {"SG_INVALID_UTF8", "SG_VALUE_UNSUPPORTED", "SG_VALUE_CYCLE"}


def one_by_one(item: Any, policy: sandgate.Policy) -> tuple[Any, ...] | None:
    """check() on what a record holds; None for a record that is not a sandbox or a wrapper of one."""
    if not isinstance(item, dict):
        return None
    if "sandbox" not in item:
        return everything(sandgate.check(item, policy=policy))
    if set(item) - {"id", "sandbox", "defaults", "overrides"} or not isinstance(item.get("id", ""), str):
        return None
    return everything(sandgate.check(item["sandbox"], policy=policy, defaults=item.get("defaults"),
                                     overrides=item.get("overrides")))


def test_plain_and_awkward_records_answer_as_check_does_on_one_thread_and_on_two(policy: sandgate.Policy) -> None:
    base = awkward_records()
    items = base * 40  # enough to spread over both workers
    one = [everything(r) for r in sandgate.check_many(items, policy=policy, threads=1)]
    two = [everything(r) for r in sandgate.check_many(items, policy=policy, threads=2)]
    assert len(one) == len(two) == len(items)
    expected = [one_by_one(item, policy) for item in base]
    assert sum(e is not None for e in expected) >= len(base) - 5
    for i, (a, b) in enumerate(zip(one, two)):
        assert a == b, (i % len(base), items[i])
        if (e := expected[i % len(base)]) is not None:
            # A value that cannot be converted (a lone surrogate, a key that is not a string, a
            # cycle): check() checks nothing else, check_many checks what could be read. Both
            # answer the same verdict and diagnostics; the rest is compared where it is defined.
            unreadable = any(d[1] in UNREADABLE_VALUE for d in e[1])
            assert (a[:2] if unreadable else a) == (e[:2] if unreadable else e), (i % len(base), items[i])
    assert any(not ok for ok, *_ in one) and any(ok for ok, *_ in one)


def test_every_conformance_case_through_values_answers_as_check_does_on_two_threads() -> None:
    from test_conformance import CASES, as_values  # noqa: PLC0415 -- the shared vectors

    compared = 0
    failures = []
    for case in CASES:
        if case.kind != "check":
            continue
        values = as_values(case)
        if isinstance(values, str) or not isinstance(values.get("sandbox", {}), dict):
            continue  # text-only cases; a sandbox that is not an object is a record-level problem here
        options = case.spec.get("options") if isinstance(case.spec.get("options"), dict) else {}
        kwargs: dict[str, Any] = {
            "client": options.get("client", "python"),
            "placement": options.get("placement") or None,
        }
        inputs = {k: values[k] for k in ("policy", "runners", "org") if k in values}
        sandbox = values.get("sandbox", {})
        layers = {k: values[k] for k in ("defaults", "overrides") if k in values}
        one = everything(sandgate.check(sandbox, **layers, **inputs, **kwargs))
        record = {"sandbox": sandbox, **layers}
        many = [everything(r) for r in sandgate.check_many([record] * 3, **inputs, **kwargs, threads=2)]
        if any(m != one for m in many):
            failures.append(f"{case.file} :: {case.name}")
        compared += 1
    assert compared > 300, compared
    assert not failures, failures[:20]


def _rss_bytes() -> int:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


@pytest.mark.skipif(not os.path.exists("/proc/self/statm"), reason="needs /proc (Linux) for the resident size")
@pytest.mark.parametrize("threads", [1, 2])
def test_results_dropped_during_one_long_iteration_are_freed_as_it_goes(policy: sandgate.Policy, threads: int) -> None:
    # Dropped results wait in their worker's plot of the Graveyard and are freed before later
    # records; if they waited for the end of the iteration, 50,000 results (several KB each with
    # their requests) would grow the process by hundreds of MB.
    items = records(60_000)
    it = sandgate.check_many(items, policy=policy, threads=threads)
    for _ in range(10_000):
        next(it).ok
    start = _rss_bytes()
    n = 10_000 + sum(1 for _ in it)
    grown = _rss_bytes() - start
    assert n == 60_000
    assert grown < 8 << 20, f"RSS grew {grown} bytes over 50,000 dropped results"
