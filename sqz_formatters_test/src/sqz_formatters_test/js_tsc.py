"""tsc: errors as ``file(line,col): error TSnnnn: message`` lines; pretty code frames dropped.

Plain output is already one line per error and is left alone (None). ``--pretty``
output keeps each error header, related-information lines and the ``Found N errors``
line, and drops the source excerpts and squiggles under them.
"""

from __future__ import annotations

import re

from sqz_core import FormatRequest, hookimpl

from ._common import join_output, shorter_or_none

commands = ("tsc",)

_PLAIN = re.compile(r"^\S.*\(\d+,\d+\): (?:error|warning|message) TS\d+: .*$")
_PRETTY = re.compile(r"^\S.*:\d+:\d+ - (?:error|warning|message) TS\d+: .*$")
_GLOBAL = re.compile(r"^(?:error|warning|message) TS\d+: .*$")
_RELATED = re.compile(r"^  \S.*:\d+:\d+ - \S.*$")
_FRAME = re.compile(r"^ *\d+ .*$|^ *[ ~]*$")
_FOUND = re.compile(r"^Found \d+ errors?(?: in \d+ files?| in the same file, starting at: \S+)?\.?$")
_FILES_TABLE = re.compile(r"^(?:Errors  Files|\s+\d+  \S+:\d+)$")


def is_tsc_output(lines: list[str]) -> bool:
    """True when every non-blank line is a plain tsc diagnostic (or its indented continuation)."""
    body = [x for x in lines if x.strip()]
    return bool(body) and _PLAIN.match(body[0]) is not None and all(
        _PLAIN.match(x) or _GLOBAL.match(x) or x.startswith("  ") or _FOUND.match(x) for x in body)


def compact_pretty(lines: list[str]) -> list[str] | None:
    """Headers, related information and totals of ``--pretty`` output; None on unknown lines."""
    out: list[str] = []
    for line in lines:
        if not line.strip():
            continue
        if _PRETTY.match(line) or _GLOBAL.match(line) or _FOUND.match(line) or _FILES_TABLE.match(line):
            out.append(line)
        elif _FRAME.match(line):
            continue  # source excerpt or squiggle under the header
        elif _RELATED.match(line):
            out.append(line)
        else:
            return None
    return out if any(_PRETTY.match(x) or _GLOBAL.match(x) for x in out) else None


@hookimpl
def sqz_format(request: FormatRequest) -> str | None:
    """Compact ``tsc --pretty`` diagnostics; plain diagnostics and other output give None."""
    if any(a in ("--watch", "-w", "--listFiles", "--showConfig", "--version", "-v", "--help") for a in request.argv):
        return None
    lines = request.lines
    if not any(_PRETTY.match(x) for x in lines):
        return None
    out = compact_pretty(lines)
    if out is None:
        return None
    return shorter_or_none(join_output(out), request.text)
