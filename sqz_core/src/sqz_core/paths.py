"""Where sqz keeps its files: the database and the plugin index."""

from __future__ import annotations

import os

from .config import _base, env
from .config import cache_dir as cache_dir  # public here: where sqz keeps its files


def db_path() -> str:
    """``SQZ_DB_PATH``, or ``sqz.db`` in the user's data directory (platform convention)."""
    return env("SQZ_DB_PATH") or os.path.join(_base("data"), "sqz.db")
