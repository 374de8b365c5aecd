#!/usr/bin/env bash
# The whole test suite, exactly what CI runs: installs what is missing, then
# formatting, clippy (native and wasm), native tests, the release wasm build,
# the first-visit size budget and the browser tests. Any failing layer fails the run.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh --tests
export PATH="$HOME/.cargo/bin:$PWD/node_modules/.bin:$PATH"

step() { printf '\n== test: %s\n' "$*"; }

step "cargo fmt --check"
cargo fmt --all -- --check

step "clippy (native, all targets)"
cargo clippy --workspace --all-targets -- -D warnings

step "clippy (the page, views and measurement modules for wasm32)"
cargo clippy -p shell -p views -p measure --target wasm32-unknown-unknown --bins -- -D warnings

step "the shell's crate graph has no Leptos (the first visit's module cannot use it)"
if cargo tree -p shell --target wasm32-unknown-unknown -e normal --prefix none | grep -i '^leptos'; then
  echo "the shell depends on Leptos" >&2
  exit 1
fi

step "native tests"
cargo test --workspace

step "release build (trunk, wasm-opt -Oz): the page, views and measurement modules"
rm -rf dist
trunk build --release

step "first-visit size budget"
scripts/size.sh dist

step "browser tests (Playwright + Debian Chromium)"
node --test --test-concurrency=1 tests/
