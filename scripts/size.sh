#!/usr/bin/env bash
# Prints the gzip -9 size of what a first visit downloads (HTML, JS, wasm, CSS;
# the catalog is compiled into the wasm) and fails above the budget.
set -euo pipefail
dist=${1:-dist}
budget=${SIZE_BUDGET_BYTES:-250000}
total=0
while IFS= read -r f; do
  bytes=$(gzip -9 -c "$f" | wc -c)
  printf '  %8d B  %s\n' "$bytes" "${f#"$dist"/}"
  total=$((total + bytes))
done < <(find "$dist" -maxdepth 1 -type f \( -name '*.html' -o -name '*.js' -o -name '*.wasm' -o -name '*.css' -o -name '*.svg' \) | sort)
printf 'first-visit size (gzip -9): %d B of %d B budget\n' "$total" "$budget"
if ((total > budget)); then
  echo "size budget exceeded" >&2
  exit 1
fi
