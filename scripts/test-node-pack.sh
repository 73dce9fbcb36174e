#!/usr/bin/env bash
# The npm package as users get it (issue 10, docs/install.md): `npm pack` in bindings/node (its
# prepack script adds the prebuilt addon and the sources for a from-source fallback), then, in an
# empty directory and offline, `npm install ./sandgate-X.tgz`, a CommonJS and an ESM smoke script,
# and `tsc --noEmit` on the package's typed example against the installed types.
# The install must take the prebuilt addon (no build/ directory appears in the installed package),
# which must load even with the system's yaml-cpp, RE2 and fmt hidden.
# SANDGATE_TEST_NODE_FALLBACK=1 also installs with --build-from-source (a full core build, minutes).
# Offline: the dependencies come from npm's cache, which scripts/install-deps.sh fills.
# Needs the addon built (scripts/test-node.sh builds it; prepack's build is then a no-op).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
node_dir="$root/bindings/node"
tsc="$node_dir/node_modules/typescript/bin/tsc"
if [ ! -f "$tsc" ]; then
  echo "test-node-pack: bindings/node/node_modules is missing; run scripts/install-deps.sh first" >&2
  exit 2
fi
run() { echo "+ $*"; "$@"; }
work=$(mktemp -d -p /tmp sandgate-npm.XXXXXX)
trap 'rm -rf "$work"' EXIT

start=$SECONDS
(cd "$node_dir" && run npm pack --silent --pack-destination "$work" >/dev/null)
tarball=$(ls "$work"/sandgate-*.tgz)
ls -l "$tarball"
listing=$(tar -tzf "$tarball")
for need in package/prebuilds/linux-x64/node.napi.glibc.node package/index.d.ts package/index.mjs \
            package/scripts/install.mjs package/vendor/sandgate/core/CMakeLists.txt \
            package/vendor/valijson/include/valijson/validator.hpp; do
  grep -qx "$need" <<<"$listing" || { echo "test-node-pack: the tarball lacks $need" >&2; exit 1; }
done
if grep -E '^package/(build|node_modules|test)/' <<<"$listing" | head -3 | grep -q .; then
  echo "test-node-pack: the tarball holds build output, node_modules or tests" >&2
  exit 1
fi
echo "test-node-pack: $(wc -l <<<"$listing") files"

install_in() {
  local dir=$1
  shift
  mkdir -p "$dir"
  echo '{"name": "sandgate-consumer", "version": "1.0.0", "private": true}' >"$dir/package.json"
  (cd "$dir" && run npm install --offline --no-audit --no-fund --loglevel=error "$@" "$tarball")
}

smoke() {
  local dir=$1
  cp "$root/examples/policies/gpu-cks.yaml" "$dir/policy.yaml"
  cat >"$dir/smoke.cjs" <<'JS'
const assert = require('node:assert');
const fs = require('node:fs');
const sandgate = require('sandgate');
assert.strictEqual(sandgate.version, require('sandgate/package.json').version);
assert.ok(sandgate.validatePolicy(fs.readFileSync('policy.yaml', 'utf8')).ok);
const bad = sandgate.validatePolicy('base:\n  spec:\n    affinity: {}\n');
assert.ok(!bad.ok);
assert.ok(bad.diagnostics.some((d) => d.code === 'SG_BASE_FORBIDDEN_FIELD'));
console.log('CommonJS: sandgate', sandgate.version, 'ok');
JS
  cat >"$dir/smoke.mjs" <<'JS'
import assert from 'node:assert';
import { readFileSync } from 'node:fs';
import sandgate, { validatePolicy, version, check } from 'sandgate';
assert.strictEqual(sandgate.version, version);
assert.ok(validatePolicy(readFileSync('policy.yaml', 'utf8')).ok);
const result = check('resources: {cpu: "64", memory: 8Gi}\n', { policy: readFileSync('policy.yaml', 'utf8') });
assert.strictEqual(typeof result.ok, 'boolean');
console.log('ESM: sandgate', version, 'ok');
JS
  (cd "$dir" && run node smoke.cjs && run node smoke.mjs)
  # The package's typed example, compiled against the installed package's types.
  mkdir -p "$dir/types"
  cp "$node_dir/test/typed-example.ts" "$dir/types/"
  cat >"$dir/types/tsconfig.json" <<'JSON'
{
  "compilerOptions": {
    "strict": true, "noEmit": true, "target": "ES2022", "lib": ["ES2022"],
    "module": "NodeNext", "moduleResolution": "NodeNext", "types": [], "skipLibCheck": false
  },
  "files": ["typed-example.ts"]
}
JSON
  (cd "$dir" && run node "$tsc" --noEmit -p types/tsconfig.json)
}

install_in "$work/app"
[ -f "$work/app/node_modules/sandgate/prebuilds/linux-x64/node.napi.glibc.node" ]
if [ -e "$work/app/node_modules/sandgate/build" ]; then
  echo "test-node-pack: npm install built the addon instead of taking the prebuilt one" >&2
  exit 1
fi
smoke "$work/app"
# The prebuilt addon carries its yaml-cpp: it must load with the system's hidden (a private mount
# namespace binds /dev/null over libyaml-cpp, libre2 and libfmt).
echo "== with libyaml-cpp, libre2 and libfmt hidden"
hidden=$(ls /usr/lib/x86_64-linux-gnu/lib{yaml-cpp,re2,fmt}.so.* 2>/dev/null || true)
(cd "$work/app" && hidden=$hidden unshare --mount --propagation private bash -c '
  set -e
  for f in $hidden; do mount --bind /dev/null "$f"; done
  node smoke.cjs && node smoke.mjs')

if [ "${SANDGATE_TEST_NODE_FALLBACK:-0}" = 1 ]; then
  echo "== from source (--build-from-source)"
  unset SANDGATE_PREBUILT_CORE
  install_in "$work/fallback" --build-from-source --foreground-scripts
  [ -f "$work/fallback/node_modules/sandgate/build/Release/sandgate.node" ]
  smoke "$work/fallback"
fi
echo "test-node-pack: ok ($((SECONDS - start)) s)"
