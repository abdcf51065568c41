"""Repeats of one message within a file merged onto one line (``_diag.merge_repeats``), on the held-out captures.

Whole-output checks on the real ``h2_*`` captures of ``scripts/capture_diagnostics_h2.py`` (not
samples): every diagnostic of the raw report is listed under its file exactly once, at the line
that carries its own message and code; notes stay with the diagnostic they followed; nothing
merges across mypy's ``--show-error-context`` lines or gcc's include chains; tsc ``--pretty``
keeps each message chain under its header and drops the source excerpts.
"""

from __future__ import annotations

import re

from fmt_test_suite import text_of
from sqz_core import FormatRequest

from sqz_formatters_test import c_diagnostics, js_eslint, js_tsc, py_mypy, py_ruff
from sqz_formatters_test._diag import Diagnostic, merge_repeats

_MYPY = re.compile(r"^(?P<path>[^\s:]+\.py):(?P<loc>\d+(?::\d+)?): (?P<rest>(?:error|note): .*)$", re.MULTILINE)
_TSC = re.compile(r"^(?P<path>\S+?)(?P<loc>\(\d+,\d+\)): (?P<rest>error TS\d+: .*)$", re.MULTILINE)
_RUFF = re.compile(r"^(?P<path>[^\s:]+):(?P<loc>\d+:\d+): (?P<rest>[A-Z]+\d+ .*)$", re.MULTILINE)
_OUT_LOCS = re.compile(r"^(?P<locs>(?:\(\d+,\d+\)|\d+(?::\d+)?)(?:, (?:\(\d+,\d+\)|\d+(?::\d+)?))*): (?P<rest>.*)$")


def fmt(module, family, name, command):
    return module.sqz_format(request=FormatRequest(text_of(family, name), command, exit_code=1))


def listed(out: str) -> dict:
    """``{(path, rest): [locations in order]}`` of a grouped rendering (path lines unindented)."""
    got: dict = {}
    path = None
    for line in out.splitlines():
        if not line.startswith(" "):
            path = line
            continue
        m = _OUT_LOCS.match(line[2:]) if line.startswith("  ") and not line.startswith("   ") else None
        if m:
            got.setdefault((path, m.group("rest")), []).extend(m.group("locs").split(", "))
    return got


def wanted(raw: str, rx: re.Pattern) -> dict:
    want: dict = {}
    for m in rx.finditer(raw):
        want.setdefault((m.group("path"), m.group("rest")), []).append(m.group("loc"))
    return want


def test_every_diagnostic_listed_once_under_its_file():
    cases = [
        (py_mypy, "mypy", "h2_strict_click7", "mypy --strict click7", _MYPY, 0.5),
        (py_mypy, "mypy", "h2_strict_sortedcontainers", "mypy --strict sortedcontainers", _MYPY, 0.3),
        (py_mypy, "mypy", "h2_untyped_cachetools", "mypy cachetools", _MYPY, 0.8),
        (js_tsc, "tsc", "h2_rxjs_override", "tsc --noEmit", _TSC, 0.9),
        (py_ruff, "ruff", "h2_all_concise_click7", "ruff check --output-format concise click7", _RUFF, 0.6),
        (py_ruff, "ruff", "h2_rules_concise_click7", "ruff check --output-format concise click7", _RUFF, 0.8),
    ]
    for module, family, name, command, rx, lines in cases:
        raw = text_of(family, name)
        out = fmt(module, family, name, command)
        assert out is not None, name
        got, want = listed(out), wanted(raw, rx)
        # each location once; a message with and without a note is two lines, so compare in sorted order
        assert {k: sorted(v) for k, v in got.items()} == {k: sorted(v) for k, v in want.items()}, name
        assert len(out.splitlines()) < lines * len(raw.splitlines()), name   # the repeats did merge


