#!/usr/bin/env python3
"""Golden tests of sandgate's text output: the look of a diagnostic (caret, notes, help) is pinned
here, not only its code. Each case in cases.json runs the CLI from the repository root and must
print exactly <name>.txt. A case with "stderr": true is a usage or I/O error: it must print nothing on
standard output and exactly <name>.txt on standard error (it runs without --color, which a line
that names no command would itself refuse). `--update` rewrites the expectations (read the diff
before committing)."""
import argparse
import difflib
import json
import pathlib
import shlex
import subprocess
import sys

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parent.parent


def example_problems(sandgate: str, help_text: str) -> list[str]:
    """Runs every command line of a help text's "Examples:" (from the repository root, through a
    shell for its globs and redirections): each must run, exit 0 or 1 (2 is a usage or I/O error)."""
    lines = help_text.split("Examples:\n", 1)[1].splitlines() if "Examples:\n" in help_text else []
    commands = [line.strip() for line in lines if line.startswith("  sandgate ")]
    if not commands:
        return ["the help text shows no example"]
    problems = []
    for command in commands:
        shell = shlex.quote(sandgate) + command[len("sandgate"):]
        proc = subprocess.run(["/bin/sh", "-c", shell], cwd=ROOT, capture_output=True, text=True, timeout=120)
        if proc.returncode not in (0, 1):
            problems.append(f"example `{command}` exited {proc.returncode}: {proc.stderr.strip()}")
    return problems


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sandgate", required=True)
    ap.add_argument("--update", action="store_true")
    args = ap.parse_args()
    cases = json.loads((HERE / "cases.json").read_text())["cases"]
    failed = 0
    for case in cases:
        on_stderr = case.get("stderr", False)
        color = [] if on_stderr else ["--color", "never"]
        proc = subprocess.run([args.sandgate, *case["args"], *color], cwd=ROOT, capture_output=True, text=True,
                              timeout=60)
        printed = proc.stderr if on_stderr else proc.stdout
        expected_file = HERE / f"{case['name']}.txt"
        if args.update:
            expected_file.write_text(printed)
        expected = expected_file.read_text() if expected_file.exists() else ""
        problems = []
        if proc.returncode != case["exit"]:
            problems.append(f"exit {proc.returncode}, expected {case['exit']}; stderr: {proc.stderr.strip()}")
        if on_stderr and proc.stdout:
            problems.append(f"printed on standard output: {proc.stdout!r}")
        if printed != expected:
            diff = difflib.unified_diff(expected.splitlines(), printed.splitlines(), "expected", "actual", lineterm="")
            problems.append("output differs:\n" + "\n".join(diff))
        if case.get("run_examples"):
            problems += example_problems(args.sandgate, printed)
        if case.get("readme"):
            readme = (ROOT / "README.md").read_text()
            command = "$ sandgate " + " ".join(case["args"])
            if command not in readme.replace(" \\\n    ", " "):
                problems.append(f"README.md does not show the command `{command}`")
            if proc.stdout not in readme:
                problems.append("README.md does not show this output verbatim")
        print(("FAIL " if problems else "ok   ") + case["name"])
        for p in problems:
            print("  " + p.replace("\n", "\n  "))
        failed += bool(problems)
    print(f"{len(cases) - failed}/{len(cases)} golden cases match")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
