"""Runs every conformance vector (tests/conformance/{policy,check}/**/*.yaml) through the Python API.

The files are read in place (no copy); the matching rules are those of tests/conformance/README.md
and of the C++ runner, tests/conformance/conformance_cases.cpp, which this file mirrors:
- expected diagnostics match the actual errors and warnings one to one (infos only with
  `infos: true` on the case), on code and path, and on severity/input/line/column/hint/message/message_contains/related/python_exception when given;
- `exit` is 1 when any error is reported;
- check cases load policy/runners/org first: if one cannot be read at all, its load errors are the
  whole result; otherwise the engine reports their errors itself.

Every case runs twice (issue 12, item 4): from its text, and from the Python values its text
decodes to (PyYAML's YAML 1.1 typing, as the C++ loader reads scalars, but timestamps kept as
strings), so the converter from Python values is tested by the same cases. Through values, `line`
and `column` are not compared (values have no source) but the order is: the text's reading order
(reading_order_failures), and a case is left to the text run alone
when its text does not decode or it expects a diagnostic that only text can cause (rules L-*:
syntax, duplicate keys, tags, aliases, UTF-8, YAML 1.1 words…; the depth, size and integer checks
of L-* do run through values). A mapping tagged with an SDK option class (`!RegisteredVolumeOptions
{…}`, `!SandboxDefaults`) decodes to an instance of cwsandbox's class holding exactly what the case
wrote, built without the class's own checks (the case is what the user wrote; the engine says what
the constructor does with it).
"""

from __future__ import annotations

import dataclasses
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import yaml

import sandgate

from helpers import CONFORMANCE, REPO

sys.path.append(str(REPO / "tests"))  # tests/sdk_classes.py, shared with the differential suite
from sdk_classes import unchecked_instance  # noqa: E402


@dataclass
class Case:
    file: str  # relative to tests/conformance
    kind: str  # "policy" or "check"
    name: str
    spec: dict[str, Any]
    exit: int = 0
    infos: bool = False
    diagnostics: list[dict[str, Any]] = field(default_factory=list)


def _is_int(v: object) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


# What an expected diagnostic may say; a misspelt key would be an expectation that is never checked.
EXPECTED_KEYS = {"code", "path", "severity", "input", "line", "column", "hint", "message", "message_contains", "related", "python_exception"}


def load_cases() -> list[Case]:
    cases: list[Case] = []
    for path in sorted(CONFORMANCE.rglob("*.yaml")):
        rel = path.relative_to(CONFORMANCE).as_posix()
        if rel.startswith("diff/"):
            continue  # policy diff cases (SPEC §10.3): test_conformance_diff.py runs them through diff_policies
        doc = yaml.safe_load(path.read_text(encoding="utf-8"))
        assert isinstance(doc, dict) and isinstance(doc.get("cases"), list), f"{rel}: no `cases` list"
        kind = "check" if rel.startswith("check") else "policy"
        for c in doc["cases"]:
            assert isinstance(c.get("name"), str) and c["name"], f"{rel}: a case has no name"
            expect = c.get("expect")
            assert isinstance(expect, dict), f"{rel} :: {c['name']}: no `expect`"
            exit_code = expect.get("exit")
            for d in expect.get("diagnostics") or []:
                unknown = set(d) - EXPECTED_KEYS
                assert not unknown, f"{rel} :: {c['name']}: an expected diagnostic has the unknown keys {sorted(unknown)}"
            cases.append(
                Case(
                    file=rel,
                    kind=kind,
                    name=c["name"],
                    spec=c,
                    exit=exit_code if _is_int(exit_code) else 0,
                    infos=c.get("infos") is True,
                    diagnostics=list(expect.get("diagnostics") or []),
                )
            )
    return cases


CASES = load_cases()
INPUTS = ("sandbox", "policy", "defaults", "overrides", "runners", "org")
# The text loader's codes (rules L-*) but the limits and integer checks, which values meet too.
TEXT_LOADER_RULES = {row["code"] for row in sandgate.codes() if row["rule"].startswith("L-")} - {
    "SG_DOC_TOO_DEEP",
    "SG_DOC_TOO_MANY_NODES",
    "SG_INTEGER_RANGE",
    "SG_NOT_AN_INTEGER",
}


class _ValueLoader(yaml.SafeLoader):
    """YAML 1.1 as PyYAML types it, except timestamps, which stay strings (as the C++ loader has them)."""


