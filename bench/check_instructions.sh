#!/usr/bin/env bash
# Instructions per `check` on each README example, counted by callgrind (the same count on every
# run of the same binary, whatever else the machine does), with the heap allocations made inside:
# `check` on a compiled request, compile + check from a loaded Document, the result as compact JSON
# text (the Node binding's hand-over), and freeing the result and its request. Build first:
#   cmake --preset default && cmake --build --preset default --target sandgate_check_instructions
# then: bench/check_instructions.sh [build/default/bench/sandgate_check_instructions]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bin=${1:-$root/build/default/bench/sandgate_check_instructions}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
# shellcheck source=bench/callgrind_dumps.sh
. "$root/bench/callgrind_dumps.sh"
callgrind_dumps "$bin" "$out" | paste - - - - >"$out/counts"
printf '%-40s %-7s %14s %7s %15s %7s %13s %7s %7s %11s\n' example verdict "check: instr." alloc. "compile+check" alloc. "JSON text" alloc. bytes "free: instr."
paste "$out/counts" "$out/stdout" |
  awk '{printf "%-40s %-7s %14s %7s %15s %7s %13s %7s %7s %11s\n", $5, $6, $1, $7, $2, $8, $3, $9, $10, $4}'
