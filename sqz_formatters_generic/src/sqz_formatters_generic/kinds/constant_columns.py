"""Columns: aligned records whose columns hold the same value on nearly every line.

Archive listings (``tar -tvf``, ``zipinfo``) print one record per line in padded columns,
and most columns repeat: the owner, the zip version and method, a date every file of a wheel
shares. The largest group of aligned lines with one field count gets those values stated
once, in a note above its first record (``[sqz: on each line below not shown whole: field 2
root/root, field 4 2026-12-01]``); each record of the group then shows its other fields,
single-spaced. A record whose value differs in one of those columns is kept whole, and so is
every line outside the group (headers, totals, odd names).

Left alone: file content, a unified diff, a table under a column header (``unzip -l``, ``helm list``: its cells stay on
their rows, the table kind's rule) and tab-separated lines (a cell may hold spaces). Never
moved out of the records: the first field (a record's type or permissions) and the last (its
name), plain words and numbers and a compound token beside a constant number (they may be
parts of one cell: ``Nov 30 04:37``), values of one character or of punctuation only, and
labels (``time:``, ``size=``). One pass to count, one to render: linear time.
"""

from __future__ import annotations

MIN_LINES = 8        # records in the group
MIN_FIELDS = 4       # fields per record
SHARE = 0.9          # a column is constant when this share of the group holds one value
SCAN_LINES = 20000   # detection looks at most at this many lines
MAX_LINE = 1000      # longer lines never join a group
_OUR_NOTE = "[sqz: "


def _group(lines: list[str]) -> tuple[int, list[int]] | None:
    """``(field count, indexes)`` of the largest group of aligned records, or None."""
    by_count: dict[int, list[int]] = {}
    nonblank = 0
    for i, line in enumerate(lines):
        if not line.strip():
            continue
        nonblank += 1
        if len(line) > MAX_LINE or "  " not in line.strip() or "\t" in line:
            continue
        n = len(line.split())
        if n >= MIN_FIELDS:
            by_count.setdefault(n, []).append(i)
    if not by_count:
        return None
    n, members = max(by_count.items(), key=lambda kv: (len(kv[1]), kv[0]))
    if len(members) < MIN_LINES or 2 * len(members) < nonblank:
        return None
    return n, members


def _constants(lines: list[str], n: int, members: list[int]) -> dict[int, str]:
    """Field index -> the value that SHARE of the group holds there (first and last fields excluded)."""
    counts: list[dict[str, int]] = [{} for _ in range(n)]
    for i in members:
        for k, value in enumerate(lines[i].split()):
            if 0 < k < n - 1:
                c = counts[k]
                c[value] = c.get(value, 0) + 1
    out = {}
    for k in range(1, n - 1):
        if not counts[k]:
            continue
        value, hits = max(counts[k].items(), key=lambda kv: kv[1])
        if (hits >= SHARE * len(members) and len(value) >= 2 and any(ch.isalnum() for ch in value)
                and value[-1] not in ":="):  # ``time:``, ``size=``: a label that reads with its value
            out[k] = value
    # A plain word or number may be one part of a cell of several words (``Nov`` and ``30`` of
    # ``Nov 30 04:37``): only compound tokens move out (``root/root``, ``2026-12-01``, ``10:10``),
    # and not beside a constant plain number, which may share their cell (``30`` beside ``04:37``).
    def compound(v: str) -> bool:
        return not v.replace(".", "").isalnum()

    def plain_number(j: int) -> bool:
        return 0 < j < n - 1 and out.get(j, "").replace(".", "").isdigit()

    return {k: v for k, v in out.items() if compound(v) and not plain_number(k - 1) and not plain_number(k + 1)}


def _has_header(lines: list[str], first: int) -> bool:
    """A column header above the records (``NAME  NAMESPACE  STATUS``, ``Length  Date  Time  Name``):
    a table, whose cells stay on their rows (the table kind's rule), not a listing."""
    seen = 0
    for i in range(first - 1, -1, -1):
        line = lines[i].strip()
        if not line or not line.strip("-=+| "):
            continue  # blank or a rule under the header
        words = line.split()
        if len(words) >= 3 and all(w.isalpha() for w in words):
            return True
        seen += 1
        if seen == 3:
            break
    return False


def _is_patch(text: str) -> bool:
    from sqz_core.api import looks_like_diff

    return looks_like_diff(text)


def looks_like_columns(text: str) -> bool:
    if text.count("\n") < MIN_LINES or _is_patch(text):
        return False
    lines = text.split("\n", SCAN_LINES)[:SCAN_LINES]
    found = _group(lines)
    return found is not None and bool(_constants(lines, *found))


def compress_columns(request) -> str | None:
    lines = request.text.split("\n")
    trailing = lines[-1] == ""
    if trailing:
        lines.pop()
    if any(line.lstrip().startswith(_OUR_NOTE) for line in lines) or _is_patch(request.text):
        return None  # a note-like line could not be told from one we add; a diff's lines are content
    from .line_runs import reads_a_file

    if reads_a_file(request):
        return None  # file content (``cd dir && cat f``) is never summarised
    found = _group(lines)
    if found is None:
        return None
    n, members = found
    const = _constants(lines, n, members)
    if not const:
        return None
    note = "[sqz: on each line below not shown whole: " + ", ".join(
        f"field {k + 1} {v}" for k, v in sorted(const.items())) + "]"
    shown: dict[int, str] = {}
    for i in members:
        fields = lines[i].split()
        if all(fields[k] == v for k, v in const.items()):
            shown[i] = " ".join(f for k, f in enumerate(fields) if k not in const)
    if len(shown) < MIN_LINES:
        return None
    first = min(shown)
    if _has_header(lines, first):
        return None
    out: list[str] = []
    for i, line in enumerate(lines):
        if i == first:
            out.append(note)
        out.append(shown.get(i, line))
    return "\n".join(out) + ("\n" if trailing else "")
