#!/usr/bin/env python3
"""`sandgate check --requests` (and optionally `sandgate policy diff --requests`) over generated
request records: records/s on each --jobs value, CPU time, and peak RSS.

    python3 bench/streams/bench_requests.py [--sandgate build/default/sandgate] [-n 1000000]
                                            [--jobs 1 2] [--diff] [--keep]

The records come from examples/make_requests.py (the same generator as examples/requests.jsonl,
varied: accepted, rejected for several reasons, defaults layers) and are written to a temporary
directory, never committed. Output goes to /dev/null. The peak RSS is sandgate's own (through
GNU time, /usr/bin/time, when installed). Python 3 standard library only.
"""

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time

from measure import EXAMPLES, ROOT, peak_mb, timed  # noqa: E402 (this directory)


def measure(argv):
    """(exit status, wall seconds, user+sys CPU seconds, peak RSS MB, stderr)."""
    start = time.monotonic()
    rss_file = tempfile.mktemp(prefix="sandgate-rss-")
    with open(os.devnull, "wb") as devnull, tempfile.TemporaryFile() as err:
        proc = subprocess.Popen(timed(argv, rss_file), stdout=devnull, stderr=err)
        _, status, usage = os.wait4(proc.pid, 0)
        proc.returncode = os.waitstatus_to_exitcode(status)
        wall = time.monotonic() - start
        err.seek(0)
        stderr = err.read().decode("utf-8", "replace")
    rss = peak_mb(rss_file, usage)
    if os.path.exists(rss_file):
        os.unlink(rss_file)
    return proc.returncode, wall, usage.ru_utime + usage.ru_stime, rss, stderr


def main():
    ap = argparse.ArgumentParser(description=__doc__.strip().splitlines()[0])
    ap.add_argument("--sandgate", default=os.path.join(ROOT, "build", "default", "sandgate"))
    ap.add_argument("-n", "--records", type=int, default=1_000_000)
    ap.add_argument("--jobs", type=int, nargs="+", default=[1, 2])
    ap.add_argument("--diff", action="store_true", help="also time policy diff production-cks → production-cks-v2")
    ap.add_argument("--input", help="use this request stream instead of generating one")
    ap.add_argument("--keep", action="store_true", help="keep the generated stream and print where")
    args = ap.parse_args()

    tmp = tempfile.mkdtemp(prefix="sandgate-bench-")
    try:
        path = args.input
        if not path:
            path = os.path.join(tmp, "requests.jsonl")
            t = time.monotonic()
            subprocess.run([sys.executable, os.path.join(EXAMPLES, "make_requests.py"), "-n", str(args.records),
                            "--seed", "7", "-o", path], check=True)
            print("generated %d records (%.0f MB) in %.1f s: %s" % (args.records, os.path.getsize(path) / 1e6,
                                                                   time.monotonic() - t, path))
        with open(path, "rb") as f:
            records = sum(1 for line in f if line.strip())
        policy_v1 = os.path.join(EXAMPLES, "policies", "production-cks.yaml")
        policy_v2 = os.path.join(EXAMPLES, "policies", "production-cks-v2.yaml")
        runners = os.path.join(EXAMPLES, "runners.yaml")
        runs = [("check --requests", ["check", "--requests", path, "--policy", policy_v2, "--runners", runners])]
        if args.diff:
            runs.append(("policy diff --requests", ["policy", "diff", policy_v1, policy_v2, "--requests", path,
                                                    "--runners", runners, "--format", "json"]))
        print("%-24s %5s %9s %9s %12s %14s %10s" % ("command", "jobs", "wall s", "cpu s", "records/s", "records/cpu-s",
                                                    "peak RSS"))
        for name, argv in runs:
            for jobs in args.jobs:
                status, wall, cpu, rss, err = measure([args.sandgate] + argv + ["--jobs", str(jobs)])
                if status not in (0, 1):
                    print("%s --jobs %d failed with exit %d: %s" % (name, jobs, status, err.strip()[:300]))
                    return 1
                print("%-24s %5d %9.1f %9.1f %12.0f %14.0f %7.1f MB" % (name, jobs, wall, cpu, records / wall,
                                                                         records / cpu, rss), flush=True)
        print("(%d records; machine: %d CPUs, load average %.1f at the end)" % (records, os.cpu_count() or 0,
                                                                               os.getloadavg()[0]))
    finally:
        if args.keep:
            print("kept " + tmp)
        else:
            shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
