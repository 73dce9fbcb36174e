"""Pre-submit validation for the ``cwsandbox`` SDK: one line, and every sandbox is checked first.

    import sandgate
    sandgate.presubmit.install(policy="policy.yaml", runners="runners.yaml", org={"gpu_allowed": True})

From then on every ``Sandbox.run(...)``, ``Sandbox(...)``, ``session.sandbox(...)`` (and the
sandboxes ``@session.function`` creates) is checked with exactly the keyword arguments it was given,
over the Session's ``SandboxDefaults`` as the defaults layer, and raises the SDK-named exception
(``SandboxValidationError``, ``ValueError``, …) before any network traffic. Warnings become
:class:`sandgate.SandgateWarning` warnings. ``uninstall()`` (or leaving the ``with`` block of
``with sandgate.presubmit.install(...):``) restores the SDK.

The hook wraps ``cwsandbox.Sandbox.__init__``: ``run`` and ``session.sandbox`` both construct
through it, and it runs before ``start()`` sends the create request. Sandboxes the SDK rebuilds
from server answers (``Sandbox.list``, ``from_id``) do not go through ``__init__``.
"""

from __future__ import annotations

import functools
import os
import sys
import threading
import warnings
from collections.abc import Callable, Mapping
from types import TracebackType
from typing import Any, cast

from . import _inputs, _sandgate
from ._policy import Org, Policy, Runners
from ._result import Result
from ._types import Client, InputValue, Placement, RunnersValue
from .exceptions import SandgateWarning, error_from_diagnostics

# Sandbox.__init__ keyword arguments that are not part of the request: the defaults layer, the
# credentials, and the SDK's private plumbing.
_NOT_REQUEST = frozenset({"defaults", "auth", "_session", "_from_file"})


class PresubmitHook:
    """One installed configuration. Also a context manager that uninstalls it on exit."""

    def __init__(
        self,
        policy: _sandgate.LoadedPolicy | None,
        runners: _sandgate.LoadedRunners | None,
        org: _sandgate.LoadedOrg | None,
        client: Client,
        placement: Placement | None,
        warn: bool,
    ) -> None:
        self._policy = policy
        self._runners = runners
        self._org = org
        self.client: Client = client
        self.placement: Placement | None = placement
        self.warn = warn

    def check(self, kwargs: Mapping[str, Any]) -> Result:
        """Checks one ``Sandbox(...)`` call's keyword arguments, as the hook does."""
        # None is how the SDK's signatures say "not given": drop it, so the defaults layer applies.
        request = {k: v for k, v in kwargs.items() if k not in _NOT_REQUEST and v is not None}
        if "mounted_files" in request:
            request["mounted_files"] = _binary_content_as_text(request["mounted_files"])
        defaults = kwargs.get("defaults")
        raw = _sandgate.check(
            _inputs.layer(request, "sandbox"),
            None if defaults is None else _inputs.layer(defaults, "defaults"),
            None,
            self._policy,
            self._runners,
            self._org,
            self.client,
            self.placement or "",
        )
        return Result(raw)

    def enforce(self, kwargs: Mapping[str, Any]) -> None:
        """Checks, warns for warnings, and raises for errors."""
        result = self.check(kwargs)
        if self.warn:
            for d in result.warnings:
                warnings.warn(str(d), SandgateWarning, stacklevel=_user_stacklevel())
        error = error_from_diagnostics(result.diagnostics)
        if error is not None:
            raise error

    @property
    def installed(self) -> bool:
        with _lock:
            return self in _hooks

    def uninstall(self) -> None:
        uninstall(self)

    def __enter__(self) -> PresubmitHook:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.uninstall()


def _placeholder(content: object) -> object:
    if isinstance(content, (bytes, bytearray)):
        try:
            bytes(content).decode("utf-8")
        except UnicodeDecodeError:
            return f"<{len(content)} bytes of binary content>"
    return content


