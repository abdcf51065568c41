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
    import shutil

    home = home or os.path.expanduser("~")
    folder = os.path.join(home, ".cursor")
    on_path = shutil.which("cursor")
    return {"detected": bool(on_path) or os.path.isdir(folder), "command": on_path,
            "config_dir": folder if os.path.isdir(folder) else None}


def actions(ctx: dict) -> list[dict]:
    root = ctx["project"] if ctx.get("scope") == "project" else ctx["home"]
    out = [{"type": "json_member", "file": os.path.join(root, ".cursor", "mcp.json"), "path": ["mcpServers"],
            "key": "sqz", "value": {"command": ctx["sqz_mcp"], "args": []}, "what": "mcpServers.sqz"}]
    if ctx.get("scope") == "project":
        out.append({"type": "owned_file", "file": os.path.join(root, ".cursor", "rules", "sqz.mdc"),
                    "content": RULE + ctx["guidance"], "what": "rule file"})
    return out
