#!/usr/bin/env bash
# The scaling test (tests/scaling/scaling.py) at the node limit: for every array and map field of
# the four schemas, documents with that field at N/4, N/2 and N entries, N the most that stays
# under 100,000 nodes and 4 MiB (per field; sandbox lists paired with the policy list they meet).
#
#   bench/scaling.sh                         # wall time of one run each (a few minutes)
#   bench/scaling.sh --measure callgrind --filter annotations   # instructions: slow, so filter
#
# Builds the release `default` preset's sandgate_scaling. In time mode the ratios per doubling are
# printed as an indication (a loaded machine moves them); callgrind mode fails above 2.2×, as CI.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
cmake --preset default >/dev/null
cmake --build build/default --target sandgate_scaling
measure=(--measure time)
for a in "$@"; do
  if [ "$a" = "--measure" ]; then measure=(); fi
done
exec python3 tests/scaling/scaling.py --driver build/default/tests/scaling/sandgate_scaling --node-limit "${measure[@]}" "$@"
