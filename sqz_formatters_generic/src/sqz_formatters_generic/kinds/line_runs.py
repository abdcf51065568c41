"""Runs: back-to-back lines that differ only in their numbers, in output no other kind claims.

What scripts and tools print while they work: progress (``epoch 3/12 step 120/400
loss=0.43``, ``[017/120] processed shard-017``), one line per child a tracer attached to
(``strace: Process 20064 attached``), and dumps of hex bytes (``openssl x509 -text``'s
modulus and signature). A run of ``MIN_RUN`` or more consecutive lines with one template
(numbers masked; a line of colon-separated hex bytes is its own template) becomes its
first line, a note with how many lines went and the range of each number that varied
(named by the word before it: ``step 20–360, loss=1.4667–1.7199``), and its last line.

Never folded: file content (also ``cd src && cat conf.py``), a unified diff, safe content (a stack trace, DDL, a key anywhere in the text: nothing of it may
be stored), a line with an error/warning word, a line whose numbers sit between field
separators (``1|paid|75.2``, ``3,alice``: data rows, every cell a fact), a run whose lines
have no word of their own (``42``, ``1.5 2.5``). Only consecutive lines fold, so the
order of events stays as printed. Linear time: a cheap key per line (digits deleted, in C),
then one regex split per line only inside groups long enough to fold.
"""

from __future__ import annotations

from sqz_core.api import lazy_pattern as lazy

from .status_fields import protect, reveal

MIN_RUN = 6          # a run folds from this many lines (first + note + last stand for 6 or more)
SCAN_LINES = 4000    # detection looks at most at this many lines
MAX_LINE = 400       # longer lines are never folded (masking them is not worth it)

_NUM = lazy(r"(\d+(?:\.\d+)?)")  # one group: split() gives the literal pieces and the numbers in one pass
_PADDING = lazy(r"  +")  # alignment: ``step   0/400`` and ``step 100/400`` share a template
_HEX_BYTES = lazy(r"[ \t]*[0-9A-Fa-f]{2}(?::[0-9A-Fa-f]{2}){3,}:?")
_HEX = "\x00hex"
_WORD = lazy(r"[A-Za-z]{2,}")
# a masked number right next to a field separator: a data row, not a progress line
_DATA_CELL = lazy(r"[|\t,;]#|#[|\t,;]")
_SEVERE = lazy(r"error|warn|fail|fatal|panic|exception|traceback|critical|denied|refused|"
               r"timeout|timed out|abort|killed|segfault|not found|invalid|cannot|unable")  # on lowercased text
_OUR_NOTE = "[sqz: "
_KEY = lazy(r"[A-Za-z_][\w.-]{0,23}[=:]$")            # loss=#, size:#
_UNIT = lazy(r"^[A-Za-z%µ]{1,3}\b")                     # #ms, #s, #%, #KB
_NAME_BEFORE = lazy(r"[A-Za-z][\w.]{0,23}[ /_-]$")     # step #, Process #, shard-#, items/#
_NAME_AFTER = lazy(r"^ ([A-Za-z][\w-]{0,23})")          # # rows, # files


def _template(line: str) -> tuple[str | None, list[str]]:
    """The line's template and its numbers (one regex split); None: not a line that folds."""
    if len(line) > MAX_LINE:
        return None, []
    stripped = line.lstrip()
    if len(stripped) >= 11 and stripped[2] == ":" and _HEX_BYTES.fullmatch(line):
        return _HEX + line[:len(line) - len(stripped)], []
    parts = _NUM.split(protect(line))  # a status value (404 among 200s) is part of the template
    if len(parts) == 1:
        return None, []  # no number: an exact repeat is the generic folding's (fold_repeats)
    tpl = "#".join(parts[0::2])
    if "  " in tpl:
        tpl = _PADDING.sub(" ", tpl)
    return tpl, parts[1::2]


def _foldable(tpl: str) -> bool:
    """Checked once per run (its lines differ only in numbers, so in nothing these look at)."""
    if tpl.startswith(_HEX):
        return True
    return (not tpl.lstrip().startswith(_OUR_NOTE) and _WORD.search(tpl) is not None
            and _DATA_CELL.search(tpl) is None and _SEVERE.search(tpl.lower()) is None)


_DIGITS = b"0123456789"
_HEX_KEY = b"\x00hex"


def _coarse_keys(lines: list[str]) -> list[bytes | None]:
    """A cheap key per line (digits deleted, spacing normalised; bytes operations in C): lines of one
    template share it. None: no digit, or too long; a line shaped like hex bytes gets one key."""
    data = "\n".join(lines).encode("utf-8", "surrogatepass")  # never fails, even on a lone surrogate
    keys: list[bytes | None] = []
    for orig, gone in zip(data.split(b"\n"), data.translate(None, _DIGITS).split(b"\n")):
        if len(orig) > MAX_LINE:
            keys.append(None)
        elif orig.count(b":") >= 3 and orig.lstrip()[2:3] == b":":
            keys.append(_HEX_KEY)  # maybe hex bytes (``ab:cd:ef:…`` may hold no digit): the exact template decides
        elif len(orig) == len(gone):
            keys.append(None)
        else:
            keys.append(b" ".join(gone.split()))
    return keys


