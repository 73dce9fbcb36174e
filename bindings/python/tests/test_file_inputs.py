"""Files the binding reads itself: bounded by the document size limit, and any name the OS allows."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import sandgate

ZERO = Path("/dev/zero")
needs_dev_zero = pytest.mark.skipif(not ZERO.exists(), reason="needs /dev/zero")


def run_limited(code: str, address_space: int = 1 << 30, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    """Runs `code` in a child whose address space is capped: reading a file whole fails there at once."""
    prelude = textwrap.dedent(
        f"""
        import resource
        resource.setrlimit(resource.RLIMIT_AS, ({address_space}, {address_space}))
        """
    )
    return subprocess.run(
        [sys.executable, "-c", prelude + textwrap.dedent(code)], capture_output=True, text=True, timeout=timeout
    )


@needs_dev_zero
def test_an_endless_file_is_read_only_up_to_the_size_limit() -> None:
    # Every call that takes a path reads it in one place (sandgate._inputs.read_file): at most 4 MiB
    # + 1 byte, so an endless file is SG_DOC_TOO_LARGE, as `sandgate check /dev/zero` answers.
    out = run_limited(
        """
        import pathlib, sandgate
        z = pathlib.Path("/dev/zero")
        codes = lambda ds: sorted({d.code for d in ds if d.is_error})
        print(codes(sandgate.check(z).errors))
        print(codes(sandgate.check({}, policy=z).errors))
        print(codes(sandgate.Policy(z).errors))
        print(codes(sandgate.Policy.load(z).errors))
        print(codes(sandgate.Runners.load("/dev/zero").errors))
        print(codes(sandgate.Org(z).errors))
        print(codes(sandgate.validate_policy(z).errors))
        print(codes(sandgate.diff_policies({}, z).new_errors))
        """
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines() == ["['SG_DOC_TOO_LARGE']"] * 8


def test_a_file_past_the_limit_is_too_large_and_one_at_it_is_read(tmp_path: Path) -> None:
    limit = sandgate._inputs.MAX_DOCUMENT_BYTES
    assert limit == 4 << 20
    at = tmp_path / "at.yaml"
    at.write_bytes(b"{}" + b" " * (limit - 3) + b"\n")
    assert sandgate.Policy(at).ok
    past = tmp_path / "past.yaml"
    past.write_bytes(b"{}" + b" " * (limit - 1))
    assert [d.code for d in sandgate.Policy(past).errors] == ["SG_DOC_TOO_LARGE"]


BAD_NAME = os.fsdecode(b"bad\xff.yaml")


@pytest.fixture
def bad_name_file(tmp_path: Path) -> Path:
    path = tmp_path / BAD_NAME
    try:
        path.write_text('resources: {cpu: "1", memory: 1Gi}\n')
    except (OSError, UnicodeError):
        pytest.skip("the file system takes no names that are not UTF-8")
    return path


def test_a_path_that_is_not_utf8_is_read_and_named_with_escapes(bad_name_file: Path) -> None:
    shown = str(bad_name_file.parent) + "/bad\\xff.yaml"
    r = sandgate.check(bad_name_file, policy={"constraints": {"resources": {"max_cpu": "0.5"}}})
    assert [d.code for d in r.errors] == ["SG_RESOURCE_ABOVE_MAX"]
    assert r.errors[0].source is not None and r.errors[0].source.file == shown
    p = sandgate.Policy.load(bad_name_file)
    assert p.file == shown
    assert sandgate.Policy(str(bad_name_file)).file == shown  # a str path with os.fsdecode's escapes
    stream = bad_name_file.with_name(os.fsdecode(b"requests\xfe.yaml"))
    stream.write_text('- {resources: {cpu: "1", memory: 1Gi}}\n- [not, a, record]\n')
    results = list(sandgate.check_many(stream))
    assert [r.ok for r in results] == [True, False]
    source = results[1].errors[0].source
    assert source is not None and source.file == str(stream.parent) + "/requests\\xfe.yaml"
