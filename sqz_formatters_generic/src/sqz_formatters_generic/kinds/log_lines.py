"""Logs: fold runs of lines that differ only in timestamps, ids, counters or durations.

Lines are grouped by template (timestamps, uuids, hex ids, ip:port, durations and
numbers masked), consecutive or interleaved; a group of three or more becomes its first
line, where it first occurs, plus a count, the first and last timestamps and the values that
varied, as the whole words that hold them (what a reader quotes: ``poller-1|poller-2``,
``127.0.0.1:{55480|55488}``; whole numbers exactly, ``1–12 14–40``, ``/items/{1–12 14–40}``; with
one unit as a range, ``1ms–3ms``; a value of its own on near every line, an id, counted:
``24 distinct``). Lines naming a few paths or URLs fold per path (each path's first line shown).
A thread name's number (``[sync_3]``) and a number's sign are masked with it. Every
ERROR/WARN/FAIL/exception line and the two lines on each side of it (once per shape of severe
line: a flood of one kind of warning does not pin the whole log as its context), every stack-trace line (a Python traceback's source lines
and carets too) and every failed request of an access log (``"GET /x HTTP/1.1" 404``) are
kept verbatim (a failed request's byte-for-byte repeats, the same second included, fold into
it with their count); an exact repeat of a severe line (timestamps aside: the same warning
printed on every iteration) folds into its first occurrence, and not when it ends a trace. A
severe line that differs from an earlier one only in timestamps and lone numbers (``*1401``,
``1953#1953``, a port; never digits in a word, path or URL) folds into it only when the note,
shorter than the lines it replaces, lists every differing value in order (``value 4: 1419 | 1425``,
``1953×3`` for three in a row): each folded line is the first with its values put back. A log that already holds a line reading as a fold note (``[×…``) is left as it is. One pass with flat regexes and a dict of templates: linear time.
"""

from __future__ import annotations

import re
from sqz_core.api import lazy_pattern as lazy

from .status_fields import protect, reveal

CONTEXT = 2
MIN_RUN = 3
# How a fold note begins. ("[sqz: the same N-line stack trace …" lines are the pipeline's,
# written before this stage: they are ours already, and stay.)
_OUR_NOTES = "[×"
_PIPELINE_NOTES = "[sqz: "   # each says where it stands (copy 3 of 5 of the trace above): never folded
# Timestamps: ISO 8601 / RFC 3339, syslog ("Nov 30 04:22:01"), Apache/CLF and http.server
# ("[30/Nov/2026:04:30:15 +0000]", "[30/Nov/2026 04:30:15]"), bare times.
_TIMESTAMP_ALTS = (
    r"\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(?:[.,]\d+)?(?:Z|[+-]\d{2}:?\d{2})?"
    r"|\b(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) [ \d]\d \d{2}:\d{2}:\d{2}"
    r"|\d{2}/(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)/\d{4}[: ]\d{2}:\d{2}:\d{2}(?: [+-]\d{4})?"
    r"|\b\d{4}/\d{2}/\d{2}[T ]\d{2}:\d{2}:\d{2}(?:[.,]\d+)?"  # Go's log package
    r"|\b\d{2} (?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d{2}:\d{2}:\d{2}(?:[.,]\d+)?"  # Redis
    r"|\b\d{2}:\d{2}:\d{2}(?:[.,]\d+)?\b"
)
# Every timestamp begins with a digit or a month's capital: the lookahead lets ``re`` pass every other
# offset with one class test instead of trying each alternative there (the same matches, 2-4x faster)
_TIMESTAMP = lazy(r"(?=[\dJFMASOND])(?:" + _TIMESTAMP_ALTS + ")")
_VARIABLE = lazy(
    r"(?=[\da-fA-F-])"  # where any of them can begin (a digit, a hex letter, a sign): the same split, faster
    r"(\b[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\b"  # uuid
    r"|\b\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}(?::\d{1,5})?\b"                             # ipv4[:port]
    r"|\b(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{7,}\b"                                 # hex ids
    r"|\b\d+(?:\.\d+)?(?:ns|us|µs|ms|s|m|h)\b"                                            # durations
    r"|(?:(?<=[\s(=,+*/])-)?\b\d+(?:\.\d+)?\b"                                             # counters, "+ -4947" signed
    r"|(?<=[A-Za-z]_)\d+\b)"                                                              # thread/worker names: sync_3
)  # one group: split() yields the template's literal pieces and the masked values in one pass
# A request that failed, in an access log: ``"GET /x HTTP/1.1" 404`` (http.server, gunicorn, uvicorn, nginx)
_HTTP_FAILED = lazy(r'"[A-Z]+ \S+ HTTP/[\d.]+" [45]\d\d\b')
_SEVERE = lazy(r"\b(?:ERROR|ERR|WARN|WARNING|FATAL|CRITICAL|CRIT|PANIC|SEVERE|EMERG|ALERT|"
                     r"error|warn|warning|fatal|critical|panic|Error|Warning|Fatal|Critical|Panic|"
                     r"FAIL|FAILED|FAILURE|Fail|Failed|Failure|fail|failed|failure|"
                     r"exception|Traceback)\b|(?:Error|Exception|Warning)\b")  # 2nd branch: KeyError, UserWarning
