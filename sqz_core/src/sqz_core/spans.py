"""Safety per span (issue 25.3): a secret, a ``user:pass@`` URL or a stack trace protects its own lines.

An output holding one used to go out whole. Now each sensitive span is kept verbatim on the
page and the rest of the output is compressed as usual:

* ``secret_spans`` finds every line a secret sits on (``None`` when a secret's extent is not known
  exactly: a token a line wrap split, key material printed as text or base64, a ``.netrc``; those
  outputs still go out whole);
* ``masked`` is what a store may keep of such an output: each secret line replaced by
  ``WITHHELD``. ``sqz expand`` prints that; it loses nothing, because the page that showed the
  output holds those very lines verbatim (they are never cut, folded or moved out of it);
* ``around`` renders the rest: each protected block becomes one placeholder line, the formatter or
  the generic folding runs on that text, and each placeholder is put back as the block's lines
  (or, when a formatter dropped or altered one, the blocks are appended verbatim below the rendering
  of the text without them);
* ``fold_library_frames``: in a long stack trace, runs of 8+ library frames (site-packages,
  node_modules, the standard library) become one counted line; user frames and every exception
  line stay verbatim, and the original is stored, so ``sqz expand`` prints the frames.

Only outputs already classified sensitive come here: the common path still scans once.
"""

from __future__ import annotations

import bisect

from .lazyre import lazy
from .scan import find_all, matches

WITHHELD = "[sqz: line withheld here (it holds a secret; it was shown verbatim, never stored)]"
SECRET = "secret"  # the third item of a span that holds a secret (kept as it stands, like safety.TRACE)
# reasons whose extent on the page is not known exactly: the whole output stays as it was
_WHOLE = frozenset(("private-key-text", "private-key-base64", "netrc"))
_KEEP = "§sqz-keep-"  # placeholder lines: ``§sqz-keep-<letters>§`` (letters, so no number templating folds them)
_LETTERS = "ghijklmnopqrstuvwxyz"
_LEAD = " \t+-<>|!"  # what a placeholder keeps of its block's first line


def secret_spans(text: str) -> list[tuple[int, int]] | None:
    """Every ``(first, last)`` line range holding a secret ``safety.classify`` would flag, sorted
    and merged; ``None`` when one of them has no exact extent (the output must stay whole)."""
    from . import safety
    from .scan import folded, line_starts, lower
    from .secrets import benign_value, is_masked, secret_hits

    nl = find_all(text, "\n")
    last_line = len(nl)

    def line_of(pos: int) -> int:  # by binary search over the newline offsets (offsets in any order)
        return bisect.bisect_left(nl, pos)
    spans: list[tuple[int, int]] = []
    ends = []
    if "-----BEGIN " in text or "PRIVATE KEY" in text:
        ends = find_all(text, safety._PEM_END)
    if "-----BEGIN " in text:
        for m in matches(safety._PEM, text, [p for p in find_all(text, "-----BEGIN ") if not p or text[p - 1] == "\n"]):
            k = bisect.bisect_left(ends, m.end())
            spans.append((line_of(m.start()), line_of(ends[k]) if k < len(ends) else last_line))
    if any(hint in text for hint in safety._TOKEN_HINTS):
        starts = safety._token_starts(text)
        if "\n" in text and safety._wrapped_token(text, starts) >= 0:
            return None
        for m in matches(safety._SECRET_TOKENS, text, starts):
            spans.append((line_of(m.start()), line_of(m.end() - 1)))
        if "eyJ" in text:
            scanned = 0
            for m in safety._JWT_START.finditer(text):
                if m.start() < scanned:
                    continue
                jwt = safety._JWT.match(text, m.start())
                if jwt is not None:
                    spans.append((line_of(jwt.start()), line_of(jwt.end() - 1)))
                    scanned = jwt.end()
                else:
                    scanned = safety._B64_RUN.match(text, m.start()).end()  # type: ignore[union-attr]  # the pattern matches the empty string
    lowered = lower(text)
    low = folded(text, lowered)
    if any(hint in lowered for hint in safety._CRED_HINTS):
        creds = (safety._CRED_LINE.finditer(text) if low is None
                 else matches(safety._CRED_LINE, text, line_starts(low, safety._CRED_HINTS)))
        for c in creds:
            if not is_masked(c.group(0)) and not safety._names_a_secret(c.group(0)) and not benign_value(text, c.start()):
                spans.append((line_of(c.start()), line_of(c.end() - 1)))
    for pos, reason in secret_hits(text, lowered):
        if reason in _WHOLE:
            return None
        a = line_of(pos)
        if reason == "private-key":  # key material down to its END line (escaped ``\n`` in JSON: the same line)
            k = bisect.bisect_left(ends, pos)
            spans.append((a, line_of(ends[k]) if k < len(ends) else last_line))
        else:
            spans.append((a, a))
    return merge(spans)


