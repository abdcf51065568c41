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

Ruled tables (``parse_ruled``) carry their column bounds in a rule line: psql's result sets
(``-----+-----`` under the header, ``|`` between cells, ``(N rows)`` under them), ``dpkg -l``
(``+++-====-====``) and framed tables (mysql, ``sqlite3 -box``/``-table``, psql's border 2:
``+---+`` or ``┌───┬───┐`` around them). The rule is read once; every row must put its
separators exactly where the rule's junctions are, else the table stays as printed.

Two more layouts are read whole or not at all: ``psql -x`` expanded records and markdown pipe
tables (``sqlite3 -markdown``); see their sections below. (The AWS CLI's ``--output table``
boxes are the cloud pack's, ``sqz_formatters_cloud.aws_cli``: a command's own layout belongs to
the pack that claims the command. psql, python, unzip and df have no pack of their own, so
their layouts stay here.)

Two fixed layouts are read by their printf formats, every row checked by printing it back:
``python -X importtime`` (``import time: {self:>9} | {cumulative:>10} | {indent}{module}``:
rows lose the prefix and the padding, the indent after ``| `` is the import tree and stays)
and ``unzip -l`` (header, rows, footer whose total and file count must match the rows: a cut
or a dropped row leaves the output as printed).
"""

from __future__ import annotations

from sqz_core.api import lazy_pattern as lazy

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
    table = _parse_tabbed(lines) if tabbed else (_parse_aligned(lines) or _parse_command_last(lines))
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
                if last and lead != s and cell.startswith("\\_ "):
                    cell = raw.rstrip(" ")  # ps's forest (``ps auxf``): the depth is the indent
                # left-aligned at the column start, or right-aligned at its end
                elif lead != s and (last or tail != ends[i]):
                    return None
            elif row_no == 0 or i == 0:
                return None
            cells.append(cell)
        table.append(cells)
    if "  " in table[0][-1]:
        return None  # header names past the shortest row: columns this parse could not see
    return table


_COMMAND_HEADS = frozenset({"COMMAND", "CMD", "ARGS"})
# ps's own column names (ps prints ``?`` or ``-`` for a value it lacks, never a blank cell)
_PS_COLUMNS = frozenset({"USER", "UID", "PID", "PPID", "PGID", "SID", "C", "%CPU", "%MEM", "VSZ", "RSS", "SZ",
                         "TTY", "TT", "STAT", "S", "START", "STIME", "TIME", "ELAPSED", "NI", "PRI", "PSR",
                         "WCHAN", "F", "ADDR", "LWP", "NLWP", "RUSER", "GROUP", "COMMAND", "CMD", "ARGS"})


def _parse_command_last(lines: list[str]) -> list[list[str]] | None:
    """``ps aux``/``ps -ef``: one-word cells, then the command line (spaces and all) last. ps widens a
    column past its header when a value needs it (``VSZ 74937472``) and shifts the rest of the row, so
    the columns do not line up; but every cell but the last is one word and none is empty, so each
    row splits at its first N-1 runs of blanks. None unless every header name is one of ps's (whose
    cells are never blank), the last is the command's, and every row has all N cells."""
    head = lines[0].split()
    if len(head) < 3 or head[-1] not in _COMMAND_HEADS or not _PS_COLUMNS.issuperset(head):
        return None
    n = len(head)
    table = [head]
    for line in lines[1:]:
        cells = line.strip(" ").split(None, n - 1)
        if len(cells) != n:
            return None
        table.append(cells)
    return table


def _is_number(cell: str) -> bool:
    return cell.replace(".", "", 1).replace("%", "").isdigit()


def looks_like_table(text: str) -> bool:
    if len(text) > 2_000_000:
        return False
    if text.startswith((_IMPORTTIME_HEAD, _UNZIP_ARCHIVE, _EXPANDED_HEAD, "|")) and _fixed_layout(text) is not None:
        return True
    # a ruled table only when the output opens with it (a title or dpkg's legend may come
    # first): a page that shows one among its prose is that page's kind, not a table
    return parse_table(text) is not None or compact_ruled_text(text, opens_within=4) is not None


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


