"""Policy, Runners, Org: inputs loaded and validated once, immutable, shareable between threads."""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Generic, TypeVar

from . import _inputs, _sandgate
from ._diagnostics import Diagnostic, DiagnosticLists, diagnostics_of
from ._result import Result, _raise
from ._types import Client, DataclassInstance, InputValue, Placement, RunnersValue
from .exceptions import error_from_diagnostics

R = TypeVar("R", bound="_sandgate._Loaded")  # LoadedPolicy, LoadedRunners or LoadedOrg
L = TypeVar("L", bound="_Loaded[Any]")


class _Loaded(DiagnosticLists, Generic[R]):
    """What Policy, Runners and Org share: constructors never raise for anything in the input.

    ``Policy(source)`` takes what ``check(policy=...)`` takes, by the same rule (docs/python.md,
    "Input kinds"): a path (``pathlib.Path``, or a ``str`` without line breaks that ends in
    ``.yaml``/``.yml``/``.json`` or names an existing file), YAML/JSON text (any other ``str``,
    ``bytes``), a Mapping/Sequence/dataclass, or ``None`` (the ``null`` document). A file that
    cannot be read raises ``OSError`` here; a value of the wrong kind (an open file, another
    loaded input) raises ``TypeError``.

    An input whose text could not be read at all is *broken* (``.loaded`` is False); checking with
    it answers its load errors.
    """

    __slots__ = ("_raw", "_diagnostics")
    _label = "input"
    _raw_type: type[R]
    _from_text: Callable[[bytes, str], R]
    _from_value: Callable[[object, str], R]

    def __init__(self, source: object = None) -> None:
        if isinstance(source, self._raw_type):
            raw: R = source  # the compiled object itself (how the classmethods build)
        elif isinstance(source, type(self)):
            raw = source._raw
        else:
            raw = _inputs.load(source, self._label, type(self)._from_text, type(self)._from_value)
        self._raw: R = raw
        self._diagnostics: tuple[Diagnostic, ...] | None = None

    @classmethod
    def load(cls: type[L], path: str | os.PathLike[str]) -> L:
        """Reads a YAML or JSON file (``OSError`` when it cannot be read)."""
        if not isinstance(path, (str, os.PathLike)):
            raise TypeError(f"{cls.__name__}.load() takes a path (str or os.PathLike), not {type(path).__name__}")
        data, name = _inputs.read_file(path)
        return cls(cls._from_text(data, name))

    @classmethod
    def from_text(cls: type[L], text: str | bytes, name: str | None = None) -> L:
        """Reads YAML or JSON text, always (even a str that looks like a path); `name` labels the
        diagnostics' source (default ``<policy>`` …)."""
        if not isinstance(text, (str, bytes, bytearray)):
            hint = f"{cls.__name__}.load(path)" if isinstance(text, os.PathLike) else f"{cls.__name__}.from_dict(value)"
            raise TypeError(f"{cls.__name__}.from_text() takes str or bytes, not {type(text).__name__}; use {hint}")
        return cls(cls._from_text(_inputs._text(text), name or f"<{cls._label}>"))

    @classmethod
    def from_dict(cls: type[L], value: Mapping[str, Any] | Sequence[Any] | DataclassInstance | None) -> L:
        """Builds from a Python value: a dict, any Mapping (OmegaConf DictConfig), a dataclass. Always a
        value: a ``str`` here is a document that is a string (for a path or text: ``Policy(value)``)."""
        return cls(cls._from_value(value, ""))

    @property
    def ok(self) -> bool:
        """Loaded and without errors (warnings allowed)."""
        return self._raw.ok

    @property
    def loaded(self) -> bool:
        """False when the input is broken: its text could not be read as a document."""
        return self._raw.loaded

    @property
    def file(self) -> str:
        return self._raw.file

    @property
    def diagnostics(self) -> tuple[Diagnostic, ...]:
        """What validation reported, or the load errors of a broken input."""
        if self._diagnostics is None:
            self._diagnostics = diagnostics_of(self._raw.diagnostics)
        return self._diagnostics

    def result(self) -> Result:
        """The diagnostics as a Result (for a policy: what ``validate_policy`` answers)."""
        return Result(self._raw.result())

    def raise_for_errors(self) -> None:
        error = error_from_diagnostics(self.diagnostics)
        if error is not None:
            _raise(error)

    def __repr__(self) -> str:
        state = "broken" if not self.loaded else ("ok" if self.ok else f"{len(self.errors)} errors")
        return f"<sandgate.{type(self).__name__} {self.file or '<value>'} {state}>"


class Policy(_Loaded[_sandgate.LoadedPolicy]):
    """A compiled runner policy (like a compiled regular expression), validated (SPEC §4) once.

    Also accepts a runner document ``{"policy": {...}, "etag": ...}``, from which ``policy`` is taken.
    """

    __slots__ = ()
    _label = "policy"
    _raw_type = _sandgate.LoadedPolicy
    _from_text = staticmethod(_sandgate.policy_from_text)
    _from_value = staticmethod(_sandgate.policy_from_value)

    @property
    def is_null(self) -> bool:
        """The document is ``null``: a policy never configured (P-15), unlike ``{}``."""
        return self._raw.is_null

    def check(
        self,
        sandbox: InputValue,
        *,
        defaults: InputValue = None,
        overrides: InputValue = None,
        runners: Runners | RunnersValue = None,
        org: Org | InputValue = None,
        client: Client | None = "python",
        placement: Placement | None = None,
    ) -> Result:
        """``sandgate.check(sandbox, policy=self, ...)``: the same answer, for code that holds a policy."""
        from ._api import check  # _api imports this module

        return check(
            sandbox,
            policy=self,
            defaults=defaults,
            overrides=overrides,
            runners=runners,
            org=org,
            client=client,
            placement=placement,
        )


class Runners(_Loaded[_sandgate.LoadedRunners]):
    """The runner inventory a client can see (SPEC §1.4), loaded once for many checks."""

    __slots__ = ()
    _label = "runners"
    _raw_type = _sandgate.LoadedRunners
    _from_text = staticmethod(_sandgate.runners_from_text)
    _from_value = staticmethod(_sandgate.runners_from_value)


class Org(_Loaded[_sandgate.LoadedOrg]):
    """The organisation's entitlements (gpu_allowed, max_gpus_per_sandbox, serverless_allowed)."""

    __slots__ = ()
    _label = "org"
    _raw_type = _sandgate.LoadedOrg
    _from_text = staticmethod(_sandgate.org_from_text)
    _from_value = staticmethod(_sandgate.org_from_value)
