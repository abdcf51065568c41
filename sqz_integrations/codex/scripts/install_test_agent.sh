#!/bin/sh
# Install the pinned Codex CLI (npm package @openai/codex) for the end-to-end test into a
# project-local, git-ignored prefix: <repo>/.test-agents/codex. Idempotent: does nothing
# when the pinned version is already there. Needs node >= 16 and npm.
set -eu
VERSION="${SQZ_CODEX_VERSION:-0.171.0}"
ROOT="$(cd "$(dirname "$0")/../../.." && pwd)"
PREFIX="$ROOT/.test-agents/codex"
BIN="$PREFIX/node_modules/.bin/codex"
if [ -x "$BIN" ] && "$BIN" --version 2>/dev/null | grep -qx "codex-cli $VERSION"; then
  echo "codex $VERSION already installed in $PREFIX"
  exit 0
fi
mkdir -p "$PREFIX"
[ -f "$PREFIX/package.json" ] || echo '{"private": true}' > "$PREFIX/package.json"
npm install --prefix "$PREFIX" --no-audit --no-fund --save-exact "@openai/codex@$VERSION"
"$BIN" --version
