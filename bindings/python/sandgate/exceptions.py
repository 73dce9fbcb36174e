"""sandgate's exceptions: the SDK's class names, built from the C++ exception table.

The hierarchy mirrors ``cwsandbox.exceptions`` (``SandboxValidationError`` is both a
``SandboxError`` and a ``CWSandboxValidationError``, …) and is generated at import time from
``python_exception_classes()`` in the core, so the C++ table stays the one source. Client-side
rules raise :class:`SandgateValueError` / :class:`SandgateTypeError`, which are also the builtin
``ValueError`` / ``TypeError``, as the SDK raises plain builtins for them.

When ``cwsandbox`` is importable, the class actually raised is also a subclass of the SDK's class
of the same name (imported lazily, at raise time — never at ``import sandgate``), so an
``except cwsandbox.exceptions.SandboxValidationError`` written for the SDK catches it too.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from types import ModuleType
from typing import TYPE_CHECKING, Any, NamedTuple

from . import _sandgate

if TYPE_CHECKING:
    from ._diagnostics import Diagnostic


class FieldViolation(NamedTuple):
    """Like ``cwsandbox.exceptions.FieldViolation``: which field, and what is wrong with it."""

    field: str
    description: str


class SandgateError(Exception):
    """The root of sandgate's exceptions (the table's ``Exception`` row)."""

    #: the class the field violations are made of (the SDK's own when combined with it)
    _field_violation_type: Any = FieldViolation

    reason: str | None
    grpc_code: str | None
    code: str | None
    diagnostics: tuple[Diagnostic, ...]
    field_violations: tuple[Any, ...]
    metadata: dict[str, str]
    retry_delay: Any

    def __init__(
        self,
        message: str,
        *,
        diagnostics: Sequence[Diagnostic] = (),
        reason: str | None = None,
        grpc_code: str | None = None,
        code: str | None = None,
    ) -> None:
        # Cooperative: in a class combined with the SDK's, this runs the SDK's __init__ (which
        # sets metadata, retry_delay, field_violations…); the values below then take precedence.
        super().__init__(message)
        self.message = message
        self.reason = reason
        self.grpc_code = grpc_code
        self.code = code
        self.diagnostics = tuple(diagnostics)
        self.field_violations = tuple(
            self._field_violation_type(field=d.path, description=d.message)
            for d in self.diagnostics
            if d.severity == "error"
        )
        if not isinstance(getattr(self, "metadata", None), dict):
            self.metadata = {}
        if not hasattr(self, "retry_delay"):
            self.retry_delay = None

    #: the row of the C++ exception table this class stands for
    _table_name = "Exception"

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickle by table name: the class raised may be combined with cwsandbox's at run time,
        # and the receiving process rebuilds its own combination.
        return (_rebuild, (self._table_name, self.args), self.__dict__)


class SandgateValueError(SandgateError, ValueError):
    """A client-side rule the SDK enforces with ``ValueError`` (the table's ``ValueError`` row)."""

    _table_name = "ValueError"


class SandgateTypeError(SandgateError, TypeError):
    """A client-side rule the SDK enforces with ``TypeError`` (the table's ``TypeError`` row)."""

    _table_name = "TypeError"


class SandgateWarning(UserWarning):
    """A warning-severity diagnostic, issued by the pre-submit hook."""


# The builtins in the table map onto sandgate's own roots.
_BUILTIN_ROOTS: dict[str, type[SandgateError]] = {
    "Exception": SandgateError,
    "ValueError": SandgateValueError,
    "TypeError": SandgateTypeError,
}


def _build_hierarchy() -> dict[str, type[SandgateError]]:
    classes: dict[str, type[SandgateError]] = dict(_BUILTIN_ROOTS)
    for name, bases in _sandgate.python_exception_classes():  # bases come before their subclasses
        if name in classes:
            continue
        doc = f"sandgate's counterpart of ``cwsandbox.exceptions.{name}``."
        namespace = {"__module__": __name__, "__doc__": doc, "_table_name": name}
        classes[name] = type(name, tuple(classes[b] for b in bases), namespace)
    return classes


_CLASSES = _build_hierarchy()
globals().update({k: v for k, v in _CLASSES.items() if k not in _BUILTIN_ROOTS})

__all__ = sorted(
    ["FieldViolation", "SandgateError", "SandgateTypeError", "SandgateValueError", "SandgateWarning",
     "exception_class", "error_from_diagnostics"]
    + [k for k in _CLASSES if k not in _BUILTIN_ROOTS]
)

_lock = threading.Lock()
_sdk: ModuleType | None = None
_sdk_checked = False
_combined: dict[str, type[SandgateError]] = {}


def _sdk_exceptions() -> ModuleType | None:
    """cwsandbox.exceptions if it can be imported (tried once, on first raise)."""
    global _sdk, _sdk_checked
    if not _sdk_checked:
        try:
            import cwsandbox.exceptions as sdk
        except Exception:  # not installed, or broken: sandgate's own classes still work
            sdk = None
        _sdk, _sdk_checked = sdk, True
    return _sdk


def _sdk_counterpart(sdk: ModuleType, name: str) -> type[BaseException] | None:
    """The SDK's class for `name`, or for its nearest ancestor the installed SDK has."""
    root = getattr(sdk, "CWSandboxError", None)
    if not isinstance(root, type):
        return None
    for candidate in _sandgate.exception_ancestors(name):
        cls = getattr(sdk, candidate, None)
        if isinstance(cls, type) and issubclass(cls, root):
            return cls
    return None


def exception_class(name: str | None) -> type[SandgateError]:
    """The class sandgate raises for the SDK class `name` (combined with cwsandbox's when installed)."""
    ours = _CLASSES.get(name or "Exception", SandgateError)
    if ours in _BUILTIN_ROOTS.values():
        return ours
    key = ours.__name__
    with _lock:
        if key in _combined:
            return _combined[key]
        sdk = _sdk_exceptions()
        theirs = _sdk_counterpart(sdk, key) if sdk is not None else None
        combined: type[SandgateError] = ours
        if theirs is not None:
            namespace: dict[str, Any] = {"__module__": __name__, "__qualname__": ours.__qualname__, "__doc__": ours.__doc__}
            violation = getattr(sdk, "FieldViolation", None)
            if isinstance(violation, type):
                namespace["_field_violation_type"] = violation
            try:
                combined = type(key, (ours, theirs), namespace)
            except TypeError:  # an SDK whose hierarchy cannot be merged with ours: ours alone
                combined = ours
        _combined[key] = combined
        return combined


def _rebuild(table_name: str, args: tuple[Any, ...]) -> SandgateError:
    cls = exception_class(table_name)
    error = cls.__new__(cls)
    error.args = args
    return error


def error_from_diagnostics(diagnostics: Sequence[Diagnostic]) -> SandgateError | None:
    """The exception for the first error (by position), carrying every error; None without errors."""
    errors = [d for d in diagnostics if d.severity == "error"]
    if not errors:
        return None
    first = errors[0]
    lines = [str(first)] + [str(d) for d in errors[1:20]]
    if len(errors) > 20:
        lines.append(f"… and {len(errors) - 20} more errors")
    cls = exception_class(first.python_exception)
    return cls("\n".join(lines), diagnostics=errors, reason=first.reason, grpc_code=first.grpc_code, code=first.code)
