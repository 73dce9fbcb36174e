#!/usr/bin/env python3
"""Peak memory of `sandgate check --requests -` over a 1 GB stream of one repeated record: the
stream is made on the fly (`yes RECORD | head -c 1G`, piped; nothing is written to disk), so
only sandgate's own peak RSS is measured (through GNU time, /usr/bin/time, when installed). Bounded memory means the same peak for
100 MB and for 1 GB.

    python3 bench/streams/stream_memory.py [--sandgate build/default/sandgate] [--gb 1] [--jobs 2]

Python 3 standard library only.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

from measure import EXAMPLES, ROOT, peak_mb, timed  # noqa: E402 (this directory)

RECORD = {"id": "nightly-eval", "sandbox": {
    "container_image": "python:3.11", "placement_mode": "cks", "runner_ids": ["prod-us-east-1"],
    "resources": {"requests": {"cpu": "2", "memory": "4Gi"}, "limits": {"cpu": "4", "memory": "8Gi"}},
    "annotations": {"team": "evals"}, "tags": ["nightly", "eval"],
    "network": {"egress": [{"https_hostname": "pypi.org"}]}}}


def run(sandgate, size, jobs):
    line = json.dumps(RECORD, separators=(",", ":"))
    records = size // (len(line) + 1)  # whole lines only
    argv = [sandgate, "check", "--requests", "-", "--policy", os.path.join(EXAMPLES, "policies", "production-cks.yaml"),
            "--runners", os.path.join(EXAMPLES, "runners.yaml"), "--jobs", str(jobs)]
    start = time.monotonic()
    yes = subprocess.Popen(["yes", line], stdout=subprocess.PIPE)
    head = subprocess.Popen(["head", "-n", str(records)], stdin=yes.stdout, stdout=subprocess.PIPE)
    yes.stdout.close()
    rss_file = tempfile.mktemp(prefix="sandgate-rss-")
    with open(os.devnull, "wb") as devnull, tempfile.TemporaryFile() as err:
        proc = subprocess.Popen(timed(argv, rss_file), stdin=head.stdout, stdout=devnull, stderr=err)
        head.stdout.close()
        _, status, usage = os.wait4(proc.pid, 0)
        proc.returncode = os.waitstatus_to_exitcode(status)
        err.seek(0)
        summary = err.read().decode("utf-8", "replace").strip().splitlines()
    head.wait()
    yes.kill()
    yes.wait()
    wall = time.monotonic() - start
    rss = peak_mb(rss_file, usage)
    if os.path.exists(rss_file):
        os.unlink(rss_file)
    return proc.returncode, records, records * (len(line) + 1), wall, rss, summary


def main():
    ap = argparse.ArgumentParser(description=__doc__.strip().splitlines()[0])
    ap.add_argument("--sandgate", default=os.path.join(ROOT, "build", "default", "sandgate"))
    ap.add_argument("--gb", type=float, nargs="+", default=[0.1, 1.0], help="stream sizes in GB (default: 0.1 and 1)")
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args()
    for gb in args.gb:
        status, records, size, wall, rss, summary = run(args.sandgate, int(gb * (1 << 30)), args.jobs)
        if status != 0:
            print("exit %d (expected 0: the record is accepted): %s" % (status, " | ".join(summary)[:300]))
            return 1
        print("%.2f GB (%d records, %d bytes) in %.1f s (%.0f records/s, %d jobs): peak RSS %.1f MB — %s" % (
            size / (1 << 30), records, size, wall, records / wall, args.jobs, rss, summary[0] if summary else ""), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
