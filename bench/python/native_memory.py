"""Native memory over many calls of each public Python function (issue 12: "1,000,000 calls of
each public function leave native memory flat").

    .venv/bin/python bench/python/native_memory.py [--calls 1000000] [CASE …]

Each case runs in its own interpreter (the loop of bindings/python/tests/test_native_memory.py,
which runs the same cases at 45,000 calls in CI): a third of the calls warms up, then two windows
of a third each are measured with Python's garbage collected; bytes per call is the smaller
window's RSS growth over its calls. Prints one row per case.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bindings" / "python" / "tests"))

import test_native_memory as nm  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--calls", type=int, default=1_000_000)
    ap.add_argument("cases", nargs="*", help="case names (default: every case but the control)")
    args = ap.parse_args()
    names = [n for n in nm.case_names() if not n.startswith("control")]
    cases = args.cases or names
    print(f"{'case':48s} {'calls':>10s} {'seconds':>8s} {'RSS growth per window':>26s} {'bytes/call':>10s}")
    for case in cases:
        r = nm.growth(case, args.calls, timeout=None)
        growth = " / ".join(f"{g:,}" for g in r["window_growth_bytes"])
        print(f"{case:48s} {r['calls']:>10,} {r['seconds']:>8.1f} {growth:>26s} {r['bytes_per_call']:>10.2f}", flush=True)


if __name__ == "__main__":
    main()
