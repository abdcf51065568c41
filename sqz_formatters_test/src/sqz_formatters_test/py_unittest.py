"""python -m unittest: drop progress dots and ``... ok`` lines; keep what each FAIL/ERROR block says.

Every ``FAIL:``/``ERROR:`` title, ``File "…", line N, in f`` frame with the statement it names,
exception line and message continuation (diffs, subtest parameters) stays, with the ``Ran N
tests`` line and the status. Dropped: the ``====``/``----`` rules, the ``Traceback (most
recent call last):`` lines inside the blocks, caret lines under a statement (``^^^^``,
``~~^~~``), the statements of frames in installed libraries or the stdlib (their ``File``
lines stay; one an earlier block showed is counted) and, in a block whose frames repeat an
earlier block's (one subtest failing for several parameters), those frames, replaced by one
line; any other frame but a block's first that an earlier block showed is counted in a
``[N frames already shown above]`` line. With ``-v`` a passing test goes whole (a docstring test's name line too) and tests
skipped for a reason already shown are counted under the first.
"""

from __future__ import annotations

import re

from sqz_core.api import FormatRequest, hookimpl

from ._common import join_output, plural, shorter_or_none

commands = ("unittest",)
# the tracebacks are the failure report itself: rendered here frame by frame (see the core's safety routing)
reports_traces = True

_RAN = re.compile(r"^Ran \d+ tests? in \d+(?:\.\d+)?s$")
# ``key=N`` items split by ", " (required, and keys without digits: "a=11a=11…" split 2^n ways before)
_STATUS = re.compile(r"^(?:OK|FAILED|NO TESTS RAN)(?: \([A-Za-z_]+=\d+(?:, [A-Za-z_]+=\d+)*\))?$")
_DOTS = re.compile(r"^[.FEsxu]+$")
_VERBOSE_OK = re.compile(r"^\s*\S.* \.\.\. ok$")
_VERBOSE_SKIP = re.compile(r"^\S.* \.\.\. skipped (?P<why>'.*')$")
_VERBOSE_NAME = re.compile(r"^\w+ \([\w.]+\)$")  # ``test_x (pkg.mod.Class.test_x)`` alone on its line
_CARETS = re.compile(r"^\s+[\^~]+\s*$")
_FRAME = re.compile(r'^  File "[^"]*", line \d+')
# a frame in an installed library or the stdlib: its location stays, the statement it echoes goes
_LIBRARY_FRAME = re.compile(r'^  File "(?:[^"]*/site-packages/|[^"]*/lib/python\d\.\d+/)[^"]*", line \d+, in \S+$')
_TITLE = re.compile(r"^(?:FAIL|ERROR|UNEXPECTED SUCCESS): \S")
_TRACEBACK = "Traceback (most recent call last):"
_RULE = "=" * 70
_DASH = "-" * 70


def _fold_shown_library_frames(frames: tuple[str, ...], shown: set[str]) -> list[str]:
    """``frames`` with each library/stdlib frame (its ``File`` line: its statement is already gone)
    that an earlier block showed replaced, per run, by one counted line."""
    out: list[str] = []
    skipped = 0
    for x in frames:
        if _LIBRARY_FRAME.match(x):
            if x in shown:
                skipped += 1
                continue
            shown.add(x)
        if skipped:
            out.append(f"  [{plural(skipped, 'library frame')} already shown above]")
            skipped = 0
        out.append(x)
    if skipped:
        out.append(f"  [{plural(skipped, 'library frame')} already shown above]")
    return out


def _fold_shown_frames(frames: list[str], shown: set[tuple[str, ...]]) -> list[str]:
    """A block's frames after its first (the test's own, always shown) that an earlier block showed,
    ``File`` line and statement alike, replaced per run by one counted line."""
    groups: list[list[str]] = []
    for x in frames:
        if _FRAME.match(x) or not groups or x.startswith("  ["):
            groups.append([x])
        else:
            groups[-1].append(x)
    out: list[str] = []
    skipped = 0
    first = True
    for group in groups:
        key = tuple(group)
        if not first and _FRAME.match(group[0]) and key in shown:
            skipped += 1
            continue
        if _FRAME.match(group[0]):
            shown.add(key)
            first = False
        if skipped:
            out.append(f"  [{plural(skipped, 'frame')} already shown above]")
            skipped = 0
        out.extend(group)
    if skipped:
        out.append(f"  [{plural(skipped, 'frame')} already shown above]")
    return out


