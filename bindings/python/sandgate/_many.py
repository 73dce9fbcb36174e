"""Many requests at once (SPEC §10): check_many and diff_policies, over the core's ordered pool."""

from __future__ import annotations


import errno
import os
import stat
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, Union, cast

from . import _inputs, _sandgate
from ._diagnostics import Diagnostic, SourceLocation, diagnostics_of
from ._policy import Org, Policy, Runners
from ._result import Result
from ._types import Client, DiffClass, InputValue, Placement, RunnersValue, StaticChangeKind

#: What ``check_many`` and ``diff_policies`` take as ``records``: an iterable of records (each a
#: sandbox as ``check`` takes it — a Mapping or an SDK-style dataclass — or ``{"id", "sandbox",
#: "defaults", "overrides"}``, or one JSON Lines line as ``str``/``bytes``), or a request stream
#: (SPEC §10.1): a path (``os.PathLike``, or any ``str`` without line breaks; ``-`` is standard
#: input), the stream's text (a ``str`` with line breaks, ``bytes``), or a binary/text file object.
#: Files, file objects and standard input are read a chunk at a time, and Ctrl-C stops the reading.
Records = Union[Iterable[Any], str, bytes, "os.PathLike[str]"]

# Results handed to Python per call into the engine; the engine reads up to 8 batches of 64 records
# ahead and goes on checking them while Python handles a chunk. Small chunks keep the live results
# (about 2 KB each, with their requests) within a core's cache: 50,000 records on one thread took
# 0.72 s in chunks of 4,096 and 0.50 s in chunks of 256 (bench/python/bench_check_many.py).
_CHUNK = 256
_NAME = "<records>"


_LAYERS = ("sandbox", "defaults", "overrides")


def _record(value: object) -> tuple[object, dict[str, str]]:
    """One record as check() reads its layers: SDK-style dataclasses become their set fields, and the
    name of the class each layer was given as goes along ("" for a record that is the sandbox), as
    check() passes it: a SandboxDefaults keeps its volume dicts where SandboxDefaults.from_dict (what
    a plain dict of defaults stands for) builds RegisteredVolumeOptions from them."""
    if type(value) is dict and "sandbox" in value:
        given = {k: n for k in _LAYERS if (n := _inputs.class_name(value.get(k)))}
        return {k: (_inputs._set_fields(v) if k in _LAYERS and v is not None else v) for k, v in value.items()}, given
    name = _inputs.class_name(value)
    return _inputs._set_fields(value), ({"": name} if name else {})


