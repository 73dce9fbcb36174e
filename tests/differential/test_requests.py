"""Generated ``Sandbox.run`` requests: cwsandbox 1.22's client-side verdict against sandgate's.

Two runs over the same generator (README.md, "Two runs"):
- the *whole surface*: every case, the values of the listed deliberate differences included; each
  disagreement must be explained by a list;
- the *reference run*: the cases that draw no value marked as a known difference, where the SDK's
  verdict is the reference (SPEC §1.1); same verdict and class for ≥ 99.5 % of them, and the rest
  explained by a list.

For every generated case the SDK's path (diff_oracle.run_sdk) and ``sandgate.check(...,
client="python")`` with no policy (an org entitled to GPUs, so that GPU rules are compared rather
than refused wholesale) each give a verdict: ``accepted``, or the exception class — for sandgate,
the class ``raise_for_errors()`` raises. Equal verdicts agree. A different verdict must be listed,
in ``docs/sdk-differences.md`` (a deliberate difference) or in ``ENGINE_FIXES.md`` (pending a fix
in the engine); anything else fails the test, and Hypothesis shrinks it to a minimal request.

``SANDGATE_DIFFERENTIAL_COLLECT=1`` records unlisted disagreements instead of failing at the first
(they are printed in the summary, grouped), to survey a change.
"""

from __future__ import annotations

import json
import os

import pytest
from hypothesis import given, settings
from hypothesis.strategies import SearchStrategy

from diff_expectations import load_all, explain
from diff_oracle import Case, run_sandgate, run_sdk
from diff_report import Report, message_shape, new_report
from diff_strategies import cases, reference_cases

ENTRIES = load_all()
REPORT = new_report("differential: Sandbox.run requests vs cwsandbox 1.22 (whole surface)", "requests")
REFERENCE = new_report(
    "differential: Sandbox.run requests vs cwsandbox 1.22 (reference run: no value of a listed difference)", "requests"
)
COLLECT = os.environ.get("SANDGATE_DIFFERENTIAL_COLLECT") == "1"
MIN_REQUESTS = 10_000
# Every unlisted disagreement fails at once (unless collecting). The whole surface: same verdict,
# or a listed deliberate difference, for ≥ 99.5 % of the requests not pending an engine fix. The
# reference run: the same verdict and class for ≥ 99.5 % (the acceptance).
MIN_AGREEMENT = 0.995


def compare(case: Case, report: Report = REPORT) -> str:
    sdk = run_sdk(case)
    sg = run_sandgate(case)
    report.known += case.known
    if sdk.verdict == sg.verdict:
        report.add(case.family, case.mode, "agree")
        return "agree"
    hits = explain(ENTRIES, sdk.verdict, sdk.message, sg.verdict, list(sg.errors))
    if hits:
        outcome = "expected" if all(h.source == "difference" for h in hits) else "pending"
        report.add(case.family, case.mode, outcome, [h.id for h in hits])
        return outcome
    first_code = sg.errors[0][0] if sg.errors else "-"
    first_message = sg.errors[0][1] if sg.errors else ""
    key = (case.family, f"sdk {sdk.verdict}: {message_shape(sdk.message)}",
           f"sandgate {sg.verdict} {first_code}: {message_shape(first_message)}")
    detail = f"{case!r}\n  sdk: {sdk.verdict}: {sdk.message}\n  sandgate: {sg.verdict}: {sg.message}"
    report.add(case.family, case.mode, "disagree", key=key, example=detail)
    if not COLLECT:
        raise AssertionError("unlisted disagreement with cwsandbox 1.22:\n" + detail)
    return "disagree"


SNAPSHOT = os.environ.get("SANDGATE_DIFFERENTIAL_SNAPSHOT")


def write_snapshot() -> None:
    if SNAPSHOT:
        with open(SNAPSHOT, "w", encoding="utf-8") as f:
            json.dump({"whole_surface": REPORT.snapshot(), "reference": REFERENCE.snapshot()}, f, indent=1, default=str)


def run_generated(strategy: SearchStrategy[Case], report: Report) -> None:
    """Compares every case the strategy draws (the profile's max_examples of them) into `report`."""

    @given(strategy)
    def one(case: Case) -> None:
        compare(case, report)
        if SNAPSHOT and report.total % 2000 == 0:
            write_snapshot()

    try:
        one()
    finally:
        write_snapshot()
    assert report.total >= min(MIN_REQUESTS, settings.default.max_examples), report.total


def test_generated_requests_agree_with_the_sdk() -> None:
    run_generated(cases(), REPORT)
    if not COLLECT:
        assert REPORT.explained_without_pending() >= MIN_AGREEMENT, "\n".join(REPORT.render())


def test_requests_where_the_sdk_is_the_reference_agree_with_it() -> None:
    """Leaving out the values of the listed differences, sandgate raises what the SDK raises."""
    run_generated(reference_cases(), REFERENCE)
    assert REFERENCE.known == 0
    if not COLLECT:
        assert REFERENCE.agreement() >= MIN_AGREEMENT, "\n".join(REFERENCE.render())


@pytest.mark.parametrize(
    "kwargs",
    [
        {},
        {"resources": {"cpu": "1", "memory": "1Gi"}},
        {"network": {"egress": [{"dns_name": "pypi.org"}]}},
    ],
)
def test_the_comparison_sees_both_sides(kwargs: dict[str, object]) -> None:
    """A sanity check of the harness itself: valid requests are accepted by both sides."""
    case = Case("run", "valid", kwargs)
    assert run_sdk(case).verdict == "accepted"
    assert run_sandgate(case).verdict == "accepted"


def test_the_comparison_sees_an_sdk_refusal() -> None:
    case = Case("run", "tags", {"tags": "not-a-list"})
    assert run_sdk(case).verdict == "TypeError"
    assert run_sandgate(case).verdict == "TypeError"


@pytest.mark.parametrize(
    "kwargs",
    [{"placement_spillover": "serverless_then_cks"}, {"placement_mode": "serverless"}],
)
def test_runner_ids_spelled_in_camel_case_in_the_defaults_are_a_listed_difference(kwargs: dict[str, object]) -> None:
    """Found by a long run: SandboxDefaults.from_dict drops `runnerIds`, sandgate reads it, and so
    sees a placement conflict the SDK cannot see (docs/sdk-differences.md, spellings-in-defaults)."""
    case = Case("defaults", "unknown", kwargs, defaults={"runnerIds": ["r1"]})
    sdk, sg = run_sdk(case), run_sandgate(case)
    assert sdk.verdict == "accepted"
    assert sg.verdict == "ValueError"
    hits = explain(ENTRIES, sdk.verdict, sdk.message, sg.verdict, list(sg.errors))
    assert [h.source for h in hits] == ["difference"], hits
