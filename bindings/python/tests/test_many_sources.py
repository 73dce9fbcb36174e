"""check_many's request streams the binding reads itself: Ctrl-C, bounded memory, the str rule."""

from __future__ import annotations

import dataclasses
import datetime
import decimal
import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

import sandgate

needs_posix_signals = pytest.mark.skipif(
    not Path("/dev/zero").exists() or sys.platform == "win32", reason="needs /dev/zero and POSIX signals"
)


def interrupted(records_expr: str, tmp_path: Path, stdin: int | None = None) -> str:
    """Runs check_many over `records_expr` in a child (address space capped, so a stream read whole
    fails at once), sends SIGINT once it iterates, and returns what it printed. `stdin` is the
    child's standard input (a file descriptor)."""
    code = textwrap.dedent(
        f"""
        import os, pathlib, resource, sys, sandgate
        resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))
        print("start", flush=True)
        try:
            for r in sandgate.check_many({records_expr}, threads=2):
                pass
            print("ended")
        except KeyboardInterrupt:
            print("KeyboardInterrupt")
        """
    )
    child = subprocess.Popen(
        [sys.executable, "-c", code], stdin=stdin, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        cwd=tmp_path,
    )
    try:
        assert child.stdout is not None
        assert child.stdout.readline() == "start\n"
        time.sleep(1.0)  # well inside check_many by now
        child.send_signal(signal.SIGINT)
        out, _ = child.communicate(timeout=20)
    finally:
        if child.poll() is None:
            child.kill()
            child.communicate()
    return out


@needs_posix_signals
@pytest.mark.parametrize(
    "records", ["pathlib.Path('/dev/zero')", "open('/dev/zero', 'rb')", "'/dev/zero'", "open('fifo', 'rb')"]
)
def test_ctrl_c_stops_a_stream_whose_line_never_ends(records: str, tmp_path: Path) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    writer = None
    if "fifo" in records:
        # A writer that says nothing: the stream waits for ever, as on a stalled mount.
        writer = subprocess.Popen(["sh", "-c", "exec sleep 60 > fifo"], cwd=tmp_path)
    try:
        out = interrupted(records, tmp_path)
    finally:
        if writer is not None:
            writer.kill()
            writer.wait()
    assert out.strip().splitlines()[-1] == "KeyboardInterrupt", out


@needs_posix_signals
def test_ctrl_c_stops_standard_input_whose_line_never_ends(tmp_path: Path) -> None:
    # A pipe that sent the start of a record and then nothing, kept open: the core's own reader of
    # '-' retried the interrupted read for ever, and KeyboardInterrupt never came.
    read_end, write_end = os.pipe()
    try:
        os.write(write_end, b'{"resources": {"cpu": "1"')
        out = interrupted("'-'", tmp_path, stdin=read_end)
    finally:
        os.close(read_end)
        os.close(write_end)
    assert out.strip().splitlines()[-1] == "KeyboardInterrupt", out


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX standard input")
@pytest.mark.parametrize(
    "text",
    [b'{"resources": {"cpu": "1", "memory": "1Gi"}}\n{"resources": {"cpu": "99", "memory": "1Gi"}}\n',
     b'# a YAML list: standard input has no name to say so\n- resources: {cpu: "1", memory: 1Gi}\n'
     b'- resources: {cpu: "99", memory: 1Gi}\n'],
    ids=["JSON Lines", "YAML list"],
)
def test_standard_input_reads_alike_from_a_pipe_and_from_a_file(text: bytes, tmp_path: Path) -> None:
    # A pipe is fed through the binding (Ctrl-C), a regular file read by the core: the same records.
    code = textwrap.dedent(
        """
        import json, sandgate
        policy = {"constraints": {"resources": {"max_cpu": "8"}}}
        print(json.dumps([[r.ok, [[d.code, d.source.file, d.source.line] for d in r.errors]]
                          for r in sandgate.check_many("-", policy=policy, threads=1)]))
        """
    )
    path = tmp_path / "requests"
    path.write_bytes(text)
    with open(path, "rb") as f:
        from_file = subprocess.run([sys.executable, "-c", code], stdin=f, capture_output=True, check=True).stdout
    from_pipe = subprocess.run([sys.executable, "-c", code], input=text, capture_output=True, check=True).stdout
    assert json.loads(from_pipe) == json.loads(from_file) == [
        [True, []], [False, [["SG_RESOURCE_ABOVE_MAX", "<stdin>", 2 if text.startswith(b"{") else 3]]]
    ]


def test_a_file_object_is_read_a_chunk_at_a_time(tmp_path: Path) -> None:
    class Chunks:
        name = "requests.jsonl"

        def __init__(self) -> None:
            self.sizes: list[int] = []
            self.left = b'{"resources": {"cpu": "1", "memory": "1Gi"}}\n' * 50_000

        def read(self, n: int = -1) -> bytes:
            self.sizes.append(n)
            out, self.left = (self.left, b"") if n < 0 else (self.left[:n], self.left[n:])
            return out

    f = Chunks()
    assert sum(r.ok for r in sandgate.check_many(f)) == 50_000
    assert len(f.sizes) > 2 and all(0 < n <= 1 << 20 for n in f.sizes)


