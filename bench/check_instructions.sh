#!/usr/bin/env bash
# Instructions per `check` on each README example, counted by callgrind (the same count on every
# run of the same binary, whatever else the machine does), with the heap allocations made inside:
# `check` on a compiled request, and compile + check from a loaded Document. Build first:
#   cmake --preset default && cmake --build --preset default --target sandgate_check_instructions
# then: bench/check_instructions.sh [build/default/bench/sandgate_check_instructions]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bin=${1:-$root/build/default/bench/sandgate_check_instructions}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
valgrind --tool=callgrind --collect-atstart=no --callgrind-out-file="$out/cg.%p" "$bin" >"$out/stdout" 2>"$out/stderr"
# Two dumps per example, in order (the final dump at exit collects nothing and is skipped).
for f in $(cd "$out" && ls cg.* | sort -t. -k3 -n); do
  f=$out/$f
  grep -q '^desc: Trigger: Client Request' "$f" || continue
  awk '/^summary:/ {print $2}' "$f"
done | paste - - >"$out/counts"
printf '%-40s %-7s %22s %12s %24s %12s\n' example verdict "check: instructions" allocations "compile+check: instr." allocations
paste "$out/counts" "$out/stdout" |
  awk '{printf "%-40s %-7s %22s %12s %24s %12s\n", $3, $4, $1, $5, $2, $6}'
