"""Turning what a user passes (a Mapping, a dataclass, text, a file) into loaded engine inputs.

The one rule for every document the Python API takes (docs/python.md, "Input kinds"):

* an ``os.PathLike`` (``pathlib.Path``) is a file;
* ``bytes``/``bytearray`` are YAML or JSON text;
* a ``str`` is a file when it has no line break and either ends in ``.yaml``, ``.yml`` or ``.json``
  (any case) or names an existing file; any other ``str`` is YAML or JSON text;
* ``None`` is "not given";
* anything else is a Python value (Mapping, Sequence, dataclass), converted in C++ straight into
  the engine's tree (no JSON text in between).

Files are read here (I/O errors are raised as ``OSError``). ``from_text`` and ``load`` say which
one is meant when the rule would guess wrong.
"""

from __future__ import annotations

import dataclasses
import io
import os
from collections.abc import Callable
from typing import Any, TypeVar

from . import _sandgate

T = TypeVar("T")


#: The document size limit (SPEC §1.2, 4 MiB), the one the engine and the CLI apply.
MAX_DOCUMENT_BYTES: int = _sandgate.MAX_DOCUMENT_BYTES


def display_name(path: str | bytes) -> str:
    """A path as diagnostics and messages show it: its bytes that are not UTF-8 (``os.fsdecode``'s
    surrogate escapes) written as ``\\xff``, so that the name is valid text."""
    if isinstance(path, bytes):
        return path.decode("utf-8", "backslashreplace")
    try:
        return path.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
    except UnicodeError:  # a lone surrogate that is no escaped byte
        return path.encode("utf-8", "backslashreplace").decode("utf-8")


def read_file(path: str | os.PathLike[str]) -> tuple[bytes, str]:
    """An input file's bytes and its name as diagnostics show it.

    At most the size limit + 1 byte is read: enough for the loader to report SG_DOC_TOO_LARGE, as
    the CLI does, without reading an endless file (/dev/zero, a FIFO) or a huge one into memory."""
    name = os.fspath(path)
    try:
        with open(name, "rb") as f:
            return f.read(MAX_DOCUMENT_BYTES + 1), display_name(name)
    except FileNotFoundError as e:
        add_path_meant(e, name)
        raise


def path_meant(path: str | bytes) -> str:
    """The existing path a missing one most likely meant (``examples/sandbox/prod-ok.yml`` →
    ``examples/sandboxes/prod-ok.yaml``), by the core's rules (sandgate/path_meant.h); "" if none."""
    try:
        return _sandgate.path_meant(os.fsdecode(path))
    except (UnicodeError, ValueError, TypeError):  # a name that is not text: no guess
        return ""


def add_path_meant(error: FileNotFoundError, path: str | bytes) -> bool:
    """Adds "(did you mean 'P'?)" to a missing file's error when a path meant stands out (its
    filename stays the path given, last in the message, as OSError shows it)."""
    meant = path_meant(path)
    if meant:
        error.strerror = f"{error.strerror} (did you mean {meant!r}?)"
    return bool(meant)


_FILE_SUFFIXES = (".yaml", ".yml", ".json")


def str_is_path(value: str) -> bool:
    """The rule for a ``str`` input: a path (True) or YAML/JSON text (False)."""
    if "\n" in value or "\r" in value or not value:
        return False
    if value.lower().endswith(_FILE_SUFFIXES):
        return True
    try:
        return os.path.isfile(value)
    except (OSError, ValueError):  # NUL bytes, lone surrogates, names too long: not a file
        return False


def read_path(path: str | os.PathLike[str], label: str) -> tuple[bytes, str]:
    """Reads an input file; a missing ``str`` path says how to pass text instead."""
    try:
        return read_file(path)
    except FileNotFoundError as e:
        # A path meant that exists says the str was meant as a path: the str rule is no news then.
        if isinstance(path, str) and not path_meant(path):
            e.strerror = (
                f"{e.strerror} ({label}: a str without line breaks that ends in .yaml, .yml or .json "
                "is read as a file path; pass YAML/JSON text with from_text(...), or as bytes)"
            )
        raise


def bare_string_hint(value: str) -> str:
    """The hint for a str read as YAML text whose document turns out to be one bare string (the
    engine adds it to the "must be an object" diagnostic): most often a path the str rule did not
    take for one. Empty for text of more than one line, which is not a path gone wrong."""
    stripped = value.strip()
    if not stripped or "\n" in stripped or "\r" in stripped:
        return ""
    hint = (
        "this str was read as YAML text, not as a path (docs/python.md, Input kinds: a str without a line "
        "break is a path when it ends in .yaml, .yml or .json or names an existing file)"
    )
    try:
        exists = os.path.exists(value)
        exists_stripped = stripped != value and os.path.isfile(stripped)
    except (OSError, ValueError):  # NUL bytes, names too long: no such file
        exists = exists_stripped = False
    if exists_stripped:
        return hint + f"; the file {stripped!r} exists: remove the white space around its name, or pass pathlib.Path(...)"
    if not exists:
        return hint + f"; no file named {value!r} exists: for a file, pass pathlib.Path(...) (a missing one raises FileNotFoundError)"
    return hint + f"; {value!r} is not a file"


