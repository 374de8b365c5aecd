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

step "clippy (app for wasm32, with and without the webgpu-bench feature)"
cargo clippy -p app --target wasm32-unknown-unknown -- -D warnings
cargo clippy -p app --target wasm32-unknown-unknown --all-features -- -D warnings

step "native tests"
cargo test --workspace

step "release build (trunk, wasm-opt -Oz)"
rm -rf dist
trunk build --release

step "first-visit size budget"
scripts/size.sh dist

step "release build with the WebGPU measurement (dist-bench/, browser-tested, not budgeted)"
rm -rf dist-bench
trunk build --release --all-features --dist dist-bench

step "browser tests (Playwright + Debian Chromium)"
node --test --test-concurrency=1 tests/
