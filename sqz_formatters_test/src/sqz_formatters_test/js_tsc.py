"""tsc: diagnostics grouped by file, every location, code and message kept; pretty code frames dropped.

Plain output (``file(line,col): error TSnnnn: message``) prints the path once per file,
then each diagnostic as ``(line,col): error TSnnnn: message`` with its elaboration
lines under it. ``--pretty`` output drops the source excerpts and squiggles, groups the
``file:line:col - error TSnnnn: message`` headers the same way, each with its message chain
(the indented lines between the header and the blank line before the excerpt), and keeps related
information, the ``Found N errors`` line and the per-file table. A report with one
diagnostic per file has nothing to group: plain output then gives None.
"""

from __future__ import annotations

import re

from sqz_core.api import FormatRequest, hookimpl

from ._common import join_output, shorter_or_none
from ._diag import group_lines, split_path

commands = ("tsc",)

_PLAIN = re.compile(r"^\S.*\(\d+,\d+\): (?:error|warning|message) TS\d+: .*$")
_PRETTY = re.compile(r"^\S.*:\d+:\d+ - (?:error|warning|message) TS\d+: .*$")
_GLOBAL = re.compile(r"^(?:error|warning|message) TS\d+: .*$")
_RELATED = re.compile(r"^  \S.*:\d+:\d+ - \S.*$")
_FRAME = re.compile(r"^ *\d+ .*$|^ *[ ~]*$")
_FOUND = re.compile(r"^Found \d+ errors?(?: in \d+ files?| in the same file, starting at: \S+)?\.?$")
_FILES_TABLE = re.compile(r"^(?:Errors  Files|\s+\d+  \S+:\d+)$")
_PLAIN_PATH = re.compile(r"^(?P<path>\S.*?)\(\d+,\d+\): (?:error|warning|message) TS\d+: ")
_PRETTY_PATH = re.compile(r"^(?P<path>\S.*?):\d+:\d+ - (?:error|warning|message) TS\d+: ")
_PLAIN_LOC = re.compile(r"\(\d+,\d+\)(?=: )")
_PRETTY_LOC = re.compile(r"(?<!\d)\d+:\d+(?= - )")  # (?<!\d): linear in a digit run


def _plain_head(line: str):
    m = _PLAIN_PATH.match(line)
    return split_path(line, m.end("path"), sep="") if m else None


def _pretty_head(line: str):
    m = _PRETTY_PATH.match(line)
    return split_path(line, m.end("path")) if m else None


def _kept(line: str) -> bool:
    return bool(_GLOBAL.match(line) or _FOUND.match(line) or _FILES_TABLE.match(line))


def group_plain(lines: list[str]) -> list[str] | None:
    """Plain diagnostics grouped by file; None for anything else or nothing to group."""
    return group_lines(lines, _plain_head, _kept, _PLAIN_LOC)


def is_tsc_output(lines: list[str]) -> bool:
    """True when every non-blank line is a plain tsc diagnostic (or its indented continuation)."""
    body = [x for x in lines if x.strip()]
    return bool(body) and _PLAIN.match(body[0]) is not None and all(
        _PLAIN.match(x) or _GLOBAL.match(x) or x.startswith("  ") or _FOUND.match(x) for x in body)


def compact_pretty(lines: list[str]) -> list[str] | None:
    """Headers, related information and totals of ``--pretty`` output; None on unknown lines."""
    out: list[str] = []
    in_message = False  # after a header, before the blank line that precedes its source excerpt
    for line in lines:
        if not line.strip():
            in_message = False
            continue
        if _PRETTY.match(line) or _GLOBAL.match(line):
            out.append(line)
            in_message = True
        elif in_message and line.startswith("  "):
            out.append(line)  # the message chain (``  Type 'X' is not assignable to …``), indented as printed
        elif _FOUND.match(line) or _FILES_TABLE.match(line):
            out.append(line)
        elif _FRAME.match(line):
            continue  # source excerpt or squiggle under the header
        elif _RELATED.match(line):
            out.append(line)
        else:
            return None
    if not any(_PRETTY.match(x) or _GLOBAL.match(x) for x in out):
        return None
    return group_lines(out, _pretty_head, _kept, _PRETTY_LOC) or out


@hookimpl
def sqz_format(request: FormatRequest) -> str | None:
    """Group tsc diagnostics by file (``--pretty`` frames dropped); other output gives None."""
    if any(a in ("--watch", "-w", "--listFiles", "--showConfig", "--version", "-v", "--help") for a in request.argv):
        return None
    lines = request.lines
    if any(_PRETTY.match(x) for x in lines):
        out = compact_pretty(lines)
    elif is_tsc_output(lines):
        out = group_plain(lines)
    else:
        return None
    if out is None:
        return None
    return shorter_or_none(join_output(out), request.text)