def _wrong_kind(value: object, label: str) -> TypeError | None:
    """A value that is clearly a programming error (not a document): a TypeError naming the right call."""
    Policy, Runners, Org = _policy.Policy, _policy.Runners, _policy.Org
    expected = {"policy": Policy, "runners": Runners, "org": Org}.get(label)
    if isinstance(value, (Policy, Runners, Org)):
        return TypeError(
            f"{label}: got a sandgate.{type(value).__name__}; "
            + (f"pass a sandgate.{expected.__name__} or a document" if expected else "pass a document")
            + " (a path, YAML/JSON text, a dict, or None for not given)"
        )
    if isinstance(value, io.IOBase):
        return TypeError(
            f"{label}: got an open file; pass its path (a str or pathlib.Path) or its text (f.read())"
        )
    if isinstance(value, type):
        return TypeError(f"{label}: got the class {value.__qualname__}; pass an instance or a document")
    # A cwsandbox Sandbox or Session: what it would send cannot be read back (the same advice as a
    # nested one's SG_VALUE_UNSUPPORTED hint).
    advice = _sandgate.sdk_handle_advice(value)
    return TypeError(f"{label}: {advice}") if advice else None


def _text(value: str | bytes | bytearray) -> bytes:
    # A lone surrogate cannot be UTF-8: pass it through so the loader reports it as invalid text.
    return value.encode("utf-8", "surrogatepass") if isinstance(value, str) else bytes(value)


def load(
    value: object,
    label: str,
    from_text: Callable[..., T],  # (text, name) or (text, name, hint)
    from_value: Callable[[object, str], T],
) -> T:
    if type(value) is dict:
        # A plain dict is a document, never a path, text or a wrong kind: the checks below (an ABC
        # isinstance among them) cost more than converting a small policy.
        return from_value(value, "")
    if isinstance(value, str) and str_is_path(value) or isinstance(value, os.PathLike):
        data, name = read_path(value, label)
        return from_text(data, name)
    if isinstance(value, str):
        hint = bare_string_hint(value)
        name = f"<{label}>"
        return from_text(_text(value), name, hint) if hint else from_text(_text(value), name)
    if isinstance(value, (bytes, bytearray)):
        return from_text(_text(value), f"<{label}>")
    error = _wrong_kind(value, label)
    if error is not None:
        raise error
    return from_value(value, "")


def options(function: str, client: object, placement: object) -> tuple[str, str]:
    """check()'s `client` and `placement` arguments as the engine takes them: None is "not given"
    (client "python", the request's own placement); anything else that is not one of the accepted
    strings raises, naming the argument and what it accepts."""
    if client is None:
        client = "python"
    elif not isinstance(client, str):
        raise TypeError(f'{function}(): client must be "python", "typescript" or None ("python"), not {type(client).__name__}')
    if placement is None:
        placement = ""
    elif not isinstance(placement, str):
        raise TypeError(
            f'{function}(): placement must be "serverless", "cks" or None (the request\'s own), not {type(placement).__name__}'
        )
    if client not in ("python", "typescript"):
        raise ValueError(f'{function}(): client must be "python" or "typescript", not "{client}"{_meant(client, "python", "typescript")}')
    if placement not in ("", "serverless", "cks"):
        raise ValueError(f'{function}(): placement must be "serverless", "cks" or None, not "{placement}"{_meant(placement, "serverless", "cks")}')
    return client, placement


def _meant(value: str, *accepted: str) -> str:
    """'; did you mean "cks"?' for a value that is an accepted one but for case and spaces (as the
    CLI says it for --placement CKS), else ""."""
    wanted = value.strip().lower()
    return next((f'; did you mean "{a}"?' for a in accepted if a == wanted), "")


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
    An option object whose fields are all None (ResourceOptions(), NetworkOptions()) is a value
    given, as for the SDK, which asks `is not None`: it replaces the defaults' value.
    """
    fields = _set_field_values(value)
    if fields is not None:
        value = fields
    return value


# Types that are never an option dataclass: a dict whose values are all of these needs none of
# the dataclass rules below.
_PLAIN_TYPES = frozenset({dict, list, tuple, str, int, float, bool, type(None), bytes})


def class_name(value: object) -> str:
    """The name of the dataclass `value` is an instance of (SandboxDefaults, …), or ""."""
    return type(value).__name__ if dataclasses.is_dataclass(value) and not isinstance(value, type) else ""


def layer(value: object, input_name: str) -> _sandgate.InputDocument:
    """One request layer: sandbox, defaults or overrides.

    A layer given as a dataclass is read as the dict of its set fields, and the class's name goes
    along: ``SandboxDefaults(volumes=[{…}])`` keeps its dicts where ``SandboxDefaults.from_dict``
    (what a plain dict of defaults stands for) converts them."""
    if type(value) is dict and _PLAIN_TYPES.issuperset(map(type, value.values())):
        # The common case (a plain dict of plain values) goes straight to the converter: the
        # rules below would leave it as it is, and on a pre-submit hook's path they cost more
        # than converting it (a quarter of a check).
        return _sandgate.document_from_value(value, input_name, "")
    given_as = class_name(value)
    value = _set_fields(value)
    return load(
        value,
        input_name,
        lambda text, file, hint="": _sandgate.document_from_text(text, input_name, file, hint),
        lambda v, file: _sandgate.document_from_value(v, input_name, file, given_as),
    )


# Policy, Runners and Org objects are already loaded: their compiled form is used as is.


def policy(value: object) -> _sandgate.LoadedPolicy:
    if isinstance(value, _policy.Policy):
        return value._raw
    return load(value, "policy", _sandgate.policy_from_text, _sandgate.policy_from_value)


def runners(value: object) -> _sandgate.LoadedRunners:
    if isinstance(value, _policy.Runners):
        return value._raw
    return load(value, "runners", _sandgate.runners_from_text, _sandgate.runners_from_value)


def org(value: object) -> _sandgate.LoadedOrg:
    if isinstance(value, _policy.Org):
        return value._raw
    return load(value, "org", _sandgate.org_from_text, _sandgate.org_from_value)


# Policy, Runners and Org import this module: imported last, and read when a function runs (an
# import statement inside each function cost more than the rest of it on a check's path).
from . import _policy  # noqa: E402
