#!/usr/bin/env bash
# Installs everything sandgate needs on Debian 12, idempotently: system packages,
# valijson's headers (without the Qt/Poco the Debian package drags in), and the
# Python and Node tool chains used by the bindings and their tests.
# Used by README's two commands and by CI.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

SUDO=""
if [ "$(id -u)" != 0 ]; then SUDO="sudo"; fi

apt_packages=(
  build-essential cmake ninja-build pkg-config
  libyaml-cpp-dev rapidjson-dev libre2-dev libcli11-dev libfmt-dev libmimalloc-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  clang-14 libclang-rt-14-dev valgrind
  git ca-certificates
)
missing=()
for p in "${apt_packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "install-deps: installing ${missing[*]}"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# valijson is header-only, but libvalijson-dev depends on Qt and Poco: take the headers alone, with
# the package's copyright file (the sdist and the npm package carry both).
if [ ! -f .deps/valijson/include/valijson/validator.hpp ] || [ ! -f .deps/valijson/copyright ]; then
  echo "install-deps: extracting valijson headers into .deps/valijson"
  tmp=$(mktemp -d)
  (cd "$tmp" && apt-get download libvalijson-dev >/dev/null 2>&1 || { $SUDO apt-get update -qq && apt-get download libvalijson-dev >/dev/null; })
  rm -rf .deps/valijson
  mkdir -p .deps/valijson
  dpkg-deb -x "$tmp"/libvalijson-dev_*.deb "$tmp/x"
  cp -r "$tmp/x/usr/include" .deps/valijson/
  cp "$tmp/x/usr/share/doc/libvalijson-dev/copyright" .deps/valijson/copyright
  rm -rf "$tmp"
fi

# Python tool chain for the binding, its tests and the benchmarks (a venv keeps it local).
if [ "${SANDGATE_SKIP_PYTHON:-0}" != 1 ]; then
  if [ ! -x .venv/bin/python ]; then
    python3 -m venv .venv
  fi
  stamp=.venv/.sandgate-requirements
  if [ ! -f "$stamp" ] || ! cmp -s requirements-dev.txt "$stamp"; then
    .venv/bin/python -m pip install -q --upgrade pip
    .venv/bin/python -m pip install -q -r requirements-dev.txt
    cp requirements-dev.txt "$stamp"
  fi
  # A local wheelhouse of the package's build requirements (pyproject.toml [build-system]), so that
  # isolated builds — `python -m build`, and pre-commit installing the `language: python` hook — run
  # offline in the tests (PIP_NO_INDEX=1 PIP_FIND_LINKS=.deps/wheelhouse).
  requires=$(.venv/bin/python -c 'import tomllib; print("\n".join(tomllib.load(open("pyproject.toml", "rb"))["build-system"]["requires"]))')
  if [ ! -f .deps/wheelhouse/.requires ] || [ "$(cat .deps/wheelhouse/.requires)" != "$requires" ]; then
    echo "install-deps: downloading the build requirements into .deps/wheelhouse"
    rm -rf .deps/wheelhouse
    mkdir -p .deps/wheelhouse
    mapfile -t reqs <<<"$requires"
    .venv/bin/python -m pip download -q --only-binary=:all: -d .deps/wheelhouse "${reqs[@]}"
    printf '%s' "$requires" > .deps/wheelhouse/.requires
  fi
fi

# Node tool chain for the addon (node-addon-api, cmake-js, TypeScript, ajv from npm).
if [ "${SANDGATE_SKIP_NODE:-0}" != 1 ] && [ -f bindings/node/package.json ]; then
  if [ ! -d bindings/node/node_modules ] || [ bindings/node/package.json -nt bindings/node/node_modules ]; then
    (cd bindings/node && npm install --ignore-scripts --no-audit --no-fund --loglevel=error)
    touch bindings/node/node_modules
  fi
  # npm's cache must answer an offline `npm install ./sandgate-X.tgz` in an empty directory
  # (scripts/test-node-pack.sh): that resolves the package's dependencies afresh, without the lock
  # file, so install them once, online, the same way (registry metadata and tarballs get cached).
  deps=$(node -p 'const d = require("./bindings/node/package.json").dependencies; Object.entries(d).map(([n, v]) => `${n}@${v}`).join(" ")')
  if [ ! -f .deps/npm-cache-primed ] || [ "$(cat .deps/npm-cache-primed)" != "$deps" ]; then
    echo "install-deps: caching the npm package's dependencies ($deps)"
    tmp=$(mktemp -d)
    # shellcheck disable=SC2086
    (cd "$tmp" && npm install --ignore-scripts --no-audit --no-fund --loglevel=error --no-package-lock $deps)
    rm -rf "$tmp"
    mkdir -p .deps
    printf '%s' "$deps" > .deps/npm-cache-primed
  fi
fi
echo "install-deps: ok"
