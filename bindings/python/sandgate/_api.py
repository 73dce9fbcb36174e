"""The functions of sandgate's public API (SPEC §9)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple, cast

from . import _inputs, _sandgate
from ._policy import Org, Policy, Runners
from ._result import Result
from ._types import Client, CodeRow, DataclassInstance, InputValue, Placement, RunnersValue


def check(
    sandbox: InputValue,
    policy: Policy | InputValue = None,
    defaults: InputValue = None,
    overrides: InputValue = None,
    runners: Runners | RunnersValue = None,
    org: Org | InputValue = None,
    client: Client = "python",
    placement: Placement | None = None,
) -> Result:
    """What the server would do with `sandbox` (Sandbox.run() keyword arguments) under `policy`.

    Layers merge as ``defaults`` ← ``sandbox`` ← ``overrides`` (the ``@session.function``
    layer). Every input may be a Mapping or dataclass, YAML/JSON text (``str``) or a file
    (``os.PathLike``); policy, runners and org may also be loaded once as :class:`Policy`,
    :class:`Runners` and :class:`Org` (the fastest way to check many requests). Never raises for anything
    in the inputs: problems are diagnostics of the returned :class:`Result`. The GIL is released
    while the engine runs.
    """
    raw = _sandgate.check(
        _inputs.layer(sandbox, "sandbox"),
        None if defaults is None else _inputs.layer(defaults, "defaults"),
        None if overrides is None else _inputs.layer(overrides, "overrides"),
        None if policy is None else _inputs.policy(policy),
        None if runners is None else _inputs.runners(runners),
        None if org is None else _inputs.org(org),
        client,
        placement or "",
    )
    return Result(raw)


def validate_policy(doc: Policy | InputValue) -> Result:
    """Every problem of a runner policy at once (SPEC §4)."""
    return Result(_inputs.policy(doc).result())


def normalize_resources(value: Mapping[str, Any] | DataclassInstance | None, client: Client = "python") -> Result:
    """The SDK's resource normalisation on its own (SPEC §5.2): ``resolved`` is {requests, limits, gpu}.

    `value` is a ``resources`` dict or the SDK's ``ResourceOptions``.
    """
    return Result(_sandgate.normalize_resources(value, client))


class ExceptionClasses(NamedTuple):
    """The classes the two SDKs raise for a server answer (None for ``OK``)."""

    python: str | None
    js: str | None


def exception_for(
    grpc_code: str, reason: str | None = None, domain: str = "cwsandbox.com", field_violations: bool = True
) -> ExceptionClasses:
    """What the SDKs raise for a gRPC status (SPEC §8); reasons count only from `domain` cwsandbox.com."""
    return ExceptionClasses(*_sandgate.exception_for(grpc_code, reason or "", domain, field_violations))


def is_spill_eligible(grpc_code: str, reason: str | None = None, domain: str = "cwsandbox.com") -> bool:
    """Whether the Python SDK's placement spill-over retries a failed create in the other mode."""
    return _sandgate.is_spill_eligible(grpc_code, reason or "", domain)


def exception_ancestors(name: str, js: bool = False) -> list[str]:
    """`name` and its ancestors in the SDK's exception hierarchy, nearest first."""
    return _sandgate.exception_ancestors(name, js)


def codes() -> list[CodeRow]:
    """The codes table: one dict per diagnostic code, in table order."""
    return cast("list[CodeRow]", _sandgate.codes())
