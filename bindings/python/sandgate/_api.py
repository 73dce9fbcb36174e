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
    client: Client | None = "python",
    placement: Placement | None = None,
) -> Result:
    """What the server would do with `sandbox` (Sandbox.run() keyword arguments) under `policy`.

    Layers merge as ``defaults`` ← ``sandbox`` ← ``overrides`` (the ``@session.function``
    layer). Every input may be a Mapping or dataclass, YAML/JSON text (``str`` or ``bytes``) or a
    file (``os.PathLike``, or a ``str`` without line breaks that ends in ``.yaml``/``.yml``/``.json``
    or names an existing file); ``None`` is "not given"; policy, runners and org may also be loaded once as :class:`Policy`,
    :class:`Runners` and :class:`Org` (the fastest way to check many requests). Never raises for anything
    in the inputs: problems are diagnostics of the returned :class:`Result`. The GIL is released
    while the engine runs.
    """
    if defaults is None and overrides is None and placement is None:
        # The common case (a plain dict, inputs loaded once) in one native call; None otherwise.
        fast = _sandgate.check_plain(sandbox, policy, runners, org, client)
        if fast is not None:
            return Result(fast)
    return Result(_check_general(sandbox, policy, defaults, overrides, runners, org, client, placement))


def _check_general(
    sandbox: object,
    policy: object,
    defaults: object,
    overrides: object,
    runners: object,
    org: object,
    client: object,
    placement: object,
) -> _sandgate.CheckResult:
    """check() for every kind of input: each loaded by sandgate._inputs, then one native check."""
    client, placement = _inputs.options("check", client, placement)
    return _sandgate.check(
        _inputs.layer(sandbox, "sandbox"),
        None if defaults is None else _inputs.layer(defaults, "defaults"),
        None if overrides is None else _inputs.layer(overrides, "overrides"),
        None if policy is None else _inputs.policy(policy),
        None if runners is None else _inputs.runners(runners),
        None if org is None else _inputs.org(org),
        client,
        placement,
    )


def validate_policy(doc: Policy | InputValue) -> Result:
    """Every problem of a runner policy at once (SPEC §4)."""
    fast = _sandgate.validate_plain(doc)  # a plain dict in one native call; None otherwise
    return Result(fast if fast is not None else _inputs.policy(doc).result())


def normalize_resources(value: Mapping[str, Any] | DataclassInstance | None, client: Client | None = "python") -> Result:
    """The SDK's resource normalisation on its own (SPEC §5.2): ``resolved`` is {requests, limits, gpu}.

    `value` is a ``resources`` dict or the SDK's ``ResourceOptions``.
    """
    return Result(_sandgate.normalize_resources(value, _inputs.options("normalize_resources", client, None)[0]))


class ExceptionClasses(NamedTuple):
    """The classes the two SDKs raise for a server answer (None for ``OK``)."""

    python: str | None
    js: str | None


def _str_arg(function: str, name: str, value: object, default: str, example: str) -> str:
    """A str argument where None means "not given" (its default); anything else is a TypeError."""
    if value is None:
        return default
    if isinstance(value, str):
        return value
    raise TypeError(f"{function}(): {name} must be a str such as {example!r} or None, not {type(value).__name__}")


def _grpc_code(function: str, value: object) -> str:
    if isinstance(value, str):
        return value
    raise TypeError(
        f"{function}(): grpc_code must be the status code's name as a str, such as 'INVALID_ARGUMENT', "
        f"not {type(value).__name__}"
    )


def exception_for(
    grpc_code: str,
    reason: str | None = None,
    domain: str | None = "cwsandbox.com",
    field_violations: bool | None = True,
) -> ExceptionClasses:
    """What the SDKs raise for a gRPC status (SPEC §8); reasons count only from `domain` cwsandbox.com.

    ``None`` for `reason`, `domain` or `field_violations` means "not given": no reason, the
    ``cwsandbox.com`` domain, field violations present.
    """
    f = "exception_for"
    code = _grpc_code(f, grpc_code)
    r = _str_arg(f, "reason", reason, "", "CWSANDBOX_RESOURCE_CEILING_EXCEEDED")
    d = _str_arg(f, "domain", domain, "cwsandbox.com", "cwsandbox.com")
    fv = True if field_violations is None else bool(field_violations)
    return ExceptionClasses(*_sandgate.exception_for(code, r, d, fv))


def is_spill_eligible(grpc_code: str, reason: str | None = None, domain: str | None = "cwsandbox.com") -> bool:
    """Whether the Python SDK's placement spill-over retries a failed create in the other mode
    (``None`` for `reason` or `domain`: not given)."""
    f = "is_spill_eligible"
    code = _grpc_code(f, grpc_code)
    r = _str_arg(f, "reason", reason, "", "CWSANDBOX_RUNNER_CAPACITY_EXHAUSTED")
    d = _str_arg(f, "domain", domain, "cwsandbox.com", "cwsandbox.com")
    return _sandgate.is_spill_eligible(code, r, d)


def exception_ancestors(name: str, js: bool | None = False) -> list[str]:
    """`name` and its ancestors in the SDK's exception hierarchy, nearest first."""
    if not isinstance(name, str):
        raise TypeError(
            f"exception_ancestors(): name must be an exception class name such as 'SandboxValidationError', "
            f"not {type(name).__name__}"
        )
    return _sandgate.exception_ancestors(name, bool(js))


def codes() -> list[CodeRow]:
    """The codes table: one dict per diagnostic code, in table order."""
    return cast("list[CodeRow]", _sandgate.codes())
