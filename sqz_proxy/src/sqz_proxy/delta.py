"""A re-read after a small edit as the changed lines against the earlier copy still in the request.

Hosts that number the lines of a file read (Claude Code's ``     12→text`` / ``    12\ttext``)
shift every number after an inserted line; the lines are compared without their numbers and
shown with them, so a one-line insertion stays a one-line delta.
"""

from __future__ import annotations

import re
from difflib import SequenceMatcher

_NUMBERED = re.compile(r"^ *\d+(?:\t|→)")
MAX_LINES = 20000
MAX_RATIO = 0.6  # a delta is used only when at most this share of the full text


def _keys(lines: list[str]) -> list[str]:
    """The lines without a host's line-number prefix, when every non-empty line has one."""
    if lines and all(_NUMBERED.match(line) for line in lines if line):
        return [_NUMBERED.sub("", line, count=1) for line in lines]
    return lines


def render(base: str, new: str) -> tuple[list[str], int] | None:
    """Hunks (``@@ -a,n +b,m @@`` with one unchanged line around each change) and the changed-line count."""
    a, b = base.split("\n"), new.split("\n")
    if len(a) > MAX_LINES or len(b) > MAX_LINES:
        return None
    ka, kb = _keys(a), _keys(b)
    out: list[str] = []
    changed = 0
    for tag, i1, i2, j1, j2 in SequenceMatcher(None, ka, kb, autojunk=False).get_opcodes():
        if tag == "equal":
            continue
        a0, b0 = max(0, i1 - 1), max(0, j1 - 1)
        a1, b1 = min(len(a), i2 + 1), min(len(b), j2 + 1)
        out.append(f"@@ -{a0 + 1},{a1 - a0} +{b0 + 1},{b1 - b0} @@")
        if j1 > b0:
            out.append(" " + b[b0])
        out.extend("-" + line for line in a[i1:i2])
        out.extend("+" + line for line in b[j1:j2])
        if j2 < b1:
            out.append(" " + b[j2])
        changed += (i2 - i1) + (j2 - j1)
    return (out, changed) if out else None


def similar_enough(base: str, new: str) -> bool:
    """A cheap first test: sizes within 30% of each other."""
    la, lb = len(base), len(new)
    return la > 0 and lb > 0 and min(la, lb) / max(la, lb) >= 0.7
