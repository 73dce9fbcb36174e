"""Runs the policy diff cases (tests/conformance/diff/*.yaml) through sandgate.diff_policies.

The matching rules are those of tests/conformance/README.md ("Policy diff cases") and of the C++
runner, tests/conformance/diff_cases.cpp, which this file mirrors. Every case with records runs
twice: from the stream's text (``record`` is its line), and from the Python values its lines decode
to, as an iterable (``record`` is then the position, mapped back to the line here), so the
iterable path of the binding answers the same cases. Replays use 2 threads, as the C++ runner does.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import pytest
import yaml

import sandgate

from helpers import CONFORMANCE
from test_conformance import same_value


@dataclass
class DiffCase:
    file: str
    name: str
    spec: dict[str, Any]


def load_cases() -> list[DiffCase]:
    cases = []
    for path in sorted((CONFORMANCE / "diff").rglob("*.yaml")):
        doc = yaml.safe_load(path.read_text(encoding="utf-8"))
        rel = path.relative_to(CONFORMANCE).as_posix()
        assert isinstance(doc, dict) and isinstance(doc.get("cases"), list), f"{rel}: no `cases` list"
        for c in doc["cases"]:
            assert isinstance(c.get("expect"), dict), f"{rel} :: {c.get('name')}: no `expect`"
            cases.append(DiffCase(rel, c["name"], c))
    return cases


CASES = load_cases()


def _value_matches(expected: Any, actual: Any) -> bool:
    """`null` in a case means absent, which the binding answers as None."""
    return actual is None if expected is None else same_value(expected, actual)


def describe(c: sandgate.StaticChange) -> str:
    old_line = c.old_source.line if c.old_source else None
    new_line = c.new_source.line if c.new_source else None
    return f"{c.field} {c.kind} {c.old!r} -> {c.new!r} old@{old_line} new@{new_line}"


def matches(e: Any, c: sandgate.StaticChange) -> bool:
    if isinstance(e, str):
        return e == c.field
    if e.get("field") != c.field:
        return False
    if "kind" in e and e["kind"] != c.kind:
        return False
    if "old" in e and not _value_matches(e["old"], c.old):
        return False
    if "new" in e and not _value_matches(e["new"], c.new):
        return False
    if "old_line" in e and (c.old_source is None or c.old_source.line != e["old_line"]):
        return False
    if "new_line" in e and (c.new_source is None or c.new_source.line != e["new_line"]):
        return False
    return True


def one_to_one(wanted: list[Any], actual: list[sandgate.StaticChange], what: str, f: list[str]) -> None:
    used = [False] * len(actual)
    for w in wanted:
        for i, c in enumerate(actual):
            if not used[i] and matches(w, c):
                used[i] = True
                break
        else:
            f.append(f"{what}missing {json.dumps(w)}")
    f.extend(f"{what}unexpected {describe(c)}" for i, c in enumerate(actual) if not used[i])


def compare_record(e: dict[str, Any], r: sandgate.RecordDiff, line: int, f: list[str]) -> None:
    at = f"record {line}: "
    if "class" in e and e["class"] != r.cls:
        f.append(f"{at}class {r.cls}, expected {e['class']}")
    if "id" in e and r.id != e["id"]:
        f.append(f"{at}id {r.id}, expected {e['id']}")
    if "codes" in e and sorted(set(r.codes)) != sorted(e["codes"]):
        f.append(f"{at}codes {sorted(set(r.codes))}, expected {sorted(e['codes'])}")
    if "old_codes" in e and sorted(r.old_codes) != sorted(e["old_codes"]):
        f.append(f"{at}old_codes {sorted(r.old_codes)}, expected {sorted(e['old_codes'])}")
    if "error_line" in e and not positions_unknown(r):
        first = r.errors[0] if r.errors else None
        if first is None or first.source is None or first.source.line != e["error_line"]:
            f.append(f"{at}the first error is not at line {e['error_line']}")
    if isinstance(e.get("caused_by"), list):
        one_to_one(e["caused_by"], list(r.caused_by), at + "caused_by: ", f)
    if isinstance(e.get("changes"), dict):
        actual = {c.pointer: c for c in r.changes}
        for pointer, pair in e["changes"].items():
            c = actual.get(pointer)
            if c is None:
                f.append(f"{at}no change at {pointer}")
            elif not (isinstance(pair, list) and len(pair) == 2 and _value_matches(pair[0], c.old)
                      and _value_matches(pair[1], c.new)):
                f.append(f"{at}{pointer} is {c.old!r} -> {c.new!r}, expected {pair!r}")
        f.extend(f"{at}unexpected change at {p}" for p in actual if p not in e["changes"])


_THROUGH_VALUES = False


def positions_unknown(r: sandgate.RecordDiff) -> bool:
    """Records given as Python values have no source lines (only text does)."""
    return _THROUGH_VALUES and all(d.source is None for d in r.errors)


def as_values(text: str) -> tuple[list[Any], dict[int, int]]:
    """The stream's non-blank lines as Python values (a line that does not decode stays text), and
    each position's line."""
    values, lines = [], {}
    for n, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            values.append(json.loads(line))
        except ValueError:
            values.append(line)
        lines[len(values)] = n
    return values, lines