def compact_blocks(lines: list[str]) -> list[str]:
    """FAIL/ERROR blocks without rules and carets; frames already shown by an earlier block folded."""
    out: list[str] = []
    seen: set[tuple[str, ...]] = set()
    shown_lib: set[str] = set()
    shown_frames: set[tuple[str, ...]] = set()
    titled = False  # a FAIL/ERROR title was seen: a Traceback header after it is the block's
    i = 0
    while i < len(lines):
        line = lines[i]
        titled = titled or bool(_TITLE.match(line))
        if line in (_RULE, _DASH) or _CARETS.match(line):
            i += 1
            continue
        if line == _TRACEBACK and titled:
            i += 1  # the block's title says a test failed; its frames follow
            continue
        if _FRAME.match(line):
            j = i
            while j < len(lines) and (_FRAME.match(lines[j]) or (lines[j].startswith("    ") and lines[j].strip())):
                j += 1
            frames = tuple(x for k, x in enumerate(lines[i:j], i)
                           if not _CARETS.match(x) and not (k > i and _LIBRARY_FRAME.match(lines[k - 1])))
            if frames in seen:
                n = sum(1 for x in frames if _FRAME.match(x))
                out.append(f"  [the same {n} frames as above]" if n > 1 else "  [the same frame as above]")
            else:
                seen.add(frames)
                out.extend(_fold_shown_frames(_fold_shown_library_frames(frames, shown_lib), shown_frames))
            i = j
            continue
        out.append(line)
        i += 1
    return out


def compact_unittest(lines: list[str]) -> list[str] | None:
    """The compacted lines of a unittest run, or None when the final ``Ran N tests`` block is missing."""
    ran = next((i for i in range(len(lines) - 1, -1, -1) if _RAN.match(lines[i])), None)
    if ran is None or ran == 0 or lines[ran - 1] != _DASH:
        return None
    tail = [x for x in lines[ran + 1:] if x.strip()]
    if not tail or not _STATUS.match(tail[0]):
        return None
    first_rule = next((i for i, x in enumerate(lines) if x == _RULE), ran - 1)
    out: list[str] = []
    passed = 0
    skips: dict[str, int] = {}  # reason -> skipped tests (``-v``); the first stays, the rest are counted
    for line in lines[:first_rule]:
        m = _VERBOSE_SKIP.match(line)
        if m:
            skips[m.group("why")] = skips.get(m.group("why"), 0) + 1
    for k, line in enumerate(lines[:first_rule]):
        if _DOTS.match(line) or not line.strip():
            continue
        if _VERBOSE_OK.match(line):
            passed += 1
            if k and out and out[-1] == lines[k - 1] and _VERBOSE_NAME.match(out[-1]):
                out.pop()  # ``-v`` prints a test with a docstring as its name, then the docstring's line ... ok
            continue
        m = _VERBOSE_SKIP.match(line)
        if m:
            n = skips.pop(m.group("why"), 0)
            if not n:
                continue  # another test skipped for a reason already shown
            out.append(line)
            if n > 1:
                out.append(f"(+ {n - 1} more skipped {m.group('why')})")
            continue
        out.append(line)
    if passed:
        out.append(f"(+ {passed} passed)")
    if first_rule < ran - 1:
        out.extend(compact_blocks(lines[first_rule:ran - 1]))
    out.append(lines[ran])
    out.extend(tail)
    return out


@hookimpl
def sqz_format(request: FormatRequest) -> str | None:
    """Compact ``python -m unittest`` output (written to stderr, usually merged)."""
    out = compact_unittest(request.lines)
    if out is None:
        return None
    if request.exit_code not in (None, 0) and not any(x.startswith(("FAILED", "NO TESTS RAN")) for x in out[-3:]):
        return None
    return shorter_or_none(join_output(out), request.text)
