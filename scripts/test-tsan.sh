#!/usr/bin/env bash
# Builds the `tsan` preset (ThreadSanitizer, gcc) and runs the shared-policy threads test:
# one loaded Policy, 8 threads running Engine::check on varied requests, every result compared
# with a single-threaded baseline; and the request-stream pipeline's policy diff on 2 and 4 threads
# against 1. Any data race fails the run (TSAN_OPTIONS halt_on_error=1).
# Assumes scripts/install-deps.sh has run. Exits non-zero on any failure.
#   SANDGATE_JOBS   parallel build jobs (default: number of CPUs)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
jobs=${SANDGATE_JOBS:-$(nproc)}

run() { echo "+ $*"; "$@"; }

start=$(date +%s)
run cmake --preset tsan
# Only what the test needs: the core library and the test, not the whole suite under TSan.
run cmake --build --preset tsan --target sandgate_threads_test sandgate_streams_threads_test -j "$jobs"
export TSAN_OPTIONS="halt_on_error=1:exitcode=66:second_deadlock_stack=1${TSAN_OPTIONS:+:$TSAN_OPTIONS}"
echo "+ TSAN_OPTIONS=$TSAN_OPTIONS"
run build/tsan/tests/threads/sandgate_threads_test
# The request-stream pipeline (ordered pool, reader, PolicyDiffer) on 1, 2 and 4 threads.
run build/tsan/tests/threads/sandgate_streams_threads_test
echo "test-tsan: ok ($(( $(date +%s) - start )) s)"