_ValueLoader.yaml_implicit_resolvers = {
    k: [(tag, rx) for tag, rx in v if tag != "tag:yaml.org,2002:timestamp"]
    for k, v in yaml.SafeLoader.yaml_implicit_resolvers.items()
}


# The local tags the core's loader reads as SDK option classes (Node::given_as).
SDK_CLASS_TAGS = ("SandboxDefaults", "RegisteredVolumeOptions", "ScratchVolumeOptions", "ResourceOptions")


def _sdk_instance(loader: yaml.SafeLoader, suffix: str, node: yaml.Node) -> object:
    if suffix not in SDK_CLASS_TAGS or not isinstance(node, yaml.MappingNode):
        raise yaml.constructor.ConstructorError(None, None, f"no SDK option class !{suffix}", node.start_mark)
    import cwsandbox

    cls = getattr(cwsandbox, suffix)
    given = loader.construct_mapping(node, deep=True)
    obj = unchecked_instance(cls, given)
    if obj is None:  # a key the class has no field for: an instance cannot hold it
        names = {f.name for f in dataclasses.fields(cls)}
        raise yaml.constructor.ConstructorError(None, None, f"!{suffix} has no field {sorted(set(given) - names)}", node.start_mark)
    return obj


_ValueLoader.add_multi_constructor("!", _sdk_instance)


def as_values(case: Case) -> dict[str, Any] | str:
    """The case's inputs decoded to Python values, or why the case runs from text only."""
    codes = sorted({str(e.get("code")) for e in case.diagnostics} & TEXT_LOADER_RULES)
    if codes:
        return f"expects a diagnostic of the text loader ({', '.join(codes)})"
    out: dict[str, Any] = {}
    for key in INPUTS:
        text = text_of(case, key)
        if text is None:
            continue
        try:
            docs = list(yaml.load_all(text, Loader=_ValueLoader))  # noqa: S506 -- a SafeLoader
        except yaml.YAMLError as e:
            return f"its {key} text does not decode ({type(e).__name__})"
        if len(docs) != 1:
            return f"its {key} text holds {len(docs)} documents"
        if (bad := _non_string_key(docs[0])) is not None:
            # `&k null: 1`: the text's key is the name "null"; PyYAML's value has the key None.
            return f"its {key} text has a key PyYAML reads as {bad!r}, not as the name written"
        out[key] = docs[0]
    return out


def _non_string_key(value: Any) -> Any:
    """The first mapping key in `value` that is not a str, or None when all are (a None key is
    returned as the string 'None' so that it is told from no finding)."""
    if isinstance(value, dict):
        for k, v in value.items():
            if not isinstance(k, str):
                return "None" if k is None else k
            if (bad := _non_string_key(v)) is not None:
                return bad
    elif isinstance(value, list):
        for v in value:
            if (bad := _non_string_key(v)) is not None:
                return bad
    return None


def describe(d: sandgate.Diagnostic) -> str:
    at = f" @{d.source.line}:{d.source.column}" if d.source else ""
    hint = f" (hint: {d.hint})" if d.hint else ""
    related = "".join(
        f" [related: {r.input}:{r.path or '/'}" + (f" @{r.source.line}:{r.source.column}" if r.source else "") + "]" for r in d.related
    )
    return f"{d.code} {d.severity} {d.input}:{d.path or '/'}{at} — {d.message}{hint}{related}"


def _at(e: dict[str, Any], source: Any) -> bool:
    """Whether `source` is at the entry's line and column, where the entry gives them."""
    if _is_int(e.get("line")) and (source is None or source.line != e["line"]):
        return False
    return not (_is_int(e.get("column")) and (source is None or source.column != e["column"]))


def _related_matches(e: dict[str, Any], r: Any, positions: bool) -> bool:
    if str(e.get("input") or "") != r.input or str(e.get("path") or "") != r.path:
        return False
    return not positions or _at(e, r.source)


def matches(e: dict[str, Any], d: sandgate.Diagnostic, positions: bool = True) -> bool:
    if e.get("code") != d.code or str(e.get("path") or "") != d.path:
        return False
    if "severity" in e and str(e["severity"]) != d.severity:
        return False
    if "input" in e and str(e["input"]) != (d.input or ""):
        return False
    if "hint" in e and str(e["hint"]) != (d.hint or ""):
        return False
    if "message" in e and str(e["message"]) != d.message:
        return False
    if "message_contains" in e and str(e["message_contains"]) not in d.message:
        return False
    if "python_exception" in e and str(e["python_exception"]) != (d.python_exception or ""):
        return False
    if "related" in e and not any(_related_matches(e["related"], r, positions) for r in d.related):
        return False
    return not positions or _at(e, d.source)


