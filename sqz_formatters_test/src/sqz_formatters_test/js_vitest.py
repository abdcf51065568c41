"""vitest run: drop passing files and ticks; keep failed files, failure sections and counts.

In the ``Failed Suites``/``Failed Tests`` sections every ``FAIL`` header, error and
``Caused by:`` line, expected/received diff and ``❯ file:line:col`` location is kept; the
echoed source of a code frame goes but for the line the caret points at, and so do the
caret line and the ``⎯⎯[1/4]⎯`` separators (section titles lose their padding). The clock
line ``Start at`` is dropped.
"""

from __future__ import annotations

import re

from sqz_core import FormatRequest, hookimpl

from ._common import join_output, plural, shorter_or_none

commands = ("vitest",)
# a stack in a failed test's report is part of it: its ❯/at locations are kept (see the core's safety routing)
reports_traces = True

_FILES = re.compile(r"^ Test Files  (?:\d+ \w+(?: \| )?)+ \(\d+\)$")
_TESTS = re.compile(r"^      Tests  (?:\d+ \w+(?: \| )?)+ \(\d+\)$")
_RUN = re.compile(r"^ RUN  v\d+\.\d+\.\d+ \S")
_PASS_FILE = re.compile(r"^ [✓√] \S+ \(\d+ tests?(?: \| \d+ skipped)?\) \d+m?s$")
_PASS_TICK = re.compile(r"^ +[✓√] \S.*?(?: \d+m?s)?$")
_START = re.compile(r"^   Start at  \d\d:\d\d:\d\d$")
_SECTION = re.compile(r"^⎯+ Failed (?:Suites|Tests) \d+ ⎯+$|^⎯+ Unhandled Errors ⎯+$")
_SEPARATOR = re.compile(r"^⎯+\[\d+/\d+\]⎯+$")
_FRAME_LINE = re.compile(r"^ {3,}\d+\|(?: |$)")        # `     12|     expect(…)`: echoed source
_CARET = re.compile(r"^ {3,}\| *\^+\s*$")         # `       |     ^`: points at the line above


def is_vitest_output(lines: list[str]) -> bool:
    """True when the lines carry vitest's ``Test Files``/``Tests`` summary."""
    return any(_FILES.match(x) for x in lines) and any(_TESTS.match(x) for x in lines)


def compact_vitest(lines: list[str]) -> list[str] | None:
    """The compacted lines of a vitest run, or None when vitest's summary is missing."""
    if not is_vitest_output(lines):
        return None
    out: list[str] = []
    files = ticks = 0
    in_report = False
    for k, line in enumerate(lines):
        if _SECTION.match(line):
            in_report = True
            out.append("⎯ " + line.strip("⎯ ") + " ⎯")
            continue
        if _FILES.match(line):
            in_report = False
        if in_report:
            if _SEPARATOR.match(line) or _CARET.match(line):
                continue
            if _FRAME_LINE.match(line) and not (k + 1 < len(lines) and _CARET.match(lines[k + 1])):
                continue
            out.append(line)
        elif _RUN.match(line) or _START.match(line):
            continue
        elif _PASS_FILE.match(line):
            files += 1
        elif _PASS_TICK.match(line):
            ticks += 1
        else:
            out.append(line)
    notes = []
    if files:
        notes.append(plural(files, "passing test file"))
    if ticks:
        notes.append(plural(ticks, "passing test"))
    if notes:
        out.insert(0, f"(+ {' and '.join(notes)} not listed)")
    return out


def vitest_is_red(lines: list[str]) -> bool:
    """True when the summary reports a failed file or test, or vitest reports errors."""
    return any((_FILES.match(x) or _TESTS.match(x)) and " failed" in x for x in lines) or any(
        x.startswith("      Errors  ") for x in lines)


@hookimpl
def sqz_format(request: FormatRequest) -> str | None:
    """Compact ``vitest run`` output; watch mode and other subcommands give None."""
    sub = request.subcommand()
    if sub not in ("run", None) and "--run" not in request.argv:
        return None
    lines = request.lines
    out = compact_vitest(lines)
    if out is None:
        return None
    if request.exit_code not in (None, 0) and not vitest_is_red(lines):
        return None
    return shorter_or_none(join_output(out), request.text)
