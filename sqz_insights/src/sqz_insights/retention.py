"""Retention: forget old stats and content (``sqz stats --prune``) or everything (``sqz reset``).

Before stored content goes, the token counts of the calls that stay are computed and
cached, so their savings remain exact figures after the bytes are gone.
"""

from __future__ import annotations

import re
import time

_AGE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([smhdw]?)\s*$")
_UNIT = {"": 86400, "s": 1, "m": 60, "h": 3600, "d": 86400, "w": 7 * 86400}


def parse_age(text: str) -> float:
    """Seconds in ``90d``, ``12h``, ``2w``, ``30m``, ``45s`` (a bare number is days)."""
    m = _AGE.match(text or "")
    if not m:
        raise ValueError(f"{text!r} is not an age such as 90d, 12h, 2w")
    return float(m.group(1)) * _UNIT[m.group(2)]


def prune(store, older_than: float, now: float | None = None) -> dict:
    """Delete what is older than ``older_than`` seconds (see ``Store.prune_before``); counts per table."""
    from .stats import warm_counts

    cutoff = (time.time() if now is None else now) - older_than
    warm_counts(store)
    done = store.prune_before(cutoff)
    done["cutoff"] = cutoff
    return done


def reset(store, *, cache: bool = True, stats: bool = True) -> dict:
    """Empty the cache and/or the stats (see ``Store.reset``); counts per table."""
    from .budgets import clear_warnings

    if cache and not stats:
        from .stats import warm_counts

        warm_counts(store)
    done = store.reset(cache=cache, stats=stats)
    if stats:
        done["budget_warnings"] = clear_warnings()
    store.vacuum()
    return done
