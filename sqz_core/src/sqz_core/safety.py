"""Safety routing: content that must reach the model unchanged and is never cached.

Checks match whole lines (or real secret formats), so a log line that only mentions
a password or a panic does not qualify: stack traces with frames (Python, JVM,
JavaScript, Go, Rust), PEM blocks, credential lines with secret-looking keys, SQL DDL
at the start of a line, and tokens in well-known secret formats.
"""

from __future__ import annotations

import bisect
import re

from .verdicts import Safety
from .lazyre import lazy
from .scan import lower, find_all, first, folded, line_starts, matches, remembered
from .secrets import _SECRET_TOKENS, _TOKEN_HINTS  # noqa: F401 (the token formats are named here too)

# --- stack traces: a header and at least one frame ---------------------------------
_PY_HEAD = lazy(r"^[^\S\n]*Traceback \(most recent call last\):[^\S\n]*$", re.M)
_PY_FRAME = lazy(r'^\s+File "[^"]*", line \d+')
_JVM_FRAME = lazy(r"^\s+at [\w$.<>/]+\([^()]*\)\s*$")
_JS_FRAME = lazy(r"^\s+at (?:async )?(?:\S+ \()?(?:file://|node:|/|[A-Za-z]:\\|<anonymous>|\w)[^()]*:\d+(?::\d+)?\)?\s*$")
_GO_HEAD = lazy(r"^goroutine \d+ \[[^\]\n]+\]:[^\S\n]*$", re.M)
_GO_FILE = lazy(r"^\t\S+\.go:\d+")
_RUST_HEAD = lazy(r"^stack backtrace:[^\S\n]*$", re.M)
_RUST_FRAME = lazy(r"^\s+\d+: \S")

# --- secrets ---------------------------------------------------------------------
_PEM = lazy(r"^-----BEGIN ([A-Z0-9 ]+)-----[^\S\n]*$", re.M)
_PEM_END = "-----END "
_CRED_LINE = lazy(
    r"""^[^\S\n]*(?:export[^\S\n]+|set[^\S\n]+)?["']?[\w.-]*?"""
    r"""(?:^|[_.-]|\b|(?-i:(?<=[a-z0-9])(?=[A-Z])))(?:password|passwd|passphrase|secret|secret[_-]?key|token|api[_-]?key|apikey|"""
    r"""access[_-]?key(?:[_-]?id)?|private[_-]?key|client[_-]?secret|auth[_-]?token|credentials?)["']?"""
    r"""[^\S\n]*[:=][^\S\n]*["']?[^\s"'#]{6,}""",
    re.M | re.I,
)
# JWT, matched apart: in the alternation every "eyJ" of a run like "-eyJ-eyJ…" rescanned the run (quadratic)
_JWT_START = lazy(r"eyJ(?<![A-Za-z0-9]eyJ)")  # the literal first: ``re`` skips to it (same matches as a lookbehind first)
_JWT = lazy(r"eyJ[A-Za-z0-9_-]{8,}+\.eyJ[A-Za-z0-9_-]{8,}+\.[A-Za-z0-9_-]{8}")
_B64_RUN = lazy(r"[A-Za-z0-9_-]*")


def _first_jwt(text: str) -> int:
    """Offset of the first JWT in ``text``, or -1.

    A start later in the same base64url run as a failed one can only fail too (its
    first part is shorter, the rest is the same), so each run is scanned once.
    """
    if "eyJ" not in text:
        return -1
    scanned = 0
    for m in _JWT_START.finditer(text):
        start = m.start()
        if start < scanned:
            continue
        if _JWT.match(text, start):
            return start
        scanned = _B64_RUN.match(text, start).end()  # type: ignore[union-attr]  # the pattern matches the empty string
    return -1

_DDL_VERBS = ("create", "alter", "drop")
_DDL_OBJECTS = ("table", "index", "view", "schema", "database", "sequence", "trigger", "function", "procedure",
                "type", "extension")
