"""Compiler and type-checker formatters on damaged real captures: every location kept, or None.

An agent often reads a build's output cut short (a pager, a head -n, a killed job), mixed with
another job's (make -j, ninja), with paths it did not expect (spaces, a Windows drive). For any
such variation of a real capture, a formatter either returns None (the pipeline passes the
text through) or renders every diagnostic present in its input: its location (as the
formatter documents it: ``path:line:col`` on the line, or the path once with ``line:col``
under it, absolute paths shown relative to a named root) with its severity and the start of
its message. Notes the formatters document as dropped (gcc's fixed "each undeclared
identifier" note; a note repeated word for word, counted instead) are the only exceptions,
and the count they leave must equal what went.
"""

from __future__ import annotations

import itertools
import re

from fmt_test_suite import other
from hypothesis import given, settings
from hypothesis import strategies as st
from sqz_core import FormatRequest
from sqz_testing import fact_kept

from sqz_formatters_test import c_cmake, c_diagnostics, c_make, js_tsc, py_mypy, rust_cargo, rust_rustc

MODULES = {"cc": c_diagnostics, "cmake": c_cmake, "make": c_make, "rustc": rust_rustc, "cargo": rust_cargo,
           "tsc": js_tsc, "mypy": py_mypy}
CAPTURES = [
    ("cc", "clang_errors_color"), ("cc", "gcc_errors"), ("cc", "gxx_multi_file"), ("cc", "gxx_template_error"),
    ("cc", "multi_file"), ("cmake", "build_error"), ("cmake", "build_error_cxx"), ("cmake", "build_error_ninja"),
    ("cmake", "build_warnings"), ("make", "build_error"), ("make", "build_recursive"), ("make", "build_warnings"),
    ("rustc", "multi_file"), ("rustc", "multiline_spans"), ("cargo", "build_error"), ("cargo", "build_multi_file"),
    ("cargo", "check_warnings"), ("cargo", "clippy_deny_warnings"), ("cargo", "clippy_warnings"),
    ("tsc", "errors"), ("tsc", "errors_pretty"), ("tsc", "multi_file"), ("tsc", "multi_file_pretty"),
    ("mypy", "errors"), ("mypy", "errors_pretty"), ("mypy", "multi_file"),
    # held-out pass #2: repeats merged onto one line with every location
    ("mypy", "h2_strict_sortedcontainers"), ("mypy", "h2_untyped_cachetools"), ("tsc", "h2_rxjs_override"),
    ("tsc", "h2_rxjs_strictest_pretty"), ("cc", "h2_gcc_bitarray_nocaret"), ("cc", "h2_clang_bitarray_util"),
]

_C = re.compile(r"^(?P<path>(?:[A-Za-z]:)?[^\s:][^:]*?):(?P<lc>\d+:\d+): "
                r"(?P<sev>error|warning|note|fatal error): (?P<msg>.*)$")
_TSC = re.compile(r"^(?P<path>[^\s(]+)(?P<lc>\(\d+,\d+\)): (?P<sev>error) (?P<msg>TS\d+: .*)$")
_TSC_PRETTY = re.compile(r"^(?P<path>[^\s:]+):(?P<lc>\d+:\d+) - (?P<sev>error) (?P<msg>TS\d+: .*)$")
_MYPY = re.compile(r"^(?P<path>[^\s:]+\.py):(?P<lc>\d+): (?P<sev>error|note): (?P<msg>.*)$")
_RUST_HEAD = re.compile(r"^(?:error|warning)(?:\[E\d+\])?: "
                        r"(?!could not compile|aborting due)(?!`\w+` \(\w+\) generated)")
_RUST_LOC = re.compile(r"^\s*--> (?P<loc>\S.*:\d+:\d+)$")
_ONCE_NOTE = "each undeclared identifier is reported only once"
# lines a formatter drops and counts in its ``[dropped: …]`` line, per family
_ECHO = (r"^(?:/usr/(?:local/)?bin/)?(?:cc|c\+\+|gcc|g\+\+|clang|ar|ranlib) "
         r"|^g?make\[\d+\]: (?:Entering|Leaving) directory ")