def test_a_str_without_line_breaks_is_a_path(tmp_path: Path) -> None:
    # python.md: a str without line breaks is a path, with or without an extension.
    missing = str(tmp_path / "nonexistent")
    with pytest.raises(FileNotFoundError, match="read as a path to a request stream") as e:
        sandgate.check_many(missing)
    assert e.value.filename == missing
    with pytest.raises(IsADirectoryError):
        sandgate.check_many(str(tmp_path))
    with pytest.raises(IsADirectoryError):
        sandgate.check_many(tmp_path)
    with pytest.raises(FileNotFoundError):
        sandgate.diff_policies({}, {}, records=missing)
    plain = tmp_path / "requests"
    plain.write_text('{"resources": {"cpu": "1", "memory": "1Gi"}}\n[]\n')
    assert [r.ok for r in sandgate.check_many(str(plain))] == [True, False]
    assert [r.ok for r in sandgate.check_many('{"resources": {"cpu": "1"}}\n')] == [True]  # a line break: text


class Opaque:
    """A value the converter cannot read."""


@pytest.mark.parametrize(
    "value",
    [Opaque(), Path("requests.yaml"), decimal.Decimal("1"), {1, 2}, datetime.date(2026, 1, 1), sandgate.Policy({})],
    ids=lambda v: type(v).__name__,
)
def test_a_record_the_converter_cannot_read_is_reported_as_check_reports_it(value: object) -> None:
    # python.md: check and check_many give the same verdict and diagnostics for such a value; the
    # record-level diagnostic said "must be an object …, not null" about the null left in its place.
    # check() reads a Path as a file and refuses a Policy as a layer: their converter's message instead
    converted = not isinstance(value, (Path, sandgate.Policy))
    want = sandgate.check({"resources": {}}, overrides=value if converted else object()).errors[0]
    assert want.code == "SG_VALUE_UNSUPPORTED"
    if not converted:
        want = dataclasses.replace(want, message=f"a value of type {type(value).__name__} ({value!r}) cannot be checked")
    for record, path in [(value, ""), ({"id": "a", "sandbox": value}, "/sandbox"),
                         ({"sandbox": {}, "defaults": value}, "/defaults")]:
        (r,) = sandgate.check_many([record], threads=1)
        assert [(d.code, d.message, d.path) for d in r.errors] == [(want.code, want.message, path)]
        assert r.errors[0].input == "requests"
        assert r.errors[0].source is not None and r.errors[0].source.line == 1


def test_diff_policies_names_a_policy_given_as_a_value_or_unreadable_text() -> None:
    # The header read "policy diff: examples/policies/production-cks.yaml → " for a dict.
    old = "examples/policies/production-cks.yaml"
    root = Path(__file__).resolve().parents[3]
    d = sandgate.diff_policies(str(root / old), {"constraints": {}})
    assert d.to_text().splitlines()[0] == f"policy diff: {root / old} → <value>"
    assert f"`{root / old}` → `<value>`" in d.to_markdown().splitlines()[0]
    d = sandgate.diff_policies(sandgate.Policy({}), b"constraints: [unclosed")
    assert d.to_text().splitlines()[0] == "policy diff: <value> → <policy>"


def test_diff_policies_says_the_org_has_errors() -> None:
    with pytest.raises(ValueError, match=r"^diff_policies: the org has errors; fix it first: "):
        sandgate.diff_policies({}, {}, org={"gpu_allowed": "yes"})
    with pytest.raises(ValueError, match=r"^diff_policies: the runners have errors; fix them first: "):
        sandgate.diff_policies({}, {}, runners={"runners": 5})


@pytest.mark.parametrize("kind", ["regular file", "fifo", "file object"])
def test_problems_the_stream_reader_finds_name_the_stream_as_given(kind: str, tmp_path: Path) -> None:
    # The core's reader opens the stream under another name (/dev/fd/N, or a pipe the binding feeds):
    # a record too large to keep, which the reader itself reports, still names the user's file.
    text = b'{"resources": {"cpu": "1", "memory": "1Gi"}}\n' + b"[" + b" " * (5 << 20) + b"]\n" + b"{}\n"
    path = tmp_path / ("requests.jsonl" if kind != "fifo" else "fifo")
    writer = None
    if kind == "fifo":
        os.mkfifo(path)
        source = tmp_path / "source.jsonl"
        source.write_bytes(text)
        writer = subprocess.Popen(["sh", "-c", 'exec cat "$0" > "$1"', str(source), str(path)])
    else:
        path.write_bytes(text)
    try:
        if kind == "file object":
            with open(path, "rb") as f:
                results = list(sandgate.check_many(f))
        else:
            results = list(sandgate.check_many(path))
    finally:
        if writer is not None:
            writer.wait(timeout=30)
    assert [r.ok for r in results] == [True, False, True]
    (error,) = results[1].errors
    assert error.code == "SG_DOC_TOO_LARGE"
    assert error.source is not None and (error.source.file, error.source.line) == (str(path), 2)


@pytest.mark.parametrize("kind", ["bytes", "BytesIO", "file object"])
def test_a_yaml_list_without_a_telling_name_is_read_as_one_as_the_cli_reads_stdin(kind: str, tmp_path: Path) -> None:
    import io

    policy = {"constraints": {"resources": {"max_cpu": "8"}}}
    text = b'# two requests\n- resources: {cpu: "1", memory: 1Gi}\n- resources: {cpu: "99", memory: 1Gi}\n'
    if kind == "bytes":
        source: object = text
    elif kind == "BytesIO":
        source = io.BytesIO(text)
    else:
        path = tmp_path / "requests"  # no extension: the name says nothing
        path.write_bytes(text)
        source = open(path, "rb")
    try:
        results = list(sandgate.check_many(source, policy=policy))
    finally:
        if hasattr(source, "close"):
            source.close()  # type: ignore[union-attr]
    assert [r.ok for r in results] == [True, False]
    assert [d.code for d in results[1].errors] == ["SG_RESOURCE_ABOVE_MAX"]
