"""Cline (VS Code extension): the ``sqz-mcp`` server in ``cline_mcp_settings.json`` and a rule file.

Contracts: Cline keeps MCP servers in ``cline_mcp_settings.json`` in the extension's
global storage (``…/Code/User/globalStorage/saoudrizwan.claude-dev/settings/``),
``{"mcpServers": {name: {"command", "args", "env", "disabled"}}}``
(https://docs.cline.bot/mcp/configuring-mcp-servers); global rules are Markdown files in
``~/Documents/Cline/Rules/``, workspace rules in ``.clinerules/``
(https://docs.cline.bot/features/cline-rules). Advisory: no command-rewriting hook.
"""

from __future__ import annotations

import os
import sys

name = "cline"
tier = "advisory"
DOCS = "https://docs.cline.bot/mcp/configuring-mcp-servers"
EXTENSION = "saoudrizwan.claude-dev"


def settings_path(home: str) -> str:
    if sys.platform == "darwin":
        code = os.path.join(home, "Library", "Application Support", "Code")
    elif sys.platform == "win32":
        code = os.path.join(os.environ.get("APPDATA") or os.path.join(home, "AppData", "Roaming"), "Code")
    else:
        code = os.path.join(home, ".config", "Code")
    return os.path.join(code, "User", "globalStorage", EXTENSION, "settings", "cline_mcp_settings.json")


def detect(home: str | None = None) -> dict:
    from sqz_agents.api import detect_agent

    return detect_agent(os.path.dirname(os.path.dirname(settings_path(home or os.path.expanduser("~")))))


def actions(ctx: dict) -> list[dict]:
    """The server in Cline's (per-user) settings and a rule file.

    Cline starts MCP servers in ``/`` and sends no roots (https://github.com/cline/cline/issues/5760),
    so for a project (``sqz init --project``) the server gets ``--project DIR``. Cline's settings
    are per user: the last project configured is the one its sqz server reads.
    """
    from sqz_agents.api import guidance_file_action, mcp_server_action, project_root_args

    project = ctx.get("scope") == "project"
    if project:
        rule = os.path.join(ctx["project"], ".clinerules", "sqz.md")
    else:
        rule = os.path.join(ctx["home"], "Documents", "Cline", "Rules", "sqz.md")
    return [mcp_server_action(settings_path(ctx["home"]), ctx, args=project_root_args(ctx) if project else [],
                              disabled=False), guidance_file_action(rule, ctx)]