_COUNTED = {
    "make": re.compile(_ECHO),
    "cmake": re.compile(_ECHO + r"|^\[\s*\d+%\] |^\[\d+/\d+\] |^-- "),
    "cargo": re.compile(r"^\s+(?:Compiling|Checking) "),
}
_DROPPED = re.compile(r"^\[dropped: (.*)\]$", re.MULTILINE)
_FOLDED = re.compile(r" \[×(\d+)(?:, per line:)?\]$")     # fold_similar's template line: that many lines in one
_REPEATED = re.compile(r"^\[(\d+) repeated note lines dropped\]$", re.MULTILINE)


def _capture(family: str, name: str):
    fx = other(family, name)
    return fx.request().text, fx.command, fx.meta.get("exit_code")


def expected(family: str, text: str) -> list:
    """A fact (``fact_kept`` form) for every diagnostic of ``text`` a rendering must keep."""
    facts = []
    lines = text.splitlines()
    if family in ("rustc", "cargo"):
        for line in lines:
            m = _RUST_LOC.match(line)
            if m and not m.group("loc").startswith("/rustc/"):
                facts.append(m.group("loc"))
            elif _RUST_HEAD.match(line):
                facts.append(line[:60].rstrip())
        return facts
    patterns = {"tsc": (_TSC, _TSC_PRETTY), "mypy": (_MYPY,)}.get(family, (_C,))
    seen_notes: set[str] = set()
    for line in lines:
        m = next((m for p in patterns if (m := p.match(line))), None)
        if not m:
            continue
        if m.group("sev") == "note":
            if _ONCE_NOTE in line or m.group("msg") in seen_notes:
                continue  # documented: dropped, or counted as repeated
            seen_notes.add(m.group("msg"))
        base = re.split(r"[/\\]", m.group("path"))[-1]  # the path may be shown relative to a root
        facts.append({"under": base, "line": [m.group("lc"), m.group("sev"), m.group("msg")[:30].rstrip()]})
    return facts


def _dropped_count(phrase: str) -> int:
    """``cc ×2, ar, directory ×2 command lines`` → 5."""
    phrase = re.sub(r" (?:command )?lines$", "", phrase)
    return sum(int(m.group(1)) if (m := re.search(r" ×(\d+)$", item)) else 1 for item in phrase.split(", "))


def assert_complete_or_none(family: str, text: str, command: str, exit_code) -> None:
    out = MODULES[family].sqz_format(request=FormatRequest(text, command, exit_code=exit_code))
    if out is None:
        return
    lost = [f for f in expected(family, text) if not fact_kept(out, f)]
    assert lost == [], (family, lost[:3])
    if family in ("cc", "make", "cmake"):
        # a count the formatter prints must match what it dropped
        notes_in = sum(1 for x in text.splitlines() if _C.match(x) and _C.match(x).group("sev") == "note"
                       and _ONCE_NOTE not in x)
        notes_out = sum(1 for x in out.splitlines() if re.search(r"\b\d+:\d+: note: ", x) and _ONCE_NOTE not in x)
        assert notes_in - notes_out == sum(int(n) for n in _REPEATED.findall(out)), family
    if family in _COUNTED:
        rx = _COUNTED[family]
        shown = sum(int(m.group(1)) if (m := _FOLDED.search(x)) else 1 for x in out.splitlines() if rx.match(x))
        gone = sum(1 for x in text.splitlines() if rx.match(x)) - shown
        said = sum(_dropped_count(d) for d in _DROPPED.findall(out))
        assert gone == said, (family, gone, _DROPPED.findall(out))


@settings(max_examples=150, deadline=None)
@given(case=st.sampled_from(CAPTURES), cut=st.floats(min_value=0.0, max_value=1.0))
def test_any_line_prefix_keeps_every_location_or_refuses(case, cut):
    text, command, code = _capture(*case)
    lines = text.splitlines(keepends=True)
    assert_complete_or_none(case[0], "".join(lines[:int(len(lines) * cut)]), command, code)


