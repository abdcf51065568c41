"""Windsurf: the ``sqz-mcp`` server in ``mcp_config.json`` and a block in the global rules.

Contracts: ``~/.codeium/windsurf/mcp_config.json``, ``{"mcpServers": {name: {"command",
"args", "env"}}}`` (https://docs.windsurf.com/windsurf/cascade/mcp); global rules in
``~/.codeium/windsurf/memories/global_rules.md``, workspace rules in
``.windsurf/rules/*.md`` (https://docs.windsurf.com/windsurf/cascade/memories). Advisory:
Windsurf has no hook that rewrites a command.
"""

from __future__ import annotations

import os

name = "windsurf"
tier = "advisory"
DOCS = "https://docs.windsurf.com/windsurf/cascade/mcp"


def detect(home: str | None = None) -> dict:
    from sqz_agents.api import detect_agent

    return detect_agent(os.path.join(home or os.path.expanduser("~"), ".codeium", "windsurf"), "windsurf")


def actions(ctx: dict) -> list[dict]:
    from sqz_agents.api import guidance_block_action, guidance_file_action, mcp_server_action

    base = os.path.join(ctx["home"], ".codeium", "windsurf")
    out = [mcp_server_action(os.path.join(base, "mcp_config.json"), ctx)]
    if ctx.get("scope") == "project":
        out.append(guidance_file_action(os.path.join(ctx["project"], ".windsurf", "rules", "sqz.md"), ctx,
                                        what="workspace rule file"))
    else:
        out.append(guidance_block_action(os.path.join(base, "memories", "global_rules.md"), ctx))
    return out