_CRED_HINTS = ("pass", "secret", "token", "key", "credential")

# --- SQL DDL at the start of a line ----------------------------------------------
_DDL = lazy(
    r"^[^\S\n]*(?:CREATE|ALTER|DROP)\s+(?:OR\s+REPLACE\s+)?(?:TEMP(?:ORARY)?\s+|UNIQUE\s+)?"
    r"(?:TABLE|INDEX|VIEW|SCHEMA|DATABASE|SEQUENCE|TRIGGER|FUNCTION|PROCEDURE|TYPE|EXTENSION|MATERIALIZED\s+VIEW)\b"
    r"(?:\s+IF\s+(?:NOT\s+)?EXISTS)?\s+[\w.\"`\[]",
    re.M | re.I,
)


# the third item of a span that is a stack trace: kept as it stands, not widened to its paragraph
TRACE = "trace"


def _line_of(text: str, pos: int) -> int:
    return text.count("\n", 0, pos)


def _line_counter(text: str):
    """``_line_of`` for increasing offsets (a ``finditer`` walk): each newline is counted once, not per match."""
    state = [0, 0]  # offset, line at that offset

    def line_at(pos: int) -> int:
        if pos < state[0]:
            state[0] = state[1] = 0
        state[1] += text.count("\n", state[0], pos)
        state[0] = pos
        return state[1]
    return line_at


def _frames_after(lines: list[str], start: int, frame: re.Pattern, allow=()) -> int:
    """Index of the last line of a frame block beginning after ``start`` (or ``start`` if none)."""
    last = start
    i = start + 1
    while i < len(lines):
        line = lines[i]
        if frame.match(line) or (last > start and any(a.match(line) for a in allow)):
            last = i
            i += 1
            continue
        break
    return last


_PY_CODE = lazy(r"^\s{4,}\S|^\s+(?:[~^]+\s*)?$")  # a frame's source line, its ^^^ markers (blank on Django's page)
# Django's debug page chains a trace's parts without a header of their own: the frames follow this line
_PY_CHAIN = lazy(r"^(?:The above exception \(.{0,4096}\) was the direct cause|During handling of the above exception \()")
_JVM_MORE = lazy(r"^\s+\.\.\. \d+ more\s*$|^Caused by: |^\s+Suppressed: |^\s+Caused by: ")
_GO_NAME = lazy(r"[\w./*()\[\]-]*")


def _go_func(line: str) -> bool:
    """A Go frame's function line: ``pkg.(*T).f(args)``, ``created by …`` or ``a.b(``.

    Written out instead of ``^[\\w./*()\\[\\]-]+\\(.*\\)\\s*$|^\\S+\\.\\S+\\(``, whose backtracking is
    quadratic in a long line of parentheses or dots.
    """
    if line.startswith("created by "):
        return True
    name = _GO_NAME.match(line).group()  # type: ignore[union-attr]  # the pattern matches the empty string
    q = name.find("(", 1)
    if q > 0 and line.rstrip().endswith(")") and len(line.rstrip()) - 1 > q:
        return True
    token = line.split(None, 1)[0] if line and not line[0].isspace() else ""
    dot = token.find(".", 1)
    return dot > 0 and token.find("(", dot + 2) > 0

_RUST_LOC = lazy(r"^\s+at \S+:\d+(:\d+)?\s*$")
_MESSAGE_LINES = 20  # how far a trace's message may run past its exception line, or above its backtrace