def _binary_content_as_text(files: Any) -> Any:
    """The SDK mounts binary bytes as they are; the engine reads file content as text (SPEC's
    sandbox schema), where non-UTF-8 bytes are an error. So that the hook never rejects a call the
    SDK accepts, binary content is replaced by a placeholder naming its size; paths are untouched."""
    if isinstance(files, Mapping):
        return {k: _placeholder(v) for k, v in files.items()}
    if isinstance(files, (list, tuple)):
        out: list[Any] = []
        for f in files:
            if isinstance(f, Mapping):
                f = {k: _placeholder(v) if k in ("file_content", "content") else v for k, v in f.items()}
            out.append(f)
        return out
    return files


_lock = threading.Lock()
_hooks: list[PresubmitHook] = []  # the last one applies; earlier ones return when it is removed
_original_init: Callable[..., None] | None = None
_sandbox_class: type | None = None


def install(
    policy: Policy | InputValue = None,
    *,
    runners: Runners | RunnersValue = None,
    org: Org | InputValue = None,
    client: Client | None = "python",
    placement: Placement | None = None,
    warn: bool = True,
) -> PresubmitHook:
    """Checks every cwsandbox sandbox against `policy` before it is sent.

    The inputs are loaded once, here; a policy, runner inventory or org with errors raises now
    (every sandbox would fail otherwise). Returns the hook, usable as a context manager.
    """
    from cwsandbox import Sandbox  # the user asked for the hook: importing the SDK is expected now

    client_name, placement_name = _inputs.options("install", client, placement)  # refused now, not per sandbox
    loaded_policy = None if policy is None else _inputs.policy(policy)
    loaded_runners = None if runners is None else _inputs.runners(runners)
    loaded_org = None if org is None else _inputs.org(org)
    for loaded in (loaded_policy, loaded_runners, loaded_org):
        if loaded is not None:
            error = error_from_diagnostics(Result(loaded.result()).diagnostics)
            if error is not None:
                raise error
    hook = PresubmitHook(
        loaded_policy, loaded_runners, loaded_org, cast(Client, client_name), cast("Placement | None", placement_name or None), warn
    )
    global _original_init, _sandbox_class
    with _lock:
        if _original_init is None:
            original = Sandbox.__init__
            _original_init, _sandbox_class = original, Sandbox
            Sandbox.__init__ = _wrap(original)  # type: ignore[method-assign]
        _hooks.append(hook)
    return hook


def uninstall(hook: PresubmitHook | None = None) -> None:
    """Removes `hook` (default: the last installed); with none left the SDK is restored."""
    global _original_init, _sandbox_class
    with _lock:
        if hook is None:
            if _hooks:
                _hooks.pop()
        elif hook in _hooks:
            _hooks.remove(hook)
        if not _hooks and _original_init is not None and _sandbox_class is not None:
            _sandbox_class.__init__ = _original_init  # type: ignore[misc]
            _original_init = _sandbox_class = None


def active() -> PresubmitHook | None:
    """The hook that applies now, if any."""
    with _lock:
        return _hooks[-1] if _hooks else None


def _wrap(original: Callable[..., None]) -> Callable[..., None]:
    @functools.wraps(original)
    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        hook = active()
        if hook is not None:
            hook.enforce(kwargs)
        original(self, *args, **kwargs)

    return __init__


_INTERNAL_DIRS = (os.path.dirname(__file__) + os.sep,)


def _user_stacklevel() -> int:
    """How many frames up the user's call is, past sandgate and cwsandbox, for warnings."""
    sdk = sys.modules.get("cwsandbox")
    dirs = _INTERNAL_DIRS + ((os.path.dirname(sdk.__file__) + os.sep,) if sdk is not None and sdk.__file__ else ())
    level, frame = 1, sys._getframe(1)
    while frame is not None and frame.f_code.co_filename.startswith(dirs):
        level += 1
        frame = frame.f_back  # type: ignore[assignment]
    return level
