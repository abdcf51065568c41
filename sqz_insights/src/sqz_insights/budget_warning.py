"""Per-agent token budgets: a session that crosses its agent's budget gets one warning line.

This is the part on the hot path (reading budgets, the warning): the core imports it, through
``sqz_insights.api``, after a recorded call only when the budgets file exists (``sqz budget set`` wrote
it); setting, listing and clearing them is ``sqz_insights.budgets`` (``sqz budget``).

Budgets live in ``budgets.json`` next to the database (the user's data directory):
``{"agent name": tokens per session}``; ``"*"`` applies to every agent without its own
entry, and calls without an agent name count as ``"(unknown)"``. What a session used is
what sqz served to it (the hot path's ``est_out`` figures: an estimate, and labelled so).

``check`` runs on the hot path after every recorded call: stdlib only, no file read
when no budget is set, one indexed query when one is. The warning is shown once per
session and budget: a marker file created with ``O_EXCL`` makes exactly one of several
concurrent ``sqz`` processes print it.
"""

from __future__ import annotations

import os

from sqz_core.api import budgets_path as budgets_path  # public here
from sqz_core.api import data_dir as _data_dir

TYPE_CHECKING = False  # not typing's: importing typing would cost every hook call (type checkers know the name)

if TYPE_CHECKING:  # pragma: no cover - types only
    from sqz_core.api import StoreProtocol

UNKNOWN = "(unknown)"
ANY = "*"


def warned_dir() -> str:
    return os.path.join(_data_dir(), "budget-warned")


def load() -> dict[str, int]:
    """``{agent: tokens}``; empty when no budget is set or the file is unreadable."""
    import json

    try:
        with open(budgets_path(), encoding="utf-8") as fh:
            data = json.load(fh)
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict):
        return {}
    return {str(k): int(v) for k, v in data.items() if isinstance(v, (int, float)) and v > 0}


def limit_for(budgets: dict[str, int], agent: str | None) -> int | None:
    name = agent or UNKNOWN
    return budgets.get(name, budgets.get(ANY))


def _marker(session: str, agent: str | None, limit: int) -> str:
    import zlib

    key = f"{session}\0{agent or UNKNOWN}\0{limit}".encode("utf-8", "surrogateescape")
    return os.path.join(warned_dir(), f"{zlib.crc32(key) & 0xFFFFFFFF:08x}-{len(key)}")


def check(store: StoreProtocol, session: str | None, agent: str | None) -> str | None:
    """The warning line if ``session`` has just crossed its agent's budget (shown once), else None."""
    if not session:
        return None
    try:
        os.stat(budgets_path())
    except OSError:
        return None  # no budget set: nothing to read, nothing to query
    budgets = load()
    limit = limit_for(budgets, agent)
    if not limit:
        return None
    used = store.tokens_served(session, 0.0)
    if used < limit:
        return None
    marker = _marker(session, agent, limit)
    try:
        os.makedirs(os.path.dirname(marker), mode=0o700, exist_ok=True)
        os.close(os.open(marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600))
    except FileExistsError:
        return None  # already shown for this session and budget
    except OSError:
        return None
    try:
        store.record_event("budget", session=session, ref=agent or UNKNOWN, detail=f"{used}/{limit}")
    except Exception:
        pass
    return (f"sqz: budget: session {session} has been served ~{used:,} tokens (estimate), over the "
            f"{limit:,}-token budget for agent {agent or UNKNOWN} (sqz budget list)")
