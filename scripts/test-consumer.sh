#!/usr/bin/env bash
# The C++ package as a user gets it: `cmake --install` the core into a staging prefix, then build
# tests/consumer — a separate project doing find_package(sandgate CONFIG REQUIRED) — against that
# prefix alone and run its test (it checks requests through sandgate::sandgate, and its configure
# step fails if an installed header includes a private dependency).
# Reuses the `bindings-core` build tree when scripts/test.sh has built it (SANDGATE_PREBUILT_CORE);
# otherwise builds that preset first. Needs scripts/install-deps.sh.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
if command -v ccache >/dev/null && [ -z "${CMAKE_CXX_COMPILER_LAUNCHER:-}" ]; then
  export CMAKE_CXX_COMPILER_LAUNCHER=ccache CCACHE_BASEDIR="$root" CCACHE_NOHASHDIR=1
fi

core=${SANDGATE_PREBUILT_CORE:-}
if [ -z "$core" ] || [ ! -f "$core/sandgateConfig.cmake" ]; then
  cmake --preset bindings-core >/dev/null
  cmake --build --preset bindings-core
  core="$root/build/bindings-core"
fi

stage="$root/build/consumer-stage"
rm -rf "$stage" build/consumer
echo "+ cmake --install $core --prefix $stage"
cmake --install "$core" --prefix "$stage" >/dev/null
# Only the staging prefix: the consumer must not see the source tree or the build tree.
cmake -S tests/consumer -B build/consumer -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_PREFIX_PATH="$stage" -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF >/dev/null
cmake --build build/consumer
ctest --test-dir build/consumer --output-on-failure
