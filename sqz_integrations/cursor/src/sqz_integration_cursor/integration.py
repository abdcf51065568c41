"""Cursor: the ``sqz-mcp`` server in ``mcp.json`` (and a rule file for project scope).

Contracts: ``~/.cursor/mcp.json`` (global) or ``.cursor/mcp.json`` (project),
``{"mcpServers": {name: {"command", "args", "env"}}}`` (https://cursor.com/docs/context/mcp);
project rules are ``.cursor/rules/*.mdc`` files (https://cursor.com/docs/context/rules).

Advisory: Cursor's ``preToolUse`` hook can change a shell command's input only with
``permission: "allow"`` in the same answer (https://cursor.com/docs/agent/hooks), which
would grant permission; sqz does not install it.
"""

from __future__ import annotations

import os

name = "cursor"
tier = "advisory"
DOCS = "https://cursor.com/docs/context/mcp"

RULE = """---
description: Compress long shell output with sqz
alwaysApply: true
---
"""


def detect(home: str | None = None) -> dict:
    from sqz_agents.api import detect_agent

    return detect_agent(os.path.join(home or os.path.expanduser("~"), ".cursor"), "cursor")


def actions(ctx: dict) -> list[dict]:
    from sqz_agents.api import guidance_file_action, mcp_server_action

    root = ctx["project"] if ctx.get("scope") == "project" else ctx["home"]
    out = [mcp_server_action(os.path.join(root, ".cursor", "mcp.json"), ctx)]
    if ctx.get("scope") == "project":
        out.append(guidance_file_action(os.path.join(root, ".cursor", "rules", "sqz.mdc"), ctx, RULE))
    return out
