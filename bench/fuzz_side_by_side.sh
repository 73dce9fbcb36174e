#!/usr/bin/env bash
# Executions per CPU-second of two builds of the same fuzz target, run at once so that both share
# the machine alike (fuzz/README.md "Results"). Same seed, flags, dictionary and seed corpus.
#
#   bench/fuzz_side_by_side.sh OLD_BIN_DIR NEW_BIN_DIR [SECONDS] [TARGET…]
#
# e.g. build the fuzz preset of an older commit in a worktree, then
#   bench/fuzz_side_by_side.sh ../old/build/fuzz/fuzz build/fuzz/fuzz 240 fuzz_sandbox fuzz_check
# Prints one line per target: executions, CPU seconds and executions per CPU-second of each, and
# the ratio. Seeds: SEEDS=DIR (default build/fuzz-corpus, scripts/test-fuzz.sh's). Give both builds
# the older commit's seeds (its fuzz/make_corpus.py --out DIR): newer seeds hold inputs it fails on.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
old=$1 new=$2 seconds=${3:-240}
shift $(( $# >= 3 ? 3 : $# ))
targets=("${@:-fuzz_sandbox fuzz_check}")
targets=(${targets[*]})
seeds=${SEEDS:-build/fuzz-corpus}
[ -d "$seeds" ] || python3 fuzz/make_corpus.py --out "$seeds"
out=$(mktemp -d)
export ASAN_OPTIONS="malloc_context_size=0:detect_leaks=1"
run_one() {  # label bin target
  local label=$1 bin=$2 t=$3 dict=${3#fuzz_}
  mkdir -p "$out/$label-$t"
  /usr/bin/time -f "%U %S" -o "$out/$label-$t.time" \
    "$bin/$t" -seed=1 -max_total_time="$seconds" -max_len=4096 -dict="fuzz/dict/$dict.dict" \
    "$out/$label-$t" "$seeds/$t" > "$out/$label-$t.log" 2>&1 || true
}
for t in "${targets[@]}"; do
  run_one old "$old" "$t" &
  run_one new "$new" "$t" &
done
wait
printf '%-14s %28s %28s %7s\n' target "old: execs / CPU s / per s" "new: execs / CPU s / per s" ratio
for t in "${targets[@]}"; do
  line=""
  rates=()
  for label in old new; do
    execs=$(grep -oE 'Done [0-9]+ runs' "$out/$label-$t.log" | grep -oE '[0-9]+' || echo 0)
    cpu=$(awk '{printf "%.1f", $1 + $2}' "$out/$label-$t.time")
    rate=$(awk -v e="$execs" -v c="$cpu" 'BEGIN { printf "%.1f", (c > 0 ? e / c : 0) }')
    rates+=("$rate")
    line+=$(printf ' %12s / %6s / %6s' "$execs" "$cpu" "$rate")
  done
  ratio=$(awk -v a="${rates[0]}" -v b="${rates[1]}" 'BEGIN { printf "%.2f", (a > 0 ? b / a : 0) }')
  printf '%-14s%s %6s×\n' "$t" "$line" "$ratio"
done
rm -rf "$out"
