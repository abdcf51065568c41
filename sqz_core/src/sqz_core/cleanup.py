"""Generic clean-up stages that lose no fact: terminal noise, blank runs, exact repeats."""

from __future__ import annotations

import re
from .lazyre import lazy

# CSI (colours, cursor moves), OSC (titles, hyperlinks), and two-byte escapes.
_ANSI = lazy(
    r"\x1b\[[0-?]*[ -/]*[@-~]"        # CSI … final byte
    r"|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?"  # OSC … BEL or ST
    r"|\x1b[PX^_][^\x1b]*(?:\x1b\\)?"  # DCS/SOS/PM/APC … ST
    r"|\x1b[ -/]{0,4}[0-~]"            # every other escape, whole: Fe (ESC M), Fp (ESC 7/8 cursor save and
    # restore, ESC =), Fs (ESC c), nF with its intermediates (ESC ( B); bounded, so linear
    r"|\x9b[0-?]*[ -/]*[@-~]"          # 8-bit CSI
)
# C0 controls other than tab, newline, carriage return, backspace; DEL; C1 controls.
_CONTROL = lazy(r"[\x00-\x07\x0b\x0c\x0e-\x1a\x1c-\x1f\x7f-\x9f]")
_CONTROL_IN_DIFF = lazy(r"[\x00-\x07\x0b\x0e-\x1f\x7f-\x9f]")  # in a patch: form feed kept, a stray ESC not


def strip_escapes(text: str) -> str:
    """Remove ANSI escape sequences only (file content: every other byte is content)."""
    if "\x1b" in text or "\x9b" in text:
        return _ANSI.sub("", text)
    return text


def strip_ansi(text: str) -> str:
    """Remove ANSI escape sequences and stray control characters."""
    if "\x1b" in text or "\x9b" in text:
        text = _ANSI.sub("", text)
        text = text.replace("\x1b", "")
    return _CONTROL.sub("", text)


def _overlay(line: str) -> str:
    """What a terminal shows for one line with ``\\r`` redraws and backspaces."""
    if "\b" in line:
        buf: list[str] = []
        for ch in line:
            if ch == "\b":
                if buf:
                    buf.pop()
            else:
                buf.append(ch)
        line = "".join(buf)
    if "\r" not in line:
        return line
    line = line.rstrip("\r")
    parts = line.split("\r")
    shown = list(parts[0])
    for seg in parts[1:]:
        shown[: len(seg)] = seg
    return "".join(shown)


def resolve_redraws(text: str) -> str:
    """Resolve carriage-return redraws (progress bars) and backspaces to the final screen line."""
    if "\r" not in text and "\b" not in text:
        return text
    return "\n".join(_overlay(line) for line in text.split("\n"))


def strip_trailing_whitespace(text: str) -> str:
    """Spaces and tabs at the end of each line removed (per line: a regex ``[ \\t]+$`` is quadratic in a run)."""
    return "\n".join(line.rstrip(" \t") for line in text.split("\n"))


_CURSOR_UP = lazy(r"\x1b\[\d*A")
_SCREEN_OPS = lazy(r"(\x1b\[\d*[ABCDGKJ]|\r|\n)")
_SCREEN_OP = lazy(r"\x1b\[\d*[ABCDGKJ]\Z")
_OTHER_ESC = lazy(r"\x1b\[[0-?]*[ -/]*[@-~]")


# Bounds on what the input may ask for: a cursor move goes at most this far past the written
# text (a terminal stops at its margin), and replaying may cost at most this much work per
# input character; past that the text is returned as it came (escapes are stripped later).
_MAX_COLS = 4096
_MAX_ROWS = 256
_WORK_PER_CHAR = 64


def resolve_cursor_moves(text: str) -> str:
    """Replay cursor-up redraws (rich consoles: Gradle, Docker, npm) to the lines a terminal finally shows.

    Only run when the text moves the cursor up; handles up/down/forward/back, column,
    erase line and erase below, which is what progress displays use; colour codes are
    dropped. Moves are capped (``_MAX_COLS``/``_MAX_ROWS`` past what exists) and the
    replay gives up on a work budget linear in the input, so no escape can make it slow.
    """
    if not _CURSOR_UP.search(text):
        return text
    screen = [""]
    row = col = 0
    budget = _WORK_PER_CHAR * len(text) + 65536
    for tok in _SCREEN_OPS.split(text):
        budget -= len(tok) + 1
        if budget < 0:
            return text
        if not tok:
            continue
        if tok == "\n":
            row += 1
            col = 0
            if row == len(screen):
                screen.append("")
        elif tok == "\r":
            col = 0
        elif _SCREEN_OP.match(tok):
            arg, op = tok[2:-1], tok[-1]
            n = (int(arg) if len(arg) < 8 else 10 ** 7) if arg else None  # int() refuses > 4300 digits
            if op == "A":
                row = max(0, row - (n or 1))
            elif op == "B":
                row = min(row + (n or 1), len(screen) - 1 + _MAX_ROWS)
                screen.extend("" for _ in range(row + 1 - len(screen)))
            elif op == "C":
                col = min(col + (n or 1), max(col, len(screen[row]) + _MAX_COLS))
            elif op == "D":
                col = max(0, col - (n or 1))
            elif op == "G":
                col = max(0, min((n or 1) - 1, len(screen[row]) + _MAX_COLS))
            elif op == "K":
                line = screen[row]
                budget -= len(line) + col
                screen[row] = "" if n == 2 else (" " * min(col, len(line)) + line[col:] if n == 1 else line[:col])
            elif op == "J" and not n:
                screen[row] = screen[row][:col]
                del screen[row + 1:]
        else:
            tok = _OTHER_ESC.sub("", tok)  # colours go anyway; overlaying needs plain text
            line = screen[row]
            budget -= len(line) + col
            screen[row] = line[:col].ljust(col) + tok + line[col + len(tok):]
            col += len(tok)
    return "\n".join(screen)


