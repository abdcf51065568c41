"""jest: drop PASS suite lines and passing-test ticks; keep FAIL blocks and the summary.

Every ``●`` failure block keeps its title, message, diff and every ``at`` stack line;
the code frame (echoed source, its caret line and the ``>`` failing statement, which
the ``at`` line below locates) goes; a run of three or more frames inside ``node_modules``
keeps its first and counts the rest, and a frame printed again on the next line is counted (``[×2]``). A ``>`` line with no ``at …:line:col`` line after
it is kept. Suites that failed to run and console output jest prints are kept; PASS
suites and passing ticks go (the ``Test Suites:``/``Tests:`` lines count them), but for the
PASS line of a suite whose console output jest printed; so do --verbose's describe lines whose
tests all passed. A ``Cause:`` repeating the failure's message word for word says so in one line
(its stack stays), and jest's fixed explanation under a snapshot not written in CI goes. Coverage
tables (``--coverage``) lose their border lines and cell padding; every row stays.
"""

from __future__ import annotations

import re

from sqz_core.api import FormatRequest, hookimpl

from ._common import join_output, shorter_or_none

commands = ("jest",)
# a stack in a failure block is part of jest's report: every `at` line is kept (see the core's safety routing)
reports_traces = True

# counts are "N word" items split by ", " (the separator required, the word letters only: with an optional
# separator and \w a line like "1 a1 a1 a1 …" could be split 2^n ways)
_SUITES = re.compile(r"^Test Suites: \d+ (?:of \d+ )?[a-z]+(?:, \d+ (?:of \d+ )?[a-z]+)*$")  # `--bail`: "1 failed, 1 of 4 total"
_TESTS = re.compile(r"^Tests: +\d+ [a-z]+(?:, \d+ [a-z]+)*$")
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
    message: list[str] = []   # the first paragraph under the current `●` title (stripped)
    skip_to = -1              # a `Cause:` repeating that message: its lines up to here go
    in_tree = False           # in --verbose's tree of describe blocks and ticks under a PASS/FAIL line
    all_passing = _all_passing_blocks(lines)
    console = ""              # since the last suite line: "header" (a `● Console` block), "bare" (console output alone)
    for k, line in enumerate(lines):
        if k < skip_to:
            continue
        stripped = line.strip()
        if _SUITE_LINE.match(line):
            in_tree, was, console = True, console, ""
            if was == "bare" and _PASS_SUITE.match(line):
                out.append(line)  # --verbose prints a suite's console output before its line: keep whose it is
                continue
        elif not stripped:
            in_tree = False
        elif stripped == "● Console":
            console = "header"
        elif _CONSOLE_CALL.match(line) and not console:
            console = "bare"
        elif in_tree and all_passing[k]:
            continue  # a describe block whose tests all passed: the counts cover it, as for its ticks
        if stripped.startswith("● "):
            message = _paragraph(lines, k + 2) if k + 1 < len(lines) and not lines[k + 1].strip() else []
        elif stripped == "Cause:" and message and _paragraph(lines, k + 1) == message:
            out.append(line + " (the message above)")
            skip_to = k + 1 + len(message)
            continue
        if stripped in _ADVICE:
            continue
        if _PASS_SUITE.match(line) and k + 1 < len(lines) and lines[k + 1].strip() == "● Console":
            out.append(line)  # a passing suite's console output: the header says whose it is
            continue
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
    return compact_coverage_tables(fold_package_frames(out))


_PACKAGE_FRAME = re.compile(r"^(?P<ind> +)at .*\(\S*node_modules/(?P<pkg>(?:@[^/]+/)?[^/]+)/\S+:\d+:\d+\)$")
_FOLD_RUN = 3
_FRAME_MAX = 400  # a stack frame line longer than this is left as printed