_EMPTY = "[empty on every row: "


def empty_columns(table: list[list[str]]) -> list[int]:
    """Columns (not the first) with no value on any row (psql's ``\\d+`` Default, Description):
    each costs a separator a row and, last, would end every row in one."""
    rows = table[1:]
    if len(rows) < HOIST_MIN_ROWS:
        return []
    names = table[0]
    return [i for i in range(1, len(names))
            if names[i] and names.count(names[i]) == 1 and ", " not in names[i] and "]" not in names[i]
            and all(r[i] == "" for r in rows)]


def render_table(table: list[list[str]], hoist: bool = False) -> str | None:
    """Header once, then the rows; a run of identical rows is written once with `` [×N]``
    (only consecutive ones, so the row order stays the tool's). With ``hoist``, a long value
    every row shares is said once above the header (``[on every row, Location: /usr/lib/…]``),
    the header still naming every column, the rows without that cell."""
    if any(len(row) != len(table[0]) for row in table):
        return None          # a ragged table: rows would not split back into their cells
    cols = hoisted_columns(table) if hoist else []
    notes = [f"{_NOTE}{table[0][i]}: {table[1][i]}]" for i in cols]
    empty = [i for i in empty_columns(table) if i not in cols] if hoist else []
    note = _EMPTY + ", ".join(table[0][i] for i in empty) + "]"
    # worth its line when it drops more separators than it costs, or the rows would end in one
    if (empty and len(empty) + len(cols) < len(table[0]) - 1
            and ((len(table) - 1) * len(empty) > len(note) or len(table[0]) - 1 in empty)):
        notes.append(note)
        cols = sorted(cols + empty)
    body = table if not cols else [table[0]] + [[c for i, c in enumerate(row) if i not in cols] for row in table[1:]]
    sep = choose_separator(body)
    if sep is None:
        return None
    out = notes + [sep.join(body[0])]
    if out[len(notes)].startswith((_NOTE, _EMPTY)) and out[len(notes)].endswith("]"):
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
    notes, empty = [], []
    while lines and lines[0].endswith("]") and lines[0].startswith((_NOTE, _EMPTY)):
        line = lines.pop(0)
        if line.startswith(_EMPTY):
            empty = line[len(_EMPTY):-1].split(", ")
        else:
            notes.append(line[len(_NOTE):-1])
    sep = "\t" if any("\t" in line for line in lines) else " "
    header = lines[0].split(sep, ncols - 1)
    fill: dict[int, str] = {}
    for note in notes:
        i = next(i for i, name in enumerate(header) if i and i not in fill and note.startswith(name + ": "))
        fill[i] = note[len(header[i]) + 2:]
    for name in empty:
        fill[header.index(name, 1)] = ""
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
    fixed = _fixed_layout(text)
    if fixed is not None:
        return fixed
    ruled = compact_ruled_text(text)
    if ruled is not None:
        return ruled
    if request.argv and request.argv[0].rsplit("/", 1)[-1] == "df":
        text = _df_unwrapped(text) or text
    return compact_table_text(text)


_IMPORTTIME_HEAD = "import time: self [us] | cumulative | imported package"
_IMPORTTIME_NOTE = "[rows below: self cumulative | imported package, without `import time:` and padding]"
_UNZIP_ARCHIVE = "Archive:  "
_UNZIP_HEAD = "  Length      Date    Time    Name"
_UNZIP_RULE = "---------  ---------- -----   ----"
_UNZIP_FOOT_RULE = "---------                     -------"


def _fixed_layout(text: str) -> str | None:
    if len(text) > 2_000_000:
        return None
    if text.startswith(_IMPORTTIME_HEAD):
        return _importtime(text)
    if text.startswith(_UNZIP_ARCHIVE):
        return _unzip_list(text)
    if text.startswith(_EXPANDED_HEAD):
        return _expanded_records(text)
    if text.startswith("|") and _MD_RULE.match(text[text.find("\n") + 1:text.find("\n", text.find("\n") + 1)]):
        return _markdown_table(text)
    return None


