"""Where sqz keeps its files: the database and the plugin index."""

from __future__ import annotations

import os
import sys


def _base(kind: str) -> str:
    home = os.path.expanduser("~")
    if sys.platform == "win32":
        root = os.environ.get("LOCALAPPDATA") or os.path.join(home, "AppData", "Local")
        return os.path.join(root, "sqz", "cache" if kind == "cache" else "")
    if sys.platform == "darwin":
        sub = "Caches" if kind == "cache" else "Application Support"
        return os.path.join(home, "Library", sub, "sqz")
    var, default = ("XDG_CACHE_HOME", ".cache") if kind == "cache" else ("XDG_DATA_HOME", os.path.join(".local", "share"))
    root = os.environ.get(var) or os.path.join(home, default)
    return os.path.join(root, "sqz")


def db_path() -> str:
    """``SQZ_DB_PATH``, or ``sqz.db`` in the user's data directory (platform convention)."""
    from .config import env

    return env("SQZ_DB_PATH") or os.path.join(_base("data"), "sqz.db")


def cache_dir() -> str:
    """``SQZ_CACHE_DIR``, or the user's cache directory (platform convention)."""
    return os.environ.get("SQZ_CACHE_DIR") or _base("cache")
