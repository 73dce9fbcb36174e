"""Option arguments: None means "not given", and a wrong type or value is a clean error naming the
parameter and what it accepts, never pybind11's "incompatible function arguments"."""

from __future__ import annotations

from typing import Any, Callable

import pytest

import sandgate

REQ = {"resources": {"cpu": "1", "memory": "1Gi"}}
POLICY = {"constraints": {"resources": {"max_cpu": "4"}}}


def no_leak(call: Callable[[], Any], error: type[Exception], *words: str) -> None:
    with pytest.raises(error) as e:
        call()
    message = str(e.value)
    assert "incompatible function arguments" not in message and "Invoked with" not in message
    for w in words:
        assert w in message, message


def test_none_is_the_default_for_client_placement_and_grammar() -> None:
    assert sandgate.check(REQ, client=None).to_json() == sandgate.check(REQ).to_json()  # type: ignore[arg-type]
    assert sandgate.check(REQ, defaults={}, client=None, placement=None).ok  # type: ignore[arg-type]
    assert [r.ok for r in sandgate.check_many([REQ], client=None)] == [True]  # type: ignore[arg-type]
    assert sandgate.normalize_resources({"cpu": "1"}, client=None).ok  # type: ignore[arg-type]
    assert sandgate.parse_quantity("1", grammar=None) == sandgate.parse_quantity("1")  # type: ignore[arg-type]
    assert sandgate.diff_policies(POLICY, POLICY, records=[REQ], client=None).ok  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "call, error, words",
    [
        (lambda: sandgate.check({}, placement=5), TypeError, ["placement", '"cks"', "int"]),
        (lambda: sandgate.check({}, client=3), TypeError, ["client", '"typescript"', "int"]),
        (lambda: sandgate.check({}, client=b"python"), TypeError, ["client", "bytes"]),
        (lambda: sandgate.check({}, client="rust"), ValueError, ["client", '"rust"']),
        (lambda: sandgate.check({}, defaults={}, placement="edge"), ValueError, ["placement", '"edge"']),
        (lambda: sandgate.check({}, placement="CKS"), ValueError, ["check(): placement", '"CKS"', 'did you mean "cks"?']),
        (lambda: sandgate.check_many([], client=" Python"), ValueError, ["check_many(): client", 'did you mean "python"?']),
        (lambda: sandgate.check_many([], placement=1.5), TypeError, ["placement", "float"]),
        (lambda: sandgate.normalize_resources({}, client=1), TypeError, ["client", "int"]),
        (lambda: sandgate.parse_quantity("1", grammar=1), TypeError, ["grammar", '"kubernetes"', "int"]),
        (lambda: sandgate.parse_quantity("1", grammar="k8s"), ValueError, ["grammar", '"k8s"']),
        (lambda: sandgate.diff_policies(POLICY, POLICY, examples=-1), ValueError, ["examples", "0 or more", "-1"]),
        (lambda: sandgate.diff_policies(POLICY, POLICY, examples="5"), TypeError, ["examples", "str"]),
        (lambda: sandgate.diff_policies(POLICY, POLICY, examples=None), TypeError, ["examples", "NoneType"]),
        (lambda: sandgate.diff_policies(POLICY, POLICY, client=2), TypeError, ["client", "int"]),
    ],
)
def test_a_wrong_option_is_a_clean_error(call: Callable[[], Any], error: type[Exception], words: list[str]) -> None:
    no_leak(call, error, *words)


def test_threads_are_capped_as_the_cli_caps_jobs() -> None:
    # The CLI's --jobs takes 1-1024; 100,000 threads failed with a bare "Resource temporarily unavailable".
    for threads in (100_000, 1025, 0, -1):
        no_leak(lambda: sandgate.check_many([REQ], threads=threads), ValueError, "threads", "1 to 1024", str(threads))
        no_leak(lambda: sandgate.diff_policies(POLICY, POLICY, records=[REQ], threads=threads), ValueError,
                "threads", "1 to 1024")
    assert [r.ok for r in sandgate.check_many([REQ] * 3, threads=1024)] == [True] * 3
    no_leak(lambda: sandgate.check_many([REQ], threads="2"), TypeError, "threads", "str")


def test_presubmit_install_refuses_a_wrong_client_at_once() -> None:
    pytest.importorskip("cwsandbox")
    from sandgate import presubmit

    no_leak(lambda: presubmit.install(POLICY, client=7), TypeError, "client", "int")
    no_leak(lambda: presubmit.install(POLICY, placement="edge"), ValueError, "placement", '"edge"')
