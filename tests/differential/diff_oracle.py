"""The two sides of the comparison: cwsandbox 1.22's own client-side path, and sandgate.check.

The SDK side runs exactly what ``Sandbox.run`` (or ``@session.function``) runs before its first
network call: the option dataclasses' constructors (when the case builds them), ``SandboxDefaults``
(``from_dict`` for a mapping, the constructor for the dataclass form), ``Sandbox.__init__`` and
``Sandbox._build_create_request`` with the constructor's ``_start_kwargs`` — as ``start()`` calls it
(cwsandbox/_sandbox.py, ``_create_with_optional_spillover``). ``start()`` itself, which opens the
channel, is never called; the suite's guard fails any attempt to connect.
"""

from __future__ import annotations

import sys
import types
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cwsandbox
from cwsandbox import Sandbox, SandboxDefaults, Session

import sandgate

sys.path.append(str(Path(__file__).resolve().parents[1]))  # tests/sdk_classes.py
from sdk_classes import unchecked_instance  # noqa: E402


class DC:
    """An SDK option dataclass to build at run time: ``DC("EgressRule", dns_name="pypi.org")``.

    Its constructor is part of the SDK's client-side path: if it raises, that is the SDK's
    verdict, and sandgate is given what the user wrote (``plain``): the same fields as a plain
    dict, or, for the classes sandgate reads differently from their dict (``NAMED_CLASSES``), an
    instance of the class holding those fields, built without the constructor's checks.
    """

    __slots__ = ("name", "fields")

    def __init__(self, name: str, /, **fields: Any) -> None:
        self.name = name
        self.fields = fields

    def __repr__(self) -> str:
        inner = ", ".join(f"{k}={v!r}" for k, v in self.fields.items())
        return f"{self.name}({inner})"


def build(value: Any) -> Any:
    """Constructs every DC inside `value` (raising what a constructor raises)."""
    if isinstance(value, DC):
        cls = getattr(cwsandbox, value.name)
        return cls(**{k: build(v) for k, v in value.fields.items()})
    if isinstance(value, dict):
        return {k: build(v) for k, v in value.items()}
    if isinstance(value, list):
        return [build(v) for v in value]
    if isinstance(value, tuple):
        return tuple(build(v) for v in value)
    return value


# The option classes whose instances sandgate tells from a dict of their fields (Node::given_as;
# the text form is a YAML tag, `!RegisteredVolumeOptions {…}`): cwsandbox sends a {name, volume_id}
# dict as it is, where RegisteredVolumeOptions(...) checks its mount_path, SandboxDefaults(...)
# keeps dicts that from_dict converts, so a ScratchVolumeOptions in it was built by the user, and an
# empty ResourceOptions() asks for no resources where {} is refused.
NAMED_CLASSES = ("RegisteredVolumeOptions", "ScratchVolumeOptions", "ResourceOptions")


def _unchecked(name: str, fields: dict[str, Any]) -> Any:
    """An instance of the SDK class holding `fields` as given (no __post_init__), or None when the
    class has no field for one of them."""
    return unchecked_instance(getattr(cwsandbox, name), fields)


def plain(value: Any) -> Any:
    """What the user wrote, for sandgate: every DC as the dict of its fields, or as an unchecked
    instance of a class in NAMED_CLASSES."""
    if isinstance(value, DC):
        fields = {k: plain(v) for k, v in value.fields.items()}
        if value.name in NAMED_CLASSES:
            instance = _unchecked(value.name, fields)
            if instance is not None:
                return instance
        return fields
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [plain(v) for v in value]
    if isinstance(value, tuple):
        return tuple(plain(v) for v in value)
    return value


@dataclass
class Case:
    """One generated request."""

    mode: str  # "run" | "defaults" | "function"
    family: str  # the keyword family this case is about ("valid": every family valid)
    kwargs: dict[str, Any]  # Sandbox.run keywords, or the @session.function keywords
    defaults: dict[str, Any] | None = None
    defaults_dataclass: bool = False  # SandboxDefaults(**defaults) instead of from_dict(defaults)
    # drew a value of a known difference (diff_strategies.known): left out of the reference run
    known: bool = False


@dataclass
class Verdict:
    verdict: str  # "accepted" or an exception class name
    message: str = ""
    errors: tuple[tuple[str, str, str], ...] = ()  # sandgate's errors: (code, "message @path", class)


