"""cwsandbox option-class instances built without their constructors' checks, for the Python
conformance runner (a case's `!RegisteredVolumeOptions {…}` tag) and the differential suite (what
the user wrote, when the SDK's constructor refuses it): the converter must see the class, with the
fields as given. Imported by path from both suites; needs cwsandbox."""

from __future__ import annotations

import dataclasses
from typing import Any


def unchecked_instance(cls: type, fields: dict[str, Any]) -> Any:
    """An instance of dataclass `cls` holding `fields` as given (no __init__ / __post_init__), or
    None when the class has no field for one of them. A required field left out is None (not set)."""
    known = {f.name: f for f in dataclasses.fields(cls)}
    if set(fields) - set(known):
        return None
    obj = object.__new__(cls)
    for f in known.values():
        if f.name in fields:
            value = fields[f.name]
        elif f.default is not dataclasses.MISSING:
            value = f.default
        elif f.default_factory is not dataclasses.MISSING:
            value = f.default_factory()
        else:
            value = None
        object.__setattr__(obj, f.name, value)
    return obj
