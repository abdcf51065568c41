"""jest: drop PASS suite lines and passing-test ticks; keep FAIL blocks and the summary.

Every ``●`` failure block keeps its title, message, diff and every ``at`` stack line;
the code frame (echoed source, its caret line and the ``>`` failing statement, which
the ``at`` line below locates) goes. A ``>`` line with no ``at …:line:col`` line after
it is kept. Suites that failed to run and console output jest prints are kept; PASS
suites and passing ticks go (the ``Test Suites:``/``Tests:`` lines count them).
"""

from __future__ import annotations

import re

from sqz_core import FormatRequest, hookimpl

from ._common import join_output, shorter_or_none

commands = ("jest",)
# a stack in a failure block is part of jest's report: every `at` line is kept (see the core's safety routing)
reports_traces = True

_SUITES = re.compile(r"^Test Suites: (?:\d+ \w+(?:, )?)+$")
_TESTS = re.compile(r"^Tests: +(?:\d+ \w+(?:, )?)+$")
_PASS_SUITE = re.compile(r"^PASS \S.*$")
_PASS_TICK = re.compile(r"^\s+[✓√] \S.*$")
_FRAME_CONTEXT = re.compile(r"^ +\d+ \|(?: |$)")      # `      9 |   });`: echoed source around the failing line
_CARET = re.compile(r"^ +\| *\^+\s*$")             # `        |     ^`
_FRAME_FAILING = re.compile(r"^ +> +\d+ \|(?: |$)")  # `    >  8 |     expect(add(2, 2)).toBe(5);`
_AT_LOCATION = re.compile(r"^ +at .*:\d+:\d+\)?$")
_FRAME_REACH = 16  # a code frame is at most 7 source lines and a caret, then a blank and the stack
_DROP_TAIL = re.compile(r"^(?:Snapshots: +0 total|Time: +[\d.]+ ?m?s.*|Ran all test suites.*)$")


def is_jest_output(lines: list[str]) -> bool:
    """True when the lines end with jest's ``Test Suites:``/``Tests:`` summary."""
    return any(_SUITES.match(x) for x in lines) and any(_TESTS.match(x) for x in lines)


def compact_jest(lines: list[str]) -> list[str] | None:
    """The compacted lines of a jest run, or None when jest's summary is missing."""
    if not is_jest_output(lines):
        return None
    out: list[str] = []
    located = -1  # index of the next `at … (file:line:col)` line at or after the current one
    for k, line in enumerate(lines):
        if _PASS_SUITE.match(line) or _PASS_TICK.match(line):
            continue  # the `Test Suites:`/`Tests:` lines count them
        if _DROP_TAIL.match(line) or _FRAME_CONTEXT.match(line) or _CARET.match(line):
            continue
        if _FRAME_FAILING.match(line):
            if located < k:
                located = _next_location(lines, k)
            if located > k:
                continue  # the failing statement: the `at` line below names its file:line:col
        out.append(line)
    return out


def _next_location(lines: list[str], k: int) -> int:
    """Index of the first ``at …:line:col`` stack line after ``k`` within the code frame's reach, else -1."""
    for j in range(k + 1, min(len(lines), k + _FRAME_REACH)):
        if _AT_LOCATION.match(lines[j]):
            return j
        if lines[j].lstrip().startswith("●"):
            break
    return -1


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
