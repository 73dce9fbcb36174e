#!/usr/bin/env python3
"""Runs the hostile-input catalogue (tests/hostile/manifest.json) against the sandgate CLI.

    python3 tests/hostile/run.py --sandgate build/default/sandgate [--timeout 2] [--jobs N]
                                 [--max-rss-mb 512] [--filter TEXT] [--keep]

Every case runs `sandgate policy validate FILE --format json [ARGS]` (or, for a case with
"check", `sandgate check FILE --policy POLICY --format json [ARGS]`) and fails when it takes
longer than --timeout seconds (wall time), dies from a signal, prints nothing parsable, reports a
sanitizer error, uses more than --max-rss-mb of memory (0: no check; sanitizer builds need it
off), exits with another status than expected, or misses an expected diagnostic. Large inputs are
generated into a temporary directory first (generate.py). Python 3 standard library only.
"""

import argparse
import concurrent.futures
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import generate  # noqa: E402  (the generator lives next to this file)

SANITIZER_MARKERS = ("ERROR: AddressSanitizer", "ERROR: LeakSanitizer", "runtime error:", "ThreadSanitizer")


class Outcome:
    def __init__(self, case):
        self.case = case
        self.problems = []
        self.seconds = 0.0
        self.rss_mb = 0.0
        self.exit = None
        self.codes = []

    @property
    def known_issue(self):
        return self.case.get("known_issue")

    @property
    def status(self):
        if self.known_issue:
            return "XFAIL" if self.problems else "XPASS"
        return "FAIL" if self.problems else "PASS"


def sanitizer_env():
    """The environment for the binary under test. Under ASan the default 256 MB quarantine of
    freed memory and the stack trace kept for every allocation dominate the time and memory of
    the multi-megabyte cases (a 3.9 MB one-line JSON: 1.9 s and 465 MB by default, 1.0 s and
    109 MB with these settings; 0.14 s and 31 MB without ASan). A smaller quarantine still
    catches a use after a recent free, and a report still shows where the bad access is; rerun
    a failing case with ASAN_OPTIONS=malloc_context_size=30 for allocation stacks. Settings
    given by the caller win."""
    env = dict(os.environ)
    ours = "quarantine_size_mb=16:malloc_context_size=0"
    env["ASAN_OPTIONS"] = ours + (":" + env["ASAN_OPTIONS"] if env.get("ASAN_OPTIONS") else "")
    return env


def run_process(argv, timeout):
    """Runs argv; returns (exit status or -signal, stdout, stderr, seconds, peak RSS in MB,
    timed_out). Uses wait4 so the peak memory is this child's own."""
    start = time.monotonic()
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL,
                            env=sanitizer_env())
    out, err = [], []
    readers = [threading.Thread(target=lambda s=s, b=b: b.append(s.read())) for s, b in
               ((proc.stdout, out), (proc.stderr, err))]
    for r in readers:
        r.start()
    timed_out = threading.Event()

    def kill():
        timed_out.set()
        proc.kill()

    timer = threading.Timer(timeout, kill)
    timer.start()
    try:
        _, status, usage = os.wait4(proc.pid, 0)
    finally:
        timer.cancel()
    seconds = time.monotonic() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    for r in readers:
        r.join()
    rss_mb = usage.ru_maxrss / 1024.0  # kilobytes on Linux
    return proc.returncode, b"".join(out), b"".join(err), seconds, rss_mb, timed_out.is_set()


def diagnostics_of(report):
    for result in report.get("results", []):
        for d in result.get("diagnostics", []):
            yield d


