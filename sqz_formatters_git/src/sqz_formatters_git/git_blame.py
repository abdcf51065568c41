"""``git blame`` (default human format) → one header per run of lines from the same commit.

``^5c7782b (Dev Example   2024-03-09 04:52:00 +0000  1) text`` repeated for every line
becomes the commit/author/date once, then its `` 1) text`` lines indented by one space under it
(the nesting is what ties each line to its commit); a commit met again further down is named by
its hash alone (its author and date were given where it first appeared).
File content is kept exactly (line numbers and text); ``--porcelain``, ``-p``, ``--incremental``, ``-e``/``--show-email``
and ``-c`` shapes → None.
"""

from __future__ import annotations

import re

from ._common import args_after

_LINE = re.compile(
    r"^(?P<sha>\^?[0-9a-f]{7,64}) (?:(?P<file>\S+) +)?\((?P<who>.*?) +"
    r"(?P<date>\d{4}-\d\d-\d\d \d\d:\d\d:\d\d [+-]\d{4}) +(?P<num>\d+)\)(?: (?P<text>.*))?$")
_REFUSED = frozenset({"--porcelain", "-p", "--line-porcelain", "--incremental", "-e", "--show-email", "-c",
                      "-t", "--date", "-s", "-n", "--show-number", "-f", "--show-name", "--root", "-b", "--score-debug"})


def format_blame(request) -> str | None:
    """Group consecutive lines that share commit, file, author and date."""
    args = args_after(request, "blame")
    for a in args:
        if a == "--":
            break
        if a.split("=", 1)[0] in _REFUSED:
            return None
    rows = []
    for line in request.text.splitlines():
        m = _LINE.match(line)
        if not m:
            return None
        rows.append(m)
    if not rows:
        return None
    out: list[str] = []
    key = None
    seen: dict[str, tuple] = {}
    for m in rows:
        k = (m.group("sha"), m.group("file"), m.group("who"), m.group("date"))
        if k != key:
            file_part = f" {m.group('file')}" if m.group("file") else ""
            if seen.get(k[0]) == k[2:]:
                out.append(f"{m.group('sha')}{file_part}")  # author and date given above
            else:
                out.append(f"{m.group('sha')}{file_part} ({m.group('who').rstrip()} {m.group('date')})")
                seen.setdefault(k[0], k[2:])
            key = k
        text = m.group("text")
        # one space of indent nests the line under its commit; no padding to align the numbers
        out.append(f" {m.group('num')})" + (f" {text}" if text is not None else ""))
    return "\n".join(out) + "\n"