# Stack-trace lines (Python, JVM/JS, Go, Rust): never folded, the core keeps traces whole.
# (``_is_trace``: anchored at the line's start, but for ``panicked at`` anywhere in it)
_TRACE = lazy(r"\s+at \S|\s+File \"|Traceback \(most recent call last\)|goroutine \d+ \[|"
              r"\s*\d+: \S+::|Caused by:|\s+\.\.\. \d+ more")


def _is_trace(line: str) -> bool:
    return "panicked at" in line or _TRACE.match(line) is not None
# Line shapes that mark a log: a leading timestamp or level, or "<tool> <level>" (npm).
_LOG_START = lazy(
    r"^\s*(?:\[?\d{4}[-/]\d{2}[-/]\d{2}[T ]\d{2}:\d{2}"
    r"|\[?\d{2}:\d{2}:\d{2}\b"
    r"|(?:ts|time|t|level|lvl)=\S"
    r"|(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) [ \d]\d \d{2}:\d{2}:\d{2}"
    r"|\S+ - \S+ \[\d{2}/\w{3}/\d{4}[: ]\d{2}:\d{2}:\d{2}"
    r"|\[\d{2}/\w{3}/\d{4}[: ]\d{2}:\d{2}:\d{2}\]"  # Django runserver, http.server without a client address
    r"|\[?(?:TRACE|DEBUG|INFO|NOTICE|WARN|WARNING|ERROR|FATAL|CRITICAL)\]?[\s:]"
    r"|[IWEF]\d{4} \d{2}:\d{2}:\d{2}"
    r"|\d+:[XCSM] \d{2} (?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d{2}:\d{2}:\d{2}"  # Redis: pid:role
    r"|\S+ (?:verb|verbose|info|http|silly|timing|notice|warn|error|sill)\s)"
)


# Lines that continue a record rather than start one: indented lines (a trace's frames, a
# warning's source line), a trace's head and its chaining notes, the exception it ends with.
_CONTINUATION = lazy(r"^(?:\s|Traceback \(most recent call last\)|The above exception was |During handling of the above"
                     r"|[\w.]*(?:Error|Exception|Warning|Exit|Interrupt)\b|\S+:\d+: \w*Warning: )")


# A severe line's fields that may differ within a fold: its timestamps (group 1) and the whole
# numbers standing on their own (group 2, with nginx's ``*`` before a connection number: the
# word a reader quotes): ``*1401``, ``1953#1953``, ``(111:``, a port after an
# address (``127.0.0.1:18801``); never digits inside a word, a path, a URL or a decimal.
_SEVERE_FIELD = lazy(
    r"(?=[\d*JFMASOND])(?:"  # a timestamp's or a number's first character (see _TIMESTAMP)
    r"(" + _TIMESTAMP_ALTS + r")"
    r"|(?:(?<=^)|(?<=[\s*#(\[=,])|(?<=\d:))(\*?\d+)(?=$|[\s#,)\]:;\"]))"
)
# A severe line's shape: its timestamps and every word (a run of letters, digits and ``_.-/@+~%``,
# as a reader quotes it) that holds a digit masked — a job's uuid, ``/api/items/3``, ``attempt
# 2/3``; a status value (``HTTP 502``) stays (``protect``). Severe lines of one shape are one kind of
# event: the first of them is shown with its context, the others alone (each is still kept whole).
_WORD = r"[\w.\-/@+~%]"
_SHAPE_FIELD = lazy(r"(?<!" + _WORD + r")" + _WORD + r"*\d" + _WORD + r"*")
STAMP = "\x00"      # a timestamp's place in a line's key: a character no word holds


