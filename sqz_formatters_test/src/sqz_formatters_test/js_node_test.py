"""node --test: drop passing tests (TAP records or spec ticks); keep failures whole.

TAP (the default reporter when not on a terminal): passing ``# Subtest`` records with
their YAML blocks go; failing ones, with their YAML diagnostics and stacks, stay (but for
node's own frames, counted as below), as do skips, todos and the ``# tests``/``# pass``/
``# fail`` counts; a kept record's ``duration_ms`` and node's generic ``code: 'ERR_TEST_FAILURE'``
go, and so does a ``# Subtest: X`` line right above X's own result line.
Dot reporter: only node's own frames fold (it prints no counts to check against).
Spec reporter: ``✔`` lines go; runs of stack frames inside node itself (``node:internal/…``,
``node:async_hooks``) become one counted line naming those modules; under ``✖ failing tests:``
each entry keeps its ``test at file:line:col`` and ``✖`` lines, and its details when they
are not the ones the report above already showed. Everything else stays. A lone node frame
stays as printed. Coverage tables (``--experimental-test-coverage``) lose their borders and padding.
"""

from __future__ import annotations

import re

from sqz_core.api import FormatRequest, hookimpl

from ._common import join_output, plural, shorter_or_none
from .js_jest import compact_coverage_tables

commands = ("node",)
# a stack in a failing test's report is part of it: its program frames are kept (see the core's safety routing)
reports_traces = True

_TAP_COUNT = re.compile(r"^# (?:tests|suites|pass|fail|cancelled|skipped|todo|duration_ms) [\d.]+$")
_SPEC_COUNT = re.compile(r"^ℹ (?:tests|suites|pass|fail|cancelled|skipped|todo|duration_ms) [\d.]+$")
_SUBTEST = re.compile(r"^(?P<ind> *)# Subtest: (?P<name>.*)$")
_RESULT = re.compile(r"^(?P<ind> *)(?P<not>not )?ok \d+ - (?P<name>.*?)(?P<directive> # (?:SKIP|TODO)\b.*)?$")
_PLAN = re.compile(r"^ *1\.\.\d+$")
_SPEC_PASS = re.compile(r"^ *✔ \S.* \([\d.]+m?s\)$")


def _yaml_end(lines: list[str], i: int, ind: str) -> int:
    """Index after the YAML block that starts at ``lines[i]`` (``---`` … ``...``), or ``i`` if none.

    A block whose ``...`` was lost ends before the first line indented less than its body, so
    a damaged passing record never swallows the records after it.
    """
    if i < len(lines) and lines[i] == ind + "  ---":
        j = i + 1
        while j < len(lines) and lines[j] != ind + "  ...":
            if lines[j].strip() and not lines[j].startswith(ind + "  "):
                return j
            j += 1
        return min(j + 1, len(lines))
    return i


def compact_tap(lines: list[str]) -> list[str] | None:
    """Node's TAP output without passing records; None when the final counts are missing."""
    if not any(x.startswith("# fail ") for x in lines) or lines[:1] != ["TAP version 13"]:
        return None
    drop = [False] * len(lines)
    open_subtests: list[tuple[int, str]] = []
    passed = 0
    i = 0
    while i < len(lines):
        line = lines[i]
        m = _SUBTEST.match(line)
        if m:
            open_subtests.append((i, m.group("ind")))
            i += 1
            continue
        r = _RESULT.match(line)
        if r:
            start = i
            if open_subtests and open_subtests[-1][1] == r.group("ind"):
                start = open_subtests.pop()[0]
            end = _yaml_end(lines, i + 1, r.group("ind"))
            if not r.group("not"):
                if r.group("directive"):
                    for k in range(i + 1, end):  # keep the skip/todo line, drop its duration block
                        drop[k] = True
                else:
                    nested = any(_RESULT.match(lines[k]) for k in range(start + 1, i) if not drop[k])
                    if not nested:
                        if not any(_SUBTEST.match(lines[k]) for k in range(start + 1, i)):
                            passed += 1
                        for k in range(start, end):
                            drop[k] = True
            i = end
            continue
        if _PLAN.match(line) or line == "TAP version 13":
            drop[i] = True
        i += 1
    kept = [x for k, x in enumerate(lines) if not drop[k] and not _YAML_DURATION.match(x)]
    out = compact_coverage_tables(fold_node_frames(_drop_named_twice(kept)))
    if passed:
        out.insert(0, f"(+ {plural(passed, 'passing test')} not listed)")
    return out


# a kept record's timing, and the code node gives every failing test (an assertion's own code is kept)
_YAML_DURATION = re.compile(r"^ +(?:duration_ms: [\d.]+|code: 'ERR_TEST_FAILURE')$")


def _drop_named_twice(lines: list[str]) -> list[str]:
    """A ``# Subtest: X`` line goes when the next line is X's own ``ok``/``not ok`` line at its indent."""
    out: list[str] = []
    for k, line in enumerate(lines):
        m = _SUBTEST.match(line)
        if m and k + 1 < len(lines):
            r = _RESULT.match(lines[k + 1])
            if r and r.group("ind") == m.group("ind") and r.group("name") == m.group("name"):
                continue
        out.append(line)
    return out


