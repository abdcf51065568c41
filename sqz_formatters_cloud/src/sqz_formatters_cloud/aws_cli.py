"""sqz formatter entry for the AWS CLI (``aws``).

``--output table`` (the boxes awscli/table.py draws, also when ``output = table`` is the
profile's default) → each section's title indented by depth, its fields as ``key: value``,
a list of records as its column names and one row per record, a field every section of one
path shares said once; read whole or not at all. JSON (the default output) and YAML are left
to the generic pack's kinds (``None`` here), text output to the generic stages.
"""

from __future__ import annotations

from sqz_core.api import FormatRequest, hookimpl

commands = ("aws",)


@hookimpl
def sqz_format(request: FormatRequest) -> str | None:
    if request.is_file_content():
        return None
    return render_box_tables(request.text)


def render_box_tables(text: str) -> str | None:
    """An ``aws … --output table`` page rendered as described above, or None when the text is
    not one such page or a line does not print back exactly."""
    if len(text) > 2_000_000 or not text.startswith("----") or "\n|" not in text[:4096]:
        return None
    return _aws_box_table(text)


# ---------------------------------------------------------------------------- AWS CLI tables
# ``aws … --output table`` (awscli/table.py) draws nested sections, each indented by one ``|``
# on both sides: a centred title, then either a rule alone (an empty section), or a rule and
# rows (a dict: ``key | value``), or a rule, centred column names, a rule and rows (a list of
# dicts). Every line has the table's width. Rendered as the sections' titles indented by depth,
# a dict's rows as ``key: value`` under its title, a list's column names after its title
# (``Tags: Key | Value``) and its rows as cells joined by `` | ``; a ``key: value`` that every
# section of one path shares (three or more) is said once, in a note on the first of them. Every
# line is checked by printing it back with awscli's own centring and padding; any other line
# leaves the table as printed.


