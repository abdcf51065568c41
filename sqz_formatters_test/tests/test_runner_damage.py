"""Damaged test-runner output: a summary names every failure it was given, or there is none.

Issue 13: "a wrong summary is worse than none". Take the real red captures of pytest, jest,
go test and unittest, damage them as a pipe or a pager would (cut at any character, one line
lost, colour codes left in, a failing id with unusual characters, two failures with the same
message) and check the formatter either refuses (None: the agent gets the raw output) or keeps
every failing test id the damaged input still names.
"""

from __future__ import annotations

import json
import re

import pytest
from fmt_test_suite import FIXTURES_DIR
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqz_core import FormatRequest
from sqz_core.cleanup import clean_terminal
from sqz_testing import iter_fixtures
from sqz_formatters_test import go_tool, js_jest, py_pytest, py_unittest

_PYTEST_IDS = (re.compile(r"^(?:FAILED|ERROR) (\S+)"), re.compile(r"^_{3,} (.+?) _{3,}$"),
               re.compile(r"^(\S+::\S*) (?:FAILED|ERROR)\b"))
_JEST_IDS = (re.compile(r"^\s*● (.+?)\s*$"), re.compile(r"^\s*FAIL\s+(\S+)"),
             re.compile(r"^\s*✕ (.+?)(?: \(\d+ ms\))?$"))
_GO_IDS = (re.compile(r"^\s*--- FAIL: (\S+)"),)
_UNITTEST_IDS = (re.compile(r"^(?:FAIL|ERROR): (.+)$"),)


def _ids(patterns, text: str) -> set[str]:
    out = set()
    for line in text.splitlines():
        for p in patterns:
            m = p.match(line)
            if m:
                out.add(m.group(1))
    return out


def _go_ids(text: str) -> set[str]:
    out = _ids(_GO_IDS, text)
    for line in text.splitlines():
        if line.startswith("{"):
            try:
                ev = json.loads(line)
            except ValueError:
                continue
            if isinstance(ev, dict) and ev.get("Action") == "fail" and ev.get("Test"):
                out.add(ev["Test"])
    return out


RUNNERS = {
    "pytest": (py_pytest, lambda t: _ids(_PYTEST_IDS, t)),
    "jest": (js_jest, lambda t: _ids(_JEST_IDS, t)),
    "go": (go_tool, _go_ids),
    "unittest": (py_unittest, lambda t: _ids(_UNITTEST_IDS, t)),
}
RED = [(family, fx) for family in RUNNERS for fx in iter_fixtures(FIXTURES_DIR / family)
       if fx.meta.get("exit_code") not in (0, None)]


def _lost_ids(family: str, text: str, command: str, exit_code) -> list[str] | None:
    """None when the formatter refuses ``text``; else the failing ids of ``text`` its output lost."""
    formatter, ids = RUNNERS[family]
    text = clean_terminal(text)
    out = formatter.sqz_format(request=FormatRequest(text, command, exit_code=exit_code))
    if out is None:
        return None
    return sorted(i for i in ids(text) if i not in out)


def draw_damage(data, text: str) -> str:
    """``text`` cut at any character, or with one line lost (drawn by hypothesis)."""
    if data.draw(st.sampled_from(["cut", "lost line"])) == "cut":
        return text[: data.draw(st.integers(0, len(text)))]
    lines = text.splitlines(True)
    k = data.draw(st.integers(0, len(lines) - 1))
    return "".join(lines[:k] + lines[k + 1:])


def test_the_red_captures_are_all_here():
    assert {f for f, _ in RED} == set(RUNNERS) and len(RED) >= 25


@pytest.mark.parametrize("family,fx", RED, ids=lambda v: v if isinstance(v, str) else v.name)
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_a_cut_or_a_lost_line_never_loses_a_failing_id(family, fx, data):
    damaged = draw_damage(data, fx.text)
    exit_code = data.draw(st.sampled_from([fx.meta["exit_code"], None]))
    assert _lost_ids(family, damaged, fx.command, exit_code) in (None, [])


@pytest.mark.parametrize("family,fx", RED, ids=lambda v: v if isinstance(v, str) else v.name)
def test_colour_codes_change_nothing(family, fx):
    coloured = "".join(f"\x1b[1;31m{x}\x1b[0m" if x.strip() else x for x in fx.text.splitlines(True))
    formatter, _ = RUNNERS[family]
    plain = formatter.sqz_format(request=fx.request())
    assert formatter.sqz_format(request=FormatRequest(clean_terminal(coloured), fx.command,
                                                      exit_code=fx.meta["exit_code"])) == plain


def _text(family: str, name: str) -> str:
    return next(fx for f, fx in RED if f == family and fx.name == name).text


UNUSUAL = "[a b-\u00fcn\u00ef::x/y #01 100%]"