def _stack_spans(text: str, lines: list[str]) -> list[tuple[int, int, str]]:
    spans: list[tuple[int, int, str]] = []
    line_of = _line_counter(text)
    for m in matches(_PY_HEAD, text, _head_starts(text, "Traceback (most recent call last):")):
        i = line_of(m.start())
        if i + 1 < len(lines) and _PY_FRAME.match(lines[i + 1]):
            end = _frames_after(lines, i, _PY_FRAME, allow=(_PY_CODE,))
            while (end + 3 < len(lines) and not lines[end + 1].strip() and _PY_CHAIN.match(lines[end + 2])
                   and _PY_FRAME.match(lines[end + 3])):
                end = _frames_after(lines, end + 2, _PY_FRAME, allow=(_PY_CODE,))
            if end + 1 < len(lines) and lines[end + 1].strip():
                end += 1  # the exception line
                limit = min(len(lines) - 1, end + _MESSAGE_LINES)
                while end < limit and lines[end + 1][:1] in (" ", "\t") and lines[end + 1].strip():
                    end += 1  # its message's indented continuation lines
            spans.append((i, end, "python-traceback"))
    at_line = _line_counter(text)
    frame_lines = sorted({at_line(p) for p in _at_line_starts(text)})
    if frame_lines:
        i = 0
        for k in frame_lines:  # only these lines can match a frame (both patterns start ``^\s+at ``)
            if k < i:
                continue
            i = k
            line = lines[i]
            if _JVM_FRAME.match(line) or _JS_FRAME.match(line):
                start = i - 1 if i > 0 and lines[i - 1].strip() else i
                kind = "jvm-stacktrace" if _JVM_FRAME.match(line) else "js-stacktrace"
                j = i
                while j + 1 < len(lines) and (_JVM_FRAME.match(lines[j + 1]) or _JS_FRAME.match(lines[j + 1])
                                             or _JVM_MORE.match(lines[j + 1])):
                    j += 1
                spans.append((start, j, kind))
                i = j + 1
            else:
                i += 1
    line_of = _line_counter(text)
    for m in matches(_GO_HEAD, text, [p for p in find_all(text, "goroutine ") if not p or text[p - 1] == "\n"]):
        i = line_of(m.start())
        if any(_GO_FILE.match(x) for x in lines[i + 1:i + 4]):
            j = i
            while j + 1 < len(lines) and (_GO_FILE.match(lines[j + 1]) or _go_func(lines[j + 1])):
                j += 1
            start = i
            k = i - 1
            while k >= 0 and lines[k].strip() and k >= i - 3:  # "panic: …" header lines above
                start = k
                k -= 1
            spans.append((start, j, "go-goroutine"))
    line_of = _line_counter(text)
    for m in matches(_RUST_HEAD, text, _head_starts(text, "stack backtrace:")):
        i = line_of(m.start())
        if i + 1 < len(lines) and _RUST_FRAME.match(lines[i + 1]):
            end = _frames_after(lines, i, _RUST_FRAME, allow=(_RUST_LOC,))
            start = i
            for k in range(i - 1, max(-1, i - 1 - _MESSAGE_LINES), -1):  # the panic line and its message
                if not lines[k].strip():
                    break
                if lines[k].startswith("thread '") and " panicked at " in lines[k]:
                    start = k
                    break
            spans.append((start, end, "rust-backtrace"))
    return spans


def _names_a_secret(matched: str) -> bool:
    """True for a key whose value is no credential: Helm's ``existingSecret: name`` (and ``existing_secret``)
    names the Kubernetes Secret that holds it; the cloud APIs' paging and deduplication tokens
    (``"ClientToken":``, ``"nextPageToken":``, see ``secrets._PUBLIC_TOKEN_KEY``) grant nothing."""
    from .secrets import _PUBLIC_TOKEN_KEY

    key = matched.split(":", 1)[0].split("=", 1)[0].strip().strip("\"'").lower().replace("_", "").replace("-", "")
    return key.endswith("existingsecret") or _PUBLIC_TOKEN_KEY.fullmatch(f'"{key}"') is not None


def _token_starts(text: str) -> list[int]:
    """Where ``_SECRET_TOKENS`` can start: at each of its literal prefixes (``sk_``/``rk_`` before ``_live_``)."""
    return remembered(text, "tokens", lambda: _token_starts_of(text))


def _token_starts_of(text: str) -> list[int]:
    starts: set[int] = set()
    for hint in _TOKEN_HINTS:
        if hint == "eyJ":
            continue  # JWTs: ``_first_jwt``
        back = 2 if hint == "_live_" else 3 if hint == "_v1_" else 0
        starts.update(p - back for p in find_all(text, hint) if p >= back)
    return sorted(starts)