def _aws_center(text: str, length: int, left: str) -> str:
    start = (length // 2) - (len(text) // 2) - 1
    return left + " " * start + text + " " * (length - 1 - len(left) - start - len(text)) + "|"


def _aws_left(text: str, length: int, left: str) -> str:
    pad = 2 if length - (len(text) + 2 + len(left) + 1) >= 0 else 0
    return left + " " * pad + text + " " * (length - len(left) - pad - len(text) - 1) + "|"


def _aws_cells(inner: str, widths: list[int], centred: bool) -> list[str] | None:
    """Cells of one row of a section (its edges included in ``inner``), or None when the row
    does not print back from them (``centred``: column names; else left-aligned values)."""
    cells, pos = [], 0
    for k, w in enumerate(widths):
        seg = inner[pos:pos + w]
        left = "|" if k == 0 else ""
        body = seg[len(left):-1]
        text = body.strip(" ") if centred else (body[2:] if body[:2] == "  " else body).rstrip(" ")
        if (_aws_center if centred else _aws_left)(text, w, left) != seg or text[:1] == " ":
            return None  # (a value that starts with a space would read as centred, or wrong)
        cells.append(text)
        pos += w
    return cells if pos == len(inner) else None


def _aws_group(events: list, i: int, depth: int) -> tuple[list[str], int]:
    """The row lines of ``depth`` from ``events[i]`` on, and the index after them."""
    rows = []
    while i < len(events) and events[i][0] == "line" and events[i][1] == depth:
        rows.append(events[i][2])
        i += 1
    return rows, i


def _aws_box_table(text: str) -> str | None:
    lines = text.rstrip("\n").split("\n")
    width = len(lines[0])
    if len(lines) < 3 or width < 4 or lines[0] != "-" * width or any(len(line) != width for line in lines):
        return None
    # events: ("title", depth, text) | ("rule", depth, widths) | ("line", depth, inner)
    events = []
    for line in lines[1:]:
        d = len(line) - len(line.lstrip("|"))
        if d * 2 >= width:
            return None
        if line[d] == "+":
            inner = line[d:width - d]
            if line[width - d:] != "|" * d or inner[-1] != "+" or inner.strip("-+") or "++" in inner:
                return None
            junctions = [i for i, c in enumerate(inner) if c == "+"]
            widths = [junctions[1] + 1] + [b - a for a, b in zip(junctions[1:], junctions[2:])]
            events.append(("rule", d + 1, widths))
        else:
            if d == 0 or line[width - d:] != "|" * d:
                return None
            events.append(("line", d, line[d - 1:width - d + 1]))
    sections: list = []   # (depth, path of titles, title, column names or None, rows)
    path: list[tuple[int, str]] = []
    i, n = 0, len(events)
    while i < n:
        kind, depth, inner = events[i]
        if kind != "line" or _aws_center(inner[1:-1].strip(" "), len(inner), "|") != inner:
            return None
        title = inner[1:-1].strip(" ")
        if not title or "|" in title:
            return None
        i += 1
        if i >= n or events[i][0] != "rule" or events[i][1] != depth:
            return None
        # a rule, then rows (a dict's ``key | value``, or one row of column names, a rule and
        # the list's rows), then a closing rule; or the rule alone (an empty section)
        g1, j = _aws_group(events, i + 1, depth)
        head, rows = None, []
        if g1:
            if j >= n or events[j][0] != "rule" or events[j][1] != depth:
                return None
            widths = events[i][2]
            kv = [_aws_cells(r, widths, centred=False) for r in g1]
            kv_ok = all(r is not None for r in kv)
            col = None
            if len(g1) == 1:
                names = _aws_cells(g1[0], widths, centred=True)
                g2, k = _aws_group(events, j + 1, depth)
                if names is not None and g2 and k < n and events[k][0] == "rule" and events[k][1] == depth:
                    data = [_aws_cells(r, events[j][2], centred=False) for r in g2]
                    if all(r is not None for r in data) and all(len(r) == len(names) for r in data):
                        col = (names, data, k + 1)
            if kv_ok == (col is not None):
                return None  # neither reading prints back, or both do
            if col is not None:
                head, rows, i = col
            else:
                rows, i = kv, j + 1
        else:
            i = j
        if head is not None:
            if any("|" in c for c in head) or any(" | " in c for r in rows for c in r):
                return None
        elif not all((len(r) == 2 and r[0] and ": " not in r[0] and not r[0].endswith(":"))
                     or (len(r) == 1 and r[0]) for r in rows):
            return None
        while path and path[-1][0] >= depth:
            path.pop()
        path.append((depth, title))
        sections.append((depth, " > ".join(t for _, t in path), title, head, rows))
    return _aws_render(sections, len(text))


AWS_HOIST_MIN = 3   # a field the same in this many sections of one path (or more) is said once


def _aws_render(sections: list, limit: int) -> str | None:
    """The sections as text; a ``key: value`` that every section of one path shares (three or
    more sections) is said once, on the path's first section (``[every Instances: Architecture:
    x86_64; Hypervisor: xen]``; the whole path when another path ends in that title too), and
    left out of its rows."""
    by_path: dict[str, list] = {}
    for sec in sections:
        by_path.setdefault(sec[1], []).append(None if sec[3] is not None else sec[4])
    shared: dict[str, set] = {}
    for path, groups in by_path.items():
        if len(groups) < AWS_HOIST_MIN or None in groups:
            continue   # (a path whose sections include a list's table: "every" would not hold)
        common = {tuple(r) for r in groups[0] if len(r) == 2 and r[1] and ";" not in r[1] and "]" not in r[1]}
        for rows in groups[1:]:
            common &= {tuple(r) for r in rows}
        if common:
            shared[path] = common
    paths_of: dict[str, int] = {}   # a title that names one path stands for it in a note
    for title, path in {(sec[2], sec[1]) for sec in sections}:
        paths_of[title] = paths_of.get(title, 0) + 1
    out: list[str] = []
    noted: set = set()
    for depth, path, title, head, rows in sections:
        pad = " " * (depth - 1)
        if head is not None:
            out.append(f"{pad}{title}: {' | '.join(head)}")
            out.extend(f"{pad} {' | '.join(r)}".rstrip(" ") for r in rows)
            continue
        out.append(f"{pad}{title}")
        common = shared.get(path, ())
        if common and path not in noted:
            noted.add(path)
            said = "; ".join(f"{k}: {v}" for k, v in (tuple(r) for r in rows) if (k, v) in common)
            out.append(f"{pad} [every {title if paths_of[title] == 1 else path}: {said}]")
        for r in rows:
            if len(r) == 2 and tuple(r) not in common:
                out.append(f"{pad} {r[0]}: {r[1]}".rstrip(" "))
            elif len(r) == 1:
                out.append(f"{pad} - {r[0]}")
    result = "\n".join(out) + "\n"
    return result if len(result) < limit else None
