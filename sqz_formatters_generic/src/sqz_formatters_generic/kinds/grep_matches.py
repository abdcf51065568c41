"""``grep -rn`` / ``rg -n`` results grouped by file: the path once with its match count, then
``line: text`` per match (the match's indentation dropped; rows start at the margin, their
line number sets them apart from a path, as in ripgrep's ``--heading`` layout). Very long
lines are clipped around the hit.

Context lines (``-A/-B/-C``) keep their ``line- text`` form, read block by block (one file
and consecutive line numbers between ``--`` lines, or passthrough); error and ``Binary file``
lines are kept verbatim. Files whose one match is the same line (the same import in 150 files)
share one line per directory: ``dir/{a.js:12 b.js:9}: text``. A path that starts like a row
(``12: …``) or with a blank or quote is quoted as ``ls`` quotes names (``'12: notes'``).
``-l``/``-L``/``rg --files`` paths are grouped by directory as ``find``'s are; ``-c`` counts
as ``dir/: a.js:1 b.js:0``; ``rg --heading`` loses only its blank lines and indentation.
A file's rows with the same text (``raise NotImplementedError()`` at 13 places) are one row,
``231 240 247: text``. grep's "binary file matches" notices are grouped by directory
(``grep: binary file matches in dir/: a.pyc b.pyc``); a match line that such a notice cut in two
(both streams in one pipe) is joined again. ``rg --stats`` keeps its statistics block as written.
Other shapes (``-o``, ``--json``) → None.
"""

from __future__ import annotations

import re
from sqz_core.api import lazy_pattern as lazy
from .listings import quote_name

MAX_LINE = 300      # longer matching lines are clipped ...
WINDOW = 100        # ... to this many characters on each side of the hit

_NUMBERED = lazy(r"^(?P<path>[^\n]*?):(?P<line>\d+):(?P<text>.*)$")
_CONTEXT = lazy(r"^(?P<path>[^\n]*?)-(?P<line>\d+)-(?P<text>.*)$")
_PLAIN = lazy(r"^(?P<path>[^:\n]+):(?P<text>.*)$")
# a path a reader could take for a row (``12: …``, ``12- …``, rows of one text ``12 40: …``, ``  …``) or
# for a quoted one
_AMBIGUOUS_PATH = lazy(r"^(?:\d+(?: \d+)*[:-]|[\s'\"])")
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
                           "--heading", "-o", "--only-matching", "--json", "--files"})


_LIST_OPTS = frozenset({"-l", "--files-with-matches", "-L", "--files-without-match", "--files"})
_COUNT_OPTS = frozenset({"-c", "--count", "--count-matches"})
_CONTEXT_OPTS = frozenset({"-A", "-B", "-C", "--context", "--after-context", "--before-context"})


def _shape(argv: tuple) -> str:
    """``list`` (-l/-L), ``count`` (-c), ``heading`` (rg --heading), ``other`` (a layout this
    module does not read: -o, --json, --files …) or ``lines``."""
    shape = "lines"
    skip = False
    for a in argv[1:]:
        if skip:
            skip = False
            continue
        if a == "--":
            break
        if a in _VALUE_OPTS:
            skip = True
            continue
        flags = set(a[1:]) if a.startswith("-") and not a.startswith("--") else set()
        if a == "--heading":
            shape = "heading" if shape in ("lines", "heading") else "other"
        elif a in _OTHER_SHAPES - _LIST_OPTS - _COUNT_OPTS or "o" in flags:
            return "other"
        if a in _LIST_OPTS or flags & set("lL"):
            shape = "list" if shape in ("lines", "list") else "other"
        elif a in _COUNT_OPTS or "c" in flags:
            shape = "count" if shape in ("lines", "count") else "other"
    return shape


def compress_grep(request) -> str | None:
    shape = _shape(request.argv)
    if shape == "other":
        return None
    if shape == "list":             # one path a line: grouped by directory as find's paths are
        from .listings import group_paths

        out = group_paths(request.text)
        return out if out is not None and len(out) < len(request.text) else None
    lines = request.text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    if len(lines) < 3:
        return None
    stats: list[str] = []
    if "--stats" in request.argv:
        lines, stats = _split_stats(lines)
        if not stats:
            return None
    lines = _fold_binary(_rejoin(lines))
    out = _compress_shape(shape, lines, request)
    if out is None or not stats:
        return out
    result = out + "\n" + "\n".join(stats) + "\n"
    return result if len(result) < len(request.text) else None