def _runs(lines: list[str]):
    """Yield ``(start, end, numbers)`` for each run of MIN_RUN+ lines sharing a foldable template.

    Lines are first grouped by a cheap key; only a group long enough gets exact templates."""
    keys = _coarse_keys(lines)
    n = len(lines)
    i = 0
    while i < n:
        key = keys[i]
        j = i + 1
        while j < n and keys[j] == key:
            j += 1
        if key is not None and j - i >= MIN_RUN:
            yield from _exact_runs(lines, i, j)
        i = j


def _exact_runs(lines: list[str], start: int, end: int):
    """The runs of one exact template inside ``lines[start:end]``."""
    i = start
    cur = _template(lines[i])
    while i < end:
        tpl, nums = cur
        j = i + 1
        rows = [nums]
        while j < end:
            cur = _template(lines[j])
            if tpl is None or cur[0] != tpl:
                break
            rows.append(cur[1])
            j += 1
        if tpl is not None and j - i >= MIN_RUN and _foldable(tpl):
            yield i, j, rows
        i = j


def looks_like_runs(text: str) -> bool:
    """A run of MIN_RUN or more near-identical lines within the first SCAN_LINES lines."""
    if text.count("\n") < MIN_RUN or _is_patch(text):
        return False
    lines = text.split("\n", SCAN_LINES)[:SCAN_LINES]
    return next(_runs(lines), None) is not None


_SEGMENTS = lazy(r"&&|\|\||[;|\n]")


def reads_a_file(request) -> bool:
    """True when any command of a compound line prints file content (``cd src && cat conf.py``):
    ``request.is_file_content()`` judges the first command only. Conservative: a separator inside
    quotes only makes this say True, and then nothing is folded."""
    if request.is_file_content():
        return True
    command = getattr(request, "command", None)
    if not command:
        return False
    from sqz_core.api import FILE_PROGRAMS, normalize_argv, split_words

    for part in _SEGMENTS.split(command)[1:]:
        argv = normalize_argv(split_words(part))
        if argv and argv[0] in FILE_PROGRAMS:
            return True
    return False


def _is_patch(text: str) -> bool:
    """A unified diff: its lines are content, never folded (the pipeline leaves diffs whole too)."""
    from sqz_core.api import looks_like_diff

    return looks_like_diff(text)


def _label(before: str, after: str, span: str) -> str:
    """``span`` (``lo–hi``) named by the text around the number: ``loss=…``, ``step …``, ``… rows``, ``…ms``."""
    if (m := _KEY.search(before)) is not None:
        return m.group(0) + span
    unit = _UNIT.match(after)
    if unit is not None:
        span += unit.group(0)
    if (m := _NAME_BEFORE.search(before)) is not None:
        return m.group(0) + span
    if unit is None and (m := _NAME_AFTER.match(after)) is not None:
        return f"{span} {m.group(1)}"
    return span


def _varied(template: str, rows: list[list[str]]) -> str:
    """Each number that varies across the run's middle lines as its lowest–highest, named (``step 20–360``)."""
    pieces = reveal(template).split("#")
    fields = []
    for k in range(len(rows[0])):
        col = [r[k] for r in rows]
        lo = min(col, key=float)
        hi = max(col, key=float)
        if lo != hi:
            fields.append(_label(pieces[k], pieces[k + 1], f"{lo}–{hi}"))
    text = ", ".join(fields)
    return text if len(text) <= 160 else f"{len(fields)} numbers varied"


def _sensitive(text: str, known: bool | None = None) -> bool:
    """Safe content (a stack trace, DDL, a key): a summary of it would be stored to stay recoverable,
    and such content is never stored, so it goes out as the generic clean-up leaves it. The core's
    verdict when the request carries one (``request.safe``), else a classification of its own."""
    if known is not None:
        return known
    from sqz_core.api import classify

    verdict = classify(text)
    return verdict is not None and verdict.level == "safe"


def compress_runs(request) -> str | None:
    text = request.text
    lines = text.split("\n")
    trailing = lines[-1] == ""
    if trailing:
        lines.pop()
    if any(line.lstrip().startswith(_OUR_NOTE) for line in lines):
        return None  # a line that reads as one of our notes could not be told from one we add
    if _sensitive(text, getattr(request, "safe", None)) or _is_patch(text) or reads_a_file(request):
        return None
    out: list[str] = []
    done = 0
    folded = False
    for start, end, rows in _runs(lines):
        out.extend(lines[done:start + 1])
        middle = end - start - 2
        tpl = _template(lines[start])[0] or ""
        if tpl.startswith(_HEX):
            note = f"[sqz: {middle} more lines of hex bytes like these]"
        else:
            varied = _varied(tpl, rows[1:-1])
            note = f"[sqz: {middle} more lines like these{': ' + varied if varied else ''}]"
        indent = lines[start][:len(lines[start]) - len(lines[start].lstrip())]
        out.append(indent + note)
        out.append(lines[end - 1])
        done = end
        folded = True
    if not folded:
        return None
    out.extend(lines[done:])
    return "\n".join(out) + ("\n" if trailing else "")
