"""Zed: the ``sqz-mcp`` server under ``context_servers`` in ``settings.json`` (JSON with comments).

Contracts: ``~/.config/zed/settings.json`` (project: ``.zed/settings.json``),
``{"context_servers": {name: {"command": …, "args": […], "env": {…}}}}``
(https://zed.dev/docs/ai/mcp). Zed's settings file usually holds comments: they are kept.
Advisory: no command-rewriting hook.
"""

from __future__ import annotations

import os

name = "zed"
tier = "advisory"
DOCS = "https://zed.dev/docs/ai/mcp"


def settings_path(ctx_or_home) -> str:
    return os.path.join(ctx_or_home, ".config", "zed", "settings.json")


def detect(home: str | None = None) -> dict:
    from sqz_agents.api import detect_agent

    return detect_agent(os.path.dirname(settings_path(home or os.path.expanduser("~"))), "zed", "zeditor")


def actions(ctx: dict) -> list[dict]:
    from sqz_agents.api import mcp_server_action

    path = (os.path.join(ctx["project"], ".zed", "settings.json") if ctx.get("scope") == "project"
            else settings_path(ctx["home"]))
    return [mcp_server_action(path, ctx, "context_servers", env={})]