def _compress_shape(shape: str, lines: list[str], request) -> str | None:
    if shape == "count":
        return _compress_counts(lines, request.text)
    if shape == "heading":
        return _compress_heading(lines, request)
    if "--" in lines or any(a in _CONTEXT_OPTS or a.startswith(("--context=", "--after-context=", "--before-context="))
                            or (a[:2] in ("-A", "-B", "-C") and a[2:].isdigit()) for a in request.argv[1:]):
        return _compress_context(lines, request)
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
    return _render(order, groups, counts, numbered, request.text)

# ---------------------------------------------------------------- stderr lines, --stats

# grep's "binary file matches" notice (grep >= 3.5 on stderr; older grep on stdout)
_BINARY = lazy(r"^(?:grep: (?P<a>.+): binary file matches|Binary file (?P<b>.+) matches)$")
MIN_BINARY = 3      # fewer binary-file notices stay grep's own lines


def _rejoin(lines: list[str]) -> list[str]:
    """A match line that a stderr notice cut in two when both streams went to one pipe
    (``sqlalchemy/sqgrep: x.pyc: binary file matches`` … ``l/elements.py:2983: …``): the notice
    on its own line where it stood, the match line whole at its second half's place. Only when the
    joined line reads as a match (``path:N:``); else the lines stay as they came."""
    out: list[str] = []
    pending: str | None = None
    for line in lines:
        if pending is not None and not _VERBATIM.match(line):
            joined = pending + line
            out.append(joined if _NUMBERED.match(joined) else line)
            pending = None
            continue
        cut = _notice_inside(line) if pending is None else -1
        if cut > 0:
            pending = line[:cut]
            out.append(line[cut:])
            continue
        out.append(line)
    if pending is not None:
        out.append(pending)
    return out


def _notice_inside(line: str) -> int:
    """Where a ``grep: …: binary file matches`` notice starts inside ``line`` (after some other
    text), else -1. String searches only: one pass over the line."""
    if not line.endswith(": binary file matches") or line.startswith("grep: "):
        return -1
    cut = line.find("grep: ")
    return cut if cut > 0 and _BINARY.match(line[cut:]) else -1


def _fold_binary(lines: list[str]) -> list[str]:
    """MIN_BINARY or more "binary file matches" notices grouped by directory, one line per
    directory at its first notice's place: ``grep: binary file matches in dir/: a.pyc b.pyc``
    (names quoted as ``ls`` quotes them where a blank or quote would split them)."""
    found = [m for m in map(_BINARY.match, lines) if m is not None]
    if len(found) < MIN_BINARY:
        return lines
    groups: dict[str, list[str]] = {}
    out: list[str] = []
    for line in lines:
        m = _BINARY.match(line)
        if m is None:
            out.append(line)
            continue
        parent, _, name = (m.group("a") or m.group("b")).rpartition("/")
        if parent not in groups:
            groups[parent] = []
            out.append(("\0bin", parent))          # placeholder: filled in below
        groups[parent].append(quote_name(name))
    return [f"grep: binary file matches in {quote_name(item[1]) + '/' if item[1] else './'}: {' '.join(groups[item[1]])}"
            if isinstance(item, tuple) else item for item in out]


_STATS_LINE = lazy(r"^(?:\d+ (?:matches|matched lines|files contained matches|files searched|bytes printed"
                   r"|bytes searched)|\d+\.\d+ seconds(?: spent searching)?)$")


def _split_stats(lines: list[str]) -> tuple[list[str], list[str]]:
    """``rg --stats``: the matches and the statistics block after the last blank line (kept as
    ripgrep wrote it); ``(lines, [])`` when the text does not end with such a block."""
    end = len(lines)
    k = end
    while k > 0 and _STATS_LINE.match(lines[k - 1]):
        k -= 1
    if k == end or k == 0 or lines[k - 1] != "":
        return lines, []
    return lines[:k - 1], lines[k:]


def _render(order: list, groups: dict[str, list[str]], counts: dict[str, int], numbered: bool, raw: str) -> str | None:
    """Each file once: ``path:N: text`` for a single row, else ``path (K matches):`` over its
    rows; files whose one match is the same line as one block (:func:`_shared_lines`); a total
    when several files matched more than once; None when not shorter than ``raw``."""
    if len(groups) < 1:
        return None
    shared = _shared_lines(groups, counts, numbered)
    out: list[str] = []
    for item in order:
        if isinstance(item, tuple):
            out.append(item[0])
            continue
        if item in shared:
            out.extend(shared[item])            # the block of files matching this same line, or nothing
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
        out.extend(_same_text_rows(rows) if numbered else ("  " + r for r in rows))
    total = sum(counts.values())
    if len(groups) > 1 and total > len(groups):
        out.append(f"[{total} matching lines in {len(groups)} files]")
    result = "\n".join(out) + "\n"
    return result if len(result) < len(raw) else None


