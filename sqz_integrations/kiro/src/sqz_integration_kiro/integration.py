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
    import shutil

    home = home or os.path.expanduser("~")
    folder = os.path.join(home, ".kiro")
    on_path = shutil.which("kiro")
    return {"detected": bool(on_path) or os.path.isdir(folder), "command": on_path,
            "config_dir": folder if os.path.isdir(folder) else None}


def actions(ctx: dict) -> list[dict]:
    root = os.path.join(ctx["project"] if ctx.get("scope") == "project" else ctx["home"], ".kiro")
    return [
        {"type": "json_member", "file": os.path.join(root, "settings", "mcp.json"), "path": ["mcpServers"],
         "key": "sqz", "value": {"command": ctx["sqz_mcp"], "args": [], "disabled": False}, "what": "mcpServers.sqz"},
        {"type": "owned_file", "file": os.path.join(root, "steering", "sqz.md"),
         "content": "---\ninclusion: always\n---\n" + ctx["guidance"], "what": "steering file"},
    ]
