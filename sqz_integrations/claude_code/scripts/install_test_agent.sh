#!/usr/bin/env bash
# Install the pinned Claude Code CLI for the end-to-end test into a project-local,
# git-ignored prefix (.cache/agents/claude under the repo root). Idempotent: does
# nothing when the pinned version is already there. Prints the path of `claude`.
set -euo pipefail
VERSION="${SQZ_CLAUDE_CODE_VERSION:-2.1.332}"
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)"
PREFIX="${SQZ_AGENTS_DIR:-$ROOT/.cache/agents}/claude"
BIN="$PREFIX/node_modules/.bin/claude"
if [ -x "$BIN" ] && "$BIN" --version 2>/dev/null | grep -q "^$VERSION "; then
  echo "$BIN"
  exit 0
fi
mkdir -p "$PREFIX"
# keep the install out of git even where .gitignore does not list .cache/
[ -f "$PREFIX/../.gitignore" ] || echo '*' > "$PREFIX/../.gitignore"
[ -f "$PREFIX/package.json" ] || echo '{"private": true}' > "$PREFIX/package.json"
npm install --prefix "$PREFIX" --no-audit --no-fund --loglevel=error \
  "@anthropic-ai/claude-code@$VERSION" >&2
"$BIN" --version >&2
echo "$BIN"