def merge(spans) -> list[tuple[int, int]]:
    """Sorted line ranges with overlapping and touching ones joined."""
    out: list[list[int]] = []
    for a, b in sorted((s[0], s[1]) for s in spans):
        if out and a <= out[-1][1] + 1:
            out[-1][1] = max(out[-1][1], b)
        else:
            out.append([a, b])
    return [(a, b) for a, b in out]


def masked(text: str, spans) -> str:
    """``text`` with every line of ``spans`` replaced by ``WITHHELD`` (what a store may keep)."""
    lines = text.split("\n")
    for a, b in spans:
        for i in range(a, min(b, len(lines) - 1) + 1):
            lines[i] = WITHHELD + ("\r" if lines[i].endswith("\r") else "")
    return "\n".join(lines)


def _code(k: int) -> str:
    digits = ""
    k += len(_LETTERS)  # at least two letters
    while k:
        k, r = divmod(k, len(_LETTERS))
        digits = _LETTERS[r] + digits
    return digits


def placeholder(k: int, line: str = "") -> str:
    """The ``k``-th placeholder line, standing for a block whose first line is ``line``: it keeps that
    line's indentation and diff or quote marker (``+``, ``-``, ``>``, ``|``), so a formatter that reads
    the structure of each line (a patch's hunks, an indented report) still reads it."""
    return f"{line[:len(line) - len(line.lstrip(_LEAD))]}{_KEEP}{_code(k)}§"


def with_placeholders(lines: list[str], blocks) -> tuple[str, list[str]]:
    """The text with each block (``(first, last)``, sorted, disjoint) replaced by its placeholder line,
    and those lines."""
    out: list[str] = []
    marks: list[str] = []
    pos = 0
    for k, (a, b) in enumerate(blocks):
        out.extend(lines[pos:a])
        marks.append(placeholder(k, lines[a]))
        out.append(marks[-1])
        pos = b + 1
    out.extend(lines[pos:])
    return "\n".join(out), marks


def put_back(rendered: str, marks: list[str], blocks_text: list[str]) -> str | None:
    """``rendered`` with each placeholder line (``marks``) replaced by its block's text, or None unless
    every placeholder is there exactly once, as a whole line, and nowhere else."""
    if rendered.count(_KEEP) != len(blocks_text):
        return None
    lines = rendered.split("\n")
    at: dict[str, int] = {}
    for i, line in enumerate(lines):
        if _KEEP in line:
            if line in at:
                return None
            at[line] = i
    for mark, block in zip(marks, blocks_text):
        where = at.get(mark)
        if where is None:
            return None
        lines[where] = block
    return "\n".join(lines)


APPENDED = "[sqz: kept verbatim from the output above:]"


def appended(rendered: str, blocks_text: list[str]) -> str:
    """The rendering of the text without the blocks, then the blocks verbatim, in their order."""
    if rendered and not rendered.endswith("\n"):
        rendered += "\n"
    return rendered + APPENDED + "\n" + "\n".join(blocks_text)


# --- library frames in stack traces ----------------------------------------------------
_PY_FILE = lazy(r'^(\s+)File "([^"\n]{1,4096})", line (\d+)(?:, in ([^\n]{1,512}))?')
_JS_AT = lazy(r"^\s+at (?:async )?[^\n]{0,4096}$")
_STDLIB = lazy(r"/lib/python\d(?:\.\d+)?/(?!site-packages/|dist-packages/)([\w.-]{1,200})")
_SHORT = (lazy(r"[/\\](?:site|dist)-packages[/\\]([^\n]{1,4096})$"), lazy(r"node_modules[/\\]([^\n]{1,4096})$"),
          lazy(r"/lib/python\d(?:\.\d+)?/([^\n]{1,4096})$"))