# ---------------------------------------------------------------------------- markdown tables
# ``sqlite3 -markdown`` (and any program printing a pipe table): ``| a | b |`` rows padded to
# one width, ``|---|:--:|`` under the header. Rendered as the other tables are (header, rows,
# padding gone) when every row has the header's cells and its pipes where the rule has them.
_MD_RULE = lazy(r"^\|(?::?-+:?\|)+$")


def _markdown_table(text: str) -> str | None:
    lines = text.rstrip("\n").split("\n")
    if len(lines) < 3 or not _MD_RULE.match(lines[1]):
        return None
    bars = [i for i, c in enumerate(lines[1]) if c == "|"]
    table = []
    for k, line in enumerate(lines):
        if k == 1:
            continue
        if len(line) != len(lines[1]) or [i for i, c in enumerate(line) if c == "|"] != bars:
            return None
        cells = [line[a + 1:b] for a, b in zip(bars, bars[1:])]
        if any(c[:1] != " " or c[-1:] != " " for c in cells):
            return None
        table.append([c.strip(" ") for c in cells])
    rendered = render_table(table, hoist=True) if len(table) > 1 and all(table[0]) else None
    return rendered if rendered is not None and len(rendered) < len(text) else None


# ---------------------------------------------------------------------------- psql -x records
# ``psql -x`` (expanded display): ``-[ RECORD N ]--+----`` above each record, then one
# ``name | value`` line a field, the names padded to one width. Rendered with the padding and
# the rule's dashes gone: ``-[ RECORD N ]`` and ``name | value``; a field with the same value in
# every record (three or more) is said once above them (``[every record: name | value]``), and
# empty fields are left out under a note that names every field in order.
# Any line that does not fit (a wrapped value, another table) leaves the output as printed.
_EXPANDED_HEAD = "-[ RECORD 1 ]"
_EXPANDED_RECORD = lazy(r"^-\[ RECORD (\d+) \]-*(?:\+-*)?$")  # no + when the names are narrower than the label
_EVERY_RECORD = "[every record: "
_FIELDS = "[fields: "


def _expanded_records(text: str) -> str | None:
    lines = text.rstrip("\n").split("\n")
    m = _EXPANDED_RECORD.match(lines[0])
    if m is None:
        return None
    bar = lines[0].find("+")
    if bar < 0:                  # the bar's column from the first field line: ``name | value``
        bar = lines[1].find(" |") + 1 if len(lines) > 1 else 0
        if bar < 1 or len(lines[0]) > bar and lines[0][bar] not in "-]" or "+" in lines[0]:
            return None
    records: list[list[tuple[str, str]]] = []
    footer: list[str] = []
    for line in lines:
        m = _EXPANDED_RECORD.match(line)
        if m is not None:
            if footer or line.find("+") not in (bar, -1) or int(m.group(1)) != len(records) + 1:
                return None
            records.append([])
            continue
        if footer or not line:
            footer.append(line)
            continue
        if line[bar - 1:bar + 1] != " |" or not records:
            return None
        name, value = line[:bar - 1].rstrip(" "), line[bar + 2:] if line[bar + 1:bar + 2] == " " else None
        if value is None and line[bar + 1:] != "":
            return None
        value = value or ""
        if not name or name[0] == " " or "|" in name or value.endswith("+") or line != f"{name:<{bar - 1}} | {value}".rstrip(" ") and line != f"{name:<{bar - 1}} | {value}":
            return None
        records[-1].append((name, value))
    if any(line for line in footer) and not all(_FOOTER.match(line) or not line for line in footer):
        return None
    names = [f for f, _ in records[0]]
    if any([f for f, _ in r] != names for r in records):
        return None
    common = []
    if len(records) >= 3:
        for k, name in enumerate(names):
            value = records[0][k][1]
            if value and all(r[k][1] == value for r in records) and names.count(name) == 1:
                common.append(k)
    out = [f"{_EVERY_RECORD}{names[k]} | {records[0][k][1]}]" for k in common]
    # empty fields (psql's NULLs and empty strings print alike) left out when the note naming
    # every field, in order, costs less than their lines
    fields_note = f"{_FIELDS}{', '.join(names)}; a field a record does not show is empty]"
    empty_cost = sum(len(name) + 3 for rec in records for name, value in rec if value == "")
    skip_empty = (empty_cost > len(fields_note) and len(set(names)) == len(names)
                  and not any(", " in name or ";" in name for name in names))
    if skip_empty:
        out.append(fields_note)
    for no, rec in enumerate(records, 1):
        out.append(f"-[ RECORD {no} ]")
        out.extend(f"{name} | {value}".rstrip(" ") for k, (name, value) in enumerate(rec)
                   if k not in common and not (skip_empty and value == ""))
    out.extend(footer)
    result = "\n".join(out).rstrip("\n") + "\n"
    return result if len(result) < len(text) else None