_NODE_FRAME = re.compile(
    r"^(?P<ind>\s+)(?:at )?(?:async )?(?:\S+(?: \[as \S+\])? \()?(?P<mod>node:[\w/]+)(?::\d+)*\)?(?P<brace> \{|,)?$")
_FAILING = "✖ failing tests:"
_TEST_AT = re.compile(r"^test at \S+:\d+:\d+$")


def fold_node_frames(lines: list[str]) -> list[str]:
    """Each run of two or more frames inside node itself as one line: how many and in which node modules."""
    out: list[str] = []
    run: list[re.Match] = []

    def flush() -> None:
        if len(run) == 1:
            out.append(run.pop().group(0))  # a lone frame stays as printed: folding it saves nothing
        elif run:
            mods = ", ".join(dict.fromkeys(m.group("mod") for m in run))
            what = "frame" if len(run) == 1 else "frames"
            out.append(f"{run[0].group('ind')}[{len(run)} {what} in {mods}]{run[-1].group('brace') or ''}")
            run.clear()

    for line in lines:
        m = _NODE_FRAME.match(line)
        if m and (not run or m.group("ind") == run[0].group("ind")) and not (run and run[-1].group("brace")):
            run.append(m)
            continue
        flush()
        if m:
            run.append(m)
            continue
        out.append(line)
    flush()
    return out


def fold_failing_summary(lines: list[str]) -> list[str]:
    """Under ``✖ failing tests:``, an entry's details shown word for word in the report above go."""
    try:
        cut = lines.index(_FAILING)
    except ValueError:
        return lines
    shown = "\n" + "\n".join(x.strip() for x in lines[:cut] if x.strip()) + "\n"
    out = lines[:cut + 1]
    entry: list[str] = []

    def flush() -> None:
        if not entry:
            return
        head = [x for x in entry[:2] if _TEST_AT.match(x) or x.startswith("✖ ")]
        body = entry[len(head):]
        text = "\n".join(x.strip() for x in body if x.strip())
        if head and text and "\n" + text + "\n" in shown:
            out.extend(head)
            out.append("  (details as in the report above)")
            out.append("")
        else:
            out.extend(entry)
        entry.clear()

    for line in lines[cut + 1:]:
        if _TEST_AT.match(line):
            flush()
        if entry or _TEST_AT.match(line):
            entry.append(line)
        else:
            out.append(line)
    flush()
    return out


def compact_spec(lines: list[str]) -> list[str] | None:
    """Node's spec output without ``✔`` lines, node's own frames folded and the failing-tests
    summary without details already shown; None when the ``ℹ fail`` count is missing."""
    if not any(x.startswith("ℹ fail ") for x in lines):
        return None
    out = [x for x in lines if not _SPEC_PASS.match(x)]
    passed = len(lines) - len(out)
    out = compact_coverage_tables(fold_node_frames(fold_failing_summary(out)))
    if passed:
        out.insert(0, f"(+ {plural(passed, 'passing test')} not listed)")
    return out


def is_node_test_output(lines: list[str]) -> bool:
    """True when the lines carry the node test runner's final counts (TAP or spec)."""
    return any(_TAP_COUNT.match(x) for x in lines) or any(_SPEC_COUNT.match(x) for x in lines)


def compact_node_test(lines: list[str]) -> list[str] | None:
    """TAP or spec output compacted; None for anything else."""
    if lines[:1] == ["TAP version 13"]:
        return compact_tap(lines)
    return compact_spec(lines)


@hookimpl
def sqz_format(request: FormatRequest) -> str | None:
    """Only ``node --test``; a script's own output is not ours."""
    if "--test" not in request.argv:
        return None
    reporters = [a for a in request.argv if a.startswith("--test-reporter")]
    if reporters and all(a == "--test-reporter=dot" for a in reporters):
        out = compact_dot(request.lines)
    elif any(not a.endswith(("=spec", "=tap")) for a in reporters):
        return None
    else:
        out = compact_node_test(request.lines)
        if out is not None and request.exit_code not in (None, 0) and not any(
                re.match(r"^[#ℹ] fail [1-9]", x) or re.match(r"^[#ℹ] cancelled [1-9]", x) for x in out):
            return None
    if out is None:
        return None
    return shorter_or_none(join_output(out), request.text)


_DOTS = re.compile(r"^[.X]+$")


def compact_dot(lines: list[str]) -> list[str] | None:
    """The dot reporter (``.`` per pass, ``X`` per failure, then ``Failed tests:`` and each failure as the
    spec reporter prints it): only runs of node's own frames fold (counted); it prints no counts to check a
    summary against, so nothing else goes. None when the output does not open with the dot lines, or has
    an ``X`` but no ``Failed tests:`` list."""
    k = 0
    while k < len(lines) and _DOTS.match(lines[k]):
        k += 1
    if k == 0:
        return None
    failed = any("X" in x for x in lines[:k])
    if failed != ("Failed tests:" in lines[k:]):
        return None
    return fold_node_frames(lines)

