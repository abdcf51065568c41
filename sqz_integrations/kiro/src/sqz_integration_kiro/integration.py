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
    from sqz_agents.api import detect_agent

    return detect_agent(os.path.join(home or os.path.expanduser("~"), ".kiro"), "kiro")


def actions(ctx: dict) -> list[dict]:
    """The server in ``mcp.json`` and a steering file, for the user or (``--project``) the workspace.

    Kiro starts MCP servers from its install directory and expands no workspace variable
    (https://github.com/kirodotdev/Kiro/issues/6525), so the workspace file passes
    ``--project DIR``; on a checkout at another path sqz-mcp says so and uses its working directory.
    """
    from sqz_agents.api import guidance_file_action, mcp_server_action, project_root_args

    project = ctx.get("scope") == "project"
    root = os.path.join(ctx["project"] if project else ctx["home"], ".kiro")
    return [
        mcp_server_action(os.path.join(root, "settings", "mcp.json"), ctx,
                          args=project_root_args(ctx) if project else [], disabled=False),
        guidance_file_action(os.path.join(root, "steering", "sqz.md"), ctx, "---\ninclusion: always\n---\n",
                             "steering file"),
    ]