_PAIRS = [("cc", "gcc_errors", "multi_file"), ("cc", "gxx_multi_file", "gcc_errors"),
          ("make", "build_error", "build_warnings"), ("cmake", "build_error", "build_error_cxx"),
          ("cmake", "build_error_ninja", "build_warnings"), ("cargo", "build_error", "check_warnings"),
          ("rustc", "multi_file", "multiline_spans"), ("tsc", "multi_file", "errors"),
          ("tsc", "multi_file_pretty", "errors_pretty"), ("mypy", "multi_file", "errors")]


@settings(max_examples=80, deadline=None)
@given(pair=st.sampled_from(_PAIRS), chunk=st.integers(min_value=1, max_value=9),
       cut=st.floats(min_value=0.0, max_value=1.0))
def test_parallel_jobs_interleaved_keep_every_location_or_refuse(pair, chunk, cut):
    family, a, b = pair
    ta, command, _ = _capture(family, a)
    tb = _capture(family, b)[0]
    la, lb = ta.splitlines(keepends=True), tb.splitlines(keepends=True)
    ca = ["".join(la[i:i + chunk]) for i in range(0, len(la), chunk)]
    cb = ["".join(lb[i:i + chunk]) for i in range(0, len(lb), chunk)]
    mixed = "".join(x for p in itertools.zip_longest(ca, cb, fillvalue="") for x in p)
    lines = mixed.splitlines(keepends=True)
    assert_complete_or_none(family, "".join(lines[:max(1, int(len(lines) * cut))]), command, 1)


def _spaces(text: str) -> str:
    return text.replace("src/", "my src/")


def _windows(text: str) -> str:
    text = re.sub(r"(?m)^src/(\S+?)([:(])", lambda m: "C:\\proj\\src\\" + m.group(1).replace("/", "\\") + m.group(2),
                  text)
    return re.sub(r"(?m)^(\s*--> )src/", r"\1src\\", text)


@settings(max_examples=80, deadline=None)
@given(case=st.sampled_from(CAPTURES), rewrite=st.sampled_from([_spaces, _windows]),
       cut=st.floats(min_value=0.0, max_value=1.0))
def test_unusual_paths_keep_every_location_or_refuse(case, rewrite, cut):
    text, command, code = _capture(*case)
    lines = rewrite(text).splitlines(keepends=True)
    assert_complete_or_none(case[0], "".join(lines[:max(1, int(len(lines) * cut))]), command, code)


def test_ansi_colour_left_in_keeps_every_location_or_refuses():
    for family, name in CAPTURES:
        fx = other(family, name)
        assert_complete_or_none(family, fx.raw.decode("utf-8"), fx.command, fx.meta.get("exit_code"))


def test_the_property_is_not_vacuous():
    """The untouched captures are all handled, so the properties above test renderings, not refusals."""
    for family, name in CAPTURES:
        text, command, code = _capture(family, name)
        out = MODULES[family].sqz_format(request=FormatRequest(text, command, exit_code=code))
        assert out is not None, (family, name)
        assert expected(family, text), (family, name)


_ABS = re.compile(r"^(?P<path>/[^\s:]+):(?P<lc>\d+:\d+): (?P<sev>error|warning)", re.MULTILINE)


@settings(max_examples=60, deadline=None)
@given(case=st.sampled_from([("cmake", "build_error"), ("cmake", "build_error_cxx"), ("cmake", "build_error_ninja"),
                             ("cmake", "build_warnings")]),
       cut=st.floats(min_value=0.0, max_value=1.0))
def test_absolute_locations_stay_whole(case, cut):
    """Every absolute path of an error or warning is on the page whole, with its line:column under it or beside it."""
    text, command, code = _capture(*case)
    lines = text.splitlines(keepends=True)
    text = "".join(lines[:int(len(lines) * cut)])
    out = MODULES[case[0]].sqz_format(request=FormatRequest(text, command, exit_code=code))
    if out is None:
        return
    for m in _ABS.finditer(text):
        loc = f"{m.group('path')}:{m.group('lc')}: {m.group('sev')}"
        if loc in out:
            continue
        assert fact_kept(out, {"under": m.group("path"), "line": [m.group("lc"), m.group("sev")]}), loc
