#!/usr/bin/env bash
# Build a wheel of every sqz distribution of this checkout into dist/ (or the folder given), so that
# `pip install --find-links dist sqz-all` installs everything in one command, before sqz is on an index.
# Uses .venv's build and hatchling (bootstrap.sh installs them); no build isolation, no network.
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-dist}"
[ -x .venv/bin/python ] || bash scripts/bootstrap.sh >&2
mkdir -p "$out"
n=0
while IFS= read -r proj; do
  dir="$(dirname "$proj")"
  .venv/bin/python -m build --no-isolation --wheel --outdir "$out" "$dir" >/dev/null 2>&1 \
    || { echo "build_wheels: $dir failed to build (python -m build --wheel $dir says why)" >&2; exit 1; }
  n=$((n + 1))
done < <(git ls-files '*/pyproject.toml' | grep -v '^examples/' | grep -v '^benchmarks/' | sort)
echo "build_wheels: $n wheels in $out/; install them all with: pip install --find-links $out sqz-all" >&2
