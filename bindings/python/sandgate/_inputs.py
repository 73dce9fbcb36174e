"""Turning what a user passes (a Mapping, a dataclass, text, a file) into loaded engine inputs.

A ``str`` or ``bytes`` is YAML or JSON text; an ``os.PathLike`` is a file, read here (I/O errors
are raised as ``OSError``); anything else is a Python value, converted in C++ straight into the
engine's tree (no JSON text in between).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import TypeVar

from . import _sandgate

T = TypeVar("T")


def read_file(path: str | os.PathLike[str]) -> tuple[bytes, str]:
    name = os.fspath(path)
    with open(name, "rb") as f:
        return f.read(), name


def _text(value: str | bytes | bytearray) -> bytes:
    # A lone surrogate cannot be UTF-8: pass it through so the loader reports it as invalid text.
    return value.encode("utf-8", "surrogatepass") if isinstance(value, str) else bytes(value)


def _load(
    value: object,
    label: str,
    from_text: Callable[[bytes, str], T],
    from_value: Callable[[object, str], T],
) -> T:
    if isinstance(value, (str, bytes, bytearray)):
        return from_text(_text(value), f"<{label}>")
    if isinstance(value, os.PathLike):
        data, name = read_file(value)
        return from_text(data, name)
    return from_value(value, "")


def layer(value: object, input_name: str) -> _sandgate.InputDocument:
    """One request layer: sandbox, defaults or overrides."""
    return _load(
        value,
        input_name,
        lambda text, file: _sandgate.document_from_text(text, input_name, file),
        lambda v, file: _sandgate.document_from_value(v, input_name, file),
    )


# Policy, Runners and Org objects are already loaded: their compiled form is used as is.


def policy(value: object) -> _sandgate.LoadedPolicy:
    from ._policy import Policy

    if isinstance(value, Policy):
        return value._raw
    return _load(value, "policy", _sandgate.policy_from_text, _sandgate.policy_from_value)


def runners(value: object) -> _sandgate.LoadedRunners:
    from ._policy import Runners

    if isinstance(value, Runners):
        return value._raw
    return _load(value, "runners", _sandgate.runners_from_text, _sandgate.runners_from_value)


def org(value: object) -> _sandgate.LoadedOrg:
    from ._policy import Org

    if isinstance(value, Org):
        return value._raw
    return _load(value, "org", _sandgate.org_from_text, _sandgate.org_from_value)
