"""Running sandgate under GNU time for its own peak RSS: shared by the stream benchmarks.
Python 3 standard library only."""

import os

GNU_TIME = "/usr/bin/time"  # its own fork is small, so the peak it reports is sandgate's
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
EXAMPLES = os.path.join(ROOT, "examples")


def timed(argv, rss_file):
    """argv under GNU time (which writes the peak RSS in KB to rss_file), when it is installed."""
    if os.access(GNU_TIME, os.X_OK):
        return [GNU_TIME, "-f", "%M", "-o", rss_file] + argv
    return argv


def peak_mb(rss_file, usage):
    """The peak RSS in MB: GNU time's, else wait4's (which also counts this process's copy
    before exec, so it is at least this Python's size)."""
    try:
        with open(rss_file) as f:
            return int(f.read().split()[-1]) / 1024.0
    except (OSError, ValueError, IndexError):
        return usage.ru_maxrss / 1024.0