def _importtime(text: str) -> str | None:
    """``python -X importtime``'s report (stderr only): the header, then every row as its two
    numbers and what follows the second `` | `` (the module, indented by its depth), or None
    when a line does not print back to itself (a cut, another program's output)."""
    lines = text.rstrip("\n").split("\n")
    if lines[0] != _IMPORTTIME_HEAD or len(lines) < 3:
        return None
    out = [_IMPORTTIME_HEAD, _IMPORTTIME_NOTE]
    for line in lines[1:]:
        parts = line[12:].split(" | ", 2)
        if len(parts) != 3:
            return None
        self_us, cumulative, module = parts[0].strip(" "), parts[1].strip(" "), parts[2]
        if not (self_us.isdigit() and cumulative.isdigit() and module.strip(" ") and module[-1] != " "):
            return None
        if f"import time: {self_us:>9} | {cumulative:>10} | {module}" != line:
            return None
        out.append(f"{self_us} {cumulative} | {module}")
    return "\n".join(out) + "\n"


def _unzip_list(text: str) -> str | None:
    """``unzip -l ARCHIVE``: the archive line, the table with its padding collapsed, the footer;
    None unless every row prints back to itself and the footer's total and count match them."""
    lines = text.rstrip("\n").split("\n")
    if len(lines) < 6 or lines[1] != _UNZIP_HEAD or lines[2] != _UNZIP_RULE or lines[-2] != _UNZIP_FOOT_RULE:
        return None
    table = [["Length", "Date", "Time", "Name"]]
    total = 0
    for line in lines[3:-2]:
        cells = line.lstrip(" ").split(" ", 1)
        if len(cells) != 2 or not cells[0].isdigit() or len(cells[1]) < 21:
            return None
        length, rest = cells[0], cells[1].lstrip(" ")
        date, clock, name = rest[:10], rest[11:16], rest[19:]
        if (f"{length:>9}  {date} {clock}   {name}" != line or " " in date or " " in clock
                or not name.strip(" ") or name[-1] == " "):
            return None
        total += int(length)
        table.append([length, date, clock, name])
    foot = lines[-1].split()
    count = len(table) - 1
    if foot != [str(total), str(count), "file" if count == 1 else "files"]:
        return None
    # the date and time most rows share (a wheel's 1980-01-01 00:00) is said once; rows
    # with it show ``-`` in its place (a date is never ``-``), the others their own
    counts: dict[str, int] = {}
    for row in table[1:]:
        key = f"{row[1]} {row[2]}"
        counts[key] = counts.get(key, 0) + 1
    common, n = max(counts.items(), key=lambda kv: kv[1])
    if n < UNZIP_COMMON_MIN_ROWS or 2 * n < count:
        common = None
    out = [lines[0]]
    if common is not None:
        out.append(f"{_UNZIP_COMMON}{common} where a row shows -]")
    out.append("Length Date Time Name")
    for length, date, clock, name in table[1:]:
        when = f"{date} {clock}"
        out.append(f"{length} {'-' if when == common else when} {name}")
    out.append("--------- -------")
    out.append(f"{foot[0]} {foot[1]} {foot[2]}")
    return "\n".join(out) + "\n"


UNZIP_COMMON_MIN_ROWS = 3
_UNZIP_COMMON = "[Date Time: "


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


