#!/bin/sh
# Install the pinned OpenCode CLI (npm package opencode-ai) for the end-to-end test into a
# project-local, git-ignored prefix: <repo>/.test-agents/opencode. Idempotent: does nothing
# when the pinned version is already there. Needs node >= 18 and npm.
set -eu
VERSION="${SQZ_OPENCODE_VERSION:-1.18.33}"
ROOT="$(cd "$(dirname "$0")/../../.." && pwd)"
PREFIX="$ROOT/.test-agents/opencode"
BIN="$PREFIX/node_modules/.bin/opencode"
if [ -x "$BIN" ] && [ "$("$BIN" --version 2>/dev/null)" = "$VERSION" ]; then
  echo "opencode $VERSION already installed in $PREFIX"
  exit 0
fi
mkdir -p "$PREFIX"
[ -f "$PREFIX/package.json" ] || echo '{"private": true}' > "$PREFIX/package.json"
npm install --prefix "$PREFIX" --no-audit --no-fund --save-exact "opencode-ai@$VERSION"
"$BIN" --version
