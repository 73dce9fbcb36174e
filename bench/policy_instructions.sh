#!/usr/bin/env bash
# Instructions per policy compile (Policy::from_node on the loaded tree, and freeing it) for each
# examples/policies/*.yaml, counted by callgrind, with the heap allocations made inside. Build first:
#   cmake --preset default && cmake --build --preset default --target sandgate_policy_instructions
# then: bench/policy_instructions.sh [build/default/bench/sandgate_policy_instructions]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bin=${1:-$root/build/default/bench/sandgate_policy_instructions}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
# shellcheck source=bench/callgrind_dumps.sh
. "$root/bench/callgrind_dumps.sh"
callgrind_dumps "$bin" "$out" >"$out/counts"
printf '%-36s %14s %7s\n' policy "instructions" alloc.
paste "$out/counts" "$out/stdout" | awk '{printf "%-36s %14s %7s\n", $2, $1, $3}'
