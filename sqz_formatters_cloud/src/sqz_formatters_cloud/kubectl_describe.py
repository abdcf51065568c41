"""``kubectl describe``: drop fields that say ``<none>``, keep conditions and events whole.

Describe output is a key/value tree. Fields whose value is ``<none>`` carry no fact
the agent acts on and are dropped with a count; ``Events:  <none>`` stays (it says
that nothing happened). The Events table loses its ``----`` underline and its
padding (cells tab-separated, read back losslessly); every event row is kept.
"""

from __future__ import annotations

import re

from sqz_formatters_generic.api import parse_lines, render_table

_NONE_FIELD = re.compile(r"^\s*[A-Za-z][\w .()/-]*:\s+<none>$")
_UNDERLINE = re.compile(r"^\s*-{2,}(\s+-{2,})+\s*$")


def format_describe(text: str) -> str | None:
    """Compact describe output; None unless it starts like kubectl's (``Name:``)."""
    lines = text.split("\n")
    if not lines or not lines[0].startswith("Name:"):
        return None
    out: list[str] = []
    dropped = 0
    i, n = 0, len(lines)
    while i < n:
        line = lines[i]
        if line.startswith("Events:") and line.split(":", 1)[1].strip() == "":
            j = i + 1
            while j < n and lines[j].startswith("  ") and lines[j].strip():
                j += 1
            table = compact_events(lines[i + 1:j])
            if table is None:
                return None
            out.append(line)
            out.extend(table)
            i = j
            continue
        if _NONE_FIELD.match(line) and not line.lstrip().startswith("Events:"):
            dropped += 1
            i += 1
            continue
        out.append(line)
        i += 1
    while out and not out[-1].strip():
        out.pop()
    if dropped:
        out.append(f"[{dropped} fields with value <none> dropped]")
    return "\n".join(out).rstrip("\n") + "\n"


def compact_events(rows: list[str]) -> list[str] | None:
    """The indented Events table without its underline, through the generic pack's table parser."""
    body = [r[2:] for r in rows if not _UNDERLINE.match(r)]
    if len(rows) - len(body) > 1 or not body:
        return None
    table = parse_lines(body, min_rows=1)
    compact = None if table is None else render_table(table)
    if compact is None:
        return None
    return ["  " + l for l in compact.rstrip("\n").split("\n")]
