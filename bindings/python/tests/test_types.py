"""Python values keep their types exactly: True is not a count, "1" is not an int, 1 is not "1"."""

from __future__ import annotations

import enum
from typing import Any

import sandgate

RES = {"cpu": "1", "memory": "1Gi"}


def codes(r: sandgate.Result) -> list[tuple[str, str]]:
    return [(d.code, d.path) for d in r.errors]


def test_true_is_not_a_gpu_count() -> None:
    r = sandgate.check({"resources": {**RES, "gpu": True}}, org={"gpu_allowed": True})
    assert codes(r) == [("SG_GPU_INVALID", "/resources/gpu")]
    assert r.errors[0].python_exception == "ValueError"


def test_string_one_is_not_a_gpu_count() -> None:
    r = sandgate.check({"resources": {**RES, "gpu": "1"}}, org={"gpu_allowed": True})
    assert codes(r) == [("SG_GPU_INVALID", "/resources/gpu")]


def test_true_is_not_a_gpu_count_inside_the_gpu_object() -> None:
    r = sandgate.check({"resources": {**RES, "gpu": {"count": True}}}, org={"gpu_allowed": True})
    assert [p for _, p in codes(r)] == ["/resources/gpu/count"]


def test_integer_one_is_a_gpu_count() -> None:
    r = sandgate.check({"resources": {**RES, "gpu": 1}}, org={"gpu_allowed": True})
    assert r.ok, r.diagnostics
    assert r.resolved["resources"]["gpu"] == {"count": 1}
    assert type(r.resolved["resources"]["gpu"]["count"]) is int


def test_an_integer_cpu_is_not_a_quantity_string() -> None:
    r = sandgate.check({"resources": {"cpu": 1, "memory": "1Gi"}})
    assert codes(r) == [("SG_RESOURCE_VALUE_TYPE", "/resources/cpu")]


def test_a_float_cpu_is_not_a_quantity_string() -> None:
    r = sandgate.check({"resources": {"cpu": 0.5, "memory": "1Gi"}})
    assert codes(r) == [("SG_RESOURCE_VALUE_TYPE", "/resources/cpu")]


def test_a_string_lifetime_is_not_an_integer() -> None:
    r = sandgate.check({"resources": RES, "max_lifetime_seconds": "600"})
    assert [p for _, p in codes(r)] == ["/max_lifetime_seconds"]


def test_a_boolean_lifetime_is_not_an_integer() -> None:
    r = sandgate.check({"resources": RES, "max_lifetime_seconds": True})
    assert [p for _, p in codes(r)] == ["/max_lifetime_seconds"]


def test_integers_beyond_int64_keep_their_exact_digits() -> None:
    big = 2**80
    r = sandgate.check({"resources": RES, "max_lifetime_seconds": big})
    [d] = r.errors
    assert d.path == "/max_lifetime_seconds"
    assert str(big) in d.message


def test_negative_integers_beyond_int64() -> None:
    r = sandgate.check({"resources": RES, "max_lifetime_seconds": -(2**70)})
    assert [p for _, p in codes(r)] == ["/max_lifetime_seconds"]


def test_int_enum_is_its_integer() -> None:
    class Seconds(enum.IntEnum):
        HOUR = 3600

    r = sandgate.check({"resources": RES, "max_lifetime_seconds": Seconds.HOUR})
    assert r.ok and r.resolved["max_lifetime_seconds"] == 3600


def test_integers_of_other_libraries_through_index() -> None:
    class NumpyLikeInt:
        def __index__(self) -> int:
            return 1200

    r = sandgate.check({"resources": RES, "max_lifetime_seconds": NumpyLikeInt()})
    assert r.ok and r.resolved["max_lifetime_seconds"] == 1200


def test_str_enum_is_its_string() -> None:
    class Mode(str, enum.Enum):
        CKS = "cks"

    r = sandgate.check({"resources": RES, "placement_mode": Mode.CKS})
    assert r.placement_mode == "cks"


def test_utf8_bytes_are_text() -> None:
    r = sandgate.check({"resources": RES, "annotations": {"team": b"ml"}})
    assert r.ok and r.resolved["annotations"] == {"team": "ml"}


def test_bytearray_is_bytes_inside_a_value_and_as_a_whole_input() -> None:
    # docs/python.md, Input kinds: "bytes, bytearray: always YAML or JSON text"; inside a value, UTF-8 text.
    inner = sandgate.check({"resources": RES, "annotations": {"team": bytearray(b"ml")}})
    assert inner.ok and inner.resolved["annotations"] == {"team": "ml"}
    text = b"resources: {cpu: '1', memory: 1Gi}\nmax_lifetime_seconds: x\n"
    whole = sandgate.check(bytearray(text))
    assert codes(whole) == codes(sandgate.check(text)) == [("SG_TYPE_MISMATCH", "/max_lifetime_seconds")]
    assert whole.errors[0].source is not None and whole.errors[0].source.line == 2
    assert sandgate.Policy(bytearray(b"constraints: {resources: {max_cpu: '4'}}\n")).ok


def test_bytes_that_are_not_utf8_are_a_diagnostic() -> None:
    r = sandgate.check({"resources": RES, "mounted_files": [{"path": "/x", "content": b"\xff\xfe"}]})
    assert codes(r) == [("SG_INVALID_UTF8", "/mounted_files/0/content")]


def test_lone_surrogates_are_a_diagnostic() -> None:
    r = sandgate.check({"resources": RES, "annotations": {"team": "\ud800"}})
    assert codes(r) == [("SG_INVALID_UTF8", "/annotations/team")]


def test_a_key_with_a_lone_surrogate_is_invalid_utf8_too() -> None:
    # A key is a string like any other (docs/python.md: "strings with lone surrogates (SG_INVALID_UTF8)").
    r = sandgate.check({"resources": RES, "annotations": {"te\udc00am": "ml"}})
    assert [d.code for d in r.errors] == ["SG_INVALID_UTF8"]
    assert r.errors[0].path.startswith("/annotations")


def test_resolved_values_come_back_with_python_types() -> None:
    r = sandgate.check({"resources": RES, "tags": ["a"], "max_lifetime_seconds": 1200})
    resolved: dict[str, Any] = r.resolved
    assert type(resolved["max_lifetime_seconds"]) is int
    assert type(resolved["tags"]) is list
    assert type(resolved["resources"]["requests"]["cpu"]) is str


def test_an_int_past_int64_comes_back_in_resolved_with_its_exact_value() -> None:
    # request_timeout_seconds is a float field: 10**30 is a timeout the engine accepts as it is.
    for value in (10**30, 2**64 + 1):
        r = sandgate.check({"resources": RES, "request_timeout_seconds": value})
        assert r.ok, r.diagnostics
        assert r.resolved["request_timeout_seconds"] == value
        assert type(r.resolved["request_timeout_seconds"]) is int
