"""The two lists of known disagreements, read from their Markdown files.

- ``docs/sdk-differences.md``: deliberate differences (the server refuses what the SDK lets
  through, and sandgate follows the server). Expected for good.
- ``tests/differential/ENGINE_FIXES.md``: disagreements whose fix belongs in the engine, which is
  being rewritten. Pending: tolerated until the entry is removed, after which the suite enforces
  the SDK's verdict again.

Each file holds one fenced block tagged ``yaml differential`` with a list of entries:

    - id: data-plane-mode-enum            # unique across both files
      sdk: ValueError                     # the SDK's verdict: "accepted" or an exception class name
      sdk_message: "is not a valid DataPlaneMode"   # optional regex, searched in str(exception)
      sandgate: accepted                  # sandgate's verdict: "accepted", a class name, or "any"
      codes: [SG_X, SG_Y]                 # optional: sandgate's error codes (see matching below)
      sandgate_message: "regex"           # optional: searched in "<message> @<JSON pointer>" of those errors
      among_errors: true                  # optional: see below

``sdk`` and ``sandgate`` may also be lists of verdicts; ``codes: ["*"]`` is any code (with a
``sandgate_message`` to say which errors).

Matching a disagreement (SDK verdict ≠ sandgate verdict) against the entries:
- SDK accepted, sandgate rejected: explained when every error sandgate reports is covered by an
  entry with ``sdk: accepted``: its code is in the entry's ``codes`` and its message matches the
  entry's ``sandgate_message`` (if any). An entry so covers a server rule wherever it fires,
  alone or with other listed server rules.
- SDK raised: explained by an entry with the same ``sdk`` class whose ``sdk_message`` (if any)
  matches, whose ``sandgate`` verdict is sandgate's (or ``any``), and whose ``codes`` (if any)
  contain the code of sandgate's first error. An entry with ``among_errors: true`` explains it
  when sandgate also reports an error of the SDK's class, just not first (the request has
  several problems; the SDK stops at the one it checks first, sandgate raises for the first by
  position and reports them all). When sandgate's first errors are ones an ``sdk: accepted``
  entry covers (a server rule the SDK lets through), the rest is matched as if it stood alone,
  and the disagreement is explained by the entries of both parts.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

REPO = Path(__file__).resolve().parents[2]
DIFFERENCES = REPO / "docs" / "sdk-differences.md"
ENGINE_FIXES = Path(__file__).resolve().parent / "ENGINE_FIXES.md"

_BLOCK = re.compile(r"^```yaml differential\n(.*?)^```", re.S | re.M)


@dataclass(frozen=True)
class Entry:
    id: str
    sdk: frozenset[str]
    sandgate: frozenset[str]
    sdk_message: re.Pattern[str] | None
    sandgate_message: re.Pattern[str] | None
    codes: frozenset[str]
    among_errors: bool
    source: str  # "difference" or "engine-fix"
    raw: dict[str, Any] = field(compare=False, hash=False, repr=False)


def read_entries(path: Path, source: str) -> list[Entry]:
    text = path.read_text(encoding="utf-8")
    blocks = _BLOCK.findall(text)
    if len(blocks) != 1:
        raise AssertionError(f"{path}: expected exactly one ```yaml differential block, found {len(blocks)}")
    items = yaml.safe_load(blocks[0]) or []
    out: list[Entry] = []
    for item in items:
        unknown = set(item) - {"id", "sdk", "sandgate", "sdk_message", "sandgate_message", "codes", "among_errors"}
        if unknown:
            raise AssertionError(f"{path}: entry {item.get('id')!r} has unknown fields {sorted(unknown)}")
        msg = item.get("sdk_message")
        sg_msg = item.get("sandgate_message")

        def verdicts(v: Any) -> frozenset[str]:
            return frozenset(str(x) for x in v) if isinstance(v, list) else frozenset([str(v)])

        out.append(
            Entry(
                id=str(item["id"]),
                sdk=verdicts(item["sdk"]),
                sandgate=verdicts(item.get("sandgate", "any")),
                sdk_message=re.compile(msg) if msg else None,
                sandgate_message=re.compile(sg_msg) if sg_msg else None,
                codes=frozenset(item.get("codes") or ()),
                among_errors=bool(item.get("among_errors")),
                source=source,
                raw=item,
            )
        )
    return out


def load_all() -> list[Entry]:
    # Pending engine fixes first: when both lists explain a case, the more specific entry (a fix
    # to make) is the one to report.
    entries = read_entries(ENGINE_FIXES, "engine-fix") + read_entries(DIFFERENCES, "difference")
    seen: set[str] = set()
    for e in entries:
        if e.id in seen:
            raise AssertionError(f"duplicate entry id {e.id!r}")
        seen.add(e.id)
        if "accepted" in e.sdk and not e.codes and not e.among_errors:
            raise AssertionError(f"entry {e.id!r}: an entry for an SDK-accepted request must list sandgate's codes")
    return entries


def _covering(entries: list[Entry], code: str, message: str) -> Entry | None:
    """The `sdk: accepted` entry that covers one of sandgate's errors: a rule the SDK lets through."""
    return next(
        (e for e in entries
         if "accepted" in e.sdk and e.codes
         and (code in e.codes or "*" in e.codes)
         and (e.sandgate_message is None or e.sandgate_message.search(message))),
        None,
    )


def explain(
    entries: list[Entry], sdk_verdict: str, sdk_message: str, sg_verdict: str, sg_errors: list[tuple[str, str, str]]
) -> list[Entry]:
    """The entries that explain this disagreement (empty: unexplained).

    sg_errors: sandgate's errors as (code, "message @path", python exception class), in order.
    """
    if sdk_verdict == "accepted":
        used: list[Entry] = []
        for code, message, _ in sg_errors:
            hit = _covering(entries, code, message)
            if hit is None:
                return []
            if hit not in used:
                used.append(hit)
        return used
    first_code, first_message, _ = sg_errors[0] if sg_errors else (None, "", None)
    for e in entries:
        if e.among_errors:
            if any(cls == sdk_verdict for _, _, cls in sg_errors[1:]):
                return [e]
            continue
        if sdk_verdict not in e.sdk and "any" not in e.sdk:
            continue
        if e.sdk_message is not None and not e.sdk_message.search(sdk_message):
            continue
        if "any" not in e.sandgate and sg_verdict not in e.sandgate:
            continue
        if e.codes and first_code not in e.codes and "*" not in e.codes:
            continue
        if e.sandgate_message is not None and not e.sandgate_message.search(first_message):
            continue
        return [e]
    # sandgate leads with an error the SDK lets through (a listed server rule), and the SDK raised
    # for a problem sandgate reports after it: each part explained by its own entry.
    lead = _covering(entries, first_code, first_message) if len(sg_errors) > 1 else None
    if lead is not None:
        rest = explain(entries, sdk_verdict, sdk_message, sg_errors[1][2], sg_errors[1:])
        if rest:
            return [lead] + [e for e in rest if e is not lead]
    return []
