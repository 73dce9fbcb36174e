#!/usr/bin/env bash
# The fuzzed CI gate (docs/ci.md, fuzz/README.md):
#   1. builds the `fuzz` preset (clang-14, libFuzzer + ASan + UBSan, the core library instrumented too);
#   2. regenerates the seed corpora from tests/conformance and examples (fuzz/make_corpus.py);
#   3. replays every regression input under fuzz/regressions/<target>/;
#   4. runs each target for SANDGATE_FUZZ_SECONDS seconds from its seeds;
# and fails on any finding: a crash, a sanitizer report, a violated property, a timeout or an OOM.
# Assumes scripts/install-deps.sh has run. Exits non-zero on failure and prints what it ran.
#
#   SANDGATE_FUZZ_SECONDS   fuzzing time per target (default 45: five targets, two at a time on
#                           2 cores, ≈ 2.5 minutes, seeds and replays included)
#   SANDGATE_FUZZ_TARGETS   which targets (default: all five)
#   SANDGATE_FUZZ_SKIP_BUILD=1  use the binaries already in build/fuzz
#   SANDGATE_JOBS           parallel build jobs and fuzz targets at once (default: number of CPUs)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

seconds=${SANDGATE_FUZZ_SECONDS:-45}
# A fixed seed: a CI run explores the same inputs as the run that was checked before it landed
# (libFuzzer otherwise picks a new seed each run); SANDGATE_FUZZ_SEED=0 asks for a random one.
seed=${SANDGATE_FUZZ_SEED:-1}
targets=(${SANDGATE_FUZZ_TARGETS:-fuzz_quantity fuzz_policy_yaml fuzz_policy_json fuzz_sandbox fuzz_check})
jobs=${SANDGATE_JOBS:-$(nproc)}
bin=build/fuzz/fuzz
corpus=build/fuzz-corpus
work=build/fuzz-ci/work
findings=build/fuzz-ci/findings
logs=build/fuzz-ci/logs

run() { echo "+ $*"; "$@"; }

dict_of() {
  case $1 in
    fuzz_quantity) echo quantity ;;
    fuzz_policy_yaml) echo policy_yaml ;;
    fuzz_policy_json) echo policy_json ;;
    fuzz_sandbox) echo sandbox ;;
    fuzz_check) echo check ;;
    *) echo "test-fuzz: unknown target $1" >&2; exit 2 ;;
  esac
}
max_len_of() { [ "$1" = fuzz_quantity ] && echo 256 || echo 4096; }

start=$(date +%s)
if [ "${SANDGATE_FUZZ_SKIP_BUILD:-0}" != 1 ]; then
  run cmake --preset fuzz
  run cmake --build --preset fuzz -j "$jobs"
fi
run python3 fuzz/make_corpus.py --out "$corpus"

# Reports name the input and stop at the first error. malloc_context_size=0 roughly doubles the
# speed; to see allocation stacks, reproduce a finding without it (fuzz/README.md).
export ASAN_OPTIONS="malloc_context_size=0:detect_leaks=1${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}"
echo "+ ASAN_OPTIONS=$ASAN_OPTIONS UBSAN_OPTIONS=$UBSAN_OPTIONS"

rm -rf "$work" "$findings"
mkdir -p "$work" "$findings" "$logs"
failed=()

# Regression inputs: each must now run clean.
for t in "${targets[@]}"; do
  dir=fuzz/regressions/$t
  mapfile -t files < <(find "$dir" -maxdepth 1 -type f ! -name '*.md' 2>/dev/null | sort)
  [ ${#files[@]} -eq 0 ] && continue
  echo "+ $bin/$t ${#files[@]} regression inputs from $dir/"
  if ! "$bin/$t" -runs=1 "${files[@]}" > "$logs/$t-regressions.log" 2>&1; then
    echo "test-fuzz: $t fails on a regression input; see $logs/$t-regressions.log" >&2
    tail -40 "$logs/$t-regressions.log" >&2
    failed+=("$t (regressions)")
  fi
done

# Fuzzing: the targets run side by side, as many at once as there are jobs (each libFuzzer process
# uses one core), so five targets take three rounds of SANDGATE_FUZZ_SECONDS on 2 cores.
fuzz_one() {
  local t=$1 log=$logs/$1.log rc
  mkdir -p "$work/$t" "$findings/$t"
  echo "+ $bin/$t -max_total_time=$seconds … (log: $log)"
  set +e
  "$bin/$t" -seed="$seed" -dict="fuzz/dict/$(dict_of "$t").dict" -max_len="$(max_len_of "$t")" -timeout=10 \
    -rss_limit_mb=2048 -max_total_time="$seconds" -print_final_stats=1 \
    -artifact_prefix="$findings/$t/" "$work/$t" "$corpus/$t" > "$log" 2>&1
  rc=$?
  set -e
  echo "$rc" > "$logs/$t.rc"
}
rm -f "$logs"/*.rc
for t in "${targets[@]}"; do
  while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n || true; done
  fuzz_one "$t" &
done
wait

for t in "${targets[@]}"; do
  log=$logs/$t.log
  rc=$(cat "$logs/$t.rc" 2>/dev/null || echo 1)
  execs=$(grep -o 'stat::number_of_executed_units: [0-9]*' "$log" | awk '{print $2}' || true)
  eps=$(grep -o 'stat::average_exec_per_sec: *[0-9]*' "$log" | awk '{print $2}' || true)
  status=$(grep -E '^#[0-9]+' "$log" | tail -1 | grep -oE 'cov: [0-9]+ ft: [0-9]+' || true)
  echo "test-fuzz: $t rc=$rc executions=${execs:-?} exec/s=${eps:-?} ${status}"
  if [ "$rc" -ne 0 ] || [ -n "$(ls -A "$findings/$t")" ]; then
    echo "test-fuzz: $t FOUND A PROBLEM; log: $log" >&2
    grep -E 'PROPERTY VIOLATED|ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer)|runtime error|SUMMARY' "$log" | head -20 >&2 || true
    for f in "$findings/$t"/*; do
      [ -e "$f" ] || continue
      echo "  input: $f  (reproduce: $bin/$t $f; keep it: cp $f fuzz/regressions/$t/<what-it-is>)" >&2
    done
    failed+=("$t")
  fi
done

echo "test-fuzz: $(( $(date +%s) - start )) s"
if [ ${#failed[@]} -gt 0 ]; then
  echo "test-fuzz: FAILED: ${failed[*]}" >&2
  exit 1
fi
echo "test-fuzz: ok"
