"""``sqz budget``: set, remove and list the per-agent token budgets the core enforces.

The warning itself (``budget_warning.check``, which the core's hot path calls through
``sqz_insights.api``) is beside it, and the file's place is the core's (``sqz_core.api.budgets_path``);
this module writes the file, reports each session's use against it, and forgets the warnings on
``sqz reset``.
"""

from __future__ import annotations

import os

from sqz_core.api import budgets_path

from .budget_warning import UNKNOWN, limit_for, load, warned_dir

__all__ = ["load", "save", "usage", "clear_warnings", "limit_for", "budgets_path"]


def save(budgets: dict) -> str:
    """Write the budgets atomically (another process may be reading them); returns the path."""
    import json
    import tempfile

    path = budgets_path()
    os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".budgets.", dir=os.path.dirname(path))
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            json.dump(budgets, fh, indent=2, sort_keys=True)
            fh.write("\n")
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    return path


def clear_warnings() -> int:
    """Forget which sessions were warned (with ``sqz reset --stats-only`` / full reset)."""
    n = 0
    try:
        names = os.listdir(warned_dir())
    except OSError:
        return 0
    for name in names:
        try:
            os.unlink(os.path.join(warned_dir(), name))
            n += 1
        except OSError:
            pass
    return n


def usage(store, budgets: dict, since: float = 0.0) -> list[dict]:
    """Sessions of agents with a budget: ``{"session", "agent", "used", "limit"}``, most used first."""
    totals: dict = {}
    for row in store.calls(since):
        session, agent, est_out = row[1], row[12], row[9]
        limit = limit_for(budgets, agent)
        if not limit or not session:
            continue
        key = (session, agent or UNKNOWN)
        t = totals.setdefault(key, {"session": session, "agent": agent or UNKNOWN, "used": 0, "limit": limit})
        t["used"] += est_out
    return sorted(totals.values(), key=lambda t: -t["used"])
