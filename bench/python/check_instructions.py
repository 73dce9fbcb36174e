"""Instructions per ``sandgate.check(dict)`` call from Python, on each README example, counted by
callgrind: the same count on every run of the same build, whatever else the machine does (the
times of bench_check.py move by ±40 % on a shared 2-core machine).

    .venv/bin/python bench/python/check_instructions.py [--calls 300] [--validate]

Each example runs in its own process under ``valgrind --tool=callgrind`` twice, with 0 and with
``--calls`` calls after the same set-up (imports, policy/runners/org loaded once, the request
read with PyYAML); the difference over the calls is one call's instructions — the Python wrapper,
the conversion of the dict, compiling and checking, and the lazy ``Result``. ``PYTHONPATH`` picks
the build to measure (e.g. another commit installed with ``pip install --target DIR``).

Python hashes with a fixed seed here (``PYTHONHASHSEED=0`` unless set). Between two builds, even of
the same source, counts still move by up to about 1,500 a call: the interpreter's own work depends
on where the extension's objects land in memory. A difference smaller than that between two builds
says nothing; the C++ counts (bench/check_instructions.sh) do not have this noise.

``--validate`` counts ``sandgate.validate_policy(dict)`` instead, on each ``examples/policies/*.yaml``
read with PyYAML (the dicts and calls of bench_check.py's validation table).
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
from pathlib import Path

from readme_examples import README_EXAMPLES as EXAMPLES  # beside this script

ROOT = Path(__file__).resolve().parents[2]

PROGRAM = """
import sys, yaml, sandgate
from pathlib import Path
e = Path(sys.argv[1])
policy = sandgate.Policy.load(e / sys.argv[3])
runners = sandgate.Runners.load(e / "runners.yaml")
org = sandgate.Org.load(e / "org.yaml")
request = yaml.safe_load((e / sys.argv[2]).read_text())
ok = sandgate.check(request, policy=policy, runners=runners, org=org).ok
for _ in range(int(sys.argv[4])):
    sandgate.check(request, policy=policy, runners=runners, org=org)
print("passes" if ok else "fails")
"""


VALIDATE_PROGRAM = """
import sys, yaml, sandgate
from pathlib import Path
policy = yaml.safe_load(Path(sys.argv[1]).read_text())
ok = sandgate.validate_policy(policy).ok
for _ in range(int(sys.argv[2])):
    sandgate.validate_policy(policy)
print("valid" if ok else "invalid")
"""


def callgrind_total(args: list[str]) -> tuple[int, str]:
    cmd = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable, "-c", *args]
    # A fixed hash seed: with a random one (Python's default) dicts and sets hash differently in
    # each process, and the same build's count moved by ±2,000 instructions a call between runs.
    env = {**os.environ, "PYTHONHASHSEED": os.environ.get("PYTHONHASHSEED", "0")}
    run = subprocess.run(cmd, capture_output=True, text=True, check=True, env=env)
    m = re.search(r"Collected : (\d+)", run.stderr)
    if not m:
        raise SystemExit(f"no callgrind total in:\n{run.stderr[-2000:]}")
    return int(m.group(1)), run.stdout.strip()


def collected(sandbox: str, policy: str, calls: int) -> tuple[int, str]:
    return callgrind_total([PROGRAM, str(ROOT / "examples"), sandbox, policy, str(calls)])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--calls", type=int, default=300)
    parser.add_argument("--validate", action="store_true", help="count validate_policy(dict) per example policy")
    args = parser.parse_args()
    if args.validate:
        print(f"{'policy':<40} {'verdict':<7} {'instructions per validate_policy(dict)':>39}")
        for path in sorted((ROOT / "examples" / "policies").glob("*.yaml")):
            base, _ = callgrind_total([VALIDATE_PROGRAM, str(path), "0"])
            total, verdict = callgrind_total([VALIDATE_PROGRAM, str(path), str(args.calls)])
            print(f"{path.name:<40} {verdict:<7} {(total - base) / args.calls:>39,.0f}")
        return 0
    print(f"{'example':<40} {'verdict':<7} {'instructions per check(dict)':>29}")
    for sandbox, policy in EXAMPLES:
        base, _ = collected(sandbox, policy, 0)
        total, verdict = collected(sandbox, policy, args.calls)
        print(f"{sandbox:<40} {verdict:<7} {(total - base) / args.calls:>29,.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