def clean_terminal(text: str) -> str:
    """ANSI/control removal, carriage-return redraws and trailing whitespace: what a reader saw.

    In a diff only escapes and control characters other than form feed and carriage return go:
    trailing whitespace, ``\\r`` and ``\\f`` are content there (a context line of an empty source
    line is a single space, ``+x `` differs from ``+x``, a line turned CRLF differs only by its ``\\r``).
    """
    text = resolve_cursor_moves(text)
    plain = strip_escapes(text)
    if looks_like_diff(plain):
        # a patch's carriage returns, form feeds and trailing blanks are the files' content: a line
        # turned CRLF must not read as an identical -/+ pair
        return _CONTROL_IN_DIFF.sub("", plain)
    return strip_trailing_whitespace(resolve_redraws(strip_ansi(text)))


_DIFF_MARK = lazy(r"^(?:diff --git |@@ -\d+(?:,\d+)? \+\d+(?:,\d+)? @@|--- \S|\+\+\+ \S)", re.M)


def looks_like_diff(text: str) -> bool:
    """True when ``text`` holds a unified diff hunk (its whitespace is content)."""
    return "@@ -" in text and _DIFF_MARK.search(text) is not None


def fold_blank_runs(text: str) -> str:
    """Collapse runs of blank lines to one; drop leading and trailing blank lines."""
    lines = text.split("\n")
    out: list[str] = []
    blank = False
    for line in lines:
        if line.strip() == "":
            if out and not blank:
                out.append("")
            blank = True
        else:
            out.append(line)
            blank = False
    while out and out[-1] == "":
        out.pop()
    result = "\n".join(out)
    return result + "\n" if text.endswith("\n") and result else result


def fold_repeated_lines(lines: list[str], min_run: int = 3) -> list[str]:
    """Fold runs of ``min_run`` or more identical non-blank lines into one line with a count."""
    out: list[str] = []
    i, n = 0, len(lines)
    while i < n:
        j = i + 1
        while j < n and lines[j] == lines[i]:
            j += 1
        run = j - i
        if run >= min_run and lines[i].strip():
            out.append(f"{lines[i]} [×{run}]")
        else:
            out.extend(lines[i:j])
        i = j
    return out


def fold_repeated_blocks(lines: list[str], max_block: int = 12, min_repeats: int = 2) -> list[str]:
    """Fold a block of 2..``max_block`` lines repeated back to back into one copy and a count."""
    out: list[str] = []
    i, n = 0, len(lines)
    # nearest[i]: distance to the next copy of lines[i]; a block starting at i repeats only if that is <= max_block
    nearest = [0] * n
    seen: dict[str, int] = {}
    for j in range(n - 1, -1, -1):
        nearest[j] = seen.get(lines[j], n) - j
        seen[lines[j]] = j
    del seen
    while i < n:
        best_k, best_reps = 0, 1
        if nearest[i] > max_block:
            out.append(lines[i])
            i += 1
            continue
        k = nearest[i]
        while k <= max_block:  # only the widths at which line i comes again (the chain of its next copies)
            if i + k >= n or (k >= 2 and i + 2 * k > n):
                break
            if k >= 2:
                block = lines[i:i + k]
                if any(s.strip() for s in block):
                    reps = 1
                    while lines[i + reps * k:i + (reps + 1) * k] == block:
                        reps += 1
                    if reps >= min_repeats and reps * k > best_reps * best_k and reps * k >= 4:
                        best_k, best_reps = k, reps
            k += nearest[i + k]
        if best_k:
            out.extend(lines[i:i + best_k])
            out.append(f"[the {best_k} lines above repeat ×{best_reps} in all]")
            i += best_k * best_reps
        else:
            out.append(lines[i])
            i += 1
    return out


def fold_repeats(text: str) -> str:
    """Blank runs, repeated lines and blocks folded, keeping the trailing newline.

    A unified diff is left alone: its whitespace and repeated lines are content.
    """
    if looks_like_diff(text):
        return text
    text = fold_blank_runs(text)
    ends = text.endswith("\n")
    lines = text.split("\n")
    if ends:
        lines.pop()
    lines = fold_repeated_blocks(fold_repeated_lines(lines))
    return "\n".join(lines) + ("\n" if ends else "")
