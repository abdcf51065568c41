"""Kiro: the ``sqz-mcp`` server in ``settings/mcp.json`` and a steering file.

Contracts: ``~/.kiro/settings/mcp.json`` (workspace: ``.kiro/settings/mcp.json``),
``{"mcpServers": {name: {"command", "args", "env", "disabled"}}}``
(https://kiro.dev/docs/mcp/configuration); steering files are Markdown in
``~/.kiro/steering/`` or ``.kiro/steering/``, included always by default
(https://kiro.dev/docs/steering). Advisory: no command-rewriting hook.
"""

from __future__ import annotations

import os

name = "kiro"
tier = "advisory"
DOCS = "https://kiro.dev/docs/mcp/configuration"


def detect(home: str | None = None) -> dict:
    from sqz_core.setup_cmds import detect_agent

    return detect_agent(os.path.join(home or os.path.expanduser("~"), ".kiro"), "kiro")


def actions(ctx: dict) -> list[dict]:
    from sqz_core.setup_cmds import guidance_file_action, mcp_server_action

    root = os.path.join(ctx["project"] if ctx.get("scope") == "project" else ctx["home"], ".kiro")
    return [
        mcp_server_action(os.path.join(root, "settings", "mcp.json"), ctx, disabled=False),
        guidance_file_action(os.path.join(root, "steering", "sqz.md"), ctx, "---\ninclusion: always\n---\n",
                             "steering file"),
    ]