_WRAP_PIECE = lazy(r"[A-Za-z0-9_.+/=-]{1,120}")  # a token's characters up to a line break (bounded)
_WRAP_LINES = 4  # a token wrapped over at most this many lines (a 93-character fine-grained PAT at 30 columns)
_ALNUM = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")


def _wrapped_token(text: str, starts: list[int]) -> int:
    """Offset of the first token of ``_SECRET_TOKENS`` that a line wrap split (a terminal, ``fold`` or a
    pager broke ``ghp_…`` across lines), or -1.

    At each literal start whose token run ends at a line break, the runs that begin the next lines
    are joined to it (at most ``_WRAP_LINES`` pieces of 120 characters: bounded work per start) and the
    pattern is tried on the join; it counts only when the match reaches past the break.
    """
    for start in starts:
        if start and text[start - 1] in _ALNUM:
            continue
        pieces: list[str] = []
        at = start
        while len(pieces) < _WRAP_LINES:
            m = _WRAP_PIECE.match(text, at)
            if m is None:
                break
            pieces.append(m.group())
            end = m.end()
            if text.startswith("\r\n", end):
                end += 1
            if not text.startswith("\n", end):
                break
            at = end + 1
        if len(pieces) < 2:
            continue
        m = _SECRET_TOKENS.match("".join(pieces))
        if m is not None and m.end() > len(pieces[0]):
            return start
    return -1


def _at_line_starts(text: str) -> list[int]:
    """Starts of the lines that begin with whitespace then ``at `` (where a JVM or JS frame can be)."""
    starts = []
    for pos in find_all(text, "at "):
        start = text.rfind("\n", 0, pos) + 1
        if start < pos and text[start:pos].isspace():
            starts.append(start)
    return starts


def _head_starts(text: str, head: str) -> list[int]:
    """Starts of the lines holding ``head`` (a trace header: its pattern checks the rest of the line)."""
    return line_starts(text, (head,))


def classify(text: str, secrets_only: bool = False) -> Safety | None:
    """Classify ``text``: a ``Safety`` verdict for sensitive content, else None.

    ``secrets_only``: stop after the secret checks (None when there is no secret), for a
    second look at the same output before its clean-up.
    """
    if not text:
        return None
    lines: list[str] | None = None
    secret_spans: list[tuple[int, int]] = []
    reasons: list[str] = []

    if "-----BEGIN " in text:
        lines = text.split("\n")
        ends = [k for k, line in enumerate(lines) if line.startswith(_PEM_END)]
        line_of = _line_counter(text)
        for pem in matches(_PEM, text, [p for p in find_all(text, "-----BEGIN ") if not p or text[p - 1] == "\n"]):
            i = line_of(pem.start())
            k = bisect.bisect_left(ends, i)  # the first END line at or after i, else the last line
            secret_spans.append((i, ends[k] if k < len(ends) else len(lines) - 1))
            reasons.append("pem-block")
    # cheap substring checks first: most outputs never need the big patterns compiled
    # a token glued to a terminal escape (``ESC[1mghp_…``) is read with the escape blanked (same offsets)
    if "\x1b" in text:
        from .secrets import _blank_escapes

        seen = _blank_escapes(text)
    else:
        seen = text
    starts = _token_starts(seen)  # the literal prefixes' offsets: none found, no token pattern runs
    if starts or "eyJ" in seen:
        m = first(_SECRET_TOKENS, seen, starts)
        jwt = _first_jwt(seen)
        wrapped = _wrapped_token(seen, starts) if m is None and jwt < 0 and "\n" in seen else -1
        found = [pos for pos in (m.start() if m else -1, jwt, wrapped) if pos >= 0]
        if found:
            i = _line_of(text, min(found))
            secret_spans.append((i, i))
            reasons.append("secret-token")
    lowered = lower(text)
    low = folded(text, lowered)
    m = None
    if any(hint in lowered for hint in _CRED_HINTS):
        from .secrets import benign_value, is_masked

        creds = _CRED_LINE.finditer(text) if low is None else matches(_CRED_LINE, text, line_starts(low, _CRED_HINTS))
        m = next((c for c in creds
                  if not is_masked(c.group(0)) and not _names_a_secret(c.group(0))
                  and not benign_value(text, c.start())), None)
    if m:
        i = _line_of(text, m.start())
        secret_spans.append((i, i))
        reasons.append("credential-line")
    if not secret_spans:  # configuration and header shapes (.env, URLs with a password, .netrc, …)
        from .secrets import find_secret

        hit = find_secret(text, lowered)
        if hit:
            secret_spans.append((_line_of(text, hit[0]),) * 2)
            reasons.append(hit[1])
    if secret_spans:
        return Safety("safe", ",".join(dict.fromkeys(reasons)), tuple(secret_spans), secret=True)
    if secrets_only:
        return None
    spans = protected_spans(text, lines, lowered, low, reasons)
    if spans:
        return Safety("safe", ",".join(dict.fromkeys(reasons)), tuple(sorted(set(spans))))
    return None


