"""vitest run: drop passing files and ticks; keep failed files, failure sections and counts.

In the ``Failed Suites``/``Failed Tests`` sections every ``FAIL`` header, error and
``Caused by:`` line, expected/received diff and ``❯ file:line:col`` location is kept; the
echoed source of a code frame goes (the line the caret points at too when a ``❯ file:line:col``
above locates it), and so do the caret line and the ``⎯⎯[1/4]⎯`` separators (section titles
lose their padding). The clock line ``Start at`` and the phase breakdown of ``Duration`` are
dropped; passing files and ticks go, the ``Test Files``/``Tests`` lines count them. Around an
unhandled error, vitest's fixed explanations go (the error, its stack, its file and the latest
test stay). Coverage tables lose their border lines and cell padding.
"""

from __future__ import annotations

import re

from sqz_core.api import FormatRequest, hookimpl

from ._common import join_output, shorter_or_none
from .js_jest import compact_coverage_tables

commands = ("vitest",)
# a stack in a failed test's report is part of it: its ❯/at locations are kept (see the core's safety routing)
reports_traces = True

# "N word" items split by " | " (required: see js_jest._SUITES)
_FILES = re.compile(r"^ Test Files  \d+ [a-z]+(?: \| \d+ [a-z]+)* \(\d+\)$")
_TESTS = re.compile(r"^      Tests  \d+ [a-z]+(?: \| \d+ [a-z]+)* \(\d+\)$")
_RUN = re.compile(r"^ RUN  v\d+\.\d+\.\d+ \S")
_PASS_FILE = re.compile(r"^ [✓√] \S+ \(\d+ tests?(?: \| \d+ skipped)?\) \d+m?s$")
_PASS_TICK = re.compile(r"^ +[✓√] \S.*?(?: \d+m?s)?$")
_START = re.compile(r"^   Start at  \d\d:\d\d:\d\d$")
_DURATION = re.compile(r"^(   Duration  \d+(?:\.\d+)?m?s) \([a-z]+ \d+(?:\.\d+)?m?s(?:, [a-z]+ \d+(?:\.\d+)?m?s)*\)$")
_LOCATION = re.compile(r"^ ❯ (?:\S+ )?\S+:\d+:\d+$")
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
    in_report = located = False
    for k, line in enumerate(lines):
        if _SECTION.match(line) or _SUBSECTION.match(line):
            in_report = True
            out.append("⎯ " + line.strip("⎯ ") + " ⎯")
            continue
        if _FILES.match(line):
            in_report = False
        if in_report:
            if line.startswith(" FAIL "):
                located = False
            elif _LOCATION.match(line):
                located = True
            if _SEPARATOR.match(line) or _CARET.match(line) or _RULE.match(line):
                continue
            if _FRAME_LINE.match(line) and (located or not (k + 1 < len(lines) and _CARET.match(lines[k + 1]))):
                continue  # echoed source; the pointed line too once a ❯ file:line:col above locates it
            line = _ADVICE_TAIL.sub("", line)
            if line in _ADVICE:
                continue
            out.append(line)
        elif _RUN.match(line) or _START.match(line) or _PASS_FILE.match(line) or _PASS_TICK.match(line):
            continue  # passing files and ticks: the ``Test Files``/``Tests`` lines count them
        else:
            m = _DURATION.match(line)
            out.append(m.group(1) if m else line)
    return compact_coverage_tables(out)


_SUBSECTION = re.compile(r"^⎯+ Unhandled (?:Rejection|Error) ⎯+$")
_RULE = re.compile(r"^⎯+$")
# vitest's fixed explanations around an unhandled error (the error, its file and its test are kept)
_ADVICE = frozenset({
    "This might cause false positive tests. Resolve unhandled errors to make sure your tests are not affected.",
    "- The error was thrown, while Vitest was running this test.",
    ("- If the error occurred after the test had been completed, this was the last documented test before it was "
     "thrown."),
})
_ADVICE_TAIL = re.compile(
    r"(?<=\.) (?:It doesn't mean the error was thrown inside the file itself, but while it was running\."
    r"|It might mean one of the following:)$")


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
