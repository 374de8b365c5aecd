#!/usr/bin/env bash
# Installs whatever the build and the tests need and is missing; each tool is
# skipped when the pinned version is already there. Safe to run repeatedly.
#   scripts/setup.sh          build tools (wasm target, trunk, wasm-bindgen-cli, wasm-opt)
#   scripts/setup.sh --tests  the above plus Chromium and the browser-test packages
set -euo pipefail
cd "$(dirname "$0")/.."

TRUNK_VERSION=0.21.14
# wasm-bindgen-cli must match the wasm-bindgen library version in Cargo.lock exactly.
WASM_BINDGEN_VERSION=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/[^0-9.]/, ""); print; exit }' Cargo.lock)
export PATH="$HOME/.cargo/bin:$PWD/node_modules/.bin:$PATH"

say() { printf '\n== setup: %s\n' "$*"; }

need_apt=()
command -v node >/dev/null 2>&1 || need_apt+=(nodejs npm)
command -v npm >/dev/null 2>&1 || need_apt+=(npm)
command -v cc >/dev/null 2>&1 || need_apt+=(build-essential)
if [[ "${1:-}" == "--tests" ]]; then
  command -v chromium >/dev/null 2>&1 || need_apt+=(chromium)
fi
if ((${#need_apt[@]})); then
  say "apt-get install ${need_apt[*]}"
  SUDO=""; [[ $(id -u) -eq 0 ]] || SUDO="sudo"
  $SUDO apt-get update -q
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q "${need_apt[@]}"
fi

if ! command -v cargo >/dev/null 2>&1; then
  echo "setup: cargo not found; install Rust with rustup (https://rustup.rs) first" >&2
  exit 1
fi

if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  say "rustup target add wasm32-unknown-unknown"
  rustup target add wasm32-unknown-unknown
fi
rustup component list --installed | grep -q '^rustfmt' || rustup component add rustfmt
rustup component list --installed | grep -q '^clippy' || rustup component add clippy

if [[ "$(trunk --version 2>/dev/null)" != "trunk $TRUNK_VERSION" ]]; then
  say "cargo install trunk $TRUNK_VERSION (takes 10-15 minutes on 2 cores)"
  cargo install trunk --version "$TRUNK_VERSION" --locked
fi

if [[ "$(wasm-bindgen --version 2>/dev/null)" != "wasm-bindgen $WASM_BINDGEN_VERSION" ]]; then
  say "cargo install wasm-bindgen-cli $WASM_BINDGEN_VERSION"
  # Without --locked: the crate's own lock file does not build on this toolchain.
  cargo install wasm-bindgen-cli --version "$WASM_BINDGEN_VERSION" --force
fi

# wasm-opt 132 (npm's binaryen), playwright-core and axe-core, exactly as locked.
if ! npm ls --depth=0 >/dev/null 2>&1 || [[ ! -x node_modules/.bin/wasm-opt ]]; then
  say "npm ci"
  npm ci --no-audit --no-fund
fi
if [[ "$(wasm-opt --version 2>/dev/null)" != *"version_132"* ]]; then
  echo "setup: wasm-opt 132 expected from node_modules/.bin, found: $(wasm-opt --version 2>&1)" >&2
  exit 1
fi
say "tools ready: $(trunk --version), $(wasm-bindgen --version), $(wasm-opt --version)"