def fold_package_frames(lines: list[str]) -> list[str]:
    """A stack's run of ``_FOLD_RUN`` or more frames inside installed packages (``node_modules``): its first
    frame stays (where the program entered the package), the others are one counted line naming the
    packages; a frame repeated on the next line (jest prints a matcher's frame twice) is kept once."""
    out: list[str] = []
    run: list[re.Match] = []

    def flush() -> None:
        if len(run) >= _FOLD_RUN:
            out.append(run[0].group(0))
            pkgs = ", ".join(dict.fromkeys(m.group("pkg") for m in run[1:]))
            out.append(f"{run[0].group('ind')}[+ {len(run) - 1} frames in node_modules: {pkgs}]")
        else:
            out.extend(m.group(0) for m in run)
        run.clear()

    for line in lines:
        # only short lines naming node_modules reach the regex (its `.*\(` would rescan a long line)
        m = _PACKAGE_FRAME.match(line) if "node_modules/" in line and len(line) <= _FRAME_MAX else None
        if m and (not run or m.group("ind") == run[0].group("ind")):
            run.append(m)
            continue
        flush()
        if m:
            run.append(m)
            continue
        if out and _AT_LOCATION.match(line) and out[-1].startswith(line):
            n = int(out[-1][len(line) + 3:-1]) if out[-1] != line else 1
            out[-1] = f"{line} [×{n + 1}]"  # the same frame again on the next line
            continue
        out.append(line)
    flush()
    return out


# A coverage table (istanbul's `text` reporter under jest and vitest, node's own in `#`/`ℹ` comments):
# its border lines go and each row's cells lose their padding (a file cell keeps its nesting indent).
_COV_BORDER = re.compile(r"^(?P<pre># |ℹ )?-{8,}(?:\|-+)*\s*$")
_COV_HEADER = re.compile(r"^(?:# |ℹ )?(?:File|file) +\| .*%")


def compact_coverage_tables(lines: list[str]) -> list[str]:
    """Every coverage table (a header row naming ``File`` and a ``%`` column, between border lines) squeezed.

    A row keeps its cells in order, joined by `` | ``; rows with a different number of cells
    than the header, and any table without a header, stay as printed.
    """
    if not any(_COV_HEADER.match(x) for x in lines):
        return lines
    out: list[str] = []
    cells = 0  # the header's cell count while inside a table, else 0
    for k, line in enumerate(lines):
        border = _COV_BORDER.match(line)
        if border and (cells or k + 1 < len(lines) and _COV_HEADER.match(lines[k + 1])
                                      or out and out[-1].count("|") >= 3):
            continue
        if _COV_HEADER.match(line):
            cells = line.count("|") + 1
        elif cells and line.count("|") + 1 != cells:
            cells = 0
        if cells:
            pre = "# " if line.startswith("# ") else "ℹ " if line.startswith("ℹ ") else ""
            parts = line[len(pre):].split("|")
            line = pre + " | ".join([parts[0].rstrip()] + [c.strip() for c in parts[1:]]).rstrip()
        out.append(line)
    return out


_ADVICE = frozenset({  # jest's fixed explanation under a snapshot it did not write (`--ci`)
    ("This is likely because this test is run in a continuous integration (CI) environment in which snapshots "
     "are not written by default."),
})
_PARAGRAPH_MAX = 12


def _paragraph(lines: list[str], k: int) -> list[str]:
    """The stripped lines from ``k`` up to the next blank line (at most ``_PARAGRAPH_MAX``; longer gives [])."""
    out: list[str] = []
    for j in range(k, min(len(lines), k + _PARAGRAPH_MAX + 1)):
        if not lines[j].strip():
            return out
        out.append(lines[j].strip())
    return [] if len(out) > _PARAGRAPH_MAX else out


_SUITE_LINE = re.compile(r"^(?:PASS|FAIL) \S")
_CONSOLE_CALL = re.compile(r"^ +console\.\w+$")
_TREE_HEADER = re.compile(r"^(?P<ind> {2,})[^\s✓√✕×○✎●]")


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _all_passing_blocks(lines: list[str]) -> list[bool]:
    """Per line: True for a describe line of --verbose's tree whose lines below (deeper indented, up to
    a blank line) are all ``✓`` ticks or such describe lines: it holds no failure, skip or todo to show.

    One backward pass with a stack of the lines below (each line pushed and popped once): linear.
    """
    flags = [False] * len(lines)
    below: list[tuple[int, bool]] = []   # (indent, everything in it passed) of the lines after the current one
    for k in range(len(lines) - 1, -1, -1):
        line = lines[k]
        if not line.strip():
            below.clear()
            continue
        ind = _indent(line)
        passed, children = True, 0
        while below and below[-1][0] > ind:
            passed = below.pop()[1] and passed
            children += 1
        if _PASS_TICK.match(line):
            ok = True
        elif _TREE_HEADER.match(line):
            ok = flags[k] = passed and children > 0
        else:
            ok = False
        below.append((ind, ok))
    return flags


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