# ---------------------------------------------------------------------------- ruled tables
_VERTICAL = "|│┃║"
_RULE_CHARS = frozenset("-=+─━═┼┬┴├┤┌┐└┘╋╪╞╡╤╧╒╕╘╛")
_TOP = frozenset("+┌╒")
_JUNCTIONS = "-+┼┬┴├┤┌┐└┘╋╪╞╡╤╧╒╕╘╛"  # ``-`` joins dpkg's ``====`` runs
_BOTTOM_START = frozenset("+└╘")
_FOOTER = lazy(r"^\((?:\d+ rows?|No rows)\)$")


def _rule_gutters(line: str) -> tuple[list[int], bool] | None:
    """Junction positions of a rule line and whether it is framed (junctions at both ends), or
    None. A rule is runs of one fill character (``-``, ``=``, ``─``) joined by single junction
    characters; ``dpkg -l``'s leading ``+++`` is a column of its own."""
    if len(line) < 3 or not _RULE_CHARS.issuperset(line):
        return None
    gutters = []
    n = len(line)
    for i, ch in enumerate(line):
        prev = line[i - 1] if i else None
        nxt = line[i + 1] if i + 1 < n else None
        if ch != prev and ch != nxt and (prev is None or nxt is None or prev == nxt or ch in _JUNCTIONS):
            gutters.append(i)
    framed = bool(gutters) and gutters[0] == 0 and gutters[-1] == n - 1
    inner = [g for g in gutters if 0 < g < n - 1]
    if not inner and not framed:
        return None
    if not framed and (0 in gutters or n - 1 in gutters):
        return None
    # every segment between junctions is one repeated fill character
    bounds = [-1] + inner + [n] if not framed else gutters
    for a, b in zip(bounds, bounds[1:]):
        seg = line[a + 1:b]
        if not seg or seg.strip(seg[0]):
            return None
    return (gutters if framed else inner), framed


def _split_row(line: str, gutters: list[int], framed: bool, sep_chars: str, width: int) -> list[str] | None:
    """Cells of one row whose separators sit exactly at ``gutters`` (None when they do not).
    A cell touching a separator (psql's ``+`` / ``.`` wrap marks, a value wider than its
    column) refuses the row."""
    if framed:
        if len(line) != width:
            return None
        edges = gutters
    else:
        if len(line) <= gutters[-1] or len(line) > width:
            return None
        edges = [-1] + gutters + [len(line)]
    cells = []
    for k, g in enumerate(edges):
        if 0 <= g < len(line) and (framed or k not in (0, len(edges) - 1)) and line[g] not in sep_chars:
            return None
    for k, (a, b) in enumerate(zip(edges, edges[1:])):
        raw = line[a + 1:b]
        last = k == len(edges) - 2
        if sep_chars != " " and raw:
            # psql/framed cells are padded by one space on each side; psql marks a value that
            # goes on (a newline, a wrap) with + or . in the padding: such a row is refused
            if raw[0] != " " and a >= 0:
                return None
            if raw[-1] != " " and (framed or not last or len(line) == width):
                return None
        cell = raw.strip(" ")
        if any(v in cell for v in _VERTICAL) and sep_chars != " ":
            return None
        cells.append(cell)
    return cells


def _mark_at(gutters: list[int], framed: bool, width: int) -> list[int]:
    """Where psql puts its mark for a cell that goes on: the last padding position of each cell."""
    ends = gutters[1:] if framed else gutters + [width]
    return [e - 1 for e in ends]


def _marked_row(line: str, gutters: list[int], framed: bool, sep_chars: str,
                width: int) -> tuple[list[str], tuple[int, ...]] | None:
    """A psql row with a multi-line cell: ``+`` in the last padding position of each cell whose
    value goes on (a newline in it), the rest on the next lines. (cells, columns that go on)."""
    marks = [k for k, at in enumerate(_mark_at(gutters, framed, width)) if line[at:at + 1] == "+"]
    if not marks:
        return None
    plain = list(line)
    for k in marks:
        plain[_mark_at(gutters, framed, width)[k]] = " "
    row = _split_row("".join(plain).rstrip(" ") if not framed else "".join(plain), gutters, framed, sep_chars, width)
    return None if row is None else (row, tuple(marks))


