#!/usr/bin/env bash
# Install the pinned GitHub Copilot CLI for the end-to-end test into sqz_integrations/copilot_cli/.test_agent
# (project-local, git-ignored). Idempotent: does nothing when the pinned version is already there.
set -euo pipefail
PKG=@github/copilot
VERSION=1.0.102
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
prefix="$here/.test_agent"
installed="$prefix/node_modules/$PKG/package.json"
if [ -f "$installed" ] && node -e "process.exit(require('$installed').version === '$VERSION' ? 0 : 1)"; then
  echo "copilot-cli $VERSION already in $prefix"
  exit 0
fi
mkdir -p "$prefix"
printf '*\n' > "$prefix/.gitignore"
[ -f "$prefix/package.json" ] || printf '{"private": true}\n' > "$prefix/package.json"
npm install --prefix "$prefix" --no-audit --no-fund --loglevel=error "$PKG@$VERSION"
XDG_CACHE_HOME="$prefix/cache" "$prefix/node_modules/.bin/copilot" --version  # unpacks its package where the test looks
