#!/usr/bin/env python3
"""Golden tests of sandgate's text output: the look of a diagnostic (caret, notes, help) is pinned
here, not only its code. Each case in cases.json runs the CLI from the repository root and must
print exactly <name>.txt. `--update` rewrites the expectations (read the diff before committing)."""
import argparse
import difflib
import json
import pathlib
import subprocess
import sys

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parent.parent


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sandgate", required=True)
    ap.add_argument("--update", action="store_true")
    args = ap.parse_args()
    cases = json.loads((HERE / "cases.json").read_text())["cases"]
    failed = 0
    for case in cases:
        proc = subprocess.run([args.sandgate, *case["args"], "--color", "never"], cwd=ROOT, capture_output=True, text=True,
                              timeout=60)
        expected_file = HERE / f"{case['name']}.txt"
        if args.update:
            expected_file.write_text(proc.stdout)
        expected = expected_file.read_text() if expected_file.exists() else ""
        problems = []
        if proc.returncode != case["exit"]:
            problems.append(f"exit {proc.returncode}, expected {case['exit']}; stderr: {proc.stderr.strip()}")
        if proc.stdout != expected:
            diff = difflib.unified_diff(expected.splitlines(), proc.stdout.splitlines(), "expected", "actual", lineterm="")
            problems.append("output differs:\n" + "\n".join(diff))
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