_SITE = lazy(r"[/\\](?:site|dist)-packages[/\\]([\w.-]{1,200})")
_NODE_MODULES = lazy(r"node_modules[/\\]((?:@[\w.-]{1,200}[/\\])?[\w.-]{1,200})")
MIN_FOLD = 8  # a shorter run of library frames stays as it is (shorter runs held facts on the blind set)


def _library(path: str) -> str | None:
    """The library a frame's file belongs to (``urllib3``, ``socket``, ``express``), None for user code."""
    m = _SITE.search(path)
    if m:
        return m.group(1).split(".", 1)[0] if m.group(1).endswith(".py") else m.group(1)
    m = _NODE_MODULES.search(path)
    if m:
        return m.group(1).replace("\\", "/")
    if path.startswith("node:"):
        return "node"
    if path.startswith("<frozen "):
        return path[8:].rstrip(">")
    m = _STDLIB.search(path)
    if m:
        name = m.group(1)
        return name[:-3] if name.endswith(".py") else name
    return None


def _short(path: str) -> str:
    """A library file's path from its package on (``urllib3/connectionpool.py``), else as it is."""
    for pattern in _SHORT:
        m = pattern.search(path)
        if m:
            return m.group(1)
    return path


def fold_library_frames(lines: list[str]) -> tuple[list[str], int]:
    """The lines of one stack trace with each run of ``MIN_FOLD``+ library frames as one counted line,
    and how many frames were folded. Exception lines, messages, user frames and the first and last frame
    of each trace are never touched."""
    frames: list[tuple[int, int, str | None, str]] = []  # (first line, last line, library, short label)
    i = 0
    n = len(lines)
    while i < n:
        line = lines[i]
        m = _PY_FILE.match(line)
        if m is not None:
            indent = len(m.group(1))
            j = i
            while (j + 1 < n and lines[j + 1] and len(lines[j + 1]) - len(lines[j + 1].lstrip()) > indent
                   and _PY_FILE.match(lines[j + 1]) is None):
                j += 1  # its source line and the ^^^ markers under it (blanked to spaces on Django's page)
            frames.append((i, j, _library(m.group(2)), f"{_short(m.group(2))}:{m.group(3)} {m.group(4) or ''}".rstrip()))
            i = j + 1
            continue
        if _JS_AT.match(line):
            body = line.strip()[3:].removeprefix("async ")
            where, func = body, ""
            if body.rstrip().endswith(")") and " (" in body:
                func, where = body[:-1].split(" (", 1)
            frames.append((i, i, _library(where.strip()), f"{_short(where.strip())} {func}".rstrip()))
        i += 1
    out: list[str] = []
    pos = 0
    folded = 0
    k = 0
    while k < len(frames):
        if frames[k][2] is None:
            k += 1
            continue
        e = k  # the last library frame of this run
        while e + 1 < len(frames) and frames[e + 1][2] is not None and frames[e + 1][0] == frames[e][1] + 1:
            e += 1
        r = e
        if e + 1 >= len(frames) or frames[e + 1][0] != frames[e][1] + 1:
            r -= 1  # the frame that raised (the last of its trace) stays on the page
        s = k + 1 if k == 0 or frames[k - 1][1] + 1 != frames[k][0] else k  # and the first of its trace
        count = r - s + 1
        if count >= MIN_FOLD:
            first_line, last_line = frames[s][0], frames[r][1]
            names = list(dict.fromkeys(f[2] or "" for f in frames[s:r + 1]))  # every one a library (run above)
            lead = lines[first_line][:len(lines[first_line]) - len(lines[first_line].lstrip())]
            shown = ", ".join(names[:4]) + (f", +{len(names) - 4}" if len(names) > 4 else "")
            out.extend(lines[pos:first_line])
            labels = "; ".join(f[3] for f in frames[s:r + 1])
            out.append(f"{lead}[sqz: {count} library frames ({shown}), source lines folded: {labels}]")
            pos = last_line + 1
            folded += count
        k = e + 1
    out.extend(lines[pos:])
    return out, folded
