"""Read-back of every held-out diagnostics capture: no location lost, none moved to another message.

Over ALL the ``h2_*`` captures of mypy, ruff, flake8, pylint, tsc, eslint, gcc/clang and rustc (not a
sample, not a chosen few): the raw report is read into ``(file, location, what was said there)`` —
the severity, code and message after the location, spacing aside — and so is the formatter's output,
with each merged line (``6, 19, 30: error: … [code]``, ``path:12:1, 15:1: warning: …``) expanded back
into one entry per location under the file it is listed in (its header line, or the path in front).
The two must be equal as multisets: each error or warning of the report is listed exactly once, in its
own file, with its own message, code and severity; a merge that attached a location to another message,
file or severity, or dropped or doubled one, fails here.
"""

from __future__ import annotations

import re
from collections import Counter

import pytest
from fmt_test_suite import FIXTURES_DIR, other

from sqz_formatters_test import c_diagnostics, js_eslint, js_tsc, py_mypy, py_ruff, rust_rustc

MODULES = {"mypy": py_mypy, "ruff": py_ruff, "flake8": py_ruff, "pylint": py_ruff, "tsc": js_tsc,
           "eslint": js_eslint, "cc": c_diagnostics, "rustc": rust_rustc}
CASES = sorted((fam, p.stem) for fam in MODULES for p in (FIXTURES_DIR / fam).glob("h2_*.txt"))

_ONE = r"(?:\(\d+,\d+\)|\d+(?::\d+)?)"
_LOCS = rf"{_ONE}(?:, {_ONE})*"
# what follows a location, by family: the severity / code that opens an error or warning (notes and
# context lines are not counted here; test_diag_h2_merge follows notes)
_PRIMARY = {
    "mypy": re.compile(r"^: (error: .*)$"),
    "ruff": re.compile(r"^: ([A-Z]+\d+ .*)$"),
    "flake8": re.compile(r"^: ([A-Z]+\d+ .*)$"),
    "pylint": re.compile(r"^: ([A-Z]\d+: .*)$"),
    "tsc": re.compile(r"^(?::| -) (error TS\d+: .*)$"),
    "eslint": re.compile(r"^ +((?:error|warning) .*)$"),
    "cc": re.compile(r"^: ((?:warning|error|fatal error): .*)$"),
}
_RUST_HEAD = re.compile(r"^((?:warning|error)(?:\[\w+\])?: .*)$")
_RUST_AT = re.compile(r"^ *--> (\S+?):(\d+:\d+)$")
_RUST_OUT = re.compile(r"^((?:warning|error)(?:\[\w+\])?: .*?)(?: \[[\w:]+\])?(?: \(notes as above\))? --> (\S+?):"
                       rf"({_LOCS})$")


def _sq(text: str) -> str:
    return re.sub(r"\s+", " ", text.strip())


def _entries(text: str, family: str, paths: set[str], raw: bool) -> Counter:
    """``Counter((path, location, what))`` of the errors and warnings in ``text``; a merged line counts
    once per location. ``paths``: the files of the raw report (a line naming one alone opens its group)."""
    got: Counter = Counter()
    lines = text.splitlines()
    if family == "rustc":
        for i, line in enumerate(lines):
            m = _RUST_OUT.match(line) if not raw else None
            if m:
                got.update((m.group(2), loc, _sq(m.group(1))) for loc in m.group(3).split(", "))
                continue
            h = _RUST_HEAD.match(line)
            at = _RUST_AT.match(lines[i + 1]) if h and i + 1 < len(lines) else None
            if at:
                got[(at.group(1), at.group(2), _sq(h.group(1)))] += 1
        return got
    primary = _PRIMARY[family]
    full = family == "ruff" and raw and any(_RUST_AT.match(x) for x in lines)
    path = None
    for i, line in enumerate(lines):
        if full:   # ruff's full format: `CODE message` over `--> path:line:col`
            at = _RUST_AT.match(lines[i + 1]) if i + 1 < len(lines) else None
            if at and re.match(r"^[A-Z]+\d+ ", line):
                got[(at.group(1), at.group(2), _sq(line))] += 1
            continue
        if not line.startswith(" ") and line.strip() in paths:
            path = line.strip()
            continue
        flat = re.match(rf"^(\S+?)(?::|(?=\())({_LOCS})(.*)$", line)
        if flat and flat.group(1) in paths:
            where, locs, rest = flat.group(1), flat.group(2), flat.group(3)
        else:
            m = re.match(rf"^ +({_LOCS})(.*)$", line)
            if not m or path is None:
                if not line.startswith(" "):
                    path = None if family != "eslint" else path
                continue
            where, locs, rest = path, m.group(1), m.group(2)
        p = primary.match(rest)
        if p:
            got.update((where, loc, _sq(p.group(1))) for loc in locs.split(", "))
    return got


