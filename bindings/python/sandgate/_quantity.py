"""Exact resource quantities ("500m", "1.5Gi"), parsed by the engine (SPEC §2)."""

from __future__ import annotations

import functools

from . import _sandgate
from ._types import Grammar


@functools.total_ordering
class Quantity:
    """A parsed quantity: exact (no floating point), totally ordered by value, hashable.

    ``Quantity("1000m") == Quantity("1")``; the text as written is kept in ``.text``.
    """

    __slots__ = ("_raw", "text")

    def __init__(self, text: str, grammar: Grammar | None = "sdk") -> None:
        if not isinstance(text, str):
            raise TypeError(f"a quantity must be a str, not {type(text).__name__}")
        if grammar is None:  # not given
            grammar = "sdk"
        elif not isinstance(grammar, str):
            raise TypeError(f'grammar must be "sdk", "kubernetes" or None ("sdk"), not {type(grammar).__name__}')
        self._raw = _sandgate.parse_quantity(text, grammar)  # ValueError with the engine's message
        self.text = text

    @property
    def decimal(self) -> str:
        """The exact value as a plain decimal: ``"1.5Gi"`` → ``"1610612736"``."""
        return self._raw.decimal

    @property
    def canonical(self) -> str:
        """Kubernetes' canonical form: ``"1.5Gi"`` → ``"1536Mi"``."""
        return self._raw.canonical

    @property
    def milli(self) -> int:
        """The value in milli-units (rounded up); OverflowError past 2**63-1."""
        m = self._raw.milli
        if m is None:
            raise OverflowError(f"{self.text!r} is more than 2**63-1 milli-units")
        return m

    @property
    def trimmed(self) -> bool:
        """The text had surrounding white space (the SDK trims it; the server gets it raw)."""
        return self._raw.trimmed

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Quantity):
            return NotImplemented
        return self._raw.compare(other._raw) == 0

    def __lt__(self, other: Quantity) -> bool:
        if not isinstance(other, Quantity):
            return NotImplemented
        return self._raw.compare(other._raw) < 0

    def __hash__(self) -> int:
        return hash(("sandgate.Quantity", self.decimal))  # equal values have equal decimals

    def __repr__(self) -> str:
        return f"Quantity({self.text!r})"

    def __str__(self) -> str:
        return self.text


def parse_quantity(text: str, grammar: Grammar | None = "sdk") -> Quantity:
    """Parses `text` with the SDK's grammar (or ``"kubernetes"``, the policy grammar)."""
    return Quantity(text, grammar)
