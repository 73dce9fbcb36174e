"""Native memory stays flat over many calls of each public function (issue 12, item 7).

tracemalloc sees only Python's allocator, so each case runs in its own interpreter that calls one
function in a loop and reports how much its resident memory (``/proc/self/statm``) grew per call,
after a warm-up and with Python's garbage collected (the smaller of two measured windows: a leak
shows in both, a one-off step in one). The bound is far below a leak of a few hundred
bytes per call (what Node's ``check()`` leaked) and far above the noise.
``SANDGATE_LEAK_CALLS`` sets the number of calls (default 45,000; each case has 120 s, so a million
calls go through bench/python/native_memory.py, which has no timeout).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from helpers import EXAMPLES

CALLS = int(os.environ.get("SANDGATE_LEAK_CALLS", "45000"))
BOUND = 100  # bytes per call

LOOP = r"""
import gc, json, os, sys, time
from pathlib import Path
import sandgate

examples = Path(sys.argv[3])
policy_text = (examples / "policies" / "production-cks.yaml").read_text()
runners_text = (examples / "runners.yaml").read_text()
policy = sandgate.Policy(policy_text)
policy_v2 = sandgate.Policy((examples / "policies" / "production-cks-v2.yaml").read_text())
runners = sandgate.Runners(runners_text)
import yaml
policy_dict = yaml.safe_load(policy_text)
sandbox = {"placement_mode": "cks", "resources": {"requests": {"cpu": "2", "memory": "4Gi"},
           "limits": {"cpu": "2", "memory": "4Gi"}}, "annotations": {"team": "ml"}}
cases = {
    "check(dict)": lambda: sandgate.check(sandbox),
    "check(dict, policy=Policy, runners=Runners)": lambda: sandgate.check(sandbox, policy=policy, runners=runners),
    "check(dict, policy=dict)": lambda: sandgate.check(sandbox, policy=policy_dict),
    "check(text)": lambda: sandgate.check("resources:\n  cpu: '1'\n  memory: 1Gi\n"),
    "check(dict).resolved": lambda: sandgate.check(sandbox, policy=policy).to_dict(),
    "validate_policy(dict)": lambda: sandgate.validate_policy(policy_dict),
    "Policy(text)": lambda: sandgate.Policy(policy_text).diagnostics,
    "normalize_resources(dict)": lambda: sandgate.normalize_resources({"cpu": "1", "memory": "1Gi"}),
    "parse_quantity(text)": lambda: sandgate.parse_quantity("1536Mi"),
    "exception_for(code)": lambda: sandgate.exception_for("INVALID_ARGUMENT", None, None),
    "Runners(text)": lambda: sandgate.Runners(runners_text).diagnostics,
    "check_many(4 dicts)": lambda: list(sandgate.check_many([sandbox] * 4, policy=policy, threads=1)),
    # Results dropped one by one while the check goes on (freed by the next chunk, bind_many.cpp):
    # chunks of 8 records, so each call spans three.
    "check_many(20 dicts, each dropped)": lambda: sum(r.ok for r in sandgate.check_many([sandbox] * 20, policy=policy, threads=2)),
    "diff_policies(Policy, Policy)": lambda: sandgate.diff_policies(policy, policy_v2).counts,
    # The control: 390 bytes of native memory per call never freed (what Node's check() leaked).
    "control: malloc(390)": lambda: libc.malloc(390),
}
sandgate._many._CHUNK = 8
import ctypes
libc = ctypes.CDLL(None)
libc.malloc.restype = ctypes.c_void_p
fn, calls = cases[sys.argv[1]], int(sys.argv[2])
page = os.sysconf("SC_PAGE_SIZE")
def rss():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * page
# A third of the calls warms up, then two windows of a third each are measured: a leak grows RSS
# in both alike, a one-off step (a new arena) in one at most, so the smaller window is the figure.
third = max(1000, calls // 3)
start = time.perf_counter()
for _ in range(third):
    fn()
marks = []
for w in range(3):
    if w:
        for _ in range(third):
            fn()
    gc.collect()
    marks.append(rss())
seconds = time.perf_counter() - start
windows = [marks[1] - marks[0], marks[2] - marks[1]]
print(json.dumps({"case": sys.argv[1], "calls": 3 * third, "seconds": round(seconds, 2), "window_calls": third,
                  "window_growth_bytes": windows, "bytes_per_call": min(windows) / third}))
"""

# case → share of CALLS (compiling a policy per call is ~5x slower than checking a request)
CASES = {
    "check(dict)": 1,
    "check(dict, policy=Policy, runners=Runners)": 1,
    "check(dict, policy=dict)": 4,
    "check(text)": 1,
    "check(dict).resolved": 2,
    "validate_policy(dict)": 1,
    "Policy(text)": 4,
    "normalize_resources(dict)": 1,
    "parse_quantity(text)": 1,
    "exception_for(code)": 1,
    "Runners(text)": 2,
    "check_many(4 dicts)": 4,
    "check_many(20 dicts, each dropped)": 40,
    "diff_policies(Policy, Policy)": 8,
}


def case_names() -> list[str]:
    """Every case the loop knows, in its order (the control last)."""
    import ast
    import re

    start = LOOP.index("cases = {")
    block = LOOP[start:LOOP.index("\n}\n", start)]
    return [ast.literal_eval(m) for m in re.findall(r'^    ("[^"]+"):', block, re.M)]


def growth(case: str, calls: int = CALLS, timeout: float | None = 120) -> dict[str, float]:
    # bench/python/native_memory.py runs a million calls per case through here with timeout=None
    # (Policy(text) took more than 500 s for them on a busy machine).
    run = subprocess.run(
        [sys.executable, "-c", LOOP, case, str(calls), str(EXAMPLES)], capture_output=True, text=True,
        timeout=timeout,
    )
    assert run.returncode == 0, run.stderr
    return json.loads(run.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]


def test_every_case_of_the_loop_is_measured() -> None:
    # bench/python/native_memory.py reads the loop's cases through case_names(): both lists agree.
    assert case_names() == [*CASES, "control: malloc(390)"]


@pytest.mark.skipif(not os.path.exists("/proc/self/statm"), reason="needs /proc (Linux) for the resident size")
@pytest.mark.parametrize("case", list(CASES))
def test_native_memory_is_flat(case: str) -> None:
    r = growth(case, CALLS // CASES[case])
    print(r)
    assert r["bytes_per_call"] < BOUND, f"{case}: RSS grew {r['window_growth_bytes']} bytes over two windows of {r['window_calls']} calls ({r})"


@pytest.mark.skipif(not os.path.exists("/proc/self/statm"), reason="needs /proc (Linux) for the resident size")
def test_the_measurement_catches_a_leak_of_390_bytes_per_call() -> None:
    r = growth("control: malloc(390)", CALLS // 4)
    assert r["bytes_per_call"] >= BOUND, r