def _paths(raw: str, family: str) -> set[str]:
    if family == "eslint":
        return {x for x in raw.splitlines() if x.startswith("/")}
    found = set(re.findall(r"^ *(?:--> )?([\w./-]+\.(?:pyi?|ts|js|c|h|rs))(?=[:(])", raw, re.MULTILINE))
    return found


@pytest.mark.parametrize("family,name", CASES, ids=[f"{f}/{n}" for f, n in CASES])
def test_every_error_and_warning_read_back_at_its_own_message(family, name):
    fx = other(family, name)
    raw = fx.request().text
    out = MODULES[family].sqz_format(request=fx.request())
    assert out is not None, "the formatter declined a capture of its own tool"
    paths = _paths(raw, family)
    want, got = _entries(raw, family, paths, raw=True), _entries(out, family, paths, raw=False)
    assert sum(want.values()) >= 2, "the reader found nothing in the raw report: the test would be vacuous"
    assert got - want == Counter(), "listed at a message, file or severity the raw report does not give it"
    assert want - got == Counter(), "an error or warning of the raw report is not listed (once) at its message"


def test_the_reader_sees_merged_lines():
    """Not vacuous: the outputs read back do hold merged lines, and a location moved to another message
    of its file is caught."""
    fx = other("mypy", "h2_strict_sortedcontainers")
    raw, out = fx.request().text, py_mypy.sqz_format(request=fx.request())
    assert re.search(r"^  \d+(?::\d+)?, \d+", out, re.MULTILINE)
    paths = _paths(raw, "mypy")
    lines = out.splitlines()
    i = next(i for i, x in enumerate(lines) if re.match(r"^  \d+(?::\d+)?, ", x))
    j = next(j for j, x in enumerate(lines) if j != i and x.startswith("  ") and ": error: " in x
             and x.split(": error: ")[1] != lines[i].split(": error: ")[1])
    loc, rest = lines[i].split(", ", 1)
    moved = lines[:]
    moved[i] = "  " + rest
    moved[j] = loc + ", " + lines[j].lstrip()
    moved[j] = "  " + moved[j].lstrip()
    assert _entries("\n".join(moved), "mypy", paths, raw=False) != _entries(raw, "mypy", paths, raw=True)


def test_a_warning_whose_repeated_note_was_dropped_keeps_the_count_under_it():
    """clang prints ``note: expanded from macro 'COUNT_FUNC'`` under each of 506:1, 507:1 and 508:1; the
    repeats of the note go (counted). The count stays under the warnings it was dropped from: 507:1 and
    508:1 merge with each other, never with the ``unused parameter`` warnings that had no note (116:17 …),
    and the macro note stays under 506:1. A merged line's count is the notes dropped under all its warnings."""
    fx = other("cc", "h2_clang_bitarray_util")
    lines = c_diagnostics.sqz_format(request=fx.request()).splitlines()
    at = next(i for i, x in enumerate(lines) if x.startswith("cbitarray/_util.c:507:1"))
    assert lines[at].startswith("cbitarray/_util.c:507:1, 508:1: warning: unused parameter 'module'")
    assert lines[at + 1] == "[2 repeated note lines dropped]"      # one under each of the two
    assert lines[at - 2:at] == ["cbitarray/_util.c:506:1: warning: unused parameter 'module' [-Wunused-parameter]",
                                "cbitarray/_util.c:496:27: note: expanded from macro 'COUNT_FUNC'"]
    plain = next(x for x in lines if x.startswith("cbitarray/_util.c:116:17, "))
    assert not re.search(r"(?<![\d:])50[678]:1\b", plain)
    # gcc: four `missing initializer for field ‘closure’` in a row, each with its `declared here` note repeated
    fx = other("cc", "h2_gcc_bitarray_nocaret")
    lines = c_diagnostics.sqz_format(request=fx.request()).splitlines()
    at = next(i for i, x in enumerate(lines) if x.startswith("cbitarray/_bitarray.c:2390:6"))
    assert lines[at].startswith("cbitarray/_bitarray.c:2390:6, 2392:6, 2394:6, 2395:5: warning: missing initializer")
    assert lines[at + 1] == "[4 repeated note lines dropped]"