def test_mypy_notes_stay_with_their_error():
    """An error merges with another only when the notes that follow them say the same: each location of a
    merged error had, in the raw report, exactly the notes printed under the merged line."""
    raw = text_of("mypy", "h2_strict_click7")
    notes_of: dict = {}
    last = None
    for m in _MYPY.finditer(raw):
        key = (m.group("path"), m.group("loc"))
        if m.group("rest").startswith("note: ") and last is not None and last[:2] == key:
            notes_of[last].append(m.group("rest"))
        else:
            last = (m.group("path"), m.group("loc"), m.group("rest"))
            notes_of[last] = []
    out = fmt(py_mypy, "mypy", "h2_strict_click7", "mypy --strict click7")
    path, unit = None, None
    units = []
    for line in out.splitlines():
        if not line.startswith(" "):
            path = line
            continue
        m = _OUT_LOCS.match(line.strip())
        if m and m.group("rest").startswith("note: ") and unit is not None and m.group("locs") == unit[1]:
            unit[3].append(m.group("rest"))
        elif m:
            unit = (path, m.group("locs"), m.group("rest"), [])
            units.append(unit)
    merged_with_notes = 0
    for p, locs, rest, notes in units:
        if rest.startswith("note: "):
            continue
        for loc in locs.split(", "):
            assert notes_of[(p, loc, rest)] == notes, (p, loc, rest)
        merged_with_notes += "," in locs and bool(notes)
    assert merged_with_notes >= 3   # errors with their `Use "-> None"` note did merge


def test_nothing_merges_across_mypy_error_context():
    raw = text_of("mypy", "h2_context_colorama")
    context_of = {}
    ctx: dict = {}
    for line in raw.splitlines():
        c = re.match(r"^(\S+\.py): (note: In .*)$", line)
        if c:
            ctx[c.group(1)] = c.group(2)
            continue
        m = _MYPY.match(line)
        if m:
            context_of[(m.group("path"), m.group("loc"), m.group("rest"))] = ctx.get(m.group("path"))
    out = fmt(py_mypy, "mypy", "h2_context_colorama", "mypy --show-error-context colorama")
    path, here = None, None
    merged = 0
    for line in out.splitlines():
        if not line.startswith(" "):
            path, here = line, None
            continue
        if line.strip().startswith("note: In "):
            here = line.strip()
            continue
        m = _OUT_LOCS.match(line.strip())
        if m:
            locs = m.group("locs").split(", ")
            merged += len(locs) > 1
            for loc in locs:
                assert context_of[(path, loc, m.group("rest"))] == here, (path, loc)
    assert merged >= 3


def test_tsc_pretty_keeps_message_chains_drops_excerpts():
    raw = text_of("tsc", "h2_rxjs_strictest_pretty")
    out = fmt(js_tsc, "tsc", "h2_rxjs_strictest_pretty", "tsc --pretty")
    assert out is not None
    assert not re.search(r"^\s*~+\s*$", out, re.MULTILINE)          # squiggles gone
    assert "199       partialObserver = {" not in out                  # source excerpt gone
    # each header's chain: the indented lines between it and the blank line, in order, right under it
    blocks = re.findall(r"^\S+:(\d+:\d+ - error TS\d+: .*)\n((?:  .*\n)+)", raw, re.MULTILINE)
    assert len(blocks) >= 10
    lines = out.splitlines()
    merged = 0
    for head, chain in blocks:
        want = [x.strip() for x in chain.splitlines()]
        loc, msg = head.split(" - ", 1)
        at = next(i for i, x in enumerate(lines)
                  if x.endswith(" - " + msg) and loc in x.strip().split(" - ", 1)[0].split(", "))
        merged += "," in lines[at].split(" - ", 1)[0]
        got = [x.strip() for x in lines[at + 1:at + 1 + len(want)]]
        assert got == want, head
    assert merged >= 2   # one header with its chain, repeated at another place, merged


def test_eslint_every_problem_listed_once_in_its_file_block():
    prob = re.compile(r"^\s+(\d+:\d+)\s+(error|warning)\s+(.*?)\s{2,}(\S+)$")
    for name in ("h2_async_rules", "h2_underscore_rules", "h2_async_recommended"):
        raw = text_of("eslint", name)
        want: dict = {}
        path = None
        for line in raw.splitlines():
            if line.startswith("/"):
                path = line
            m = prob.match(line)
            if m:
                want.setdefault((path, m.group(2), m.group(3), m.group(4)), []).append(m.group(1))
        out = js_eslint.sqz_format(request=FormatRequest(raw, "eslint .", exit_code=1))
        got: dict = {}
        for line in out.splitlines():
            if line.startswith("/"):
                path = line
            m = re.match(r"^  ((?:\d+:\d+, )*\d+:\d+) (error|warning)  (.*?)  (\S+)$", line)
            if m:
                got.setdefault((path, m.group(2), m.group(3), m.group(4)), []).extend(m.group(1).split(", "))
        assert got == want, name
        assert [x for x in raw.splitlines() if x.startswith("✖")] == [x for x in out.splitlines() if x.startswith("✖")]


