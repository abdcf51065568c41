#!/usr/bin/env bash
# Install the pinned Gemini CLI for the end-to-end test into sqz_integrations/gemini_cli/.test_agent
# (project-local, git-ignored). Idempotent: does nothing when the pinned version is already there.
set -euo pipefail
PKG=@google/gemini-cli
VERSION=0.61.0
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
prefix="$here/.test_agent"
installed="$prefix/node_modules/$PKG/package.json"
if [ -f "$installed" ] && node -e "process.exit(require('$installed').version === '$VERSION' ? 0 : 1)"; then
  echo "gemini-cli $VERSION already in $prefix"
  exit 0
fi
mkdir -p "$prefix"
printf '*\n' > "$prefix/.gitignore"
[ -f "$prefix/package.json" ] || printf '{"private": true}\n' > "$prefix/package.json"
npm install --prefix "$prefix" --no-audit --no-fund --loglevel=error "$PKG@$VERSION"
"$prefix/node_modules/.bin/gemini" --version