def _open_stream(path: str | bytes, function: str, hint: bool) -> int:
    """A request stream's file, opened here so that a missing file or a directory raises at the call
    (the binding then reads it a chunk at a time, with Ctrl-C honoured between reads)."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError as e:
        if not _inputs.add_path_meant(e, path) and hint:
            e.strerror = (
                f"{e.strerror} ({function}: a str without line breaks is read as a path to a request stream; "
                "pass the stream's text as bytes, or records as a list)"
            )
        raise
    try:
        if stat.S_ISDIR(os.fstat(fd).st_mode):
            raise IsADirectoryError(errno.EISDIR, f"Is a directory ({function} reads a request stream file)", path)
    except BaseException:
        os.close(fd)
        raise
    return fd


def _source(records: object, function: str) -> tuple[object, str, str]:
    """(records, kind, name): kind is "fd" (a file opened here, which the binding takes over),
    "stdin", "file" (a file object), "text" or "iter"; name labels the diagnostics."""
    if isinstance(records, os.PathLike):
        path = os.fspath(records)
        return _open_stream(path, function, False), "fd", _inputs.display_name(path)
    if isinstance(records, str):
        if records == "-":
            return records, "stdin", "-"
        if records and "\n" not in records and "\r" not in records:  # a path, as python.md says
            return _open_stream(records, function, True), "fd", _inputs.display_name(records)
        return records, "text", _NAME
    if isinstance(records, (bytes, bytearray, memoryview)):
        return bytes(records), "text", _NAME
    read = getattr(records, "read", None)
    if callable(read) and not isinstance(records, Mapping):
        # Read a chunk at a time by the binding: an endless file object (/dev/zero) stays in bounded
        # memory and Ctrl-C stops it.
        name = getattr(records, "name", None)
        return records, "file", _inputs.display_name(name) if isinstance(name, (str, bytes)) else _NAME
    if isinstance(records, Mapping) or not isinstance(records, Iterable):
        raise TypeError(
            f"{function}: records must be an iterable of records (dicts, SDK-style values) or a request stream "
            f"(a path, its text as bytes, a file object), not {type(records).__name__}; for one request use check()"
        )
    return records, "iter", _NAME


def _close_unused(source: object, kind: str) -> None:
    """A file opened by _source whose call raised before the binding took it over."""
    if kind == "fd":
        os.close(cast(int, source))


#: The most threads check_many and diff_policies start: the CLI's --jobs range is 1-1024 too.
MAX_THREADS = 1024


def _threads(threads: int | None, function: str) -> int:
    if threads is None:
        return 0
    if isinstance(threads, bool) or not isinstance(threads, int):
        raise TypeError(
            f"{function}(): threads must be a positive int or None (every core), not {type(threads).__name__}"
        )
    if not 1 <= threads <= MAX_THREADS:
        raise ValueError(
            f"{function}(): threads must be from 1 to {MAX_THREADS} (as the CLI's --jobs), or None for every core; "
            f"not {threads}"
        )
    return threads


def check_many(
    records: Records,
    policy: Policy | InputValue = None,
    runners: Runners | RunnersValue = None,
    org: Org | InputValue = None,
    client: Client | None = "python",
    placement: Placement | None = None,
    threads: int | None = None,
) -> Iterator[Result]:
    """Checks many requests (SPEC §10): one :class:`Result` per record, in input order.

    `records` is an iterable of records or a request stream (see :data:`Records`). The policy,
    runners and org are loaded once; the records are checked on `threads` threads (``None``: every
    core) with the GIL released. The iterator is lazy: records are read a few thousand at a time, so
    a stream of any length needs bounded memory. A record that cannot be read is still answered: its
    result holds one record-level diagnostic. Argument errors (``TypeError``, ``ValueError``, a
    missing file) are raised here, not on the first ``next()``.
    """
    loaded_policy = None if policy is None else _inputs.policy(policy)
    loaded_runners = None if runners is None else _inputs.runners(runners)
    loaded_org = None if org is None else _inputs.org(org)
    client_name, placement_name = _inputs.options("check_many", client, placement)
    jobs = _threads(threads, "check_many")
    source, kind, name = _source(records, "check_many")
    try:
        many = _sandgate.check_many(
            source, _record, kind, name, loaded_policy, loaded_runners, loaded_org, client_name, placement_name, jobs
        )
    except BaseException:
        _close_unused(source, kind)
        raise
    return _results(many)


def _results(many: _sandgate.ManyCheck) -> Iterator[Result]:
    while True:
        chunk = many.next_chunk(_CHUNK)
        if not chunk:
            return
        for raw in chunk:
            yield Result(raw)


def _source_location(t: _sandgate.SourceTuple | None) -> SourceLocation | None:
    return SourceLocation(*t) if t is not None else None


@dataclass(frozen=True, slots=True)
class StaticChange:
    """One difference between the two compiled policies (SPEC §10.3), with both sides' locations."""

    field: str  #: ``constraints.resources.max_cpu``; for a list item, the list's field
    pointer: str  #: JSON Pointer into the policy
    kind: StaticChangeKind  #: ``changed``, ``added``, ``removed`` or ``reordered``
    list_item: bool
    old: Any  #: the OLD value (None when OLD lacks it)
    new: Any  #: the NEW value (None when NEW lacks it)
    old_source: SourceLocation | None
    new_source: SourceLocation | None

    def __str__(self) -> str:
        return f"{self.field}: {self.old!r} → {self.new!r} ({self.kind})"


@dataclass(frozen=True, slots=True)
class ValueChange:
    """A resolved value that differs: a JSON Pointer or ``qos_class``, ``runtime_class``, … ."""

    pointer: str
    old: Any
    new: Any


@dataclass(frozen=True, slots=True)
class RecordDiff:
    """One record that is not ``unchanged`` under NEW."""

    record: int  #: its 1-based line in the stream (its position, for an iterable)
    index: int  #: its 1-based position
    id: str | None
    cls: DiffClass  #: ``newly_rejected``, ``newly_accepted``, ``rejection_changed``, ``resolution_changed``, ``unreadable``
    errors: tuple[Diagnostic, ...]  #: NEW's errors; for ``unreadable``, the record's problem
    old_codes: tuple[str, ...]  #: OLD's error codes (newly_accepted, rejection_changed)
    changes: tuple[ValueChange, ...]  #: resolution_changed
    caused_by: tuple[StaticChange, ...]  #: the static changes behind NEW's errors

    @property
    def codes(self) -> tuple[str, ...]:
        """The distinct codes of NEW's errors, in order."""
        return tuple(dict.fromkeys(d.code for d in self.errors))