SANDBOX_DEFAULTS_FIELDS = frozenset(SandboxDefaults.__dataclass_fields__)

# What RemoteFunction passes to Sandbox(...), in its order (cwsandbox/_function.py).
_FUNCTION_SANDBOX_KWARGS = (
    "runner_ids", "resources", "mounted_files", "ports", "network", "services", "volumes", "placement_mode",
    "placement_spillover", "file_system_snapshot", "runtime_class", "security_context", "working_dir",
    "object_storage_access", "environment_variables", "annotations", "request_timeout_seconds", "data_plane_mode",
)


def _remote_function(x: int) -> int:
    return x


def _sdk_path(case: Case) -> tuple[dict[str, Any], Any]:
    """Runs the SDK; returns (the keywords as built, the defaults as built) for sandgate."""
    kwargs = build(case.kwargs)
    defaults_in: Any = None
    sdk_defaults: SandboxDefaults | None = None
    if case.defaults is not None:
        d = build(case.defaults)
        if case.defaults_dataclass:
            sdk_defaults = SandboxDefaults(**d)
            defaults_in = sdk_defaults
        else:
            sdk_defaults = SandboxDefaults.from_dict(d)
            defaults_in = d
    if case.mode == "function":
        # Session.function needs only the session's defaults before the call; a stand-in
        # session keeps the loop manager and the metrics reporter out of it.
        session = types.SimpleNamespace(_defaults=sdk_defaults or SandboxDefaults())
        rf = Session.function(session, **kwargs)(_remote_function)  # type: ignore[arg-type]
        sandbox_kwargs = {}
        for name in _FUNCTION_SANDBOX_KWARGS:
            value = getattr(rf, "_" + name, None)
            if value is not None:
                sandbox_kwargs[name] = value
        sb = Sandbox(
            container_image=rf._container_image,
            defaults=session._defaults.with_overrides(containers=None),
            **sandbox_kwargs,
        )
    else:
        sb = Sandbox(defaults=sdk_defaults, **kwargs)
    start_kwargs = dict(sb._start_kwargs)
    template_id = start_kwargs.get("template_id") or sb._template_id
    if template_id:  # what start() builds for a template (cwsandbox/_sandbox.py, _start_async)
        start_kwargs.pop("template_id", None)
        sb._build_create_from_template_request(
            template_id=template_id, request_id="differential", overrides_kwargs=start_kwargs
        )
    else:
        sb._build_create_request(request_id="differential", start_kwargs=start_kwargs)
    return kwargs, defaults_in


def run_sdk(case: Case) -> Verdict:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # protobuf's bool-as-int deprecation and the like
        try:
            _sdk_path(case)
        except Exception as e:  # the verdict is the exception, whatever its class
            return Verdict(type(e).__name__, str(e))
    return Verdict("accepted")


def _sandgate_inputs(case: Case) -> tuple[Any, Any, Any]:
    """What the user hands sandgate: the built dataclasses when they construct, else the dicts."""
    try:
        kwargs = build(case.kwargs)
    except Exception:
        kwargs = plain(case.kwargs)
    defaults: Any = None
    if case.defaults is not None:
        built = True
        try:
            d = build(case.defaults)
        except Exception:
            d = plain(case.defaults)
            built = False
        defaults = d
        # A SandboxDefaults whose option objects could not be built is one no user holds: the
        # fields' dict is what they can pass (and from_dict builds, and refuses, the same objects).
        if case.defaults_dataclass and built:
            try:
                defaults = SandboxDefaults(**d)
            except Exception:
                defaults = d
    if case.mode == "function":
        return {}, defaults, kwargs
    return kwargs, defaults, None


ORG = {"gpu_allowed": True}


def run_sandgate(case: Case) -> Verdict:
    sandbox, defaults, overrides = _sandgate_inputs(case)
    result = sandgate.check(sandbox, defaults=defaults, overrides=overrides, org=ORG, client="python")
    errors = result.errors
    if not errors:
        return Verdict("accepted")
    first = errors[0]  # what raise_for_errors raises
    return Verdict(first.python_exception or "Exception", str(first), tuple(
        (d.code, f"{d.message} @{d.path}", d.python_exception or "Exception") for d in errors
    ))
