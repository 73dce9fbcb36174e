#!/usr/bin/env bash
# README's first command: install what sandgate needs, build the `sandgate` command, and run it on
# the bundled examples — a policy validation, a passing check, failing checks, an explain, and a
# policy diff replayed over a stream of requests.
set -euo pipefail
cd "$(dirname "$0")/.."
SANDGATE_SKIP_PYTHON=1 SANDGATE_SKIP_NODE=1 ./scripts/install-deps.sh
cmake --preset default >/dev/null
cmake --build --preset default --target sandgate
sg=./build/default/sandgate
cd examples
run() { echo; echo "\$ sandgate $*"; "../$sg" "$@" || true; }
run policy validate policies/*.yaml
run check sandboxes/prod-ok.yaml --policy policies/production-cks.yaml --runners runners.yaml
run check sandboxes/sunk-partition-override.yaml sandboxes/sunk-flat-guaranteed.yaml --policy policies/sunk-slurm.yaml --runners runners.yaml --no-info
run check sandboxes/gpu-wrong-case.yaml --policy policies/gpu-cks.yaml --runners runners.yaml --org org.yaml
run check sandboxes/memory-volume-80.yaml --policy policies/production-cks.yaml --runners runners.yaml
run explain sandboxes/sunk-ok.yaml --policy policies/sunk-slurm.yaml --runners runners.yaml
run policy diff policies/production-cks.yaml policies/production-cks-v2.yaml --requests requests.jsonl --examples 2
