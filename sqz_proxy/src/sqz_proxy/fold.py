"""Model-output folding (optional, off by default): long earlier assistant answers cut to their
opening and headings, the whole answer kept in the store for ``sqz expand``.

The fold point is stable: answers are folded only in turns before a boundary that moves in steps
of ``every`` assistant turns and always leaves the last ``every`` turns or more whole, so the
request's bytes before the newest fold stay as they were for ``every`` turns at a time and a
prompt cache breaks at most once per boundary move (once per fold). A folded answer's text
depends only on that answer (memoised by content), so a later request carries the same bytes.

An answer is folded only when it is at least ``min_tokens`` cl100k tokens, its fold is shorter in
tokens, and the store kept the original (no store, or a secret in it: the answer stays whole).
Code blocks, tool calls, thinking blocks and every other part of the request are never touched.
"""

from __future__ import annotations

import os
import re

DEFAULT_MIN_TOKENS = 300
DEFAULT_EVERY = 8
OPENING_LINES = 6     # the opening: its first paragraph, at most this many lines
OPENING_CHARS = 600
MAX_HEADINGS = 40
_HEADING = re.compile(r"^ {0,3}#{1,6} \S")
_FENCE = re.compile(r"^ {0,3}(```|~~~)")


def _env_int(name: str, default: int) -> int:
    try:
        from sqz_core.api import config_env  # the variable, else the config files (sqz config)

        return max(1, int(config_env(name) or default))
    except ValueError:
        return default


def enabled_from_env() -> bool:
    """``SQZ_PROXY_FOLD=1`` turns folding on (``sqz proxy --fold`` does too); it is off by default."""
    from sqz_core.api import config_env

    return (config_env("SQZ_PROXY_FOLD") or "").strip().lower() in ("1", "true", "yes", "on")


class Settings:
    __slots__ = ("min_tokens", "every")

    def __init__(self, min_tokens: int | None = None, every: int | None = None):
        self.min_tokens = min_tokens if min_tokens is not None else _env_int("SQZ_PROXY_FOLD_MIN_TOKENS",
                                                                             DEFAULT_MIN_TOKENS)
        self.every = every if every is not None else _env_int("SQZ_PROXY_FOLD_EVERY", DEFAULT_EVERY)


def boundary(turns: int, every: int) -> int:
    """Assistant turns with an ordinal below this are folded: a multiple of ``every``, ``every`` or more
    turns behind the newest."""
    return max(0, (turns // every - 1) * every)


def outline(text: str) -> tuple[list[str], int] | None:
    """(the lines kept: the opening and every heading outside code blocks, the number of lines left out)."""
    lines = text.split("\n")
    opening: list[str] = []
    size = 0
    end = 0
    for end, line in enumerate(lines):
        if not line.strip():
            if any(not _HEADING.match(kept) for kept in opening):
                break  # the first paragraph of prose ends the opening (a title alone does not)
            continue
        if _FENCE.match(line) or len(opening) >= OPENING_LINES:
            break  # a code block never starts in the opening: it would be cut open
        if size + len(line) > OPENING_CHARS:
            if all(_HEADING.match(kept) for kept in opening):  # a paragraph written as one long line
                room = OPENING_CHARS - size
                cut = line.rfind(" ", 0, room)
                opening.append(line[:cut if cut > room // 2 else room].rstrip() + " …")
                end += 1
            break
        opening.append(line)
        size += len(line) + 1
    else:
        end = len(lines)
    kept = list(opening)
    headings = 0
    fenced = False
    for line in lines[end:]:
        if _FENCE.match(line):
            fenced = not fenced
            continue
        if not fenced and _HEADING.match(line) and headings < MAX_HEADINGS:
            kept.append(line)
            headings += 1
    left_out = sum(1 for line in lines if line.strip()) - len(kept)
    if not opening or left_out <= 0:
        return None
    return kept, left_out


def render(kept: list[str], left_out: int, sid: str) -> str:
    from sqz_core.api import expand_hint

    return ("\n".join(kept) + f"\n[sqz: an earlier answer, folded to its opening and headings; {left_out} more "
            f"line(s) (`{expand_hint(sid)}` prints it whole)]")