def run_case(case: DiffCase, through_values: bool) -> list[str]:
    global _THROUGH_VALUES
    _THROUGH_VALUES = through_values
    spec = case.spec
    options = spec.get("options") if isinstance(spec.get("options"), dict) else {}
    assert isinstance(options, dict)
    records: Any = None
    line_of: dict[int, int] | None = None
    if isinstance(spec.get("records"), str):
        if through_values:
            records, line_of = as_values(spec["records"])
        else:
            records = spec["records"].encode("utf-8")
    runners = spec["runners"].encode() if isinstance(spec.get("runners"), str) else None
    org = spec["org"].encode() if isinstance(spec.get("org"), str) else None
    d = sandgate.diff_policies(
        sandgate.Policy.from_text(spec["old"], name="old.yaml"),
        sandgate.Policy.from_text(spec["new"], name="new.yaml"),
        records,
        runners=runners,
        org=org,
        client=options.get("client", "python"),
        placement=options.get("placement") or None,
        threads=2,  # the order of the answers must not depend on the threads
    )
    f: list[str] = []
    expect = spec["expect"]
    exit_code = 0 if d.ok else 1
    if exit_code != expect.get("exit", 0):
        f.append(f"exit {exit_code}, expected {expect.get('exit', 0)}")
    if isinstance(expect.get("static_changes"), list):
        one_to_one(expect["static_changes"], list(d.static_changes), "static change: ", f)
    if isinstance(expect.get("counts"), dict):
        for name, n in d.counts.items():
            want = expect["counts"].get(name, 0)
            if n != want:
                f.append(f"count {name} {n}, expected {want}")
        f.extend(f"counts: unknown class {k}" for k in expect["counts"] if k not in d.counts)
    if isinstance(expect.get("records"), list):
        by_line = {(line_of[r.record] if line_of else r.record): r for r in d.records}
        seen = set()
        for e in expect["records"]:
            r = by_line.get(e.get("record"))
            if r is None:
                f.append(f"record {e.get('record')} is unchanged or missing")
                continue
            seen.add(e["record"])
            compare_record(e, r, e["record"], f)
        f.extend(f"unexpected record {line} {r.cls}" for line, r in by_line.items() if line not in seen)
    return f


def test_there_are_diff_cases() -> None:
    assert len(CASES) >= 10
    assert any("records" in c.spec for c in CASES)


@pytest.mark.parametrize("case", CASES, ids=[f"{c.file}::{c.name}" for c in CASES])
def test_diff_case(case: DiffCase) -> None:
    failures = run_case(case, through_values=False)
    assert not failures, f"{case.file} :: {case.name}\n" + "\n".join(failures)


WITH_RECORDS = [c for c in CASES if isinstance(c.spec.get("records"), str)]


@pytest.mark.parametrize("case", WITH_RECORDS, ids=[f"{c.file}::{c.name}" for c in WITH_RECORDS])
def test_diff_case_through_values(case: DiffCase) -> None:
    failures = run_case(case, through_values=True)
    assert not failures, f"{case.file} :: {case.name} (records as Python values)\n" + "\n".join(failures)