def test_gcc_in_order_report_merges_runs_in_place():
    """Include chains send diagnostics into other files: the report keeps its order (include and context lines
    where they were) and only runs of one warning in one file merge, every location kept once."""
    raw = text_of("cc", "h2_gcc_bitarray_nocaret")
    out = c_diagnostics.sqz_format(request=FormatRequest(raw, "gcc -fsyntax-only -Wall x.c", exit_code=0))
    frame = [x for x in raw.splitlines() if x.startswith(("In file included", "   ")) or ": In function " in x
             or ": At top level:" in x]
    assert [x for x in out.splitlines() if x in frame] == frame
    diag = re.compile(r"^(?P<path>[^\s:]+):(?P<locs>\d+:\d+(?:, \d+:\d+)*): (?P<rest>(?:warning|note): .*)$")
    got: dict = {}
    for line in out.splitlines():
        m = diag.match(line)
        if m:
            got.setdefault((m.group("path"), m.group("rest")), []).extend(m.group("locs").split(", "))
    want: dict = {}
    for line in raw.splitlines():
        m = re.match(r"^(?P<path>[^\s:]+):(?P<loc>\d+:\d+): (?P<rest>warning: .*)$", line)
        if m:
            want.setdefault((m.group("path"), m.group("rest")), []).append(m.group("loc"))
    assert {k: v for k, v in got.items() if k[1].startswith("warning")} == want
    cast = next(x for x in out.splitlines() if x.startswith("cbitarray/_bitarray.c:4619:22, 4621:22, "))
    assert "[-Wcast-function-type]" in cast


def _d(line: str) -> Diagnostic:
    path, rest = line.split(":", 1)
    return Diagnostic(path, rest)


_LOC = re.compile(r"\d+:\d+(?=: )")


def _note(rest: str) -> bool:
    return rest.startswith(": note: ")


def test_merge_repeats_rules():
    # a note at another place than its warning must be the same for both, or they do not merge
    items = [_d("a.c:1:1: warning: w [-Wx]"), _d("a.c:1:9: note: in expansion of macro ‘M’"),
             _d("a.c:2:1: warning: w [-Wx]"), _d("a.c:2:9: note: in expansion of macro ‘M’"),
             _d("a.c:3:1: warning: w [-Wx]"), _d("a.c:2:9: note: in expansion of macro ‘M’")]
    out = [d.head for d in merge_repeats(items, _LOC, _note)]
    assert out == ["1:1: warning: w [-Wx]", "1:9: note: in expansion of macro ‘M’",
                   "2:1, 3:1: warning: w [-Wx]", "2:9: note: in expansion of macro ‘M’"]
    # a note at its diagnostic's own location takes the joined locations; a line without one ends the run
    items = [_d("m.py:4: error: e  [c]"), _d("m.py:4: note: n"), _d("m.py:7: error: e  [c]"), _d("m.py:7: note: n"),
             Diagnostic("m.py", "note: In function \"f\":"), _d("m.py:9: error: e  [c]"), _d("m.py:9: note: n")]
    loc = re.compile(r"\d+(?=: )")
    out = [d.head for d in merge_repeats(items, loc, _note)]
    assert out == ["4, 7: error: e  [c]", "4, 7: note: n", "note: In function \"f\":", "9: error: e  [c]",
                   "9: note: n"]
    # without notes in the rule each line merges on its own text; continuation lines must match too
    items = [Diagnostic("t.ts", "(1,1): error TS1: m", ["  chain a"]), Diagnostic("t.ts", "(2,1): error TS1: m", ["  chain b"]),
             Diagnostic("t.ts", "(3,1): error TS1: m", ["  chain a"])]
    out = [(d.head, d.more) for d in merge_repeats(items, re.compile(r"\(\d+,\d+\)(?=: )"))]
    assert out == [("(1,1), (3,1): error TS1: m", ["  chain a"]), ("(2,1): error TS1: m", ["  chain b"])]


def test_mypy_documentation_link_does_not_keep_an_error_apart():
    """``--show-error-code-links`` prints ``note: See https://…`` once per code, under its first error: it is
    about the code, so that error still merges with its repeat, and the link stays at its own location."""
    out = fmt(py_mypy, "mypy", "h2_links_small", "mypy --strict --show-error-code-links iniconfig tomli_w")
    assert out.splitlines()[1:3] == [
        '  135:30, 225:35: error: Missing type arguments for generic type "Mapping"  [type-arg]',
        "  135:30: note: See https://mypy.rtfd.io/en/stable/_refs.html#code-type-arg for more info"]
