#!/usr/bin/env bash
# Set up .venv with every sqz distribution of this repository (editable) and the test tools.
# Idempotent: a second run only re-checks what is installed. Needs Python >= 3.10 (3.11 tested).
set -euo pipefail
cd "$(dirname "$0")/.."
PY="${PYTHON:-}"
if [ -z "$PY" ]; then
  for candidate in python3.11 python3.12 python3.13 python3.10 python3; do
    if command -v "$candidate" >/dev/null 2>&1; then PY="$candidate"; break; fi
  done
fi
[ -n "$PY" ] || { echo "bootstrap: no python3 found (need 3.10+)" >&2; exit 1; }
if [ ! -x .venv/bin/python ]; then
  echo "bootstrap: creating .venv with $($PY --version)" >&2
  "$PY" -m venv .venv
fi
# The installs are editable: code changes need no reinstall. Only a change to what is installed
# (requirements, a distribution's pyproject: dependencies, entry points) does, so a stamp of those
# files lets a second run return in a moment.
stamp="$(cat requirements-dev.txt $(ls */pyproject.toml */*/pyproject.toml 2>/dev/null | sort) | cksum)"
if [ "$(cat .venv/.sqz-bootstrap 2>/dev/null || true)" != "$stamp" ] || [ ! -x .venv/bin/sqz ]; then
  echo "bootstrap: installing the sqz distributions into .venv (quiet; may take a minute the first time)" >&2
  .venv/bin/python -m pip install --quiet --disable-pip-version-check -r requirements-dev.txt
  .venv/bin/sqz plugins --refresh >/dev/null 2>&1 || true
  echo "$stamp" > .venv/.sqz-bootstrap
fi
echo "bootstrap: ready: $(.venv/bin/sqz --version)" >&2
case ":$PATH:" in
  *":$PWD/.venv/bin:"*) ;;
  *) echo "bootstrap: to run sqz by name: export PATH=\"$PWD/.venv/bin:\$PATH\"" >&2
     echo "bootstrap: (until then recovery hints name sqz by its absolute path; sqz init links it into ~/.local/bin or ~/bin when one is on PATH)" >&2 ;;
esac
