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
    import shutil

    home = home or os.path.expanduser("~")
    folder = os.path.dirname(settings_path(home))
    on_path = shutil.which("zed") or shutil.which("zeditor")
    return {"detected": bool(on_path) or os.path.isdir(folder), "command": on_path,
            "config_dir": folder if os.path.isdir(folder) else None}


def actions(ctx: dict) -> list[dict]:
    path = (os.path.join(ctx["project"], ".zed", "settings.json") if ctx.get("scope") == "project"
            else settings_path(ctx["home"]))
    return [{"type": "json_member", "file": path, "path": ["context_servers"], "key": "sqz",
             "value": {"command": ctx["sqz_mcp"], "args": [], "env": {}}, "what": "context_servers.sqz"}]
