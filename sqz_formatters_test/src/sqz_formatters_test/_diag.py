"""Diagnostics grouped by file: the path printed once, then each diagnostic without it.

Type checkers, linters and compilers print the same path in front of every diagnostic
(``src/a.ts(6,29): error TS2345: …``, ``pkg/m.py:11: error: …``, ``src/x.c:7:8: error: …``).
Grouping prints the path once on its own line and the rest of each diagnostic line as the
tool printed it (location, severity, code, message), indented under it; continuation lines
(wrapped messages, related information, notes) follow their diagnostic, indented once more
(their own indentation kept on top, so nested elaborations stay nested).

Files keep the order of their first diagnostic and diagnostics their order within a file.

With a ``loc`` pattern (the location at the start of a diagnostic's line without its path), the
diagnostics of one file that say the same thing (the same line after the location, the same
continuation lines) print once, with every location they were reported at, in order, joined by
``, `` at the place of the first: ``12:1, 15:1, 18:1: error: Function is missing a type
annotation  [no-untyped-def]``. A line without a location (a context line such as mypy's
``note: In function "f":``, a per-file summary) ends the run in which repeats merge, so nothing
moves across it. Every location, code and message stays on the page.

Stdlib only: imported on the hot path.
"""

from __future__ import annotations

INDENT = "  "


class Diagnostic:
    """One diagnostic: the file, its line without the path, and the lines that continue it."""

    __slots__ = ("head", "more", "path")

    def __init__(self, path: str, head: str | None, more: list[str] | None = None) -> None:
        self.path = path
        self.head = head
        self.more = more if more is not None else []


def merge_repeats(items: list[Diagnostic], loc) -> list[Diagnostic]:
    """``items`` (one file's) with the diagnostics that repeat one message merged, their locations joined.

    ``loc`` matches the location at the start of a ``head``; a diagnostic it does not match (or a
    kept line, ``head`` None) stays as it is and closes the run in which repeats merge. One pass.
    """
    out: list[Diagnostic] = []
    merged: list[tuple[Diagnostic, str, list[str]]] = []  # (first, rest of line, every location)
    run: dict[tuple, list[str]] = {}
    for d in items:
        m = loc.match(d.head) if d.head is not None else None
        if m is None or not m.group(0):
            run = {}
            out.append(d)
            continue
        rest = d.head[m.end():]
        key = (rest, tuple(d.more))
        locs = run.get(key)
        if locs is None:
            first = Diagnostic(d.path, d.head, d.more)
            run[key] = locs = [m.group(0)]
            merged.append((first, rest, locs))
            out.append(first)
        else:
            locs.append(m.group(0))
    for first, rest, locs in merged:
        if len(locs) > 1:
            first.head = ", ".join(locs) + rest
    return out


def group_by_file(diags: list[Diagnostic], loc=None) -> list[str] | None:
    """The diagnostics as ``path`` headers with their diagnostics under them.

    A ``Diagnostic`` whose ``head`` is None is a line kept verbatim after its file's group
    (a per-file summary such as clang's ``3 warnings generated.``). None when no file holds
    two diagnostics: a header per diagnostic would only add lines. With ``loc``, repeats
    within a file merge (:func:`merge_repeats`).
    """
    files: dict[str, list[Diagnostic]] = {}
    real = 0
    for d in diags:
        files.setdefault(d.path, []).append(d)
        real += d.head is not None
    if not files or len(files) == real:
        return None
    out: list[str] = []
    for path, items in files.items():
        if loc is not None:
            items = merge_repeats(items, loc)
        out.append(path)
        for d in items:
            if d.head is not None:
                out.append(INDENT + d.head)
                out.extend(INDENT + x if x.startswith(" ") else INDENT * 2 + x for x in d.more if x.strip())
        out.extend(d.more[0] for d in items if d.head is None)
    return out


def split_path(line: str, path_end: int, sep: str = ":") -> tuple[str, str]:
    """``(path, rest)`` of a diagnostic line whose path ends at ``path_end``; one leading ``sep`` is dropped from rest."""
    rest = line[path_end:]
    if sep and rest.startswith(sep):
        rest = rest[len(sep):].lstrip(" ")
    return line[:path_end], rest


def group_lines(lines: list[str], head_of, is_kept, loc=None) -> list[str] | None:
    """Group a whole report: ``head_of(line)`` gives ``(path, rest)`` for a diagnostic line, else None.

    Indented lines continue the diagnostic above them; blank lines go; lines ``is_kept``
    accepts (summaries, global messages) stay verbatim: before the groups when no
    diagnostic came yet, else after the group of the file they follow. Any other line,
    or nothing to win, gives None. ``loc``: see :func:`group_by_file`.
    """
    pre: list[str] = []
    diags: list[Diagnostic] = []
    last_is_diag = False
    for line in lines:
        if not line.strip():
            continue
        h = head_of(line)
        if h is not None:
            diags.append(Diagnostic(h[0], h[1]))
            last_is_diag = True
        elif line.startswith(" ") and last_is_diag:
            diags[-1].more.append(line)
        elif is_kept(line):
            if diags:
                diags.append(Diagnostic(diags[-1].path, None, [line]))
            else:
                pre.append(line)
            last_is_diag = False
        else:
            return None
    grouped = group_by_file(diags, loc)
    return None if grouped is None else pre + grouped
