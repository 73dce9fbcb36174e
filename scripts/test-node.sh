#!/usr/bin/env bash
# The Node package's checks: build the addon (incrementally), then the generated-files freshness
# check, the type checks (tsc --noEmit on test/typed-example.ts and the negative cases), and the
# node --test suites (conformance vectors, API, errors, hostile inputs, checkMany, SARIF).
# Needs what scripts/install-deps.sh installs (system packages; npm packages in bindings/node).
# Runs every step and exits non-zero if any failed.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root/bindings/node"

if [ ! -d node_modules/node-addon-api ] || [ ! -d node_modules/typescript ]; then
  echo "test-node: bindings/node/node_modules is missing; run scripts/install-deps.sh first" >&2
  exit 2
fi

failed=()
step() {
  local name=$1
  shift
  echo "== test-node: $name"
  if ! "$@"; then
    failed+=("$name")
  fi
}

# Warnings are errors in our C++ (the first configure of a build tree decides).
if ! SANDGATE_WERROR=1 node scripts/build.mjs; then
  echo "test-node: the addon did not build" >&2
  exit 1
fi
step "generated files are fresh" node scripts/gen-codes.mjs --check
step "tsc --noEmit" node node_modules/typescript/bin/tsc --noEmit -p test/tsconfig.json
step "node --test" node --test test/*.test.mjs

if [ ${#failed[@]} -gt 0 ]; then
  echo "test-node: FAILED: ${failed[*]}" >&2
  exit 1
fi
echo "test-node: ok"
