"""Column-aligned tables (``docker ps``, ``kubectl get``, ``helm list``, ``ps aux``, ``df``,
``pip list``): the one table parser of sqz; the cloud pack calls it too.

Columns are found from gutters (positions blank in every line, one pass over each line);
the last column runs to the end of the line, so free text such as a command line stays
one cell. A dashed rule under the header (``pip list``, describe's events) is dropped. A
table whose rows do not line up with its header is refused. Tab-separated tables padded
with spaces (``helm list``) are read by ``parse_lines(..., tabbed=True)``.

Rendering keeps every cell byte for byte, each row on one line with its key: the header
once, then the rows, cells joined by one space when that is unambiguous (no empty cell,
spaces only in the last column), else by a tab (never inside a cell). A run of identical
rows is written once with `` [×N]``; a long value (``pip list -v``'s Location) that every row
shares is said once above the header, which still names every column. ``split_rendered``
reads the cells back.
"""

from __future__ import annotations

from ..lazyre import lazy

_WORD = lazy(r"\S+")
_RULE = lazy(r"^ *-{2,}(?: +-{2,})* *$")
_REPEAT = lazy(r"^(.*) \[×(\d+)\]$")


def parse_table(text: str, min_rows: int = 2) -> list[list[str]] | None:
    """Header and rows as lists of cells, or None when the text is not one aligned table."""
    if "\t" in text:
        return None
    return parse_lines(text.rstrip("\n").split("\n"), min_rows)


def parse_lines(lines: list[str], min_rows: int = 2, tabbed: bool = False) -> list[list[str]] | None:
    """Cells of one table given as lines (header first), or None."""
    if len(lines) > 1 and _RULE.match(lines[1]):
        lines = lines[:1] + lines[2:]
    if len(lines) < min_rows + 1:
        return None
    for line in lines:
        if not line.strip():
            return None
    if tabbed and lines[0][:1] == " ":
        return None
    table = _parse_tabbed(lines) if tabbed else _parse_aligned(lines)
    if table is None or any(_is_number(c) for c in table[0]):
        return None
    return table


def _parse_tabbed(lines: list[str]) -> list[list[str]] | None:
    table = [[c.strip(" ") for c in line.split("\t")] for line in lines]
    n = len(table[0])
    if n < 2 or not all(table[0]):
        return None
    for row in table:
        if len(row) != n or not row[0]:
            return None
    return table


def _parse_aligned(lines: list[str]) -> list[list[str]] | None:
    if any("\t" in line for line in lines):
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
    # A segment with no header text is part of the column on its left; so is a segment
    # whose header word follows the previous one after a single space while no row has a
    # cell there ("Mounted on" above mount points that all end before "on"), or starts in
    # lower case after a single space (df's "Mounted on" over "/mnt/a  b": one name, one
    # cell, its two spaces kept; column names start upper case or with a sign).
    cols: list[list[int]] = []
    for s, e in spans:
        one_space = header[s - 2:s - 1] not in ("", " ")
        if cols and (not header[s:e].strip()
                     or (one_space and header[s:s + 1].islower())
                     or (one_space and not any(l[s:e].strip() for l in lines[1:]))):
            cols[-1][1] = e
        else:
            cols.append([s, e])
    if len(cols) < 2:
        return None
    cols[0][0] = 0  # a right-aligned first column (``ps -eo pid,…``) starts at the margin too
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
    if "  " in table[0][-1]:
        return None  # header names past the shortest row: columns this parse could not see
    return table


def _is_number(cell: str) -> bool:
    return cell.replace(".", "", 1).replace("%", "").isdigit()


def looks_like_table(text: str) -> bool:
    if len(text) > 2_000_000:
        return False
    return parse_table(text) is not None


def choose_separator(table: list[list[str]]) -> str | None:
    """One space when it splits rows unambiguously (no empty cell, spaces only in the last
    column), else a tab (never in a cell). None when a row's last cell is empty (the line
    would end in a separator that clean-up stages strip)."""
    if not all(row[-1] for row in table):
        return None
    if any("\t" in c or "\n" in c for row in table for c in row):
        return None
    if not any(c == "" or " " in c for row in table for c in row[:-1]):
        return " "
    return "\t"


HOIST_MIN_CHARS = 20    # a one-word cell this long, the same on every row, is written once
HOIST_MIN_ROWS = 3
_NOTE = "[on every row, "


def hoisted_columns(table: list[list[str]]) -> list[int]:
    """Columns (not the first, which keys each row) whose cell is one long word, the same on
    every row (``pip list -v``'s Location, a path): repeated, it costs a dozen tokens a row.
    A value with spaces (docker's ``Exited (0) 2 weeks ago``) is a row's state: it stays."""
    rows = table[1:]
    if len(rows) < HOIST_MIN_ROWS:
        return []
    names = table[0][1:]
    # "[on every row, NAME: value]" must name one column: NAME unique, without ": ", and no
    # other name starting "NAME: " (whose first ": " would then follow NAME)
    taken = {name.split(": ", 1)[0] for name in names if ": " in name}
    counts: dict[str, int] = {}
    for name in names:
        counts[name] = counts.get(name, 0) + 1
    cols = []
    for i in range(1, len(table[0])):
        value, name = rows[0][i], table[0][i]
        if (len(value) >= HOIST_MIN_CHARS and value.split() == [value] and all(r[i] == value for r in rows)
                and counts[name] == 1 and ": " not in name and name not in taken):
            cols.append(i)
    return cols if len(cols) < len(table[0]) - 1 else cols[:-1]


