#!/bin/sh
# Install the pinned OpenCode CLI (npm package opencode-ai) for the end-to-end test into a
# project-local, git-ignored prefix: <repo>/.test-agents/opencode. Idempotent: does nothing
# when the pinned version is already there. Needs node >= 18 and npm.
set -eu
VERSION="${SQZ_OPENCODE_VERSION:-1.18.33}"
ROOT="$(cd "$(dirname "$0")/../../.." && pwd)"
PREFIX="$ROOT/.test-agents/opencode"
BIN="$PREFIX/node_modules/.bin/opencode"
# OpenCode installs @opencode-ai/plugin (same version) into its config directory at start-up;
# the test points npm at this cache so each run does not download it again.
CACHE="$PREFIX/npm-cache"
if [ -x "$BIN" ] && [ "$("$BIN" --version 2>/dev/null)" = "$VERSION" ] \
   && [ -d "$PREFIX/node_modules/@opencode-ai/plugin" ]; then
  echo "opencode $VERSION already installed in $PREFIX"
  exit 0
fi
mkdir -p "$PREFIX"
[ -f "$PREFIX/package.json" ] || echo '{"private": true}' > "$PREFIX/package.json"
npm install --prefix "$PREFIX" --cache "$CACHE" --no-audit --no-fund --save-exact \
  "opencode-ai@$VERSION" "@opencode-ai/plugin@$VERSION"
"$BIN" --version