def compare_diagnostics(case: Case, result: sandgate.Result, positions: bool = True) -> list[str]:
    actual = [d for d in result.diagnostics if d.severity != "info" or case.infos]
    used = [False] * len(actual)
    failures = []
    for e in case.diagnostics:
        for i, d in enumerate(actual):
            if not used[i] and matches(e, d, positions):
                used[i] = True
                break
        else:
            failures.append(f"missing: {e}")
    failures += [f"unexpected: {describe(d)}" for d, u in zip(actual, used) if not u]
    exit_code = 0 if result.ok else 1
    if exit_code != case.exit:
        failures.append(f"exit {exit_code}, expected {case.exit}")
    return failures


def pointer_resolve(root: Any, pointer: str) -> tuple[bool, Any]:
    """(found, value) at an RFC 6901 pointer into plain data."""
    if pointer == "":
        return True, root
    if not pointer.startswith("/"):
        return False, None
    cur = root
    for raw in pointer[1:].split("/"):
        token = raw.replace("~1", "/").replace("~0", "~")
        if isinstance(cur, dict):
            if token not in cur:
                return False, None
            cur = cur[token]
        elif isinstance(cur, list):
            if not token.isdigit() or (len(token) > 1 and token[0] == "0") or int(token) >= len(cur):
                return False, None
            cur = cur[int(token)]
        else:
            return False, None
    return True, cur


