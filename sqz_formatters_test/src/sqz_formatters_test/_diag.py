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
moves across it. Notes that follow a diagnostic go with it (see :func:`merge_repeats`). Every
location, code and message stays on the page.

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


class _Unit:
    """A diagnostic with the notes that follow it (``(note, at its location)``) and every location it was reported at."""

    __slots__ = ("first", "locs", "notes", "rest")

    def __init__(self, first: Diagnostic, loc: str, rest: str) -> None:
        self.first = first
        self.locs = [loc]
        self.rest = rest
        self.notes: list[tuple[Diagnostic, str | None]] = []  # (note, its text after the shared location or None)

    def key(self) -> tuple:
        return (self.first.path, self.rest, tuple(self.first.more),
                tuple((n.path, rest, tuple(n.more)) if rest is not None else (n.path, n.head, tuple(n.more))
                      for n, rest in self.notes))


def merge_repeats(items: list[Diagnostic], loc, is_note=None) -> list[Diagnostic]:
    """``items`` with the diagnostics that repeat one message merged, their locations joined in order.

    ``loc`` matches the location at the start of a ``head``; a diagnostic it does not match (or a
    kept line, ``head`` None) stays as it is and closes the run in which repeats merge. With
    ``is_note`` (given the text after the location), a note that follows a diagnostic belongs to
    it: two diagnostics merge only when their notes say the same, a note at its diagnostic's own
    location takes the joined locations too, and a note elsewhere (a macro's definition, a field
    declared in a header) must stand at the same place for both. The same path is part of what must
    repeat. Two passes over ``items``.
    """
    seq: list = []          # Diagnostic (kept as it is) or _Unit
    unit: _Unit | None = None
    for d in items:
        m = loc.match(d.head) if d.head is not None else None
        if m is None or not m.group(0):
            seq.append(d)
            unit = None
            continue
        at, rest = m.group(0), d.head[m.end():]
        if is_note is not None and unit is not None and is_note(rest):
            same = d.path == unit.first.path and at == unit.locs[0]
            unit.notes.append((d, rest if same else None))
            continue
        unit = _Unit(d, at, rest)
        seq.append(unit)
    out: list[Diagnostic] = []
    run: dict[tuple, _Unit] = {}
    kept: list[_Unit] = []
    for x in seq:
        if isinstance(x, Diagnostic):
            run = {}
            out.append(x)
            continue
        k = x.key()
        first = run.get(k)
        if first is not None:
            first.locs.append(x.locs[0])
            continue
        run[k] = x
        kept.append(x)
        out.append(x.first)
        out.extend(n for n, _ in x.notes)
    for u in kept:
        if len(u.locs) > 1:
            joined = ", ".join(u.locs)
            u.first.head = joined + u.rest
            for n, rest in u.notes:
                if rest is not None:
                    n.head = joined + rest
    return out


def group_by_file(diags: list[Diagnostic], loc=None, is_note=None) -> list[str] | None:
    """The diagnostics as ``path`` headers with their diagnostics under them.

    A ``Diagnostic`` whose ``head`` is None is a line kept verbatim after its file's group
    (a per-file summary such as clang's ``3 warnings generated.``). None when no file holds
    two diagnostics: a header per diagnostic would only add lines. With ``loc``, repeats
    within a file merge (:func:`merge_repeats`, with ``is_note``).
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
            items = merge_repeats(items, loc, is_note)
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


def group_lines(lines: list[str], head_of, is_kept, loc=None, is_note=None) -> list[str] | None:
    """Group a whole report: ``head_of(line)`` gives ``(path, rest)`` for a diagnostic line, else None.

    Indented lines continue the diagnostic above them; blank lines go; lines ``is_kept``
    accepts (summaries, global messages) stay verbatim: before the groups when no
    diagnostic came yet, else after the group of the file they follow. Any other line,
    or nothing to win, gives None. ``loc``, ``is_note``: see :func:`merge_repeats`.
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
    grouped = group_by_file(diags, loc, is_note)
    return None if grouped is None else pre + grouped
