#!/usr/bin/env bash
# Installs what is missing, then serves the app at http://127.0.0.1:8080 with live rebuilds.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
export PATH="$HOME/.cargo/bin:$PWD/node_modules/.bin:$PATH"
exec trunk serve "$@"
