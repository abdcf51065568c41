#!/usr/bin/env bash
# Install what the test suite needs beyond .venv, once; a second run checks and returns at once.
#   Debian packages: chromium (the HTML savings report is rendered headless), postgresql (team-store
#   tests start their own throw-away servers on free loopback ports)
#   the real MCP upstream servers the sqz-mcp proxy tests wrap (npm and PyPI, pinned)
# Needs root (or sudo) for apt-get when a package is missing.
set -euo pipefail
cd "$(dirname "$0")/.."
need=()
command -v chromium >/dev/null 2>&1 || need+=(chromium)
ls -d /usr/lib/postgresql/*/bin/pg_ctl >/dev/null 2>&1 || need+=(postgresql)
if [ "${#need[@]}" -gt 0 ]; then
  SUDO=""; [ "$(id -u)" = 0 ] || SUDO="sudo"
  echo "install_test_deps: apt-get install ${need[*]}" >&2
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq >&2
  $SUDO apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi
# Debian's postgresql package starts a cluster of its own on 5432; the tests never use it.
bash sqz_integrations/mcp/scripts/install_test_upstreams.sh
# the real agent CLIs the end-to-end integration tests drive (npm, pinned, into .cache/agents)
bash sqz_integrations/claude_code/scripts/install_test_agent.sh
bash sqz_integrations/opencode/scripts/install_test_agent.sh
bash sqz_integrations/codex/scripts/install_test_agent.sh
bash sqz_integrations/gemini_cli/scripts/install_test_agent.sh
bash sqz_integrations/copilot_cli/scripts/install_test_agent.sh
