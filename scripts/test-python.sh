#!/usr/bin/env bash
# The Python binding's suite: build and install the package (pyproject.toml at the root, the
# sources in bindings/python) into .venv, run its pytest suite
# (conformance vectors, input kinds, exceptions, the pre-submit hook against cwsandbox, hostile
# values, threads), the differential suite against cwsandbox 1.22 (tests/differential) and mypy
# --strict on the typed example. Needs scripts/install-deps.sh first.
# No network: the build uses the venv's scikit-build-core and pybind11 (no build isolation).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
if [ ! -x .venv/bin/python ]; then
  echo "test-python: .venv is missing; run scripts/install-deps.sh first" >&2
  exit 1
fi

# A persistent CMake build directory under build/ (git-ignored): a second run rebuilds only what
# changed instead of the whole core. Without the `sandgate` command: these tests use the extension
# only, and the core scripts/test.sh prebuilt for both bindings (SANDGATE_PREBUILT_CORE) has none;
# scripts/test-packaging.sh builds and tests the whole wheel.
echo "test-python: building and installing the package (extension only)"
.venv/bin/python -m pip install --quiet --no-build-isolation --no-deps \
  --config-settings=build-dir="$root/build/python/{wheel_tag}" \
  --config-settings=cmake.define.SANDGATE_PYTHON_CLI=OFF \
  .

echo "test-python: pytest"
.venv/bin/pytest -q bindings/python/tests

echo "test-python: differential suite against cwsandbox 1.22 (CI profile: fixed seed)"
# tests/differential: generated Sandbox.run requests and server errors, sandgate vs the real SDK's
# client-side path, no network; prints the agreement summary. --hypothesis-profile=long for more.
.venv/bin/pytest -q -p no:cacheprovider tests/differential

echo "test-python: mypy --strict on the typed example"
.venv/bin/mypy --strict --cache-dir build/python/mypy-cache bindings/python/examples/typed_usage.py