MIN_SAME_ROWS = 3   # rows of one file with the same text, written as one row


def _same_text_rows(rows: list[str]) -> list[str]:
    """A file's ``N: text`` rows where MIN_SAME_ROWS or more have the same text: one row
    ``231 240 247: text`` at the first one's place, the line numbers in order; context rows
    (``N- text``) and the others stay as they are."""
    by_text: dict[str, list[str]] = {}
    for row in rows:
        m = _ROW_NUMBER.match(row)
        if m is not None and m.group(2):
            by_text.setdefault(m.group(2), []).append(m.group(1))
    if not any(len(v) >= MIN_SAME_ROWS for v in by_text.values()):
        return rows
    out: list[str] = []
    done: set[str] = set()
    for row in rows:
        m = _ROW_NUMBER.match(row)
        numbers = by_text.get(m.group(2)) if m is not None and m.group(2) else None
        if numbers is None or len(numbers) < MIN_SAME_ROWS:
            out.append(row)
        elif m.group(2) not in done:
            done.add(m.group(2))
            out.append(f"{' '.join(numbers)}: {m.group(2)}")
    return out


MIN_SHARED = 3      # files whose one matching line is the same text, written as one block
_PLAIN_NAME = lazy(r"^[^\s{}:'\"\\]+$")
_ROW_NUMBER = lazy(r"^(\d+): (.*)$")


def _shared_lines(groups: dict[str, list[str]], counts: dict[str, int], numbered: bool) -> dict[str, list[str]]:
    """Files with one matching line whose text MIN_SHARED or more files share (the same import,
    the same call): ``dir/{a.js:12 b.js:9}: text``, one line per directory, in place of the first
    such file; ``{path: lines}`` (empty for the others). Names with a blank, brace, colon or
    quote keep their own lines."""
    by_text: dict[str, list[tuple[str, str]]] = {}
    for path, rows in groups.items():
        if len(rows) != 1 or counts[path] != 1:
            continue
        if numbered:
            m = _ROW_NUMBER.match(rows[0])
            if m is None:
                continue
            number, text = m.group(1), m.group(2)
        else:
            number, text = "", rows[0]
        parent, _, name = path.rpartition("/")
        if not text or not _PLAIN_NAME.match(name) or _AMBIGUOUS_PATH.match(path) or any(c in parent for c in " {}'\""):
            continue
        by_text.setdefault(text, []).append((path, number))
    shared: dict[str, list[str]] = {}
    for text, files in by_text.items():
        if len(files) < MIN_SHARED:
            continue
        dirs: dict[str, list[str]] = {}
        for path, number in files:
            parent, _, name = path.rpartition("/")
            dirs.setdefault(parent, []).append(f"{name}:{number}" if number else name)
            shared[path] = []
        shared[files[0][0]] = [f"{d + '/' if d else ''}{{{' '.join(names)}}}: {text}" for d, names in dirs.items()]
    return shared


# ---------------------------------------------------------------- rg --heading

_HEADING_ROW = lazy(r"^(\d+)([:-])(.*)$")


def _compress_heading(lines: list[str], request) -> str | None:
    """``rg --heading -n``: a path line, its ``N:text`` rows (``N-text`` context, ``--`` gaps),
    a blank line before the next path. Kept as it is but for the blank lines and the rows'
    indentation; a one-row file is one line, ``path:N:text``, as ``grep -n`` writes it. Rows
    without line numbers → None."""
    find = _hit_finder(request)
    groups: dict[str, list[str]] = {}
    counts: dict[str, int] = {}
    order: list[object] = []
    path = None
    for line in lines:
        if not line:
            path = None
            continue
        if _VERBATIM.match(line):
            order.append((line,))
            continue
        if path is None:
            path = line
            if path in groups:
                return None
            groups[path] = []
            counts[path] = 0
            order.append(path)
            continue
        if line == "--":
            groups[path].append("--")
            continue
        m = _HEADING_ROW.match(line)
        if m is None:
            return None
        counts[path] += m.group(2) == ":"
        groups[path].append(f"{m.group(1)}{m.group(2)}{clip_line(m.group(3).strip(), find)}")
    if any(not counts[p] for p in groups):
        return None                 # a path with no rows: not the layout this reads
    out: list[str] = []
    for item in order:
        if isinstance(item, tuple):
            out.append(item[0])
            continue
        rows = groups[item]
        shown = quote_name(item, force=True) if _AMBIGUOUS_PATH.match(item) or _NUMBERED.match(item) else item
        if len(rows) == 1:
            out.append(f"{shown}:{rows[0]}")     # grep -n's own line
        else:
            out.append(shown)
            out.extend(rows)
    result = "\n".join(out) + "\n"
    return result if len(result) < len(request.text) else None


