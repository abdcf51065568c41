"""Lossless compaction of the aligned tables that docker, kubectl and helm print.

These CLIs pad columns with spaces (Go's tabwriter) so a human can read them; a
model reads tab-separated cells just as well for fewer tokens. Columns whose value
is the same in every row are written once below the table. ``parse_compact`` reads
the result back into exactly the cells that ``parse_aligned`` found (the round-trip
is a property test), so nothing is lost.
"""

from __future__ import annotations

import re

_HEADER_SPLIT = re.compile(r"\S+(?: \S+)*")  # header names may hold single spaces ("CONTAINER ID")
_HEADER_NAME = re.compile(r"^[A-Z][A-Z0-9()/_. -]*$")
_TITLE_NAME = re.compile(r"^[A-Z][A-Za-z0-9()/_. -]*$")  # describe's sub-tables: "Type  Reason  Age"
SAME_PREFIX = "[same in all "
_SAME_LINE = re.compile(r"^\[same in all (\d+) rows: (.*)\]$")


def header_columns(header: str, title_case: bool = False) -> list[tuple[int, str]] | None:
    """Start offsets and names of an upper-case (or Title-case), space-aligned header, or None."""
    names = _TITLE_NAME if title_case else _HEADER_NAME
    if "\t" in header or not header or header[0] == " ":
        return None
    cols = [(m.start(), m.group()) for m in _HEADER_SPLIT.finditer(header)]
    if len(cols) < 2:
        return None
    for i, (_, name) in enumerate(cols):
        if not names.match(name):
            return None
        if i and header[cols[i][0] - 2:cols[i][0]] != "  ":
            return None  # columns are separated by at least two spaces
    return cols


def parse_aligned(lines: list[str], title_case: bool = False) -> tuple[list[str], list[list[str]]] | None:
    """Cells of a space-aligned table (header first), or None when any row breaks the alignment.

    A cell runs from its column's start to the next column's start; the text before a
    column start must be a space, so a cell that spills into its neighbour (or a line
    that is not a table row) is refused instead of being split at a guess.
    """
    if len(lines) < 2:
        return None
    cols = header_columns(lines[0], title_case)
    if cols is None:
        return None
    starts = [c[0] for c in cols]
    rows: list[list[str]] = []
    for line in lines[1:]:
        if not line.strip() or "\t" in line or line[0] == " ":
            return None
        cells = []
        for i, start in enumerate(starts):
            if i and len(line) > start and line[start - 1] != " ":
                return None
            end = starts[i + 1] if i + 1 < len(starts) else len(line)
            cells.append(line[start:end].strip())
        if not cells[0] or not cells[-1]:
            return None  # first and last columns are never empty: a cut-off row
        rows.append(cells)
    return [c[1] for c in cols], rows


def parse_tabbed(lines: list[str]) -> tuple[list[str], list[list[str]]] | None:
    """Cells of a tab-separated, space-padded table (helm's listing), or None."""
    if len(lines) < 2 or "\t" not in lines[0]:
        return None
    header = [c.strip() for c in lines[0].split("\t")]
    if not all(_HEADER_NAME.match(h) for h in header):
        return None
    rows = []
    for line in lines[1:]:
        cells = [c.strip() for c in line.split("\t")]
        if len(cells) != len(header) or not cells[0]:
            return None
        rows.append(cells)
    return header, rows


def render_compact(header: list[str], rows: list[list[str]], hoist_min_rows: int = 3) -> str | None:
    """Tab-separated table; columns constant over >= ``hoist_min_rows`` rows are written once below.

    Returns None when a cell holds a tab or newline (the result could not be read back).
    """
    for cells in [header] + rows:
        if any("\t" in c or "\n" in c for c in cells):
            return None
    keep = list(range(len(header)))
    hoisted: list[int] = []
    if len(rows) >= hoist_min_rows:
        for i in range(1, len(header)):
            values = {r[i] for r in rows}
            if len(values) == 1 and "=" not in header[i] and "; " not in rows[0][i] and not rows[0][i].endswith(";"):
                hoisted.append(i)
        if len(hoisted) == len(header) - 1 and hoisted:
            hoisted = hoisted[:-1]  # keep at least two columns in the table
        keep = [i for i in keep if i not in hoisted]
    out = ["\t".join(header[i] for i in keep)]
    out.extend("\t".join(r[i] for i in keep) for r in rows)
    if hoisted:
        same = "; ".join(f"{header[i]}={rows[0][i]}" for i in hoisted)
        out.append(f"{SAME_PREFIX}{len(rows)} rows: {same}]")
    return "\n".join(out)


def parse_compact(text: str) -> tuple[list[str], list[dict[str, str]]]:
    """Read ``render_compact`` output back: the column names and one {column: cell} per row."""
    lines = text.split("\n")
    same: dict[str, str] = {}
    m = _SAME_LINE.match(lines[-1])
    if m:
        lines = lines[:-1]
        for pair in m.group(2).split("; "):
            name, _, value = pair.partition("=")
            same[name] = value
    header = lines[0].split("\t")
    rows = []
    for line in lines[1:]:
        row = dict(zip(header, line.split("\t")))
        row.update(same)
        rows.append(row)
    return header + list(same), rows


def compact_table_block(lines: list[str]) -> str | None:
    """One table (aligned or tabbed) as compact text, or None if it is not a clean table."""
    parsed = parse_tabbed(lines) if "\t" in lines[0] else parse_aligned(lines)
    if parsed is None:
        return None
    return render_compact(*parsed)


def compact_tables(text: str) -> str | None:
    """Every blank-line-separated block of ``text`` must be a table; each is compacted, else None."""
    blocks = [b for b in text.strip("\n").split("\n\n")]
    out = []
    for block in blocks:
        lines = block.split("\n")
        compact = compact_table_block(lines)
        if compact is None:
            return None
        out.append(compact)
    return "\n\n".join(out) + "\n"