def render_table(table: list[list[str]], hoist: bool = False) -> str | None:
    """Header once, then the rows; a run of identical rows is written once with `` [×N]``
    (only consecutive ones, so the row order stays the tool's). With ``hoist``, a long value
    every row shares is said once above the header (``[on every row, Location: /usr/lib/…]``),
    the header still naming every column, the rows without that cell."""
    if any(len(row) != len(table[0]) for row in table):
        return None          # a ragged table: rows would not split back into their cells
    cols = hoisted_columns(table) if hoist else []
    notes = [f"{_NOTE}{table[0][i]}: {table[1][i]}]" for i in cols]
    body = table if not cols else [table[0]] + [[c for i, c in enumerate(row) if i not in cols] for row in table[1:]]
    sep = choose_separator(body)
    if sep is None:
        return None
    out = notes + [sep.join(body[0])]
    if out[len(notes)].startswith(_NOTE) and out[len(notes)].endswith("]"):
        return None          # a header that reads as a note
    prev, run = None, 0
    for row in body[1:] + [None]:
        line = None if row is None else sep.join(row)
        if line == prev:
            run += 1
            continue
        if prev is not None:
            # a row that ends like a count gets its own (" [×1]"), so it reads one way
            out.append(prev if run == 1 and not _REPEAT.match(prev) else f"{prev} [×{run}]")
        prev, run = line, 1
    return "\n".join(out) + "\n"


def split_rendered(text: str, ncols: int) -> list[list[str]]:
    """Cells back from ``render_table`` output (repeated rows expanded in place, a value said
    once for every row put back in its column)."""
    lines = text.rstrip("\n").split("\n")
    notes = []
    while lines and lines[0].startswith(_NOTE) and lines[0].endswith("]"):
        notes.append(lines.pop(0)[len(_NOTE):-1])
    sep = "\t" if any("\t" in line for line in lines) else " "
    header = lines[0].split(sep, ncols - 1)
    fill: dict[int, str] = {}
    for note in notes:
        i = next(i for i, name in enumerate(header) if i and i not in fill and note.startswith(name + ": "))
        fill[i] = note[len(header[i]) + 2:]
    table = [header]
    for line in lines[1:]:
        m = _REPEAT.match(line)
        n = 1
        if m:
            line, n = m.group(1), int(m.group(2))
        cells = line.split(sep, ncols - len(fill) - 1)
        for i in sorted(fill):
            cells.insert(i, fill[i])
        table.extend([cells] * n)
    return table


def compact_tables(text: str, min_rows: int = 1, tabbed: bool = False) -> str | None:
    """Every blank-line-separated block of ``text`` must be a table; each is compacted, else None."""
    out = []
    for block in text.strip("\n").split("\n\n"):
        lines = block.split("\n")
        table = parse_lines(lines, min_rows, tabbed=tabbed and "\t" in lines[0])
        rendered = None if table is None else render_table(table, hoist=True)
        if rendered is None:
            return None
        out.append(rendered.rstrip("\n"))
    return "\n\n".join(out) + "\n"


def compress_table(request) -> str | None:
    text = request.text
    if request.argv and request.argv[0].rsplit("/", 1)[-1] == "df":
        text = _df_unwrapped(text) or text
    return compact_table_text(text)


_DF_HEAD = lazy(r"^Filesystem +(?:\S+ +)+Mounted on$")


def _df_unwrapped(text: str) -> str | None:
    """``df`` prints a filesystem name too long for its column alone on a line and the row's
    other cells on the next, indented; such a row is joined back and the table realigned (the
    name, then the numbers, then the mount point, which may hold spaces) so it parses as one
    table. None when there is nothing to join or the rows do not read as df's."""
    lines = text.rstrip("\n").split("\n")
    if not lines or not _DF_HEAD.match(lines[0]):
        return None
    ncols = len(lines[0].split()) - 1          # "Mounted on" is one column
    rows, i, joined = [], 1, False
    while i < len(lines):
        line = lines[i]
        if (len(line.split()) == 1 and not line[:1].isspace() and i + 1 < len(lines)
                and lines[i + 1][:1] == " " and len(lines[i + 1].split(None, ncols - 2)) == ncols - 1):
            line = line + " " + lines[i + 1].strip()
            i += 1
            joined = True
        cells = line.split(None, ncols - 1)
        if len(cells) != ncols or line[:1].isspace():
            return None
        rows.append(cells)
        i += 1
    if not joined:
        return None
    table = [lines[0].split(None, ncols - 1)] + rows
    widths = [max(len(r[c]) for r in table) for c in range(ncols - 1)]
    return "\n".join(" ".join(r[c].ljust(widths[c]) if c < ncols - 1 else r[c] for c in range(ncols))
                     for r in table) + "\n"


def compact_table_text(text: str) -> str | None:
    """An output that starts with a table (the rule under a ``pip list`` header dropped);
    later blank-line-separated blocks are compacted when they are tables too (``kubectl get
    all``), else kept as they are (pip's upgrade notice)."""
    blocks = text.strip("\n").split("\n\n")
    out = []
    for i, block in enumerate(blocks):
        table = parse_table(block)
        rendered = None if table is None else render_table(table, hoist=True)
        if rendered is None and i == 0:
            return None
        out.append(block.strip("\n") if rendered is None else rendered.rstrip("\n"))
    result = "\n\n".join(b for b in out if b) + "\n"
    if len(result) >= len(text):
        return None
    return result
