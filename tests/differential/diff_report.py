"""Counting outcomes and printing the summary tables at the end of the run."""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from dataclasses import dataclass, field

OUTCOMES = ("agree", "expected", "pending", "disagree")
LABELS = {"agree": "agree", "expected": "expected difference", "pending": "pending engine fix", "disagree": "disagreement"}


@dataclass
class Report:
    title: str
    unit: str
    dims: tuple[str, str] = ("keyword family", "layer")
    by_family: dict[str, Counter[str]] = field(default_factory=lambda: defaultdict(Counter))
    by_mode: dict[str, Counter[str]] = field(default_factory=lambda: defaultdict(Counter))
    entries: Counter[str] = field(default_factory=Counter)
    disagreements: dict[tuple[str, ...], tuple[int, str]] = field(default_factory=dict)
    known: int = 0  # cases that drew a value of a listed difference (diff_strategies.known)

    def add(self, family: str, mode: str, outcome: str, entry_ids: list[str] = [], key: tuple[str, ...] = (), example: str = "") -> None:
        self.by_family[family][outcome] += 1
        self.by_mode[mode][outcome] += 1
        for e in entry_ids:
            self.entries[e] += 1
        if outcome == "disagree":
            n, ex = self.disagreements.get(key, (0, example))
            self.disagreements[key] = (n + 1, ex)

    def totals(self) -> Counter[str]:
        t: Counter[str] = Counter()
        for c in self.by_family.values():
            t.update(c)
        return t

    @property
    def total(self) -> int:
        return sum(self.totals().values())

    def agreement(self) -> float:
        t = self.totals()
        return t["agree"] / self.total if self.total else 1.0

    def explained(self) -> float:
        """Agreement counting the deliberate differences as intended behaviour."""
        t = self.totals()
        return (t["agree"] + t["expected"]) / self.total if self.total else 1.0

    def explained_without_pending(self) -> float:
        """The same, over the cases not pending an engine fix: what the gate checks."""
        t = self.totals()
        n = self.total - t["pending"]
        return (t["agree"] + t["expected"]) / n if n else 1.0

    def snapshot(self) -> dict[str, object]:
        return {
            "title": self.title,
            "total": self.total,
            "by_family": {k: dict(v) for k, v in self.by_family.items()},
            "by_layer": {k: dict(v) for k, v in self.by_mode.items()},
            "entries": dict(self.entries),
            "known": self.known,
            "disagreements": [{"key": list(k), "count": n, "example": ex} for k, (n, ex) in self.disagreements.items()],
        }

    def render(self) -> list[str]:
        out = [f"==== {self.title}: {self.total} {self.unit} ===="]
        for name, table in ((self.dims[0], self.by_family), (self.dims[1], self.by_mode)):
            out.append(f"-- by {name}")
            out.append(f"{name:<18}" + "".join(f"{LABELS[o]:>22}" for o in OUTCOMES) + f"{'total':>9}")
            for fam in sorted(table):
                c = table[fam]
                out.append(f"{fam:<18}" + "".join(f"{c[o]:>22}" for o in OUTCOMES) + f"{sum(c.values()):>9}")
        t = self.totals()
        out.append(f"{'all':<18}" + "".join(f"{t[o]:>22}" for o in OUTCOMES) + f"{self.total:>9}")
        out.append(
            f"agreement (same verdict and class): {100 * self.agreement():.2f} %;"
            f" with the deliberate differences: {100 * self.explained():.2f} %;"
            f" of the {self.total - t['pending']} {self.unit} not pending an engine fix:"
            f" {100 * self.explained_without_pending():.2f} %"
        )
        if self.known:
            out.append(f"-- {self.known} {self.unit} drew a value of a listed difference (diff_strategies.known)")
        if self.entries:
            out.append("-- listed differences hit: " + ", ".join(f"{k} ({v})" for k, v in sorted(self.entries.items())))
        for key, (n, ex) in sorted(self.disagreements.items(), key=lambda kv: -kv[1][0]):
            out.append(f"DISAGREEMENT x{n}: {' | '.join(key)}")
            out.append(f"    e.g. {ex[:400]}")
        return out


REPORTS: list[Report] = []


def new_report(title: str, unit: str, dims: tuple[str, str] = ("keyword family", "layer")) -> Report:
    r = Report(title, unit, dims)
    REPORTS.append(r)
    return r


_NOISE = re.compile(r"'[^']*'|\"[^\"]*\"|\d+|\{[^}]*\}|\([^)]*\)")


def message_shape(message: str) -> str:
    """A message with its values blanked, to group disagreements."""
    return _NOISE.sub("…", message)[:90]
