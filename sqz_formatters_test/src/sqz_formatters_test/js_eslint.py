"""eslint (stylish formatter): column padding squeezed; every problem, rule and count kept.

Stylish output is already one line per problem; the win is the alignment padding.
Other formatters (json, compact, unix…) give None.
"""

from __future__ import annotations

import re

from sqz_core import FormatRequest, hookimpl

from ._common import join_output, shorter_or_none

commands = ("eslint",)

_FILE = re.compile(r"^(?:/|[A-Za-z]:\\)\S.*$")  # stylish prints absolute paths
_PROBLEM = re.compile(r"^ {2,}(?P<loc>\d+:\d+)\s+(?P<sev>error|warning)\s+(?P<rest>\S.*)$")
_TOTAL = re.compile(r"^✖ \d+ problems? \(\d+ errors?, \d+ warnings?\)$")
_FIXABLE = re.compile(r"^  \d+ errors? and \d+ warnings? potentially fixable with the `--fix` option\.$")
_PAD = re.compile(r"\s{2,}")


def compact_stylish(lines: list[str]) -> list[str] | None:
    """Stylish output with alignment padding squeezed; None on unknown lines or a missing total."""
    out: list[str] = []
    total = False
    for line in lines:
        if not line.strip():
            out.append("")
            continue
        m = _PROBLEM.match(line)
        if m:
            out.append(f"  {m.group('loc')} {m.group('sev')}  {_PAD.sub('  ', m.group('rest'))}")
        elif _TOTAL.match(line):
            total = True
            out.append(line)
        elif _FIXABLE.match(line) or _FILE.match(line):
            out.append(line)
        else:
            return None
    return out if total else None


@hookimpl
def sqz_format(request: FormatRequest) -> str | None:
    """Compact stylish eslint output; empty (green) output and other formats give None."""
    if any(a in ("-f", "--format") or a.startswith("--format=") for a in request.argv):
        fmt = [a.split("=", 1)[1] if "=" in a else "" for a in request.argv if a.startswith("--format=")]
        i = next((k for k, a in enumerate(request.argv) if a in ("-f", "--format")), None)
        if i is not None and i + 1 < len(request.argv):
            fmt.append(request.argv[i + 1])
        if fmt != ["stylish"]:
            return None
    out = compact_stylish(request.lines)
    if out is None:
        return None
    return shorter_or_none(join_output(out), request.text)