_MYPY_LINE = re.compile(r"^(?P<path>[^\s:]+\.pyi?):(?P<loc>\d+(?::\d+)?): (?P<rest>(?:error|note): .*)$")
_CODE_LINK = "note: See https://mypy.rtfd.io/en/stable/_refs.html#code-"   # once per code, about the code


def _mypy_followers(text: str, grouped: bool) -> dict:
    """``{(path, location, error): [notes at that location right after it]}`` of a mypy report (raw,
    or grouped and merged: a merged error's notes are the lines under it at the same joined locations)."""
    got: dict = {}
    path, current, locs = None, None, None
    for line in text.splitlines():
        if grouped:
            if not line.startswith(" "):
                path, current = line, None
                continue
            m = re.match(rf"^  ({_LOCS}): ((?:error|note): .*)$", line)
            where, at, rest = path, m.group(1) if m else None, m.group(2) if m else None
        else:
            m = _MYPY_LINE.match(line)
            where, at, rest = (m.group("path"), m.group("loc"), m.group("rest")) if m else (None, None, None)
        if m is None:
            current = None
            continue
        if rest.startswith(_CODE_LINK):
            continue
        if rest.startswith("note: ") and current is not None and (where, at) == locs:
            for c in current:
                got[c].append(rest)
            continue
        current = [(where, loc, _sq(rest)) for loc in at.split(", ")] if rest.startswith("error: ") else None
        locs = (where, at)
        for c in current or []:
            got.setdefault(c, [])
    return got


@pytest.mark.parametrize("name", sorted(p.stem for p in (FIXTURES_DIR / "mypy").glob("h2_*.txt")))
def test_mypy_every_error_keeps_exactly_its_own_notes(name):
    """A merged error prints the notes its repeats all had; read back per location, each error of the raw
    report has exactly the notes mypy printed under it (``Use "-> None"…``, ``Hint: …``, protocol members)."""
    fx = other("mypy", name)
    raw = fx.request().text
    out = py_mypy.sqz_format(request=fx.request())
    want, got = _mypy_followers(raw, grouped=False), _mypy_followers(out, grouped=True)
    assert want and got == want


def _tsc_chains(text: str, grouped: bool) -> dict:
    """``{(path, location, error): [its elaboration and related-information lines]}``; a merged header's
    chain counts for each of its locations. ``--pretty``'s source excerpts and squiggles are not part of it."""
    got: dict = {}
    path, current = None, []
    head = re.compile(rf"^(?P<path>\S+?)(?::(?P<lc>\d+:\d+) -|(?P<pc>\(\d+,\d+\)):) (?P<rest>error TS\d+: .*)$")
    indent = " " * (4 if grouped else 2)
    for line in text.splitlines():
        if not line.strip() or re.match(r"^\s*\d+ ", line) or set(line.strip()) <= set("~ "):
            continue
        m = re.match(rf"^  ({_LOCS})(?::| -) (error TS\d+: .*)$", line) if grouped else head.match(line)
        if m:
            where, at, rest = ((path, m.group(1), m.group(2)) if grouped
                               else (m.group("path"), m.group("lc") or m.group("pc"), m.group("rest")))
            current = [(where, loc, _sq(rest)) for loc in at.split(", ")]
            for c in current:
                got[c] = []
        elif line.startswith(indent):
            for c in current:
                got[c].append(line[len(indent):])
        else:
            current = []
            if grouped and not line.startswith(" "):
                path = line.strip()
    return got


