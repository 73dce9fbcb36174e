#!/usr/bin/env bash
# README's first command builds the `sandgate` command from the `default` preset, which is
# profile-guided (core/pgo.cmake: a second, instrumented build trained on examples/). This builds
# it as the demo does and holds it to the ASan build's answers ($SANDGATE_CLI, from scripts/test.sh)
# on the examples and on a request stream the profile never saw (another seed of
# examples/make_requests.py): the profile may change how fast the command is, never what it says.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
reference=${SANDGATE_CLI:?set SANDGATE_CLI to a sandgate built another way, e.g. build/asan/sandgate}

cmake --preset default >/dev/null
cmake --build --preset default --target sandgate
release="$root/build/default/sandgate"
[ -f build/default/pgo/trained.stamp ] || { echo "the default preset built no profile (build/default/pgo)"; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 examples/make_requests.py -n 3000 --seed 20261205 -o "$work/unseen.jsonl"

compared=0
same() {  # same NAME ARGS...: both commands, run from examples/, must print the same and exit alike
  local name=$1
  shift
  local a=0 b=0
  (cd examples && "$reference" "$@") >"$work/$name.reference" 2>&1 || a=$?
  (cd examples && "$release" "$@") >"$work/$name.release" 2>&1 || b=$?
  if [ "$a" != "$b" ] || ! cmp -s "$work/$name.reference" "$work/$name.release"; then
    echo "FAILED: sandgate $* — the profiled build answers differently (exit $b, reference exit $a):"
    diff "$work/$name.reference" "$work/$name.release" | head -20
    exit 1
  fi
  compared=$((compared + 1))
}

cd examples  # the names below are relative to it, as `same` runs both commands there
policies=(policies/*.yaml)
sandboxes=(sandboxes/*.yaml)
cd "$root"
same validate policy validate "${policies[@]}" --format json
for p in "${policies[@]}"; do
  same "check-$(basename "$p")" check "${sandboxes[@]}" --policy "$p" --runners runners.yaml --org org.yaml --format json
done
for input in requests.jsonl "$work/unseen.jsonl"; do
  n=$(basename "$input" .jsonl)
  same "stream-$n" check --requests "$input" --policy policies/production-cks-v2.yaml --runners runners.yaml --format json --jobs 2
  same "diff-$n" policy diff policies/production-cks.yaml policies/production-cks-v2.yaml --requests "$input" \
    --runners runners.yaml --format json --jobs 2
done
echo "the profiled command answers as the reference build on $compared runs"