class PolicyDiff:
    """What changes from OLD to NEW (SPEC §10.3): static changes and, with records, the replay."""

    __slots__ = ("_raw", "static_changes", "records", "counts")

    def __init__(self, raw: _sandgate.PolicyDiff) -> None:
        self._raw = raw
        self.static_changes: tuple[StaticChange, ...] = tuple(
            StaticChange(t[0], t[1], cast(StaticChangeKind, t[2]), t[3], t[4], t[5], _source_location(t[6]),
                         _source_location(t[7]))
            for t in raw.static_changes
        )
        self.records: tuple[RecordDiff, ...] = tuple(
            RecordDiff(t[0], t[1], t[2], cast(DiffClass, t[3]), diagnostics_of(t[4]), tuple(t[5]),
                       tuple(ValueChange(*c) for c in t[6]), tuple(self.static_changes[i] for i in t[7]))
            for t in raw.records
        )
        #: records per class; they add up to the number of records
        self.counts: dict[DiffClass, int] = cast("dict[DiffClass, int]", raw.counts)

    @property
    def ok(self) -> bool:
        """NEW is valid and no record is newly rejected (the CLI's exit 0)."""
        return self._raw.ok

    @property
    def replayed(self) -> bool:
        """Records were given (and both policies could be read)."""
        return self._raw.replayed

    @property
    def old_errors(self) -> tuple[Diagnostic, ...]:
        return diagnostics_of(self._raw.old_errors)

    @property
    def new_errors(self) -> tuple[Diagnostic, ...]:
        """NEW's own errors: a NEW that is not valid is never ``ok``."""
        return diagnostics_of(self._raw.new_errors)

    def to_markdown(self) -> str:
        """A summary fit for a pull-request comment (``sandgate policy diff --format markdown``)."""
        return self._raw.to_markdown()

    def to_text(self) -> str:
        return self._raw.to_text()

    def to_json(self) -> str:
        """The SPEC §10.3 JSON object (``--format json``)."""
        return self._raw.to_json()

    def __repr__(self) -> str:
        counts = ", ".join(f"{k}={v}" for k, v in self.counts.items() if v)
        return f"<PolicyDiff ok={self.ok} static_changes={len(self.static_changes)} {counts}>"


def diff_policies(
    old: Policy | InputValue,
    new: Policy | InputValue,
    records: Records | None = None,
    runners: Runners | RunnersValue = None,
    org: Org | InputValue = None,
    client: Client | None = "python",
    placement: Placement | None = None,
    examples: int = 5,
    threads: int | None = None,
) -> PolicyDiff:
    """The diff of two runner policies (SPEC §10.3), replayed over `records` when given.

    Every record is checked under OLD and under NEW with the same runners, org and client, on
    `threads` threads with the GIL released; ``.records`` lists every record that is not unchanged.
    Runners or an org with errors raise ``ValueError`` (fix them first, as the CLI says).
    """
    loaded_old, loaded_new = _inputs.policy(old), _inputs.policy(new)
    loaded_runners = None if runners is None else _inputs.runners(runners)
    loaded_org = None if org is None else _inputs.org(org)
    # The same runners and org apply to both sides: ones with errors are refused, as the CLI refuses
    # them, rather than making both sides reject every record alike.
    for label, loaded in (("runners", loaded_runners), ("org", loaded_org)):
        if loaded is not None and not loaded.ok:
            first = next((d for d in diagnostics_of(loaded.diagnostics) if d.is_error), None)
            verb = "have" if label == "runners" else "has"
            raise ValueError(f"diff_policies: the {label} {verb} errors; fix {'them' if label == 'runners' else 'it'} first: {first}")
    client_name, placement_name = _inputs.options("diff_policies", client, placement)
    if isinstance(examples, bool) or not isinstance(examples, int):
        raise TypeError(f"diff_policies(): examples must be an int of 0 or more, not {type(examples).__name__}")
    if examples < 0:
        raise ValueError(f"diff_policies(): examples must be 0 or more (how many records each class lists), not {examples}")
    jobs = _threads(threads, "diff_policies")
    source: object = None
    kind, name = "", ""
    if records is not None:
        source, kind, name = _source(records, "diff_policies")
    try:
        raw = _sandgate.diff_policies(
            loaded_old, loaded_new, source, _record, kind, name, loaded_runners, loaded_org, client_name,
            placement_name, examples, jobs,
        )
    except BaseException:
        _close_unused(source, kind)
        raise
    return PolicyDiff(raw)