def same_value(a: Any, b: Any) -> bool:
    """The C++ Node equality: exact kinds (a bool is not a number), 2 == 2.0, ordered members."""
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return a == b
    if isinstance(a, dict) and isinstance(b, dict):
        return list(a) == list(b) and all(same_value(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same_value(x, y) for x, y in zip(a, b))
    return type(a) is type(b) and a == b


def text_of(case: Case, key: str) -> str | None:
    value = case.spec.get(key)
    return value if isinstance(value, str) else None


def result_of(case: Case, values: dict[str, Any] | None = None) -> sandgate.Result:
    """The case's result, from its text or (given) from the values its text decodes to."""
    if case.kind == "policy":
        if values is not None:
            return sandgate.validate_policy(sandgate.Policy.from_dict(values["policy"]))
        text = text_of(case, "policy")
        assert text is not None, "policy cases need `policy` text"
        return sandgate.validate_policy(sandgate.Policy.from_text(text))
    options = case.spec.get("options") if isinstance(case.spec.get("options"), dict) else {}
    assert isinstance(options, dict)
    if values is None:  # from text; the text is given as bytes, which is always text
        given = {k: t.encode("utf-8", "surrogatepass") for k in INPUTS if (t := text_of(case, k)) is not None}
        sandbox: Any = given.pop("sandbox", b"{}")
    else:
        given = dict(values)
        sandbox = given.pop("sandbox", {})
    return sandgate.check(
        sandbox,
        **given,
        client=options.get("client", "python"),
        placement=options.get("placement") or None,
    )


def reading_order_failures(from_text: sandgate.Result, from_values: sandgate.Result) -> list[str]:
    """A value's diagnostics must come in its text's reading order (inputs by first mention, then
    line and column). Where the text puts two at one place (a YAML block mapping stands where its
    first key does) either order is that order; and the result leads with the same error, so the
    same exception is raised."""
    text = list(from_text.diagnostics)
    inputs: list[str] = []
    places: dict[tuple[str, str, str], list[tuple[int, int, int]]] = {}
    for d in text:
        if d.input not in inputs:
            inputs.append(d.input)
        where = (d.source.line, d.source.column) if d.source else (0, 0)
        places.setdefault((d.code, d.input, d.path), []).append((inputs.index(d.input), *where))
    order = []
    for d in from_values.diagnostics:
        found = places.get((d.code, d.input, d.path))
        if not found:
            return []  # not the same diagnostics: compare_diagnostics says how
        order.append((found.pop(0), d))
    for (a, da), (b, db) in zip(order, order[1:]):
        if b < a:
            return [f"out of the text's reading order: {describe(db)} (text at {b}) after {describe(da)} (text at {a})"]
    return []


def run_check(case: Case, values: dict[str, Any] | None = None) -> list[str]:
    result = result_of(case, values)
    failures = compare_diagnostics(case, result, positions=values is None)
    expect = case.spec["expect"]
    runtime = result.runtime_class
    actual_text = {
        "placement_mode": result.placement_mode or "",
        "qos_class": result.qos_class or "",
        "runtime_class": runtime["value"] if runtime else "",
        "runtime_class_from": runtime["from"] if runtime else "",
        "runner": result.runner or "",
    }
    for key, actual in actual_text.items():
        wanted = expect.get(key)
        if isinstance(wanted, str) and wanted != actual:
            failures.append(f'{key} is "{actual}", expected "{wanted}"')
    # `provenance` and `rules_applied`: pointer → the note expected there (None: no note).
    for key, notes in (("provenance", result.provenance), ("rules_applied", result.rules_applied)):
        wanted_notes = expect.get(key)
        if not isinstance(wanted_notes, dict):
            continue
        for pointer, wanted in wanted_notes.items():
            got = notes.get(pointer)
            if got != wanted:
                shown = "absent" if got is None else f'"{got}"'
                failures.append(f"{key} {pointer} is {shown}, expected " + ("absent" if wanted is None else f'"{wanted}"'))
    resolved = expect.get("resolved")
    if isinstance(resolved, dict):
        for pointer, wanted in resolved.items():
            found, actual = pointer_resolve(result.resolved, pointer)
            ok = not found if wanted is None else found and same_value(actual, wanted)
            if not ok:
                failures.append(f"resolved {pointer} is {actual if found else 'absent'!r}, expected {wanted!r}")
    return failures


def run_case(case: Case, values: dict[str, Any] | None = None) -> list[str]:
    if case.kind == "policy":
        return compare_diagnostics(case, result_of(case, values), positions=values is None)
    return run_check(case, values)


def test_there_are_vectors_of_both_kinds() -> None:
    kinds = {c.kind for c in CASES}
    assert kinds == {"policy", "check"}, kinds


# Codes no conformance vector can show, each with why and where it is tested instead.
CODES_WITHOUT_VECTORS = {
    "SG_DOC_TOO_LARGE": "a 4 MiB document; tests/hostile/manifest.json",
    "SG_DOC_TOO_MANY_NODES": "100,000 nodes; tests/hostile/manifest.json",
    "SG_INVALID_UTF8": "bytes a UTF-8 case file cannot hold; tests/hostile/manifest.json",
    "SG_NUL_BYTE": "bytes a case file cannot hold; tests/hostile/manifest.json",
    "SG_VALUE_CYCLE": "native values only; test_hostile.py, test_inputs.py, hostile.test.mjs",
    "SG_VALUE_UNSUPPORTED": "native values only; test_hostile.py, test_inputs.py, hostile.test.mjs",
    "SG_VALUE_READ_FAILED": "native values only; test_hostile.py, test_inputs.py, hostile.test.mjs",
    "SG_SCHEMA_VIOLATION": "the fallback for a schema keyword without its own code; the shipped schemas use none",
}


def test_every_code_has_a_vector_or_a_reason() -> None:
    """A code no input can produce (one was: a rule branch another rule always took first) has no
    vector; so does a reachable one nobody wrote a case for. Either way this fails."""
    text = "".join(p.read_text(encoding="utf-8") for p in CONFORMANCE.rglob("*.yaml"))
    codes = {row["code"] for row in sandgate.codes()}
    without = {c for c in codes if c not in text}
    assert without == set(CODES_WITHOUT_VECTORS), (
        f"codes without a conformance vector: {sorted(without - set(CODES_WITHOUT_VECTORS))}; "
        f"listed as without one but having one (or gone): {sorted(set(CODES_WITHOUT_VECTORS) - without)}"
    )


def test_case_names_are_unique_within_a_file() -> None:
    seen: set[tuple[str, str]] = set()
    for c in CASES:
        assert (c.file, c.name) not in seen, f"{c.file}: duplicate case {c.name}"
        seen.add((c.file, c.name))


@pytest.mark.parametrize("case", CASES, ids=[f"{c.file}::{c.name}" for c in CASES])
def test_conformance(case: Case) -> None:
    failures = run_case(case)
    assert not failures, f"{case.file} :: {case.name}\n" + "\n".join(failures)


@pytest.mark.parametrize("case", CASES, ids=[f"{c.file}::{c.name}" for c in CASES])
def test_conformance_through_values(case: Case) -> None:
    values = as_values(case)
    if isinstance(values, str):
        pytest.skip(f"from text only: {values}")
    failures = run_case(case, values) or reading_order_failures(result_of(case), result_of(case, values))
    assert not failures, f"{case.file} :: {case.name} (through Python values)\n" + "\n".join(failures)
