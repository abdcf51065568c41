"""jest: drop PASS suite lines and passing-test ticks; keep FAIL blocks and the summary.

Every ``●`` failure block keeps its title, message, diff, the ``>`` line of its code
frame (the failing statement) and every ``at`` stack line; the code frame's other
echoed source lines and its caret line go. Suites that failed to run and console
output jest prints are kept.
"""

from __future__ import annotations

import re

from sqz_core import FormatRequest, hookimpl

from ._common import join_output, plural, shorter_or_none

commands = ("jest",)
# a stack in a failure block is part of jest's report: every `at` line is kept (see the core's safety routing)
reports_traces = True

_SUITES = re.compile(r"^Test Suites: (?:\d+ \w+(?:, )?)+$")
_TESTS = re.compile(r"^Tests: +(?:\d+ \w+(?:, )?)+$")
_PASS_SUITE = re.compile(r"^PASS \S.*$")
_PASS_TICK = re.compile(r"^\s+[✓√] \S.*$")
_FRAME_CONTEXT = re.compile(r"^ +\d+ \|(?: |$)")      # `      9 |   });`: echoed source around the failing line
_CARET = re.compile(r"^ +\| *\^+\s*$")             # `        |     ^`
_DROP_TAIL = re.compile(r"^(?:Snapshots: +0 total|Time: +[\d.]+ ?m?s.*|Ran all test suites.*)$")


def is_jest_output(lines: list[str]) -> bool:
    """True when the lines end with jest's ``Test Suites:``/``Tests:`` summary."""
    return any(_SUITES.match(x) for x in lines) and any(_TESTS.match(x) for x in lines)


def compact_jest(lines: list[str]) -> list[str] | None:
    """The compacted lines of a jest run, or None when jest's summary is missing."""
    if not is_jest_output(lines):
        return None
    out: list[str] = []
    suites = ticks = 0
    for line in lines:
        if _PASS_SUITE.match(line):
            suites += 1
        elif _PASS_TICK.match(line):
            ticks += 1
        elif _DROP_TAIL.match(line) or _FRAME_CONTEXT.match(line) or _CARET.match(line):
            continue
        else:
            out.append(line)
    for idx, line in enumerate(out):
        if _SUITES.match(line):
            notes = []
            if suites:
                notes.append(f"{plural(suites, 'passing suite')}")
            if ticks:
                notes.append(f"{plural(ticks, 'passing test')}")
            if notes:
                out.insert(idx, f"(+ {' and '.join(notes)} not listed)")
            break
    return out


def jest_is_red(lines: list[str]) -> bool:
    """True when the summary reports a failed suite or test."""
    return any((_SUITES.match(x) or _TESTS.match(x)) and " failed" in x for x in lines)


@hookimpl
def sqz_format(request: FormatRequest) -> str | None:
    """Compact a jest run; None when a non-zero status is not explained by failures."""
    lines = request.lines
    out = compact_jest(lines)
    if out is None:
        return None
    if request.exit_code not in (None, 0) and not jest_is_red(lines):
        return None
    return shorter_or_none(join_output(out), request.text)
