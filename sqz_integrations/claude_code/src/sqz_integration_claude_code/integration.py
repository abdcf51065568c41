"""Claude Code: where it keeps its settings, and whether it is installed for this user.

Settings files per the Claude Code documentation ("Settings"): user
``~/.claude/settings.json``; project ``.claude/settings.json`` and
``.claude/settings.local.json``. Its hooks rewrite shell commands, so the tier is
transparent.
"""

from __future__ import annotations

import os
import shutil

name = "claude-code"
tier = "transparent"


def config_paths(home: str | None = None, project: str | None = None) -> dict[str, str]:
    """The settings files Claude Code reads, by scope."""
    home = home or os.path.expanduser("~")
    paths = {"user": os.path.join(home, ".claude", "settings.json")}
    if project:
        paths["project"] = os.path.join(project, ".claude", "settings.json")
        paths["local"] = os.path.join(project, ".claude", "settings.local.json")
    return paths


def detect(home: str | None = None) -> dict:
    """Whether Claude Code is present: its ``claude`` command on PATH or its ``~/.claude`` folder."""
    home = home or os.path.expanduser("~")
    on_path = shutil.which("claude")
    folder = os.path.join(home, ".claude")
    return {"detected": bool(on_path) or os.path.isdir(folder), "command": on_path,
            "config_dir": folder if os.path.isdir(folder) else None}
