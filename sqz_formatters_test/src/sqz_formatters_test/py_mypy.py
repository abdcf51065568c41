"""mypy: messages grouped by file; ``--pretty`` source frames and repeated documentation notes dropped.

Each file's path is printed once, then its error and note lines as ``line: error: message
[code]`` (``--pretty``'s wrapped messages rejoined on one line). Codes, messages and the final
``Found N errors``/``Success`` line stay verbatim. Within a file, an error repeated with the same
message, code and notes prints once with every line it was reported at (``6, 19, 30: error:
Function is missing a type annotation  [no-untyped-def]``); ``--show-error-context`` lines
(``note: In function "f":``) stay where they were and nothing merges across them.
"""

from __future__ import annotations

import re

from sqz_core.api import FormatRequest, hookimpl

from ._common import join_output, plural, shorter_or_none
from ._diag import group_lines, split_path

commands = ("mypy", "dmypy")

_MSG = re.compile(r"^[^\s:][^:]*:\d+(?::\d+)?(?::\d+:\d+)?: (?P<sev>error|note|warning): (?P<text>.*)$")
_FILE_NOTE = re.compile(r"^[^\s:][^:]*: (?:error|note): ")  # file-level messages without a line
_FINAL = re.compile(r"^(?:Found \d+ errors? in \d+ files? \(checked \d+ source files?\)|"
                    r"Success: no issues found in \d+ source files?)$")
_CARET = re.compile(r"^\s*\^~*$")
_DOC_NOTE = re.compile(r": note: See https?://\S+$")


def compact_mypy(lines: list[str]) -> list[str] | None:
    """The compacted lines of a mypy report, or None for anything that is not one."""
    body = [x for x in lines if x.strip()]
    if not body or not _FINAL.match(body[-1]):
        return None
    out: list[str] = []
    doc_notes: dict[str, int] = {}
    i, n = 0, len(body)
    in_message = False
    while i < n:
        line = body[i]
        if _MSG.match(line) or _FILE_NOTE.match(line) or _FINAL.match(line):
            note = _DOC_NOTE.search(line)
            if note:
                key = note.group(0)
                doc_notes[key] = doc_notes.get(key, 0) + 1
                if doc_notes[key] > 1:
                    i += 1
                    in_message = False
                    continue
            out.append(line)
            in_message = True
        elif line.startswith("    ") and i + 1 < n and _CARET.match(body[i + 1]):
            i += 2  # --pretty source line and its caret marker
            in_message = False
            continue
        elif in_message and not line.startswith(" "):
            out[-1] += " " + line  # --pretty wraps long messages onto unindented lines: rejoined
        else:
            return None
        i += 1
    repeats = sum(c - 1 for c in doc_notes.values())
    if repeats:
        out.insert(len(out) - 1, f"(+ {plural(repeats, 'repeated documentation note')} dropped)")
    return out


_PATH = re.compile(r"^(?P<path>[^\s:][^:]*):(?:\d|\s)")
_LOC = re.compile(r"(?<!\d)\d+(?::\d+){0,3}(?=: )")  # line[:col[:end line:end col]] of a message


def _head(line: str):
    if not (_MSG.match(line) or _FILE_NOTE.match(line)):
        return None
    return split_path(line, _PATH.match(line).end("path"))


def _is_note(rest: str) -> bool:
    """A note that belongs to the error above it; a documentation link (``note: See https://…``, printed
    once per error code) is about the code, not that error, and does not keep it from merging."""
    return rest.startswith(": note: ") and not rest.startswith(": note: See http")


def _kept(line: str) -> bool:
    return bool(_FINAL.match(line) or line.startswith("(+ "))


@hookimpl
def sqz_format(request: FormatRequest) -> str | None:
    """Compact a mypy report; None for other output (crashes, usage errors, daemon status)."""
    out = compact_mypy(request.lines)
    if out is None:
        return None
    out = group_lines(out, _head, _kept, _LOC, _is_note) or out
    return shorter_or_none(join_output(out), request.text)
