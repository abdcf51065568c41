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
    import shutil

    home = home or os.path.expanduser("~")
    folder = os.path.join(home, ".codeium", "windsurf")
    on_path = shutil.which("windsurf")
    return {"detected": bool(on_path) or os.path.isdir(folder), "command": on_path,
            "config_dir": folder if os.path.isdir(folder) else None}


def actions(ctx: dict) -> list[dict]:
    base = os.path.join(ctx["home"], ".codeium", "windsurf")
    out = [{"type": "json_member", "file": os.path.join(base, "mcp_config.json"), "path": ["mcpServers"],
            "key": "sqz", "value": {"command": ctx["sqz_mcp"], "args": []}, "what": "mcpServers.sqz"}]
    if ctx.get("scope") == "project":
        out.append({"type": "owned_file", "file": os.path.join(ctx["project"], ".windsurf", "rules", "sqz.md"),
                    "content": ctx["guidance"], "what": "workspace rule file"})
    else:
        out.append({"type": "md_block", "file": os.path.join(base, "memories", "global_rules.md"),
                    "body": ctx["guidance"], "what": "sqz guidance block"})
    return out