def _continued(line: str, gutters: list[int], framed: bool, sep_chars: str, width: int,
               going: tuple[int, ...]) -> tuple[dict[int, str], tuple[int, ...]] | None:
    """The next line of the cells in ``going``: every other cell blank; each continued part keeps
    its indentation (a view's SQL); ({column: part}, columns that go on again) or None."""
    got = _split_row(line, gutters, framed, sep_chars, width)
    marks: tuple[int, ...] = ()
    if got is None:
        pair = _marked_row(line, gutters, framed, sep_chars, width)
        if pair is None:
            return None
        got, marks = pair
    if any(c for k, c in enumerate(got) if k not in going) or not set(marks) <= set(going):
        return None
    edges = gutters if framed else [-1] + gutters + [width]
    parts = {}
    for k in going:
        raw = line[edges[k] + 1:edges[k + 1]]
        if k in marks:
            raw = raw[:-1]
        parts[k] = raw[1:].rstrip(" ")
    return parts, marks


def _ruled_at(lines: list[str], i: int) -> tuple[list[list[str]], int, int] | None:
    """A ruled table whose header is ``lines[i]`` (framed: whose top rule is): (cells, first
    line, end) or None. ``end`` is the index after the last line of the table (rows, bottom
    rule); a footer such as ``(3 rows)`` stays outside it and must count the rows."""
    n = len(lines)
    top = None
    if lines[i][:1] in _TOP and i + 2 < n:
        top = _rule_gutters(lines[i])
        if top is None or not top[1]:
            return None
        head_at, rule_at = i + 1, i + 2
    else:
        head_at, rule_at = i, i + 1
    if rule_at >= n:
        return None
    rule = _rule_gutters(lines[rule_at])
    if rule is None:
        return None
    gutters, framed = rule
    width = len(lines[rule_at])
    if top is not None and (top[0] != gutters or len(lines[i]) != width):
        return None
    if framed != (top is not None):
        return None
    header_line = lines[head_at]
    sep_chars = _VERTICAL if (framed or header_line[gutters[0]:gutters[0] + 1] in tuple(_VERTICAL)) else " "
    if framed and not _VERTICAL.count(header_line[:1]):
        return None
    header = _split_row(header_line, gutters, framed, sep_chars, width)
    if header is None or not any(header) or any(not h for h in header[1:]):
        return None
    table = [header]
    j = rule_at + 1
    going: tuple[int, ...] = ()      # columns whose cell goes on to this line (psql's ``+`` mark)
    while j < n:
        line = lines[j]
        if going:
            got = _continued(line, gutters, framed, sep_chars, width, going)
            if got is None:
                return None          # the rest of a cell psql said goes on is not there
            more, going = got
            for k, part in more.items():
                table[-1][k] += "\n" + part
            j += 1
            continue
        if framed and _rule_gutters(line) is not None and line[:1] in _BOTTOM_START | {"├", "╞"}:
            if _rule_gutters(line)[0] != gutters:
                return None
            j += 1
            # ASCII draws the rule between rows (prettytable's hrules) as it draws the last one
            if line[:1] in _BOTTOM_START and not (
                    line[:1] == "+" and j < n and _split_row(lines[j], gutters, framed, sep_chars, width) is not None):
                break
            continue  # a rule between rows
        row = _split_row(line, gutters, framed, sep_chars, width)
        if row is None and sep_chars != " ":
            got = _marked_row(line, gutters, framed, sep_chars, width)
            if got is not None:
                row, going = got
        if row is None:
            stripped = line.strip()
            if sep_chars == " ":
                if stripped:
                    return None  # a line of the table's shape that does not fit its columns
            elif framed or any(line[g:g + 1] in tuple(_VERTICAL) for g in gutters):
                return None
            break
        table.append(row)
        j += 1
    else:
        if framed or going:
            return None  # no bottom rule, or a cell that goes on: cut off
    if framed and lines[j - 1][:1] not in _BOTTOM_START:
        return None
    if j < n:
        m = _FOOTER.match(lines[j].strip())
        if m and lines[j].strip() != "(No rows)":
            count = int(lines[j].strip()[1:].split()[0])
            if count != len(table) - 1:
                return None
    return table, i, j