# ---------------------------------------------------------------- grep -c

MIN_COUNT_LINES = 5     # fewer count lines are left as grep wrote them: regrouping saves next to nothing


def _compress_counts(lines: list[str], text: str) -> str | None:
    """``path:count`` lines grouped by directory: ``dir/: a.js:1 b.js:0``; a name that a blank or a
    colon would make ambiguous, or any line of another shape (``-h``'s bare counts) → None."""
    groups: dict[str, list[str]] = {}
    order: list[object] = []
    for line in lines:
        if _VERBATIM.match(line):
            order.append((line,))
            continue
        path, sep, count = line.rpartition(":")
        if not sep or not count.isdigit() or not path:
            return None
        parent, _, name = path.rpartition("/")
        if not name or any(c in name for c in " \t:'\"\\") or name != name.strip():
            return None
        if parent not in groups:
            groups[parent] = []
            order.append(parent)
        groups[parent].append(f"{name}:{count}")
    if len(lines) < MIN_COUNT_LINES or len(groups) == len(lines):   # too few, or no directory shared
        return None
    out = []
    for item in order:
        if isinstance(item, tuple):
            out.append(item[0])
        elif item == "":
            out.extend(groups[item])        # top-level files: as grep wrote them
        else:
            shown = quote_name(item, force=True) if _AMBIGUOUS_PATH.match(item) or " " in item else item
            out.append(f"{shown}/: {' '.join(groups[item])}")
    result = "\n".join(out) + "\n"
    return result if len(result) < len(text) else None


# ---------------------------------------------------------------- context (-A/-B/-C)

_SEP_NUM = lazy(r"([:-])(\d+)\1")
MAX_SPLITS = 8      # candidate path/number splits tried on a block's first line


def _split_block(block: list[str]) -> tuple[str, list[tuple[int, bool, str]]] | None:
    """A context block's path and its rows ``(line number, is a match, text)``: the path is the
    prefix that every line of the block shares before ``:N:`` (a match) or ``-N-`` (context),
    with N counting up by one; None when no such split exists."""
    first = block[0]
    for k, cand in enumerate(_SEP_NUM.finditer(first)):
        if k >= MAX_SPLITS:
            break
        path = first[:cand.start()]
        if not path:
            continue
        rows = []
        expect = int(cand.group(2))
        for line in block:
            if not line.startswith(path):
                break
            m = _SEP_NUM.match(line, len(path))
            if m is None or int(m.group(2)) != expect:
                break
            rows.append((expect, m.group(1) == ":", line[m.end():]))
            expect += 1
        else:
            if any(is_match for _, is_match, _ in rows):
                return path, rows
    return None


def _compress_context(lines: list[str], request) -> str | None:
    """grep/rg with context lines: blocks between ``--`` lines, each one file's run of
    consecutive lines; rendered per file as the plain matches are (``N: text`` for a match,
    ``N- text`` for context, ``--`` where a gap was). Any block that does not split into one
    path and consecutive numbers → None."""
    find = _hit_finder(request)
    blocks: list[list[str]] = [[]]
    verbatim: list[str] = []
    for line in lines:
        if line == "--":
            blocks.append([])
        elif _VERBATIM.match(line):
            verbatim.append(line)
        else:
            blocks[-1].append(line)
    groups: dict[str, list[str]] = {}
    counts: dict[str, int] = {}
    for block in blocks:
        if not block:
            continue
        split = _split_block(block)
        if split is None:
            return None
        path, rows = split
        if path in groups:
            groups[path].append("--")
        else:
            groups[path] = []
            counts[path] = 0
        for number, is_match, text in rows:
            counts[path] += is_match
            text = clip_line(text.strip(), find)
            groups[path].append(f"{number}{':' if is_match else '-'} {text}".rstrip())
    if not groups:
        return None
    out: list[str] = []
    for path, rows in groups.items():
        n = counts[path]
        shown = quote_name(path, force=True) if _AMBIGUOUS_PATH.match(path) else path
        out.append(f"{shown} ({n} match{'es' if n != 1 else ''}):")
        out.extend(rows)
    out.extend(verbatim)
    result = "\n".join(out) + "\n"
    return result if len(result) < len(request.text) else None
