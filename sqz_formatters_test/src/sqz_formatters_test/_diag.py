"""Diagnostics grouped by file: the path printed once, then each diagnostic without it.

Type checkers, linters and compilers print the same path in front of every diagnostic
(``src/a.ts(6,29): error TS2345: …``, ``pkg/m.py:11: error: …``, ``src/x.c:7:8: error: …``).
Grouping prints the path once on its own line and the rest of each diagnostic line as the
tool printed it (location, severity, code, message), indented under it; continuation lines
(wrapped messages, related information, notes) follow their diagnostic, indented once more
(their own indentation kept on top, so nested elaborations stay nested).

Files keep the order of their first diagnostic and diagnostics their order within a file.
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


def group_by_file(diags: list[Diagnostic]) -> list[str] | None:
    """The diagnostics as ``path`` headers with their diagnostics under them.

    A ``Diagnostic`` whose ``head`` is None is a line kept verbatim after its file's group
    (a per-file summary such as clang's ``3 warnings generated.``). None when no file holds
    two diagnostics: a header per diagnostic would only add lines.
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


def group_lines(lines: list[str], head_of, is_kept) -> list[str] | None:
    """Group a whole report: ``head_of(line)`` gives ``(path, rest)`` for a diagnostic line, else None.

    Indented lines continue the diagnostic above them; blank lines go; lines ``is_kept``
    accepts (summaries, global messages) stay verbatim: before the groups when no
    diagnostic came yet, else after the group of the file they follow. Any other line,
    or nothing to win, gives None.
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
    grouped = group_by_file(diags)
    return None if grouped is None else pre + grouped
