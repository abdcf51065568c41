"""A re-read after a small edit as the changed lines against the earlier copy still in the request.

The hunks are the core's line delta (``sqz_core.api.render_delta``, the one the session store's
deltas use). Hosts that number the lines of a file read (Claude Code's ``     12→text`` /
``    12\ttext``) shift every number after an inserted line; the lines are compared without
their numbers and shown with them, so a one-line insertion stays a one-line delta.
"""

from __future__ import annotations

import re

_NUMBERED = re.compile(r"^ *\d+(?:\t|→)")


def _keys(lines: list[str]) -> list[str]:
    """The lines without a host's line-number prefix, when every non-empty line has one."""
    if lines and all(_NUMBERED.match(line) for line in lines if line):
        return [_NUMBERED.sub("", line, count=1) for line in lines]
    return lines


def max_ratio() -> float:
    """A delta is used only when at most this share of the full text (the core's bound)."""
    from sqz_core.api import MAX_DELTA_RATIO

    return MAX_DELTA_RATIO


def render(base: str, new: str) -> tuple[list[str], int] | None:
    """Hunks (``@@ -a,n +b,m @@`` with one unchanged line around each change) and the changed-line count."""
    from sqz_core.api import MAX_DELTA_LINES, render_delta

    a, b = base.split("\n"), new.split("\n")
    if len(a) > MAX_DELTA_LINES or len(b) > MAX_DELTA_LINES:
        return None
    out = render_delta(a, b, (_keys(a), _keys(b)))
    changed = sum(1 for line in out if line[:1] in "+-")
    return (out, changed) if out else None


def similar_enough(base: str, new: str) -> bool:
    """A cheap first test: sizes within 30% of each other."""
    la, lb = len(base), len(new)
    return la > 0 and lb > 0 and min(la, lb) / max(la, lb) >= 0.7
