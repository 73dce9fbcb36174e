"""The matching of disagreements against the two lists (diff_expectations.explain)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from diff_expectations import DIFFERENCES, ENGINE_FIXES, Entry, explain, load_all, read_entries


def entry(id: str, sdk: str | list[str], sandgate: str | list[str] = "any", codes: list[str] = [],
          sdk_message: str | None = None, sandgate_message: str | None = None, among_errors: bool = False,
          source: str = "difference") -> Entry:
    def fs(v: str | list[str]) -> frozenset[str]:
        return frozenset(v if isinstance(v, list) else [v])

    return Entry(id, fs(sdk), fs(sandgate), re.compile(sdk_message) if sdk_message else None,
                 re.compile(sandgate_message) if sandgate_message else None, frozenset(codes), among_errors, source, {})


SERVER = entry("server", "accepted", codes=["SG_LIFETIME_RANGE", "SG_ANNOTATION_KEY_INVALID"])
NARROW = entry("narrow", "accepted", codes=["SG_QUANTITY_INVALID"], sandgate_message="too large")
CLIENT = entry("client", "ValueError", "accepted", sdk_message="not a valid DataPlaneMode", source="engine-fix")
ORDER = entry("order", "any", among_errors=True)


def test_an_accepted_request_is_explained_only_when_every_error_is_listed() -> None:
    lifetime = ("SG_LIFETIME_RANGE", "max_lifetime_seconds is -1 @/max_lifetime_seconds", "SandboxValidationError")
    other = ("SG_TAG_INVALID", "tag … @/tags/0", "SandboxValidationError")
    assert explain([SERVER], "accepted", "", "SandboxValidationError", [lifetime]) == [SERVER]
    assert explain([SERVER], "accepted", "", "SandboxValidationError", [lifetime, other]) == []


def test_a_message_pattern_narrows_an_entry() -> None:
    big = ("SG_QUANTITY_INVALID", "quantity is too large @/resources/cpu", "ValueError")
    bad = ("SG_QUANTITY_INVALID", "unrecognized quantity format @/resources/cpu", "ValueError")
    assert explain([NARROW], "accepted", "", "ValueError", [big]) == [NARROW]
    assert explain([NARROW], "accepted", "", "ValueError", [bad]) == []


def test_an_sdk_refusal_needs_the_class_the_message_and_sandgates_verdict() -> None:
    msg = "'fast' is not a valid DataPlaneMode"
    assert explain([CLIENT], "ValueError", msg, "accepted", []) == [CLIENT]
    assert explain([CLIENT], "TypeError", msg, "accepted", []) == []
    assert explain([CLIENT], "ValueError", "something else", "accepted", []) == []
    assert explain([CLIENT], "ValueError", msg, "TypeError", [("SG_TYPE_MISMATCH", "x", "TypeError")]) == []


def test_error_order_needs_the_sdks_class_among_sandgates_other_errors() -> None:
    errors = [("SG_TYPE_MISMATCH", "x", "TypeError"), ("SG_SERVICE_INVALID", "y", "ValueError")]
    assert explain([ORDER], "ValueError", "m", "TypeError", errors) == [ORDER]
    assert explain([ORDER], "KeyError", "m", "TypeError", errors) == []


def test_a_refusal_after_a_listed_server_rule_is_explained_by_both_entries() -> None:
    """The SDK raises for the second problem; sandgate leads with a server rule the SDK lets
    through, then reports the SDK's problem, explained by its own entry."""
    odd = entry("odd", ["TypeError"], ["ValueError"], sdk_message="cannot be interpreted", codes=["SG_NOT_AN_INTEGER"])
    lifetime = ("SG_LIFETIME_RANGE", "max_lifetime_seconds is -1 @/max_lifetime_seconds", "SandboxValidationError")
    port = ("SG_NOT_AN_INTEGER", "port must be a whole number @/services/0/port", "ValueError")
    tag = ("SG_TAG_INVALID", "tag … @/tags/0", "ValueError")
    msg = "'float' object cannot be interpreted as an integer"
    assert explain([SERVER, odd], "TypeError", msg, "SandboxValidationError", [lifetime, port]) == [SERVER, odd]
    assert explain([SERVER, odd], "TypeError", msg, "SandboxValidationError", [lifetime, tag]) == []  # the rest unexplained
    assert explain([SERVER, odd], "TypeError", msg, "ValueError", [tag, port]) == []  # the lead is not a listed rule


def test_the_lists_in_the_repository_load() -> None:
    entries = load_all()
    # the deliberate differences are always there; pending engine fixes only while some are open
    assert "difference" in {e.source for e in entries}
    assert {e.source for e in entries} <= {"difference", "engine-fix"}
    # every engine fix is described in the prose above the list, with its proposed case
    text = ENGINE_FIXES.read_text(encoding="utf-8")
    prose = text[: text.index("```yaml differential")]
    for e in read_entries(ENGINE_FIXES, "engine-fix"):
        assert e.id in prose, e.id


def test_a_list_needs_exactly_one_block(tmp_path: Path) -> None:
    p = tmp_path / "x.md"
    p.write_text("no block here\n", encoding="utf-8")
    with pytest.raises(AssertionError):
        read_entries(p, "difference")
    assert DIFFERENCES.exists()
