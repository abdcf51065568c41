"""``grep -rn`` / ``rg -n`` results grouped by file: the path once with its match count, then
``line: text`` per match (the match's indentation dropped; rows start at the margin, their
line number sets them apart from a path, as in ripgrep's ``--heading`` layout). Very long
lines are clipped around the hit.

Context lines (``-A/-B/-C``) keep their ``line- text`` form; error and ``Binary file``
lines are kept verbatim. A path that starts like a row (``12: …``) or with a blank or quote is
quoted as ``ls`` quotes names (``'12: notes'``). Output of another shape (``-c``, ``-l``, ``--heading``) → None.
"""

from __future__ import annotations

import re
from ..lazyre import lazy
from .listings import quote_name

MAX_LINE = 300      # longer matching lines are clipped ...
WINDOW = 100        # ... to this many characters on each side of the hit

_NUMBERED = lazy(r"^(?P<path>[^\n]*?):(?P<line>\d+):(?P<text>.*)$")
_CONTEXT = lazy(r"^(?P<path>[^\n]*?)-(?P<line>\d+)-(?P<text>.*)$")
_PLAIN = lazy(r"^(?P<path>[^:\n]+):(?P<text>.*)$")
# a path a reader could take for a row (``12: …``, ``12- …``, ``  …``) or for a quoted one
_AMBIGUOUS_PATH = lazy(r"^(?:\d+[:-]|[\s'\"])")
_VERBATIM = lazy(r"^(?:grep|rg|ag): |^Binary file .* matches$|^binary file matches")
# options whose value is the next word (grep and ripgrep)
_VALUE_OPTS = frozenset({"-e", "-f", "-A", "-B", "-C", "-m", "-g", "-t", "-T", "--glob", "--type",
                         "--type-not", "--max-count", "--context", "--after-context", "--before-context",
                         "--regexp", "--file", "--include", "--exclude", "--exclude-dir", "-M", "-j"})


def search_pattern(argv: tuple) -> tuple[str | None, bool, bool]:
    """(pattern, ignore_case, fixed_string) from a grep/rg command line."""
    pattern = None
    ignore = fixed = False
    args = argv[1:]
    i = 0
    while i < len(args):
        a = args[i]
        if a in ("-e", "--regexp") and i + 1 < len(args):
            pattern = args[i + 1]
            i += 2
            continue
        if a.startswith("--regexp="):
            pattern = a.split("=", 1)[1]
        elif a in _VALUE_OPTS:
            i += 2
            continue
        elif a.startswith("--"):
            ignore = ignore or a == "--ignore-case"
            fixed = fixed or a == "--fixed-strings"
        elif a.startswith("-") and len(a) > 1:
            ignore = ignore or "i" in a[1:]
            fixed = fixed or "F" in a[1:]
        elif pattern is None:
            pattern = a
            if "-e" not in args:
                break
        i += 1
    return pattern, ignore, fixed


def _hit_finder(request):
    pattern, ignore, fixed = search_pattern(request.argv)
    if not pattern:
        return None
    flags = re.I if ignore else 0
    if not fixed:
        try:
            return re.compile(pattern, flags).search
        except re.error:
            pass
    return re.compile(re.escape(pattern), flags).search


def clip_line(text: str, find) -> str:
    """The text around the first hit of a very long line, with the clipped lengths counted."""
    if len(text) <= MAX_LINE:
        return text
    m = find(text) if find else None
    start, end = (m.start(), m.end()) if m else (0, 0)
    a = max(0, start - WINDOW)
    b = min(len(text), max(end, start) + WINDOW)
    head = f"[…{a} chars]" if a else ""
    tail = f"[{len(text) - b} chars…]" if b < len(text) else ""
    return f"{head}{text[a:b]}{tail}"


_OTHER_SHAPES = frozenset({"-c", "--count", "-l", "--files-with-matches", "-L", "--files-without-match",
                           "--heading", "-o", "--only-matching", "--json", "--files", "--stats"})


def compress_grep(request) -> str | None:
    if any(a in _OTHER_SHAPES or (a.startswith("-") and not a.startswith("--") and set(a[1:]) & set("clLo"))
           for a in request.argv[1:]):
        return None
    lines = request.text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    if len(lines) < 3:
        return None
    numbered = sum(1 for line in lines if _NUMBERED.match(line)) * 10 >= len(lines) * 6
    find = _hit_finder(request)
    groups: dict[str, list[str]] = {}
    counts: dict[str, int] = {}
    order: list[object] = []
    for line in lines:
        if _VERBATIM.match(line):
            order.append((line,))
            continue
        if line == "--":
            continue
        m = _NUMBERED.match(line) if numbered else _PLAIN.match(line)
        context = False
        if m is None and numbered:
            m = _CONTEXT.match(line)
            context = m is not None and m.group("path") in groups
        if m is None or (numbered and not context and not m.group("path")):
            return None
        path = m.group("path")
        if path not in groups:
            groups[path] = []
            counts[path] = 0
            order.append(path)
        text = clip_line(m.group("text").strip(), find)
        if not context:
            counts[path] += 1
        if numbered:
            text = f"{m.group('line')}{'-' if context else ':'} {text}"
        groups[path].append(text)
    if len(groups) < 1:
        return None
    out: list[str] = []
    for item in order:
        if isinstance(item, tuple):
            out.append(item[0])
            continue
        rows = groups[item]
        shown = quote_name(item, force=True) if _AMBIGUOUS_PATH.match(item) else item
        if len(rows) == 1:
            out.append(f"{shown}:{rows[0]}" if numbered else f"{shown}: {rows[0]}")
            continue
        n = counts[item]
        out.append(f"{shown} ({n} match{'es' if n != 1 else ''}):")
        # numbered rows start with their line number, which sets them apart from a path line
        # (ripgrep's --heading layout); the indentation would cost a token a row
        out.extend(rows if numbered else ("  " + r for r in rows))
    total = sum(counts.values())
    if len(groups) > 1 and total > len(groups):
        out.append(f"[{total} matching lines in {len(groups)} files]")
    result = "\n".join(out) + "\n"
    return result if len(result) < len(request.text) else None