def raw_secrets(text: str, cleaned: str) -> Safety | None:
    """``classify(text, secrets_only=True)`` for a ``text`` whose clean-up ``cleaned`` holds no secret.

    When the clean-up only took blanks off line ends, a secret only the raw text holds sits on a line
    that changed: every detector reads one line, and a token wrapped over lines ends on that line (its
    blanks end the wrap). Those lines, each with the lines a wrap may start on above it, are classified
    alone (blocks apart, a blank line between) and the verdict's lines mapped back. Else the whole text."""
    lines, shown = text.split("\n"), cleaned.split("\n")
    changed = [i for i, (a, b) in enumerate(zip(lines, shown)) if a != b]
    if len(lines) != len(shown) or any(lines[i].rstrip(" \t") != shown[i] for i in changed):
        return classify(text, secrets_only=True)
    rows: list[int] = []  # the raw line of each line classified; -1: the blank line between two blocks
    for i in changed:
        start = max(0, i - _WRAP_LINES + 1, rows[-1] + 1 if rows else 0)
        rows += ([-1] if rows and start > rows[-1] + 1 else []) + list(range(start, i + 1))
    verdict = classify("\n".join(lines[r] if r >= 0 else "" for r in rows), secrets_only=True)
    spans = () if verdict is None else tuple((rows[a], rows[b]) for a, b, *_ in verdict.spans)
    if any(x < 0 for span in spans for x in span):  # (none can: a blank line holds no secret)
        return classify(text, secrets_only=True)
    return None if verdict is None else Safety(verdict.level, verdict.reason, spans, secret=True)


def may_hold_traces(text: str) -> bool:
    """False when ``text`` surely holds no stack trace ``_stack_spans`` would find (none of their anchors)."""
    return ("Traceback" in text or "goroutine " in text or "stack backtrace:" in text
            or "\tat " in text or "    at " in text)


def protected_spans(text: str, lines: list[str] | None = None, lowered: str | None = None, low: str | None = None,
                    reasons: list[str] | None = None) -> list[tuple]:
    """The spans ``classify`` protects that hold no secret: stack traces (``(a, b, TRACE)``) and DDL lines;
    their reasons are appended to ``reasons``."""
    if reasons is None:
        reasons = []
    if lowered is None:
        lowered = lower(text)
        low = folded(text, lowered)
    spans: list[tuple] = []
    if may_hold_traces(text):
        if lines is None:
            lines = text.split("\n")
        for a, b, why in _stack_spans(text, lines):
            spans.append((a, b, TRACE))  # protected as it stands: the rest of a log stays compressible
            reasons.append(why)
    maybe_ddl = any(v in lowered for v in _DDL_VERBS) and any(o in lowered for o in _DDL_OBJECTS)
    line_of = _line_counter(text)
    ddl = () if not maybe_ddl else _DDL.finditer(text) if low is None else matches(
        _DDL, text, line_starts(low, _DDL_VERBS))
    for m in ddl:
        i = line_of(m.start())
        spans.append((i, i))
        reasons.append("sql-ddl")
    return spans


