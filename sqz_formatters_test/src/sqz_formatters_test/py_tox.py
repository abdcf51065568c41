"""tox and nox: compact each embedded pytest or unittest run; keep every step line.

A command's output is compacted with the pytest (or unittest) formatter when it is such a
run, otherwise kept verbatim. Every step line stays (tox's ``install_deps>``/``commands[0]>``,
nox's ``Creating virtual environment``/``python -m pip install``: which deps went in and which
command ran are facts, issue 25), but the packaging env's build-backend hook lines (``.pkg: …>``)
go; every environment result and the final verdict stay. An inline result the closing report
repeats goes.
"""

from __future__ import annotations

import re

from sqz_core.api import FormatRequest, hookimpl

from ._common import join_output, shorter_or_none

commands = ("tox", "nox")
# the traces of an embedded pytest run are rendered by the pytest formatter, other output stays
# verbatim (see the core's safety routing)
reports_traces = True

_TOX_STEP = re.compile(r"^(?P<env>[\w.-]+): (?P<kind>install_deps|install_package|install_package_deps|"
                       r"packaging backend|\.pkg|commands_pre\[\d+\]|commands\[\d+\]|commands_post\[\d+\]|"
                       r"exit -?\d+|OK|FAIL|SKIP|skipped)\b")
_TOX_SETUP = re.compile(r"^\.pkg: \w+> ")  # ``.pkg: build_sdist> …``: the packaging env's build-backend hooks
_TOX_ENV_RESULT = re.compile(r"^  (?P<env>[\w.-]+): (?:OK|FAIL code -?\d+|SKIP)\b")
_TOX_INLINE_OK = re.compile(r"^(?P<env>[\w.-]+): OK \S* ?in \d+(?:\.\d+)? seconds$")
_NOX_ENV_RESULT = re.compile(r"^nox > \* (?P<env>[\w.()=, -]+?): (?:success|failed|skipped|aborted)\b")
_NOX_INLINE_OK = re.compile(r"^nox > Session (?P<env>\S+) was successful in \d+(?:\.\d+)? (?:seconds?|minutes?)\.$")
_TOX_VERDICT = re.compile(r"^  (?:congratulations :\)|evaluation failed :\() \(\d+(?:\.\d+)? seconds\)$")
_NOX_LINE = re.compile(r"^nox > ")
_NOX_VERDICT = re.compile(r"^nox > (?:Ran \d+ sessions? in |\* [\w.()=, -]+: |Session \S+ (?:was successful|"
                          r"failed|skipped|aborted))")


def compact_segment(seg: list[str], exit_hint: int | None) -> list[str]:
    """One command's output: the pytest (or unittest) formatter's compaction when it is such a run,
    else verbatim."""
    from .py_pytest import sqz_format as pytest_format
    from .py_unittest import sqz_format as unittest_format

    if not seg:
        return seg
    text = "\n".join(seg) + "\n"
    out = (pytest_format(request=FormatRequest(text, "pytest", exit_code=exit_hint))
           or unittest_format(request=FormatRequest(text, "python -m unittest", exit_code=exit_hint)))
    return out.rstrip("\n").split("\n") if out else seg


def compact_runner(lines: list[str], is_step, is_setup) -> list[str]:
    """Drop set-up steps, compact the output between runner lines."""
    out: list[str] = []
    seg: list[str] = []
    for line in lines:
        if is_step(line):
            out.extend(compact_segment(seg, None))
            seg = []
            if is_setup(line):
                continue
            out.append(line)
        else:
            seg.append(line)
    out.extend(compact_segment(seg, None))
    return _drop_repeated_results(out)


def _drop_repeated_results(out: list[str]) -> list[str]:
    """Drop an environment's inline result (``green: OK ✔ in 2.69 seconds``, ``nox > Session green was
    successful in 2 seconds.``) when the closing report lists that environment again."""
    reported = set()
    for line in out:
        m = _TOX_ENV_RESULT.match(line) or _NOX_ENV_RESULT.match(line)
        if m:
            reported.add(m.group("env"))
    kept = []
    for line in out:
        m = _TOX_INLINE_OK.match(line) or _NOX_INLINE_OK.match(line)
        if m and m.group("env") in reported:
            continue
        kept.append(line)
    return kept


@hookimpl
def sqz_format(request: FormatRequest) -> str | None:
    """Compact a tox or nox run; None unless the runner's final verdict is there."""
    lines = [x for x in request.lines]
    while lines and not lines[-1].strip():
        lines.pop()
    if not lines:
        return None
    if request.program == "tox":
        if not _TOX_VERDICT.match(lines[-1]):
            return None
        out = compact_runner(lines, lambda x: bool(_TOX_STEP.match(x) or _TOX_ENV_RESULT.match(x)
                                                   or _TOX_VERDICT.match(x) or _TOX_SETUP.match(x)),
                             lambda x: bool(_TOX_SETUP.match(x)))
    else:
        if not _NOX_VERDICT.match(lines[-1]):
            return None
        out = compact_runner(lines, lambda x: bool(_NOX_LINE.match(x)), lambda x: False)
    return shorter_or_none(join_output(out), request.text)
