"""ctest: keep failed tests, their output and the summary; drop ``Start`` and ``Passed`` lines.

The ``Test project <build dir>`` header, the total time and the ``--rerun-failed`` advice go too.

Why: ctest prints two lines per test; on a run of hundreds only the failures (their
result line, the output ``--output-on-failure`` shows, the ``The following tests
FAILED:`` list) and the ``N% tests passed`` count matter. A run whose summary is
missing (cut short) or an extra-verbose (``-VV``) run returns None.

Verbose (``-V``): ctest prefixes each test's command, working directory and output with the
test's number (``2: …``); the lines of a test that passed go with its result line (counted),
a failed test keeps them all; the ``test N`` markers, the set-up chatter
(``UpdateCTestConfiguration``, ``Constructing a list of tests`` …) and the
``The following tests passed:`` list go (the ``N% tests passed`` count says how many).
"""

from __future__ import annotations

import re

from sqz_core.api import FormatRequest, hookimpl

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
_RESULT_NUM = re.compile(r"^ *\d+/\d+ Test +#(?P<num>\d+): ")
_V_OUTPUT = re.compile(r"^(?P<num>\d+): ")  # -V: a test's own line, prefixed with its number
_V_MARKER = re.compile(r"^test \d+$")
_V_SETUP = re.compile(r"^(UpdateCTestConfiguration  from :|Constructing a list of tests$|Done constructing a list of "
                      r"tests$|Updating test list for fixtures$|Added \d+ tests? to meet fixture requirements$|"
                      r"Checking test dependency graph(\.\.\.| end)$)")
_V_PASSED_LIST = re.compile(r"^The following tests passed:$")


def format_ctest(text: str, exit_code: int | None, verbose: bool = False) -> str | None:
    """The compact rendering of a ctest run (``verbose``: run with ``-V``), or None."""
    lines = text.splitlines()
    if not any(_SUMMARY.match(l) or _NO_TESTS.match(l) for l in lines):
        return None  # no summary: cut short, another tool, or an unknown shape
    out: list[str] = []
    passed = started = finished = 0
    pending: dict[str, list[str]] = {}  # -V: a test's numbered lines, until its result line
    in_passed_list = False
    for line in lines:
        if verbose:
            if in_passed_list:
                if line.startswith("\t") and line.strip():
                    continue
                in_passed_list = False
            v = _V_OUTPUT.match(line)
            if v:
                pending.setdefault(v.group("num"), []).append(line)
                continue
            if _V_MARKER.match(line) or _V_SETUP.match(line):
                continue
            if _V_PASSED_LIST.match(line):
                in_passed_list = True
                continue
        if _START.match(line):
            started += 1
            continue
        m = _RESULT.match(line)
        if m:
            finished += 1
            own = pending.pop(_RESULT_NUM.match(line).group("num"), [])
            if _PASSED.match(m.group("status")):
                passed += 1
                continue
            out.extend(own)
            out.append(line)
            continue
        if _CHDIR.match(line) or _TOTAL_TIME.match(line) or _PROJECT.match(line) or _RERUN_HINT.match(line):
            continue
        out.append(line)
    if started > finished or pending:
        return None  # a test started (or printed) but never reported: not a whole run
    if passed and not any(_SUMMARY.match(x) for x in out):
        out.insert(0, f"(+ {passed} passed)")  # else ``N% tests passed, …`` counts them
    return join_output(out)


@hookimpl
def sqz_format(request: FormatRequest) -> str | None:
    if request.is_file_content() or request.program not in commands:
        return None
    if has_option(request.argv, ("-VV", "--extra-verbose", "--debug", "-N", "--show-only",
                                  "--version", "--help", "-D", "-S", "-M", "-T", "--dashboard"),
                  ("--show-only", "-D", "--output-junit")):
        return None
    return format_ctest(request.text, request.exit_code, verbose=has_option(request.argv, ("-V", "--verbose")))