def check_expectations(outcome, diagnostics):
    expect = outcome.case["expect"]
    if outcome.exit != expect["exit"]:
        outcome.problems.append("exit %s, expected %s" % (outcome.exit, expect["exit"]))
    codes = [d.get("code") for d in diagnostics]
    for code in expect["codes"]:
        if code not in codes:
            outcome.problems.append("missing %s" % code)
    if expect.get("only", True):
        allowed = set(expect["codes"]) | set(expect.get("allow", []))
        extra = sorted({d.get("code") for d in diagnostics if d.get("severity") == "error" and d.get("code") not in allowed})
        if extra:
            outcome.problems.append("unexpected errors %s" % ", ".join(extra))
    located = [k for k in ("path", "line", "column") if k in expect]
    if located and expect["codes"]:
        first = expect["codes"][0]
        candidates = [d for d in diagnostics if d.get("code") == first]
        if candidates and not any(matches_location(d, expect) for d in candidates):
            d = candidates[0]
            src = d.get("source") or {}
            outcome.problems.append("%s at %r %s:%s, expected %r %s:%s" % (
                first, shorten(d.get("path")), src.get("line"), src.get("column"),
                shorten(expect.get("path", "*")), expect.get("line", "*"), expect.get("column", "*")))


def matches_location(d, expect):
    src = d.get("source") or {}
    return (("path" not in expect or d.get("path") == expect["path"]) and
            ("line" not in expect or src.get("line") == expect["line"]) and
            ("column" not in expect or src.get("column") == expect["column"]))


def shorten(s, limit=60):
    if not isinstance(s, str) or len(s) <= limit:
        return s
    return s[:limit] + "…(%d chars)" % len(s)