# A line that ends a paragraph: blank, or only a log-level tag (Maven prints "[INFO] " for a blank line).
# (Compared after strip(): a regex ``^\s*(…)?\s*$`` backtracks quadratically over a long run of spaces.)
_BLANK_TAGS = frozenset(("", "[INFO]", "[ERROR]", "[WARNING]", "[WARN]", "[DEBUG]"))


def paragraphs_holding(lines: list[str], spans) -> list[tuple[int, int]]:
    """The paragraphs (delimited by blank or tag-only lines) that contain each span, as inclusive line ranges.

    A trace span ``(first, last, TRACE)`` is its own block: a stack trace ends with its last frame
    (or its exception line), and a log rarely has the blank line a paragraph needs.
    The blank lines are listed once and each bound is a binary search, so many spans in one
    long paragraph stay linear.
    """
    spans = list(spans)
    if not spans or not lines:
        return []
    n = len(lines)
    blanks = [i for i, line in enumerate(lines) if line.strip() in _BLANK_TAGS]
    out = []
    for span in spans:
        a, b = span[0], span[1]
        a = max(0, min(a, n - 1))
        b = max(a, min(b, n - 1))
        if len(span) > 2 and span[2] == TRACE:
            out.append((a, b))
            continue
        k = bisect.bisect_left(blanks, a)  # the walk up from a stops below the last blank line above it
        up = blanks[k - 1] + 1 if k else 0
        k = bisect.bisect_right(blanks, b)  # the walk down from b stops above the first blank line below it
        down = blanks[k] - 1 if k < len(blanks) else n - 1
        out.append((up, down))
    return sorted(set(out))


def keeps_paragraphs(original: str, candidate: str, spans) -> bool:
    """True when ``candidate`` holds, verbatim and in one piece, every paragraph around ``spans``.

    Each paragraph is looked for after the previous one first (where a summary keeps them),
    then anywhere: one pass over ``candidate`` when they are in order.
    """
    lines = original.split("\n")
    at = 0
    for a, b in paragraphs_holding(lines, spans):
        block = "\n".join(lines[a:b + 1])
        found = candidate.find(block, at)
        if found < 0:
            found = candidate.find(block)
            if found < 0:
                return False
        at = found
    return True


def fold_repeated_traces(text: str, spans) -> str:
    """Later copies of a stack trace identical to an earlier one, each replaced by one counted line.

    The first copy stays verbatim (it is what ``keeps_paragraphs`` checks); a log that raises the
    same exception on every retry reads as one trace and where it recurred.
    """
    traces = sorted({(s[0], s[1]) for s in spans if len(s) > 2 and s[2] == TRACE})
    if len(traces) < 2:
        return text
    lines = text.split("\n")
    seen: dict[tuple[str, ...], int] = {}
    total: dict[tuple[str, ...], int] = {}
    blocks = []
    last = -1
    for a, b in traces:
        if a <= last or b >= len(lines):
            continue  # overlapping spans: leave them alone
        key = tuple(lines[a:b + 1])
        total[key] = total.get(key, 0) + 1
        blocks.append((a, b, key))
        last = b
    if all(n == 1 for n in total.values()):
        return text
    out: list[str] = []
    pos = 0
    for a, b, key in blocks:
        if total[key] == 1:
            continue
        seen[key] = seen.get(key, 0) + 1
        if seen[key] == 1:
            continue
        out.extend(lines[pos:a])
        out.append(f"[sqz: the same {b - a + 1}-line stack trace as above, copy {seen[key]} of {total[key]}]")
        pos = b + 1
    out.extend(lines[pos:])
    return "\n".join(out)