@pytest.mark.parametrize("name", sorted(p.stem for p in (FIXTURES_DIR / "tsc").glob("h2_*.txt")))
def test_tsc_every_error_keeps_exactly_its_own_chain(name):
    fx = other("tsc", name)
    raw = fx.request().text
    out = js_tsc.sqz_format(request=fx.request())
    want, got = _tsc_chains(raw, grouped=False), _tsc_chains(out, grouped=True)
    assert want and got == want


# ---------------------------------------------------------------- facts whose location is a whole token

_LOC_PART = re.compile(r"^\(?\d+(?:[:,]\d+)?\)?$")


def _whole(loc: str, line: str) -> bool:
    """``loc`` stands in ``line`` as a location of its own, not inside another (``6`` in ``16, 26``)."""
    return re.search(r"(?<![\d(])(?<!\d[:,])" + re.escape(loc) + r"(?![\d)]|[:,]\d)", line) is not None


def _lines_under(out: str, header: str):
    """The lines that hold ``header`` or sit, indented, right under a line that does (``fact_kept``'s rule)."""
    stack: list[tuple[int, str]] = []
    for raw in out.splitlines():
        if not raw.strip():
            continue
        indent = len(raw) - len(raw.lstrip(" \t"))
        while stack and stack[-1][0] >= indent:
            stack.pop()
        line = re.sub(r"[ \t]+", " ", raw)
        if header in line or (stack and header in stack[-1][1]):
            yield line
        stack.append((indent, line))


@pytest.mark.parametrize("family,name", CASES, ids=[f"{f}/{n}" for f, n in CASES])
def test_location_facts_hold_at_their_own_location(family, name):
    """A merged line lists many locations: a fact ``{"under": FILE, "line": [LOC, message, code]}`` holds by
    substring (``fact_kept``), so ``6`` would pass on a line listing ``16, 26``. Here each such fact of the
    sidecar must be kept with LOC as a location of its own on the line that carries its message and code."""
    fx = other(family, name)
    out = MODULES[family].sqz_format(request=fx.request())
    checked = 0
    for fact in fx.facts:
        if not (isinstance(fact, dict) and isinstance(fact["line"], list)):
            continue
        locs = [p for p in fact["line"] if _LOC_PART.match(p)]
        if not locs:
            continue
        rest = [re.sub(r"[ \t]+", " ", p) for p in fact["line"] if p not in locs]
        checked += 1
        assert any(all(p in line for p in rest) and all(_whole(x, line) for x in locs)
                   for line in _lines_under(out, fact["under"])), fact
    assert checked or family == "rustc" or name.startswith("h2_all_full") or name == "h2_default_full"


def test_a_location_inside_another_is_not_taken_for_it():
    assert not _whole("6", "  16, 26: error: e")
    assert _whole("6", "  16, 6: error: e") and _whole("6", "  6, 16: error: e")
    assert not _whole("135:30", "  1135:30, 135:301: e") and _whole("35:30", "  135:30, 35:30: e")
    assert not _whole("(2,3)", "a.ts(12,3): error") and _whole("(2,3)", "  (12,3), (2,3): error")


def test_grouped_merged_warnings_count_every_dropped_note():
    """gcc's ``missing initializer for field ‘tp_is_gc’`` at 3992:1 repeats the ``declared here`` note said
    under 2574:1 (dropped, counted). Said once more at another line (the same block), the two repeats merge
    and the count under the merged line is the notes dropped under both."""
    raw = other("cc", "h2_gcc_simplejson_conv").request().text
    lines = raw.splitlines()
    at = next(i for i, x in enumerate(lines) if x.startswith("csimplejson/_speedups.c:3992:1: "))
    block = lines[at:at + 6]
    again = [block[0].replace(":3992:1:", ":4001:1:"), block[1].replace("3992", "4001")] + block[2:]
    text = "\n".join(lines + again) + "\n"
    from sqz_core import FormatRequest
    out = c_diagnostics.sqz_format(request=FormatRequest(text, "gcc -fsyntax-only -Wall x.c", exit_code=0))
    got = out.splitlines()
    i = next(i for i, x in enumerate(got) if x.startswith("  3992:1, 4001:1: warning: missing initializer"))
    assert got[i + 1] == "   [2 repeated note lines dropped]"
