"""Hostile Python values: each becomes a diagnostic with a JSON Pointer — never a crash, never an
uncaught exception, never a hang."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Mapping
from typing import Any

import pytest

import sandgate

RES = {"cpu": "1", "memory": "1Gi"}


def errors(r: sandgate.Result) -> list[tuple[str, str]]:
    return [(d.code, d.path) for d in r.errors]


def test_a_dict_that_contains_itself() -> None:
    d: dict[str, Any] = {"resources": RES, "annotations": {}}
    d["annotations"]["loop"] = d
    r = sandgate.check(d)
    assert errors(r) == [("SG_VALUE_CYCLE", "/annotations/loop")]
    assert "cycle" in r.errors[0].message


def test_a_list_that_contains_itself() -> None:
    tags: list[Any] = ["a"]
    tags.append(tags)
    r = sandgate.check({"resources": RES, "tags": tags})
    assert errors(r) == [("SG_VALUE_CYCLE", "/tags/1")]


def test_shared_values_that_are_not_cycles_are_fine() -> None:
    shared = {"team": "ml"}
    r = sandgate.check({"resources": RES, "annotations": shared, "environment_variables": shared})
    assert r.ok, r.diagnostics


def test_a_dataclass_cycle() -> None:
    @dataclasses.dataclass
    class Node:
        name: str
        child: Any = None

    n = Node("a")
    n.child = n
    r = sandgate.check({"resources": RES, "annotations": {"x": n}})
    assert ("SG_VALUE_CYCLE", "/annotations/x/child") in errors(r)


def test_deep_nesting_stops_at_the_depth_limit() -> None:
    value: dict[str, Any] = {}
    cur = value
    for _ in range(10_000):  # far beyond Python's recursion limit too
        cur["a"] = {}
        cur = cur["a"]
    r = sandgate.check({"resources": RES, "annotations": value})
    [d] = r.errors
    assert d.code == "SG_DOC_TOO_DEEP"
    assert d.path.startswith("/annotations/a/a/")


def test_nesting_at_the_depth_limit_is_read() -> None:
    value: list[Any] = []
    cur = value
    for _ in range(60):
        nxt: list[Any] = []
        cur.append(nxt)
        cur = nxt
    r = sandgate.check({"resources": RES, "tags": value})
    assert all(d.code != "SG_DOC_TOO_DEEP" for d in r.diagnostics)


def test_a_hundred_thousand_element_list_hits_the_node_limit() -> None:
    r = sandgate.check({"resources": RES, "tags": ["t"] * 100_000})
    # The root, resources, cpu, memory and the list are 5 nodes: item 99995 is node 100,001.
    assert errors(r) == [("SG_DOC_TOO_MANY_NODES", "/tags/99995")]


def test_a_large_list_under_the_limit_is_checked() -> None:
    r = sandgate.check({"resources": RES, "tags": ["t"] * 50_000})
    assert all(d.code != "SG_DOC_TOO_MANY_NODES" for d in r.diagnostics)


def test_non_string_keys() -> None:
    r = sandgate.check({"resources": RES, "annotations": {1: "x", ("a", "b"): "y", "ok": "z"}})
    assert errors(r) == [("SG_VALUE_UNSUPPORTED", "/annotations"), ("SG_VALUE_UNSUPPORTED", "/annotations")]
    assert "not int" in r.errors[0].message


def test_a_non_string_key_at_the_top() -> None:
    r = sandgate.check({None: 1})  # type: ignore[dict-item]
    assert errors(r) == [("SG_VALUE_UNSUPPORTED", "")]


def test_unsupported_objects() -> None:
    r = sandgate.check({"resources": RES, "annotations": {"a": object(), "b": {1, 2}, "c": 1 + 2j}})
    assert errors(r) == [
        ("SG_VALUE_UNSUPPORTED", "/annotations/a"),
        ("SG_VALUE_UNSUPPORTED", "/annotations/b"),
        ("SG_VALUE_UNSUPPORTED", "/annotations/c"),
    ]


def test_an_unsupported_value_under_a_key_to_escape() -> None:
    # The converter's own pointer escapes "/" and "~" (RFC 6901) like every other path.
    r = sandgate.check({"resources": RES, "annotations": {"example.com/a~b": object(), "plain": object()}})
    assert errors(r) == [
        ("SG_VALUE_UNSUPPORTED", "/annotations/example.com~1a~0b"),
        ("SG_VALUE_UNSUPPORTED", "/annotations/plain"),
    ]


class RaisingMapping(Mapping[str, Any]):
    def __getitem__(self, key: str) -> Any:
        raise RuntimeError("getter exploded")

    def __iter__(self) -> Iterator[str]:
        return iter(["a"])

    def __len__(self) -> int:
        return 1


def test_a_mapping_whose_getter_raises() -> None:
    r = sandgate.check({"resources": RES, "annotations": RaisingMapping()})
    [d] = r.errors
    assert (d.code, d.path) == ("SG_VALUE_READ_FAILED", "/annotations")
    assert "RuntimeError: getter exploded" in d.message


class _ItemsMapping(Mapping[str, Any]):
    """A Mapping whose items() gives what it is told, whatever its keys say."""

    def __init__(self, items: list[tuple[Any, ...]]) -> None:
        self._items = items

    def __getitem__(self, key: str) -> Any:
        return "1"

    def __iter__(self) -> Iterator[str]:
        return iter(["a"])

    def __len__(self) -> int:
        return 1

    def items(self) -> Any:
        return iter(self._items)


def test_a_mapping_whose_items_are_not_pairs() -> None:
    r = sandgate.check({"resources": RES, "annotations": _ItemsMapping([("a", "1", "extra")])})
    assert errors(r) == [("SG_VALUE_READ_FAILED", "/annotations")]
    assert "not a (key, value) pair" in r.errors[0].message


def test_a_mapping_whose_items_give_a_key_twice() -> None:
    r = sandgate.check({"resources": RES, "annotations": _ItemsMapping([("a", "1"), ("b", "2"), ("a", "3")])})
    assert errors(r) == [("SG_DUPLICATE_KEY", "/annotations/a")]


def test_a_dataclass_whose_field_getter_raises() -> None:
    @dataclasses.dataclass
    class Opts:
        name: str

        def __getattribute__(self, name: str) -> Any:
            if name == "name":
                raise KeyError("nope")
            return object.__getattribute__(self, name)

    r = sandgate.check({"resources": RES, "annotations": Opts("x")})
    assert errors(r) == [("SG_VALUE_READ_FAILED", "/annotations/name")]


def test_a_sequence_whose_iteration_raises() -> None:
    class Broken:
        def __iter__(self) -> Iterator[str]:
            yield "a"
            raise ValueError("iteration exploded")

        def __len__(self) -> int:
            return 2

        def __getitem__(self, i: int) -> str:
            return "a"

    from collections.abc import Sequence

    Sequence.register(Broken)
    r = sandgate.check({"resources": RES, "tags": Broken()})
    assert errors(r) == [("SG_VALUE_READ_FAILED", "/tags/1")]


def test_a_dict_mutated_while_it_is_read() -> None:
    target: dict[str, Any] = {}

    class Mutator:
        def __index__(self) -> int:
            target["new"] = 1
            return 1

    target.update({"a": Mutator(), "b": 2})
    r = sandgate.check({"resources": RES, "annotations": target})
    assert not r.ok  # reported (and annotation values must be strings anyway); no crash
    # Reported as what happened, at the dict, and nothing read after it is checked.
    assert errors(r) == [("SG_VALUE_READ_FAILED", "/annotations")]
    assert "changed size" in r.errors[0].message


def test_many_bad_values_give_a_bounded_report() -> None:
    r = sandgate.check({"resources": RES, "tags": [object()] * 5000})
    assert 0 < len(r.errors) <= 100


def test_an_unsupported_value_is_named_by_its_type_and_a_short_repr() -> None:
    # A repr is cut at 60 characters: an object's repr may be as long as it likes.
    long_name = type("L" * 80, (), {})
    r = sandgate.check({"resources": RES, "annotations": {"a": long_name()}})
    [d] = r.errors
    assert (d.code, d.path) == ("SG_VALUE_UNSUPPORTED", "/annotations/a")
    assert d.message.startswith("a value of type " + "L" * 80 + " (")
    shown = d.message.split(" (", 1)[1].rsplit(") cannot be checked", 1)[0]
    assert shown.endswith("…") and len(shown) == 61
    assert " object at 0x" not in d.message


def test_bytes_that_are_not_utf8_name_the_first_bad_byte() -> None:
    r = sandgate.check({"resources": RES, "annotations": {"a": b"ab\xffc"}})
    [d] = r.errors
    assert (d.code, d.path) == ("SG_INVALID_UTF8", "/annotations/a")
    assert "(at byte 2)" in d.message


def test_an_int_past_int64_is_its_digits_not_its_str() -> None:
    # IntEnum members and other int subclasses may print a name: the digits are the value's.
    class Named(int):
        def __str__(self) -> str:
            return "named"

        __repr__ = __str__

    r = sandgate.check({"resources": RES, "max_lifetime_seconds": Named(2**70)})
    [d] = r.errors
    assert (d.code, d.path) == ("SG_INTEGER_RANGE", "/max_lifetime_seconds")
    assert d.message.startswith(str(int.__repr__(2**70)) + " does not fit")


def test_a_huge_integer() -> None:
    r = sandgate.check({"resources": RES, "max_lifetime_seconds": 10**5000})
    assert [d.path for d in r.errors] == ["/max_lifetime_seconds"]


def test_nan_and_infinity() -> None:
    r = sandgate.check({"resources": RES, "max_lifetime_seconds": float("nan"), "request_timeout_seconds": float("inf")})
    assert {d.path for d in r.errors} == {"/max_lifetime_seconds", "/request_timeout_seconds"}


@pytest.mark.parametrize("make", ["policy", "runners", "org", "defaults", "validate", "normalize"])
def test_hostile_values_in_every_input(make: str) -> None:
    d: dict[str, Any] = {"x": 1}
    d["self"] = d
    if make == "policy":
        p = sandgate.Policy.from_dict(d)
        assert not p.loaded and [x.code for x in p.errors] == ["SG_VALUE_CYCLE"]
        r = sandgate.check({"resources": RES}, policy=p)
    elif make == "runners":
        r = sandgate.check({"resources": RES}, runners=d)
    elif make == "org":
        r = sandgate.check({"resources": RES}, org=d)
    elif make == "defaults":
        r = sandgate.check({"resources": RES}, defaults=d)
    elif make == "validate":
        r = sandgate.validate_policy(d)
    else:
        r = sandgate.normalize_resources(d)
    assert not r.ok
    [e] = r.errors
    assert e.code == "SG_VALUE_CYCLE"
    assert e.path == ("/resources/self" if make == "normalize" else "/self")


def test_an_object_that_only_pretends_to_be_a_dataclass() -> None:
    class Fake:
        __dataclass_fields__ = "not fields"

    r = sandgate.check({"resources": RES, "annotations": {"x": Fake()}})
    assert errors(r) == [("SG_VALUE_READ_FAILED", "/annotations/x")]
    assert "Traceback" not in r.errors[0].message and "At:" not in r.errors[0].message


def test_dataclass_types_made_at_run_time_are_not_kept_alive() -> None:
    import gc
    import weakref

    def make() -> weakref.ref[type]:
        @dataclasses.dataclass
        class Temp:
            name: str = "x"

        assert sandgate.check({"resources": RES, "annotations": Temp()}).resolved["annotations"] == {"name": "x"}
        return weakref.ref(Temp)

    ref = make()
    gc.collect()
    assert ref() is None


def test_python_md_names_the_codes_hostile_values_get() -> None:
    # python.md's "Input kinds" said SG_DOC_TOO_DEEP for a cycle and SG_TYPE_MISMATCH for a key that is
    # not a string, an unsupported object and a getter that raises; the engine answers these.
    import re
    from pathlib import Path

    class Raises(Mapping[str, Any]):
        def __getitem__(self, key: str) -> Any:
            raise RuntimeError("no")

        def __iter__(self) -> Iterator[str]:
            raise RuntimeError("no")

        def __len__(self) -> int:
            return 1

    class BadIndex:
        def __index__(self) -> int:
            raise RuntimeError("no")

    cyclic: dict[str, Any] = {}
    cyclic["a"] = cyclic
    deep: dict[str, Any] = {}
    d = deep
    for _ in range(70):
        d["n"] = d = {}
    cases = {
        "a reference cycle": (cyclic, "SG_VALUE_CYCLE"),
        "nesting deeper than 64 levels": (deep, "SG_DOC_TOO_DEEP"),
        "a non-string key": ({1: 2}, "SG_VALUE_UNSUPPORTED"),
        "an\nobject of an unsupported type": ({"annotations": object()}, "SG_VALUE_UNSUPPORTED"),
        "iterator": ({"annotations": Raises()}, "SG_VALUE_READ_FAILED"),
        "`__index__` that raises": ({"max_lifetime_seconds": BadIndex()}, "SG_VALUE_READ_FAILED"),
    }
    doc = (Path(__file__).resolve().parents[3] / "docs" / "python.md").read_text(encoding="utf-8")
    paragraph = doc[doc.index("A hostile value becomes a diagnostic"):]
    paragraph = paragraph[: paragraph.index("\n\n")]
    for words, (value, code) in cases.items():
        assert [c for c, _ in errors(sandgate.check(value))][:1] == [code], words
        named = re.search(re.escape(words.replace("\n", " ")) + r"[^(]*\(`(SG_[A-Z_0-9]+)`", paragraph.replace("\n", " "))
        assert named is not None and named.group(1) == code, (words, named and named.group(1))


# One value, one answer from text, Python and Node (issue 12): a NUL is noted and the value is still
# checked, as the loaders read past it; any other problem of a value stops its check, as text that
# does not load is not checked. The same cases are in the Node suite (hostile.test.mjs).
def test_a_nul_is_noted_and_the_rest_is_still_checked() -> None:
    for sandbox, nul_path in [
        ({"resources": RES, "container_image": "a\x00b", "tags": [5]}, "/container_image"),
        ({"resources": RES, "container_image": b"a\x00b", "tags": [5]}, "/container_image"),
        ({"resources": RES, "annotations": {"k\x00": "v"}, "tags": [5]}, "/annotations/k\x00"),
    ]:
        found = errors(sandgate.check(sandbox))
        assert ("SG_NUL_BYTE", nul_path) in found
        assert ("SG_TYPE_MISMATCH", "/tags/0") in found
        [many] = list(sandgate.check_many([{"sandbox": sandbox}]))
        assert errors(many) == found


def test_an_unreadable_value_stops_the_check_of_its_input() -> None:
    assert errors(sandgate.check({"resources": RES, "tags": [object(), "b", 5]})) == [("SG_VALUE_UNSUPPORTED", "/tags/0")]
    assert errors(sandgate.check({"resources": RES, "tags": ["a\udc00", "b", 5]})) == [("SG_INVALID_UTF8", "/tags/0")]
    # A key with a lone surrogate has no UTF-8 form: reported at its object.
    assert errors(sandgate.check({"resources": RES, "annotations": {"a\udc00b": "x"}})) == [("SG_INVALID_UTF8", "/annotations")]