def _render_bars(table: list[list[str]]) -> str | None:
    """Cells joined by ``|`` as ``psql -A`` prints them, for a table whose rows may end in an
    empty cell (a NULL): a trailing ``|`` survives where a trailing tab would be stripped.
    None when a cell holds ``|`` itself or a header would read as one of our notes."""
    if any("|" in c for row in table for c in row) or table[0][0].startswith("["):
        return None
    return "\n".join("|".join(row) for row in table) + "\n"


FOOTER_TOKENS = 12   # the recovery line a rendering that drops a word needs (``[sqz expand 1f939f1edc17]``)


def _without_notes(table: list[list[str]], block: str, rendered: str) -> str:
    """A small table's rendering without the notes that say a value once (``[empty on every row: …]``,
    ``[on every row, …]``) when that keeps every word of the block and costs less than those notes
    save plus the recovery line they make necessary (issue 25: a table whose every cell is still
    on the page needs no recovery line)."""
    from sqz_core.api import estimate, keeps_every_word

    plain = render_table(table)
    if plain is None:
        plain = _render_bars(table)
    if plain is None or not keeps_every_word(block, plain):
        return rendered
    # the estimate runs low on runs of separators (``|||``): 10% margin on the plain rendering
    return plain if estimate(plain) * 1.1 <= estimate(rendered) + FOOTER_TOKENS else rendered


def _render_continued(table: list[list[str]]) -> str | None:
    """Rows whose cells hold newlines (psql's ``+`` continuations): each row on one line with the
    first line of every cell, the further lines of its multi-line cell below it, indented by two
    spaces (a row never starts with a blank). Only one column may span lines (so each indented
    line has one cell it belongs to)."""
    multi = {k for row in table[1:] for k, c in enumerate(row) if "\n" in c}
    if len(multi) != 1:
        return None
    m = multi.pop()
    firsts = [[c.split("\n", 1)[0] for c in row] for row in table]
    sep = choose_separator(firsts)
    if sep is None:
        if any("|" in c for row in firsts for c in row):
            return None
        sep = "|"
    if firsts[0][0].startswith("["):
        return None
    out = [sep.join(table[0])]
    for row, first in zip(table[1:], firsts[1:]):
        out.append(sep.join(first))
        out.extend("  " + part for part in row[m].split("\n")[1:])
    return "\n".join(out) + "\n"


def compact_ruled_text(text: str, opens_within: int | None = None) -> str | None:
    """``text`` with each ruled table (see the module doc) rendered as header and rows, every
    other line as it is; None when it holds no ruled table or one would not split back (or,
    with ``opens_within``, when the first table starts later than that many lines in)."""
    if len(text) > 2_000_000 or not any(c in text for c in "-=─"):
        return None
    lines = text.rstrip("\n").split("\n")
    out: list[str] = []
    i, found = 0, False
    n = len(lines)
    while i < n:
        line = lines[i]
        got = None
        if i + 1 < n and line and (line[:1] in _TOP or lines[i + 1][:1] in "-=+─━═"):
            got = _ruled_at(lines, i)
        if got is None:
            if opens_within is not None and not found and i >= opens_within:
                return None
            out.append(line)
            i += 1
            continue
        table, _, end = got
        rendered = render_table(table, hoist=True) if len(table) > 1 else None
        if rendered is None and len(table) > 1:
            rendered = _render_bars(table) if not any("\n" in c for row in table for c in row) else _render_continued(table)
        elif rendered is not None and rendered.startswith("["):
            rendered = _without_notes(table, "\n".join(lines[i:end]), rendered)
        if rendered is None or len(table[0]) < 2:
            out.extend(lines[i:end])
        else:
            out.append(rendered.rstrip("\n"))
            found = True
        i = end
    if not found:
        return None
    result = "\n".join(out) + "\n"
    return result if len(result) < len(text) else None