def run_case(case, path, args, policy=None):
    outcome = Outcome(case)
    if "check" in case:
        argv = [args.sandgate, "check", path, "--format", "json"] + (["--policy", policy] if policy else [])
    else:
        argv = [args.sandgate, "policy", "validate", path, "--format", "json"]
    argv += case.get("args", [])
    limit = min(args.timeout, case.get("max_seconds", args.timeout))
    status, out, err, seconds, rss_mb, timed_out = run_process(argv, limit)
    outcome.exit, outcome.seconds, outcome.rss_mb = status, seconds, rss_mb
    if timed_out:
        outcome.problems.append("killed after %.1f s (limit %.1f s)" % (seconds, limit))
        return outcome
    if seconds > limit:
        outcome.problems.append("took %.2f s (limit %.1f s)" % (seconds, limit))
    if status < 0:
        outcome.problems.append("killed by signal %d" % -status)
    stderr = err.decode("utf-8", "replace")
    for marker in SANITIZER_MARKERS:
        if marker in stderr:
            line = next(l for l in stderr.splitlines() if marker in l)
            outcome.problems.append("sanitizer: " + line.strip()[:200])
            break
    if args.max_rss_mb and rss_mb > args.max_rss_mb:
        outcome.problems.append("peak memory %.0f MB (limit %d MB)" % (rss_mb, args.max_rss_mb))
    try:
        report = json.loads(out.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as e:
        outcome.problems.append("output is not JSON (%s); stderr: %s" % (e, stderr.strip()[:200]))
        return outcome
    diagnostics = list(diagnostics_of(report))
    outcome.codes = sorted({d.get("code") for d in diagnostics})
    check_expectations(outcome, diagnostics)
    return outcome


CASE_KEYS = {"name", "about", "file", "generate", "ext", "args", "expect", "known_issue", "max_seconds", "check", "alone"}
CHECK_KEYS = {"policy"}
EXPECT_KEYS = {"exit", "codes", "path", "line", "column", "only", "allow"}


def check_manifest(cases):
    """A typo in the manifest must not turn into a check that silently never runs."""
    names = set()
    for c in cases:
        where = c.get("name", "?")
        problems = ["unknown key %r" % k for k in sorted(set(c) - CASE_KEYS)]
        problems += ["unknown expect key %r" % k for k in sorted(set(c.get("expect", {})) - EXPECT_KEYS)]
        if ("file" in c) == ("generate" in c):
            problems.append("needs exactly one of file and generate")
        if "check" in c:
            problems += ["unknown check key %r" % k for k in sorted(set(c["check"]) - CHECK_KEYS)]
            policy = c["check"].get("policy")
            if policy is not None and ("file" in policy) == ("generate" in policy):
                problems.append("check.policy needs exactly one of file and generate")
        if "exit" not in c.get("expect", {}) or "codes" not in c.get("expect", {}):
            problems.append("expect needs exit and codes")
        if where in names:
            problems.append("duplicate name")
        names.add(where)
        if problems:
            raise ValueError("manifest.json, case %s: %s" % (where, "; ".join(problems)))


def case_input(case, tmpdir):
    if "file" in case:
        return os.path.join(HERE, case["file"])
    return generate.generate_case(case, tmpdir)


def case_policy(case, tmpdir):
    """The policy file of a `check` case (None without one)."""
    policy = case.get("check", {}).get("policy")
    if not policy:
        return None
    if "file" in policy:
        return os.path.join(HERE, policy["file"])
    return generate.generate_case(dict(policy, name=case["name"]), tmpdir, "-policy")


def main():
    parser = argparse.ArgumentParser(description=__doc__.strip().splitlines()[0])
    parser.add_argument("--sandgate", required=True, help="the sandgate binary")
    parser.add_argument("--timeout", type=float, default=2.0, help="seconds allowed per case (default 2)")
    parser.add_argument("--jobs", "-j", type=int, default=min(4, os.cpu_count() or 1),
                        help="cases run at once (default: the number of CPUs, at most 4)")
    parser.add_argument("--max-rss-mb", type=int, default=512,
                        help="peak memory allowed per case in MB; 0 turns the check off (default 512)")
    parser.add_argument("--filter", default="", help="run only cases whose name contains this")
    parser.add_argument("--keep", action="store_true", help="keep the generated inputs and print where")
    args = parser.parse_args()
    args.sandgate = os.path.abspath(args.sandgate)
    if not os.access(args.sandgate, os.X_OK):
        print("run.py: %s is not an executable" % args.sandgate, file=sys.stderr)
        return 2

    with open(os.path.join(HERE, "manifest.json"), encoding="utf-8") as f:
        cases = json.load(f)["cases"]
    check_manifest(cases)
    cases = [c for c in cases if args.filter in c["name"]]
    tmpdir = tempfile.mkdtemp(prefix="sandgate-hostile-")
    try:
        started = time.monotonic()
        inputs = [(c, case_input(c, tmpdir), case_policy(c, tmpdir)) for c in cases]
        generated_in = time.monotonic() - started
        # Cases marked "alone" (the heaviest) run one at a time after the others, so that their
        # time is theirs and not shared with three other cases on a two-core machine.
        shared = [i for i in inputs if not i[0].get("alone")]
        alone = [i for i in inputs if i[0].get("alone")]
        with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
            futures = [pool.submit(run_case, c, p, args, policy) for c, p, policy in shared]
            outcomes = []

            def results():
                for fut in futures:
                    yield fut.result()
                for c, p, policy in alone:
                    yield run_case(c, p, args, policy)

            for o in results():
                outcomes.append(o)
                detail = "; ".join(o.problems) if o.problems else " ".join(o.codes) or "-"
                if o.known_issue and o.problems:
                    detail += "  [known issue: %s]" % o.known_issue
                print("%-5s %-40s %6.3fs %5.0fMB exit=%s  %s" % (o.status, o.case["name"], o.seconds, o.rss_mb, o.exit, detail),
                      flush=True)
        total = time.monotonic() - started
    finally:
        if args.keep:
            print("generated inputs kept in " + tmpdir)
        else:
            shutil.rmtree(tmpdir, ignore_errors=True)

    by_status = {}
    for o in outcomes:
        by_status.setdefault(o.status, []).append(o)
    slowest = max(outcomes, key=lambda o: o.seconds, default=None)
    biggest = max(outcomes, key=lambda o: o.rss_mb, default=None)
    print("%d cases: %s. Slowest %s %.3f s; largest %s %.0f MB; generating %.1f s, total %.1f s." % (
        len(outcomes), ", ".join("%d %s" % (len(v), k) for k, v in sorted(by_status.items())),
        slowest.case["name"] if slowest else "-", slowest.seconds if slowest else 0,
        biggest.case["name"] if biggest else "-", biggest.rss_mb if biggest else 0, generated_in, total))
    failed = by_status.get("FAIL", [])
    for o in failed:
        print("FAILED: %s: %s" % (o.case["name"], "; ".join(o.problems)))
    for o in by_status.get("XPASS", []):
        print("XPASS: %s passes now; remove its known_issue from the manifest" % o.case["name"])
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
