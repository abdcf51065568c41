"""Where sqz keeps its files: the database and the plugin index."""

from __future__ import annotations

import os

from .config import _base, env
from .config import cache_dir as cache_dir  # public here: where sqz keeps its files


def db_path() -> str:
    """``SQZ_DB_PATH``, or ``sqz.db`` in the user's data directory (platform convention)."""
    return env("SQZ_DB_PATH") or os.path.join(_base("data"), "sqz.db")


def data_dir() -> str:
    """The folder of the database: where the per-agent budgets and their warning marks are kept."""
    return os.path.dirname(os.path.abspath(db_path()))


def budgets_path() -> str:
    """``budgets.json`` (``sqz budget``): a call reads it, and imports sqz-insights' warning, only when it exists."""
    return os.path.join(data_dir(), "budgets.json")
