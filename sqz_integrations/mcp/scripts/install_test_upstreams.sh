#!/usr/bin/env bash
# Install the real upstream MCP servers the proxy tests wrap, into sqz_integrations/mcp/.upstreams/
# (git-ignored). Idempotent: a second run with everything in place does nothing.
#   npm:  @modelcontextprotocol/server-filesystem, @modelcontextprotocol/server-everything
#   PyPI: mcp-server-git (in its own virtualenv, so its `mcp` pin cannot clash with the workspace's)
# Needs node/npm and python3 with venv. Versions are pinned so the measured figures stay comparable.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
dest="$here/.upstreams"
mkdir -p "$dest"

FS_VERSION="${SQZ_MCP_FS_VERSION:-2026.8.31}"
EVERYTHING_VERSION="${SQZ_MCP_EVERYTHING_VERSION:-2026.8.31}"
GIT_VERSION="${SQZ_MCP_GIT_VERSION:-2026.10.19}"

node_dir="$dest/node"
want_node="fs=$FS_VERSION everything=$EVERYTHING_VERSION"
if [ "$(cat "$node_dir/.sqz-installed" 2>/dev/null || true)" != "$want_node" ]; then
  mkdir -p "$node_dir"
  [ -f "$node_dir/package.json" ] || echo '{"name":"sqz-mcp-test-upstreams","private":true}' > "$node_dir/package.json"
  npm install --prefix "$node_dir" --no-audit --no-fund --loglevel=error \
    "@modelcontextprotocol/server-filesystem@$FS_VERSION" \
    "@modelcontextprotocol/server-everything@$EVERYTHING_VERSION"
  echo "$want_node" > "$node_dir/.sqz-installed"
fi

py_dir="$dest/git-venv"
if [ "$(cat "$py_dir/.sqz-installed" 2>/dev/null || true)" != "mcp-server-git=$GIT_VERSION" ]; then
  [ -x "$py_dir/bin/python" ] || python3 -m venv "$py_dir"
  "$py_dir/bin/pip" install -q --disable-pip-version-check "mcp-server-git==$GIT_VERSION"
  echo "mcp-server-git=$GIT_VERSION" > "$py_dir/.sqz-installed"
fi
echo "upstream MCP servers ready in $dest"
