"""ctest: keep failed tests, their output and the summary; drop ``Start`` and ``Passed`` lines.

The ``Test project <build dir>`` header, the total time and the ``--rerun-failed`` advice go too.

Why: ctest prints two lines per test; on a run of hundreds only the failures (their
result line, the output ``--output-on-failure`` shows, the ``The following tests
FAILED:`` list) and the ``N% tests passed`` count matter. A run whose summary is
missing (cut short) or a verbose/extra-verbose run returns None.
"""

from __future__ import annotations

import re

from sqz_core import FormatRequest, hookimpl

from ._common import has_option, join_output

commands = ("ctest",)

_START = re.compile(r"^ +Start +\d+: \S")
_RESULT = re.compile(r"^ *\d+/\d+ Test +#\d+: \S+ \.*(?P<status>.*?) +[\d.]+ sec$")
_PASSED = re.compile(r"^ *Passed$")
_SUMMARY = re.compile(r"^\d+% tests passed, \d+ tests? failed out of \d+$")
_NO_TESTS = re.compile(r"^No tests were found!!!$")
_CHDIR = re.compile(r"^Internal ctest changing into directory: ")
_PROJECT = re.compile(r"^Test project /\S*$")  # the build directory (a header, like pytest's rootdir)
_RERUN_HINT = re.compile(r'^Use "--rerun-failed --output-on-failure" to re-run the failed cases verbosely\.$')
_TOTAL_TIME = re.compile(r"^Total Test time \(real\) = +[\d.]+ sec$")


def format_ctest(text: str, exit_code: int | None) -> str | None:
    """The compact rendering of a ctest run, or None."""
    lines = text.splitlines()
    if not any(_SUMMARY.match(l) or _NO_TESTS.match(l) for l in lines):
        return None  # no summary: cut short, another tool, or an unknown shape
    out: list[str] = []
    passed = started = finished = 0
    for line in lines:
        if _START.match(line):
            started += 1
            continue
        m = _RESULT.match(line)
        if m:
            finished += 1
            if _PASSED.match(m.group("status")):
                passed += 1
                continue
            out.append(line)
            continue
        if _CHDIR.match(line) or _TOTAL_TIME.match(line) or _PROJECT.match(line) or _RERUN_HINT.match(line):
            continue
        out.append(line)
    if started > finished:
        return None  # a test started but never reported: not a whole run
    if passed and not any(_SUMMARY.match(x) for x in out):
        out.insert(0, f"(+ {passed} passed)")  # else ``N% tests passed, …`` counts them
    return join_output(out)


@hookimpl
def sqz_format(request: FormatRequest) -> str | None:
    if request.is_file_content() or request.program not in commands:
        return None
    if has_option(request.argv, ("-V", "-VV", "--verbose", "--extra-verbose", "--debug", "-N", "--show-only",
                                  "--version", "--help", "-D", "-S", "-M", "-T", "--dashboard"),
                  ("--show-only", "-D", "--output-junit")):
        return None
    return format_ctest(request.text, request.exit_code)
