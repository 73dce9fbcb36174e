"""Turning what a user passes (a Mapping, a dataclass, text, a file) into loaded engine inputs.

A ``str`` or ``bytes`` is YAML or JSON text; an ``os.PathLike`` is a file, read here (I/O errors
are raised as ``OSError``); anything else is a Python value, converted in C++ straight into the
engine's tree (no JSON text in between).
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Callable
from typing import Any, TypeVar

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


def _field_is_default(field: dataclasses.Field[Any], value: object) -> bool:
    try:
        if field.default is not dataclasses.MISSING:
            return bool(value == field.default)
        if field.default_factory is not dataclasses.MISSING:
            return bool(value == field.default_factory())
    except Exception:  # a value that cannot be compared is the user's: keep it
        return False
    return False


def _set_field_values(value: object) -> dict[str, Any] | None:
    """The fields of a dataclass instance that are set (not None, not their declared default);
    None when `value` is not a dataclass instance or its fields cannot be read."""
    if not dataclasses.is_dataclass(value) or isinstance(value, type):
        return None
    try:
        out: dict[str, Any] = {}
        for f in dataclasses.fields(value):
            if f.name.startswith("_") or not f.repr:
                continue
            v = getattr(value, f.name)
            if v is None or _field_is_default(f, v):
                continue
            out[f.name] = v
    except Exception:  # a hostile dataclass: the converter reports what reading it raises
        return None
    return out


def _set_fields(value: object) -> object:
    """A layer given as a dataclass (the SDK's SandboxDefaults): the fields the user set.

    SandboxDefaults() carries the SDK's own defaults as field values (container_image="python:3.11",
    tags=(), data_plane_mode=AUTO, …). Read as set values they would change the request: a
    SandboxDefaults(containers=[…]) would conflict with its own default container_image, which
    the SDK ignores when containers are given. A field equal to its declared default is not set
    (the engine knows the SDK's defaults); the values are left to the converter as they are.
    """
    fields = _set_field_values(value)
    if fields is not None:
        value = fields
    if type(value) is dict:
        # A keyword given an option object whose fields are all None (ResourceOptions(),
        # NetworkOptions()) is a keyword not given, as the SDK treats it; as {} it would read as
        # an empty dict, which `resources` refuses.
        empty = [k for k, v in value.items() if _all_none(v)]
        if empty:
            return {k: v for k, v in value.items() if k not in empty}
    return value


def _all_none(value: object) -> bool:
    if not dataclasses.is_dataclass(value) or isinstance(value, type):
        return False
    try:
        return all(getattr(value, f.name) is None for f in dataclasses.fields(value) if f.repr and not f.name.startswith("_"))
    except Exception:
        return False


def layer(value: object, input_name: str) -> _sandgate.InputDocument:
    """One request layer: sandbox, defaults or overrides."""
    value = _set_fields(value)
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
