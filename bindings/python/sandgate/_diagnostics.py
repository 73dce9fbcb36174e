"""Diagnostics: what sandgate says about an input, with every field of SPEC §3."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple, cast

from . import _sandgate
from ._types import Severity


class SourceLocation(NamedTuple):
    """Where in a text input a diagnostic points (1-based)."""

    file: str
    line: int
    column: int


@dataclass(frozen=True, slots=True)
class Diagnostic:
    """One problem (or note) about one input.

    ``str(d)`` reads like a compiler message: ``sandbox.yaml:3:5: error[SG_…] message — hint``.
    """

    rule: str  #: the SPEC rule id, e.g. ``R-GPU-3``
    code: str  #: the stable code, e.g. ``SG_GPU_TYPE_AND_MEMORY``
    severity: Severity
    reason: str | None  #: the server's ``CWSANDBOX_*`` reason, when it has one
    grpc_code: str | None  #: what the server would answer; None for client-side problems
    python_exception: str | None  #: the class the Python SDK would raise
    js_exception: str | None  #: the class the TypeScript SDK would raise
    input: str | None  #: which input: sandbox, defaults, overrides, policy, runners, org
    path: str  #: JSON Pointer into that input
    source: SourceLocation | None  #: set when the input was text
    message: str
    hint: str | None

    @classmethod
    def _from_raw(cls, t: _sandgate.DiagnosticTuple) -> Diagnostic:
        src = t[9]
        return cls(
            t[0], t[1], cast(Severity, t[2]), t[3], t[4], t[5], t[6], t[7], t[8],
            SourceLocation(*src) if src is not None else None, t[10], t[11],
        )

    @property
    def is_error(self) -> bool:
        return self.severity == "error"

    def location(self) -> str:
        """``file:line:column`` for text inputs, else ``input:/json/pointer``."""
        if self.source is not None and self.source.line > 0:
            file = self.source.file or f"<{self.input or 'input'}>"
            return f"{file}:{self.source.line}:{self.source.column}"
        return f"{self.input or 'input'}:{self.path or '/'}"

    def __str__(self) -> str:
        text = f"{self.location()}: {self.severity}[{self.code}] {self.message}"
        return f"{text} — {self.hint}" if self.hint else text

    def to_dict(self) -> dict[str, Any]:
        """The diagnostic as the JSON renderer writes it."""
        return {
            "rule": self.rule,
            "code": self.code,
            "severity": self.severity,
            "reason": self.reason,
            "grpc_code": self.grpc_code,
            "python_exception": self.python_exception,
            "js_exception": self.js_exception,
            "input": self.input,
            "path": self.path,
            "source": self.source._asdict() if self.source is not None else None,
            "message": self.message,
            "hint": self.hint,
        }


def diagnostics_of(raw: list[_sandgate.DiagnosticTuple]) -> tuple[Diagnostic, ...]:
    return tuple(Diagnostic._from_raw(t) for t in raw)


class DiagnosticLists:
    """`errors`, `warnings` and `infos`, derived from a class's `diagnostics`."""

    @property
    def diagnostics(self) -> tuple[Diagnostic, ...]:
        raise NotImplementedError

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.severity == "error"]

    @property
    def warnings(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.severity == "warning"]

    @property
    def infos(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.severity == "info"]