def severe_fields(line: str) -> tuple[str, list[str]]:
    """A severe line's template (its literal pieces, each field marked by its kind: ``\x01`` a
    timestamp, ``\x02`` a number) and its fields' values, left to right."""
    pieces: list[str] = []
    values: list[str] = []
    at = 0
    for m in _SEVERE_FIELD.finditer(line):
        pieces.append(line[at:m.start()])
        pieces.append("\x01" if m.group(1) is not None else "\x02")
        values.append(m.group(0))
        at = m.end()
    pieces.append(line[at:])
    return "".join(pieces), values


def _shape(stamped: str) -> str:
    """A severe line's shape (see ``_SHAPE_FIELD``), given the line with its timestamps as ``STAMP``."""
    return _SHAPE_FIELD.sub("\x02", protect(stamped))


def looks_like_log(text: str, read: bool = False) -> bool:
    """Five or more lines starting like log records, most of the lines that start a record
    (continuations — trace frames, a warning's source line — aside) and a quarter of all; ``read``
    (a file the core found a log, by name or shape: ``cat app.log``), the quarter is not asked (a
    server log that is mostly its tracebacks is still a log)."""
    hits = total = lines = 0
    for line in text.splitlines()[:300]:
        if not line.strip():
            continue
        lines += 1
        if _LOG_START.match(line):
            hits += 1
            total += 1
        elif not _CONTINUATION.match(line):
            total += 1
    return hits >= 5 and hits * 10 >= total * 7 and (read or hits * 4 >= lines)


def template(line: str) -> str:
    """The line with its timestamps, ids, counters and durations blanked out."""
    return _masked(line, {})[0]


def _masked(line: str, seen: dict) -> tuple[str, list[str], int]:
    """The line's template, the values masked in it (timestamps aside) and its flags (1: stack
    frame, 2: severe, 4: a failed request in an access log); ``seen`` caches lines that only
    differ by timestamp, the common case."""
    return _masked_stamped(line, _TIMESTAMP.sub(STAMP, line), seen)


def _masked_stamped(line: str, stamped: str, seen: dict) -> tuple[str, list[str], int]:
    """``_masked`` of ``line``, given ``stamped``: the line with its timestamps replaced by ``STAMP``."""
    hit = seen.get(stamped)
    if hit is None:
        parts = _VARIABLE.split(protect(stamped))  # a status (404 among 200s) stays in the template
        flags = ((1 if _is_trace(line) else 0) | (2 if _SEVERE.search(line) else 0)
                 | (4 if _HTTP_FAILED.search(line) else 0))
        hit = seen[stamped] = ("#".join(parts[0::2]), parts[1::2], flags)
    return hit


