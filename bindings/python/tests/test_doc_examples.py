"""Every documented Python example runs: the ```python blocks of README.md, docs/*.md and
bindings/python/README.md (if any), and the examples in the package's module docstrings.

The blocks of one document run in order in one namespace (a later block may use an earlier one's
names), in a scratch directory holding the files the examples name (``policy.yaml``,
``runners.yaml``, ``examples/``). A few names the prose leaves to the reader (``yaml_text``,
``doc``, ``ResourceOptions``) are given. Comments are checked where they state a result:

* ``# raises SomeError`` / ``# SomeError: message`` after a statement: it raises that class (by name,
  anywhere in the MRO, so sandgate's and the SDK's classes both count);
* an inline or next-line comment that is a Python literal (``# True``, ``# "1610612736", "1536Mi", …``)
  or the value's exact ``repr`` (``# ExceptionClasses(python=…, js=…)``): the expression equals it.

No network: the autouse ``no_network`` fixture refuses sockets, and the SDK's create RPC is replaced
by a fake, as in test_presubmit.py.
"""

from __future__ import annotations

import ast
import importlib
import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from helpers import EXAMPLES, REPO

import sandgate

DOCS = sorted(
    p for p in [REPO / "README.md", *(REPO / "docs").glob("*.md"), REPO / "bindings" / "python" / "README.md"] if p.exists()
)
MODULES = ["sandgate", "sandgate.presubmit"]

FENCE = re.compile(r"^```python[^\n]*\n(.*?)^```", re.M | re.S)
RAISES = re.compile(r"#\s*(?:raises\s+)?([A-Z]\w*(?:Error|Exception))\b")


def doc_blocks(path: Path) -> list[tuple[int, str]]:
    text = path.read_text(encoding="utf-8")
    return [(text.count("\n", 0, m.start()) + 2, m.group(1)) for m in FENCE.finditer(text)]


def docstring_blocks(module: str) -> list[tuple[int, str]]:
    """The indented code of a module docstring's first example (the lines after its summary)."""
    doc = importlib.import_module(module).__doc__ or ""
    lines, block = doc.splitlines(), list[str]()
    for line in lines[1:]:
        if line.startswith("    ") or (block and not line.strip()):
            block.append(line[4:])
        elif block:
            break
    code = "\n".join(block).strip()
    return [(0, code + "\n")] if code else []


CASES = [(p.relative_to(REPO).as_posix(), i) for p in DOCS for i in range(len(doc_blocks(p)))]
CASES += [(m, i) for m in MODULES for i in range(len(docstring_blocks(m)))]


def blocks_of(source: str) -> list[tuple[int, str]]:
    return docstring_blocks(source) if source in MODULES else doc_blocks(REPO / source)


def test_the_documents_have_python_examples() -> None:
    assert any(source == "docs/python.md" for source, _ in CASES)


@pytest.fixture
def scratch(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    shutil.copy(EXAMPLES / "policies" / "production-cks.yaml", tmp_path / "policy.yaml")
    shutil.copy(EXAMPLES / "runners.yaml", tmp_path / "runners.yaml")
    (tmp_path / "examples").symlink_to(EXAMPLES)
    monkeypatch.chdir(tmp_path)
    # The SDK's create RPC, faked: Sandbox.run's own path runs, nothing is sent.
    monkeypatch.setenv("CWSANDBOX_DISABLE_SIGNAL_HANDLERS", "1")
    from cwsandbox import Sandbox

    async def fake_start(self: Sandbox) -> str:
        return "sb-fake"

    monkeypatch.setattr(Sandbox, "_start_async", fake_start)
    yield tmp_path
    while sandgate.presubmit.active() is not None:
        sandgate.presubmit.uninstall()


def expected_raise(comment: str) -> str | None:
    m = RAISES.match(comment.strip())
    return m.group(1) if m else None


def expected_value(comment: str) -> tuple[bool, Any]:
    """(True, value) when the comment states a value: a Python literal, or a repr (kept as a str)."""
    text = comment.strip().lstrip("#").strip()
    if not text:
        return False, None
    try:
        return True, ast.literal_eval(text)
    except (ValueError, SyntaxError, MemoryError, RecursionError):
        pass
    if re.fullmatch(r"[A-Z]\w*\(.*\)", text):
        return True, _Repr(text)
    return False, None


class _Repr(str):
    pass


def comments_after(lines: list[str], stmt: ast.stmt) -> tuple[str, str]:
    """The statement's inline comment (on its last line) and the comment line right after it."""
    last = lines[stmt.end_lineno - 1] if stmt.end_lineno else ""
    inline = last[stmt.end_col_offset :] if stmt.end_col_offset is not None else ""
    inline = inline[inline.index("#") :] if "#" in inline else ""
    following = lines[stmt.end_lineno].strip() if stmt.end_lineno is not None and stmt.end_lineno < len(lines) else ""
    return inline, following if following.startswith("#") else ""


def run_block(code: str, ns: dict[str, Any], where: str) -> None:
    tree = ast.parse(code)
    lines = code.splitlines()
    for stmt in tree.body:
        inline, following = comments_after(lines, stmt)
        exc_name = expected_raise(inline) or expected_raise(following)
        label = f"{where}, line {stmt.lineno}: {ast.get_source_segment(code, stmt)}"
        module = ast.Module(body=[stmt], type_ignores=[])
        if isinstance(stmt, ast.Expr) and exc_name is None:
            value = eval(compile(ast.Expression(stmt.value), where, "eval"), ns)
            for comment in (inline, following):
                states, expected = expected_value(comment)
                if states:
                    actual = repr(value) if isinstance(expected, _Repr) else value
                    assert actual == expected, f"{label}: the document says {comment.strip()!r}, got {value!r}"
                    break
            continue
        if exc_name is not None:
            with pytest.raises(Exception) as info:
                exec(compile(module, where, "exec"), ns)
            names = [c.__name__ for c in type(info.value).__mro__]
            assert exc_name in names, f"{label}: the document says it raises {exc_name}, got {info.value!r}"
            continue
        exec(compile(module, where, "exec"), ns)


def namespace() -> dict[str, Any]:
    from cwsandbox import ResourceOptions

    yaml_text = (EXAMPLES / "policies" / "gpu-cks.yaml").read_text()
    return {
        "__name__": "__doc_example__",
        "yaml_text": yaml_text,
        "doc": yaml_text,
        "ResourceOptions": ResourceOptions,
    }


@pytest.mark.parametrize(("source", "index"), CASES, ids=[f"{s}#{i}" for s, i in CASES])
def test_documented_example_runs(source: str, index: int, scratch: Path) -> None:
    ns = namespace()
    blocks = blocks_of(source)
    for line, code in blocks[:index]:  # the earlier blocks set up the names this one uses
        run_block(code, ns, f"{source}:{line}")
    line, code = blocks[index]
    run_block(code, ns, f"{source}:{line}")
