"""Space-aligned tables (``docker ps``, ``kubectl get``, ``ps aux``, ``df``): padding collapsed
to one space (or a tab when cells hold spaces or are empty), every cell kept byte for byte.

Columns are found from gutters (positions blank in every line); the last column runs to
the end of the line, so free text such as a command line stays one cell. A table whose
rows do not line up with its header is refused.
"""

from __future__ import annotations

import re
from ..lazyre import lazy

_WORD = lazy(r"\S+")


def parse_table(text: str) -> list[list[str]] | None:
    """Header and rows as lists of cells, or None when the text is not one aligned table."""
    lines = text.rstrip("\n").split("\n")
    if len(lines) < 3 or "\t" in text:
        return None
    for line in lines:
        if not line.strip() or line[:1] == " " and line is lines[0]:
            return None
    header = lines[0]
    limit = min(len(r) for r in lines[1:])
    occupied = bytearray(limit)
    for line in lines:
        for m in _WORD.finditer(line, 0, limit):
            occupied[m.start():m.end()] = b"\x01" * (m.end() - m.start())
    spans = []
    pos = 0
    while pos < limit:
        if occupied[pos]:
            end = occupied.find(0, pos)
            end = limit if end < 0 else end
            spans.append([pos, end])
            pos = end
        else:
            pos += 1
    # A segment with no header text is part of the column on its left.
    cols: list[list[int]] = []
    for s, e in spans:
        if cols and not header[s:e].strip():
            cols[-1][1] = e
        else:
            cols.append([s, e])
    if len(cols) < 2 or cols[0][0] != 0:
        return None
    starts = [c[0] for c in cols]
    ends = [c[1] for c in cols]
    table = []
    for row_no, line in enumerate(lines):
        cells = []
        for i, s in enumerate(starts):
            last = i == len(starts) - 1
            raw = line[s:] if last else line[s:starts[i + 1]]
            cell = raw.strip(" ")
            if cell:
                lead = s + len(raw) - len(raw.lstrip(" "))
                tail = lead + len(cell)
                # left-aligned at the column start, or right-aligned at its end
                if lead != s and (last or tail != ends[i]):
                    return None
            elif row_no == 0 or i == 0:
                return None
            cells.append(cell)
        table.append(cells)
    if any(_is_number(c) for c in table[0]):
        return None
    return table


def _is_number(cell: str) -> bool:
    return cell.replace(".", "", 1).replace("%", "").isdigit()


def looks_like_table(text: str) -> bool:
    if len(text) > 2_000_000:
        return False
    return parse_table(text) is not None


def choose_separator(table: list[list[str]]) -> str | None:
    """One space when no cell is empty or holds a space, else a tab (the input has none).
    A table whose last column has an empty cell is not rendered (it would end in blanks)."""
    if not all(row[-1] for row in table):
        return None
    if not any(c == "" or " " in c for row in table for c in row):
        return " "
    return "\t"


def render_table(table: list[list[str]]) -> str | None:
    sep = choose_separator(table)
    if sep is None:
        return None
    return "\n".join(sep.join(row) for row in table) + "\n"


def split_rendered(text: str) -> list[list[str]]:
    """Cells back from ``render_table`` output: tab-separated if any line holds a tab."""
    lines = text.rstrip("\n").split("\n")
    sep = "\t" if any("\t" in line for line in lines) else " "
    return [line.split(sep) for line in lines]


def compress_table(request) -> str | None:
    table = parse_table(request.text)
    if table is None:
        return None
    out = render_table(table)
    if out is None or len(out) >= len(request.text):
        return None
    return out