def compress_log(request) -> str | None:
    lines = request.text.split("\n")
    trailing = lines and lines[-1] == ""
    if trailing:
        lines.pop()
    if any(line.lstrip().startswith(_OUR_NOTES) for line in lines):
        return None   # a line that reads as one of our notes could not be told from one we add
    n = len(lines)
    seen: dict = {}
    stamped = [_TIMESTAMP.sub(STAMP, line) for line in lines]
    masked = [_masked_stamped(line, st, seen) for line, st in zip(lines, stamped)]
    pinned = bytearray(n)
    traced = bytearray(n)     # a Python traceback's body (its frames' source lines and carets too)
    first_severe: set[str] = set()
    in_trace = False
    for i, line in enumerate(lines):
        if line.startswith("Traceback (most recent call last)"):
            in_trace = True
        elif in_trace and line[:1] not in (" ", "\t"):
            in_trace = False
        if in_trace:
            pinned[i] = traced[i] = 1
    # The log's last CONTEXT lines are how it ended (a queue drained, a worker stopped: the state
    # `tail` is read for): shown whole, like a severe line's context.
    for i in range(max(0, n - CONTEXT), n):
        pinned[i] = 1
    failed_seen: set[str] = set()
    later_severe: list[int] = []
    # A severe line's template with its timestamps and its numbers standing alone masked: a
    # line whose template was seen before folds into the first (its values listed in the note).
    fields: dict[int, tuple[str, list[str]]] = {}
    repeats: set[int] = set()     # severe lines whose shape an earlier severe line has
    shapes: set[str] = set()
    for i, (_, _, flags) in enumerate(masked):
        if flags & 2 and not flags & 5:
            fields[i] = severe_fields(lines[i])
            shape = _shape(stamped[i])
            if shape in shapes:
                repeats.add(i)
            shapes.add(shape)
    for i, (_, _, flags) in enumerate(masked):
        if flags & 1:             # a trace line
            pinned[i] = 1
        elif flags & 4:           # a failed request (its neighbours are other requests), but for
            if lines[i] not in failed_seen:   # a byte-for-byte repeat: same second, same request
                failed_seen.add(lines[i])
                pinned[i] = 1
        if flags & 2:
            if (i and masked[i - 1][2] & 1) or (i + 1 < n and masked[i + 1][2] & 1):
                pinned[i] = 1     # the exception that ends (Python) or heads (JVM) a trace stays with it
            if stamped[i] in first_severe:
                continue          # an exact repeat of a severe line: its first is shown, with its context
            first_severe.add(stamped[i])
            if i in fields:
                if fields[i][0] in first_severe:
                    later_severe.append(i)    # its numbers differ: its context only if it is shown
                    continue
                first_severe.add(fields[i][0])
                _pin_context(pinned, i, repeats, fields)   # not its own repeats: the note gives them exactly
                continue
            _pin_context(pinned, i, repeats, fields)
    # Template mining in the manner of Drain, in one pass: lines grouped by their masked
    # template; a group of MIN_RUN or more shows its first line, where it first occurs,
    # followed by a note for the whole group, and its other lines go (interleaved or not).
    # A severe line folds only with exact repeats of itself (timestamps aside); a pinned
    # line is never dropped (it may lead its group: the first line is shown anyway).
    groups: dict[object, list[int]] = {}
    for i, line in enumerate(lines):
        if line.strip() and not masked[i][2] & 1 and not traced[i] and not line.startswith(_PIPELINE_NOTES):
            flags = masked[i][2]
            key = (("!!", lines[i]) if flags & 4 else ("!", fields[i][0]) if i in fields
                   else ("!", stamped[i]) if flags & 2 else masked[i][0])
            groups.setdefault(key, []).append(i)
    wcache: dict[str, list[str]] = {}   # a line's value words, by its stamped text (most repeat)
    groups = _by_resource(groups, stamped, wcache)
    lead, notes, drop = _plan(lines, groups, fields, pinned, None)
    shown = [i for i in later_severe if not drop[i]]
    if shown:                     # a severe line kept on its own is shown with its context
        for i in shown:
            _pin_context(pinned, i, repeats, fields)
        lead, notes, drop = _plan(lines, groups, fields, pinned, lead)
    if not lead:
        return None
    out: list[str] = []
    for i, line in enumerate(lines):
        if drop[i]:
            continue
        out.append(line)
        members = lead.get(i)
        if i in notes:
            out.append(notes[i])
        elif members:
            note = _fold_note(line, lines[members[-1]], len(members), [_word_values(stamped[k], wcache) for k in members],
                              later=_later(members), budget=sum(len(lines[k]) for k in members[1:]) // 3)
            if masked[i][2] & 2 and not masked[i][2] & 4:  # a severe line's repeats: when each happened
                note = _with_times(note, [lines[k] for k in members])
            out.append(note)
    result = "\n".join(out) + ("\n" if trailing else "")
    return result if len(result) < len(request.text) else None


def _by_resource(groups: dict, stamped: list[str], wcache: dict) -> dict:
    """``groups`` with each plain group split by the resource its lines name, when they name a few:
    a field whose values are paths or URLs (words with a letter and a ``/``: ``/api/items/3``), no more
    than MAX_VALUES of them and each on three lines or more on average. Requests for different
    resources are different events: each resource's lines fold apart, its first line shown whole."""
    out: dict = {}
    for key, members in groups.items():
        if isinstance(key, tuple) or len(members) < 2 * MIN_RUN:
            out[key] = members
            continue
        rows = [_word_values(stamped[k], wcache) for k in members]
        width = len(rows[0])
        split = [] if any(len(r) != width for r in rows) else [
            c for c in range(width)
            if 2 <= len(seen := {r[c] for r in rows}) <= min(MAX_VALUES, len(members) // MIN_RUN)
            and all("/" in v and any(ch.isalpha() for ch in v) for v in seen)]
        if not split:
            out[key] = members
            continue
        for k, r in zip(members, rows):
            out.setdefault((key, "/", tuple(r[c] for c in split)), []).append(k)
    return out


def _pin_context(pinned: bytearray, i: int, repeats: set[int], fields: dict) -> None:
    """Pin line ``i`` and the CONTEXT lines on each side of it, but for the lines with ``i``'s severe
    template (its repeats, whose numbers a severe note lists exactly). A line of ``repeats`` (a severe
    line whose shape an earlier one has: that one was given its context) pins only itself, so a
    flood of one kind of error, each line kept whole, does not pin the whole log as its context."""
    if i in repeats:
        pinned[i] = 1
        return
    for k in range(max(0, i - CONTEXT), min(len(pinned), i + CONTEXT + 1)):
        if k == i or k not in fields or i not in fields or fields[k][0] != fields[i][0]:
            pinned[k] = 1


def _plan(lines, groups, fields, pinned, before):
    """Which lines lead a fold (with the fold's members), their severe notes, which lines go.
    ``before``: a first plan whose severe folds stay (with fewer members now pinned) when two or
    more lines still fold: a fold given up would show a severe line without its context."""
    lead: dict[int, list[int]] = {}
    notes: dict[int, str] = {}
    drop = bytearray(len(lines))
    for members in groups.values():
        folded = [k for j, k in enumerate(members) if j == 0 or not pinned[k]]
        kept_before = before is not None and folded[0] in fields and folded[0] in before
        if len(folded) < (2 if kept_before else MIN_RUN):
            continue
        if folded[0] in fields:
            note = _severe_note(folded, [fields[k][1] for k in folded], _later(folded))
            if note is not None:
                # a severe line folds only when the note says every value: shorter, or not at all
                if not kept_before and len(note) >= sum(len(lines[k]) + 1 for k in folded[1:]):
                    continue
                notes[folded[0]] = note
        lead[folded[0]] = folded
        for k in folded[1:]:
            drop[k] = 1
    return lead, notes, drop


def _severe_note(members: list[int], rows: list[list[str]], later: int) -> str | None:
    """The note for severe lines whose numbers differ: every value of every field that differs,
    in order, for the lines after the first (``a×3`` for three lines in a row with ``a``), a field
    that always equals an earlier one said so; each folded line is the first with its values put
    back. None when only timestamps differ (an exact repeat: the usual note says it)."""
    width = len(rows[0])
    varies = [k for k in range(width) if any(r[k] != rows[0][k] for r in rows)]
    if all(_TIMESTAMP.fullmatch(rows[0][k]) for k in varies):
        return None
    parts: list[str] = []
    columns: dict[tuple, int] = {}    # a column seen before, by its values: one hash per column
    for k in varies:
        same = columns.setdefault(tuple(r[k] for r in rows), k)
        if same != k:
            parts.append(f"value {k + 1}: as value {same + 1}")
            continue
        runs: list[list] = []
        for r in rows[1:]:
            if runs and runs[-1][0] == r[k]:
                runs[-1][1] += 1
            else:
                runs.append([r[k], 1])
        parts.append(f"value {k + 1}: " + " | ".join(v if c == 1 else f"{v}×{c}" for v, c in runs))
    head = f"[×{len(rows)} lines like the one above"
    if later:
        head += f", {later} of them further down, not shown"
    return (f"{head}; the other {len(rows) - 1}, in order, are the line above with its timestamps and lone"
            f" numbers, counted from the left, set to: {'; '.join(parts)}]")


def _later(members: list[int]) -> int:
    """How many of a group's lines come after its first consecutive run."""
    k = 1
    while k < len(members) and members[k] == members[k - 1] + 1:
        k += 1
    return len(members) - k


def _fold_note(first: str, last: str, run: int, rows: list[list[str]] = (), later: int = 0,
               budget: int = 0) -> str:
    a, b = _TIMESTAMP.search(first), _TIMESTAMP.search(last)
    parts = [f"{later} of them further down, not shown"] if later else []
    if a and b:
        parts.append(a.group(0) if a.group(0) == b.group(0) else f"{a.group(0)} … {b.group(0)}")
    varied = _varied(rows, budget)
    if varied:
        parts.append(varied)
    return f"[×{run} lines like the one above{', ' if parts else ''}{', '.join(parts)}]"


def _word_values(stamped: str, cache: dict) -> list[str]:
    """The words of ``stamped`` (a line, its timestamps replaced by ``STAMP``) that hold a digit —
    every masked value is in one — whole (``/api/items/3``, ``poller-2``, ``18837/jobs/<uuid>``),
    left to right, status values aside (they are the template's): what a reader quotes, so a fold
    note that lists them keeps every word of the lines it replaces. ``cache``: answers by ``stamped``."""
    hit = cache.get(stamped)
    if hit is None:
        line = protect(stamped)
        hit = _SHAPE_FIELD.findall(line)
        if line is not stamped:
            hit = [reveal(w) for w in hit]
        cache[stamped] = hit
    return hit


def _IN_WORD(c: str) -> bool:
    return c.isalnum() or c in "_.-/@+~%"


MAX_TIMES = 60      # a severe line's repeats listed by time up to this many


def _with_times(note: str, group: list[str]) -> str:
    """``note`` for the repeats of a severe line with the time of each repeat after the first
    (``at 22.834 | 23:41:30,101 | …``: the end of its timestamp that changed from the one before,
    from a word's start), so an error line keeps every time it happened; ``note`` as it is when a
    line has no timestamp or there are more than MAX_TIMES."""
    if len(group) < 2 or len(group) > MAX_TIMES + 1:
        return note
    prev = _TIMESTAMP.findall(group[0])
    if not prev:
        return note
    times: list[str] = []
    for line in group[1:]:
        stamps = _TIMESTAMP.findall(line)
        if len(stamps) != len(prev):
            return note
        times.append(" ".join(_changed(t, p) or "same" for t, p in zip(stamps, prev)))
        prev = stamps
    if all(t == "same" for t in times):
        return note
    return f"{note[:-1]}; the others at: {' | '.join(times)}]"


def _changed(stamp: str, before: str) -> str:
    """The end of ``stamp`` that differs from ``before``, from a word's start (``22.834`` of
    ``23:40:22.834`` after ``23:40:21.382``); empty when they are equal."""
    if stamp == before:
        return ""
    i = 0
    n = min(len(stamp), len(before))
    while i < n and stamp[i] == before[i]:
        i += 1
    while i > 0 and (stamp[i - 1].isalnum() or stamp[i - 1] in "_.-/@+~%"):  # back to a whole word
        i -= 1
    return stamp[i:]


_NUMBER = lazy(r"(-?\d+(?:\.\d+)?)(\D*)")
MAX_VARIED = 80     # characters of varied values a note may always spend (more: a third of what it replaces)
MAX_VALUES = 4      # distinct words always listed for one field; more when the lines share them (half as many)
MAX_LISTED = 16     # and never more than this many


def _varied(rows: list[list[str]], budget: int = 0) -> str:
    """The values that differ across a group's ``rows`` (each row a line's value words): whole numbers
    exactly as runs (``1–12 14–40``), numbers with one unit as a range (``1ms–3ms``), other words
    listed whole (``poller-1|poller-2``) when the lines share them (a field with a value of its own
    on near every line is an id: counted) and the note stays within ``budget`` characters (at least
    MAX_VARIED); else how many distinct ones there were (each is in the original, ``sqz expand``)."""
    if not rows or any(len(r) != len(rows[0]) for r in rows):
        return ""
    room = max(MAX_VARIED, budget)
    fields = []
    for k in range(len(rows[0])):
        seen: dict[str, None] = {}
        for r in rows:
            seen[r[k]] = None
        if len(seen) < 2:
            continue
        nums = [_NUMBER.fullmatch(v) for v in seen]
        exact = _int_ranges(seen)
        if exact is not None:
            text = exact
        elif all(nums) and len({m.group(2) for m in nums}) == 1:
            vals = sorted(nums, key=lambda m: float(m.group(1)))
            span = f"{vals[0].group(0)}–{vals[-1].group(0)}"
            # whole numbers not listed exactly: how many of the span (``1–12 14–40`` lists them all)
            text = span if "." in span or vals[0].group(2) else f"{len(seen)} of {span}"
        elif len(seen) <= max(MAX_VALUES, len(rows) // 2) and len(seen) <= MAX_LISTED:
            text = _listed(list(seen))  # a few values the lines share (paths, hosts, threads): said whole
        elif (numbered := _numbered(list(seen))) is not None:
            text = numbered             # many, one number apart: exactly, as runs
        else:
            text = f"{len(seen)} distinct"  # a value of its own on near every line (an id, a port)
        if len(text) > room:
            text = f"{len(seen)} distinct"
        room -= len(text) + 2
        fields.append(text)
    return ", ".join(fields)


def _numbered(values: list[str]) -> str | None:
    """Words equal but for a whole number in them (``/api/orders/7``, ``app-3.css``): their common
    head and tail said once, the numbers exactly as runs (``/api/orders/{1–12 14–40}``); else None."""
    head, tail = values[0], values[0]
    for v in values[1:]:
        n = 0
        while n < len(head) and n < len(v) and head[n] == v[n]:
            n += 1
        head = head[:n]
        n = 0
        while n < len(tail) and n < len(v) and tail[-1 - n] == v[-1 - n]:
            n += 1
        tail = tail[len(tail) - n:]
    head = head.rstrip("0123456789")
    tail = tail.lstrip("0123456789")
    if not head and not tail:
        return None
    runs = _int_ranges([v[len(head):len(v) - len(tail)] for v in values])
    return None if runs is None else f"{head}{{{runs}}}{tail}"


def _listed(values: list[str]) -> str:
    """Distinct words listed, their common head said once when it ends at a character no word
    holds (``127.0.0.1:{55480|55488}``: each port still a word of its own; ``/api/items/3|/api/items/7``
    keeps its paths whole)."""
    head = values[0]
    for v in values[1:]:
        n = 0
        while n < len(head) and n < len(v) and head[n] == v[n]:
            n += 1
        head = head[:n]
    while head and _IN_WORD(head[-1]):
        head = head[:-1]
    if not head:
        return "|".join(values)
    return head + "{" + "|".join(v[len(head):] for v in values) + "}"


MAX_RANGES = 6      # an integer field's values listed exactly as at most this many runs


def _int_ranges(values) -> str | None:
    """Plain integers (no leading zero) listed exactly as their runs: ``1–12 14–40`` (every value
    from 1 to 40 but 13); None for other values or more than MAX_RANGES runs (a min–max is said then)."""
    ints = []
    for v in values:
        if not v.isdigit() or (len(v) > 1 and v[0] == "0") or len(v) > 12:
            return None
        ints.append(int(v))
    ints.sort()
    runs: list[list[int]] = []
    for x in ints:
        if runs and x == runs[-1][1] + 1:
            runs[-1][1] = x
        else:
            runs.append([x, x])
            if len(runs) > MAX_RANGES:
                return None
    return " ".join(str(a) if a == b else f"{a}–{b}" if b > a + 1 else f"{a} {b}" for a, b in runs)
