"""eslint (stylish formatter): column padding squeezed, repeats merged; every problem, rule and count kept.

Stylish output is already one line per problem, grouped by file; the win is the alignment padding
and the problems a file repeats (``no-var`` on every ``var``): those print once with every location.
Other formatters (json, compact, unix…) give None.
"""

from __future__ import annotations

import re

from sqz_core.api import FormatRequest, hookimpl

from ._common import join_output, shorter_or_none

commands = ("eslint",)

_FILE = re.compile(r"^(?:/|[A-Za-z]:\\)\S.*$")  # stylish prints absolute paths
_PROBLEM = re.compile(r"^ {2,}(?P<loc>\d+:\d+)\s+(?P<sev>error|warning)\s+(?P<rest>\S.*)$")
_TOTAL = re.compile(r"^✖ \d+ problems? \(\d+ errors?, \d+ warnings?\)$")
_FIXABLE = re.compile(r"^  \d+ errors? and \d+ warnings? potentially fixable with the `--fix` option\.$")
_PAD = re.compile(r"\s{2,}")


def compact_stylish(lines: list[str]) -> list[str] | None:
    """Stylish output with alignment padding squeezed and repeats merged; None on unknown lines or a missing total.

    Within one file's block, problems with the same severity, message and rule print once, every
    location they were reported at joined by ``, `` in order, at the place of the first.
    """
    out: list[str] = []
    total = False
    block: dict[str, list[str]] = {}   # severity + message + rule -> locations, for the current file
    slots: list[tuple[int, str, list[str]]] = []

    def flush() -> None:
        for at, key, locs in slots:
            out[at] = f"  {', '.join(locs)} {key}"
        slots.clear()
        block.clear()

    for line in lines:
        if not line.strip():
            flush()
            out.append("")
            continue
        m = _PROBLEM.match(line)
        if m:
            key = f"{m.group('sev')}  {_PAD.sub('  ', m.group('rest'))}"
            locs = block.get(key)
            if locs is None:
                block[key] = locs = [m.group("loc")]
                slots.append((len(out), key, locs))
                out.append("")
            else:
                locs.append(m.group("loc"))
            continue
        flush()
        if _TOTAL.match(line):
            total = True
            out.append(line)
        elif _FIXABLE.match(line) or _FILE.match(line):
            out.append(line)
        else:
            return None
    flush()
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