@pytest.mark.parametrize("family,name,old,command", [
    ("pytest", "red_default", "test_add_wrong", "pytest red"),
    ("pytest", "red_verbose", "test_dict_diff", "pytest -v red"),
    ("jest", "red_default", "adds wrongly", "jest jtests"),
    ("go", "test_verbose_fail", "TestAddWrong", "go test -v ./..."),
    ("go", "test_json_fail", "TestAddWrong", "go test -json ./..."),
    ("unittest", "red_default", "test_mul", "python -m unittest"),
])
def test_a_failing_id_with_unusual_characters_is_kept_whole(family, name, old, command):
    new = old + (UNUSUAL.replace(" ", "_") if family in ("go", "unittest") else UNUSUAL)
    assert _lost_ids(family, _text(family, name).replace(old, new), command, 1) == []
    formatter, _ = RUNNERS[family]
    out = formatter.sqz_format(request=FormatRequest(clean_terminal(_text(family, name).replace(old, new)),
                                                     command, exit_code=1))
    assert new in out


def _twice(text: str, start: str, end: str, old: str, new: str) -> str:
    """``text`` with the block from ``start`` up to ``end`` repeated, ``old`` renamed ``new`` in the copy."""
    i = text.index(start)
    j = text.index(end, i + len(start))
    return text[:j] + text[i:j].replace(old, new) + text[j:]


def test_two_pytest_failures_with_the_same_message_are_both_kept():
    text = _twice(_text("pytest", "red_default"), "_" * 44 + " test_split", "=" * 41 + " warnings summary",
                  "test_split", "test_split_again")
    text = text.replace("ERROR red/test_math.py::test_uses_fixture",
                        "FAILED red/test_strings.py::test_split_again - AssertionError: x\n"
                        "ERROR red/test_math.py::test_uses_fixture").replace("4 failed, 156", "5 failed, 155")
    out = py_pytest.sqz_format(request=FormatRequest(clean_terminal(text), "pytest red", exit_code=1))
    assert out.count("Right contains one more item: 'd'") == 2
    assert "FAILED red/test_strings.py::test_split_again" in out  # heads its own report (banner moved)
    assert out.index("FAILED red/test_strings.py::test_split - ") < out.index("FAILED red/test_strings.py::test_split_again")


def test_two_jest_failures_with_the_same_message_are_both_kept():
    text = _twice(_text("jest", "red_default"), "  ● add › adds wrongly", "  ● add › objects",
                  "adds wrongly", "adds wrongly again")
    out = js_jest.sqz_format(request=FormatRequest(text, "jest jtests", exit_code=1))
    assert "● add › adds wrongly again" in out and out.count("Received: 4") == 2


def test_two_go_failures_with_the_same_message_are_both_kept():
    one = "    calc_test.go:66: Add(2, 2) = 4, want 5\n--- FAIL: TestAddWrong (0.00s)\n"
    text = _text("go", "test_verbose_fail").replace(one, one + "=== RUN   TestAddAgain\n"
                                                    + one.replace("TestAddWrong", "TestAddAgain"))
    out = go_tool.sqz_format(request=FormatRequest(text, "go test -v ./...", exit_code=1))
    assert "--- FAIL: TestAddAgain" in out and out.count("Add(2, 2) = 4, want 5") == 2


def test_two_unittest_failures_with_the_same_message_are_both_kept():
    rule = "=" * 70 + "\n"
    text = _twice(_text("unittest", "red_default"), rule + "FAIL: test_mul", rule + "FAIL: test_upper",
                  "test_mul", "test_mul_again").replace("failures=3", "failures=4")
    out = py_unittest.sqz_format(request=FormatRequest(text, "python -m unittest", exit_code=1))
    assert "FAIL: test_mul_again (ut_red.test_calc.TestCalc.test_mul_again)" in out
    assert out.count("AssertionError: 6 != 7") == 2


def test_a_go_json_failure_whose_output_was_lost_is_still_named():
    """The ``fail`` event is the statement; its ``--- FAIL:`` output line lost, the rendering says it."""
    text = "".join(x for x in _text("go", "test_json_fail").splitlines(True)
                   if not ('"Test":"TestAddWrong"' in x and '"Action":"output"' in x))
    out = go_tool.sqz_format(request=FormatRequest(text, "go test -json ./...", exit_code=1))
    assert "--- FAIL: TestAddWrong (0.00s)" in out


def test_a_pytest_summary_misread_as_passes_output_is_refused():
    """Without its ``short test summary info`` rule the FAILED lines would sit in PASSES: refuse."""
    text = "".join(x for x in _text("pytest", "red_report_all").splitlines(True)
                   if "short test summary info" not in x)
    assert py_pytest.sqz_format(request=FormatRequest(text, "pytest -rA red/test_strings.py", exit_code=1)) is None
