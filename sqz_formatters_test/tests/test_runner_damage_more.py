"""Damaged runner output, part two: vitest, node --test, maven, gradle, cargo, ctest, tox/nox.

Issue 13: "a wrong summary is worse than none". The same property as test_runner_damage.py over
the real red captures of the other test runners: cut the text at any character or lose one line
(with the real exit code or none) and the formatter either refuses (None: the agent gets the raw
output) or keeps every failing test id the damaged input still names; and every count line it
prints says what a count line of the damaged input says.
"""

from __future__ import annotations

import re

import pytest
from fmt_test_suite import FIXTURES_DIR
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqz_core import FormatRequest
from sqz_core.cleanup import clean_terminal
from sqz_testing import iter_fixtures
from sqz_formatters_test import c_ctest, js_node_test, js_vitest, jvm_gradle, jvm_maven, py_tox, rust_cargo
from test_runner_damage import _ids, draw_damage

_C = re.compile
# (formatter, failing-id patterns, count patterns); group 1 of each is what must survive / agree.
RUNNERS = {
    "vitest": (js_vitest,
               (_C(r"^\s*FAIL\s+(.+?)(?:\s+\[.*)?$"), _C(r"^\s*× (.+?) \d+ms$")),
               (_C(r"^\s*(Tests\s+\d+ failed.*)$"), _C(r"^\s*(Test Files\s+\d+ failed.*)$"))),
    "node": (js_node_test,
             (_C(r"^\s*not ok \d+ - (.+?)(?: # .*)?$"), _C(r"^\s*✖ (.+?) \([\d.]+ms\)$")),
             (_C(r"^(?:ℹ|#) ((?:tests|pass|fail|cancelled|skipped|todo) \d+)$"),)),
    "maven": (jvm_maven,
              (_C(r"^\[ERROR\]\s+(\w+\.\w+):\d+"), _C(r"^\[ERROR\] (\w+\([\w.$]+\))\s.*<<< (?:FAILURE|ERROR)!"),
               _C(r"^\[ERROR\] Tests run: .*<<< FAILURE! - in (\S+)"), _C(r"^\[INFO\] (\S+) \.+ FAILURE\b")),
              (_C(r"(Tests run: \d+, Failures: \d+, Errors: \d+, Skipped: \d+)"),)),
    "gradle": (jvm_gradle,
               (_C(r"^(\S+ > .+?) FAILED$"),),
               (_C(r"^(\d+ tests? completed, \d+ failed(?:, \d+ skipped)?)"),)),
    "cargo": (rust_cargo,
              (_C(r"^\s*test (.+?) \.\.\. FAILED$"), _C(r"^\s*---- (.+?) stdout ----$"),
               _C(r"^\s*FAIL \[.*?\] \(\d+/\d+\) \S+ (\S+)$")),
              (_C(r"(test result: \w+\. \d+ passed; \d+ failed; \d+ ignored)"),
               _C(r"Summary \[.*?\] (\d+ tests? run: .*)$"))),
    "ctest": (c_ctest,
              (_C(r"^\s*\d+ - (\S+) \(.+\)$"), _C(r"Test\s+#\d+: (\S+) \.+[^.]*\*\*\*")),
              (_C(r"(\d+% tests passed, \d+ tests? failed out of \d+)"),)),
    "tox": (py_tox,
            (_C(r"^\s*(\S+): FAIL\b"), _C(r"^nox > \* (\S+): failed"), _C(r"^nox > Session (\S+) failed"),
             _C(r"^FAILED (\S+)"), _C(r"^(\S+): exit [1-9]\d* \("), _C(r"^(?:FAIL|ERROR): (.+)$")),
            (_C(r"^(?:=+ )?(\d+ failed(?:, \d+ \w+)*)"), _C(r"^(FAILED \((?:\w+=\d+(?:, )?)+\))$"))),
}
# The test-runner captures (build/compile captures of maven, gradle and cargo belong to build's tests).
_RUNNER_CAPTURE = {"maven": ("test_fail", "reactor_fail"), "gradle": ("test_fail",),
                   "cargo": ("test_fail", "test_backtrace", "nextest_fail")}
RED = [(family, fx) for family in RUNNERS for fx in iter_fixtures(FIXTURES_DIR / family)
       if fx.meta.get("exit_code") not in (0, None)
       and (family not in _RUNNER_CAPTURE or fx.name.startswith(_RUNNER_CAPTURE[family]))]


def _norm(s: str) -> str:
    return " ".join(s.split())


def _counts(patterns, text: str) -> set[str]:
    return {_norm(m.group(1)) for line in text.splitlines() for p in patterns if (m := p.search(line))}


def _cargo_failures_list(text: str) -> set[str]:
    """The names under libtest's closing ``failures:`` list (the first ``failures:`` holds the reports)."""
    out, entry = set(), None
    for line in text.splitlines():
        if line.strip() == "failures:":
            entry = line[: len(line) - len(line.lstrip())] + "    "
        elif entry and line.startswith(entry) and line[len(entry):][:1] not in ("", " ") and not line.strip().startswith("----"):
            out.add(line.strip())
        elif line.strip():
            entry = None
    return out


def _failing_ids(family: str, text: str) -> set[str]:
    ids = _ids(RUNNERS[family][1], text)
    return ids | _cargo_failures_list(text) if family == "cargo" else ids


def _damage(family: str, text: str, command: str, exit_code) -> tuple[list[str], list[str]] | None:
    """None when the formatter refuses ``text``; else (failing ids lost, count lines not in ``text``)."""
    formatter, ids, counts = RUNNERS[family]
    text = clean_terminal(text)
    out = formatter.sqz_format(request=FormatRequest(text, command, exit_code=exit_code))
    if out is None:
        return None
    named = _failing_ids(family, out)  # named as a failing test by the output, not just mentioned in it
    lost = sorted(i for i in _failing_ids(family, text) if not any(i in n for n in named))
    return lost, sorted(_counts(counts, out) - _counts(counts, text))


def test_the_red_captures_are_all_here():
    assert {f for f, _ in RED} == set(RUNNERS) and len(RED) >= 14


@pytest.mark.parametrize("family,fx", RED, ids=lambda v: v if isinstance(v, str) else v.name)
def test_the_whole_capture_keeps_every_id_and_count(family, fx):
    """The undamaged capture is summarised (not refused) and its ids and counts are really found."""
    formatter, ids, counts = RUNNERS[family]
    text = clean_terminal(fx.text)
    assert _counts(counts, text) or "--test-reporter=dot" in fx.command  # node's dot reporter prints no counts
    assert _failing_ids(family, text) or (family, fx.name) == ("gradle", "test_fail_quiet")  # -q prints no test lines
    assert _damage(family, fx.text, fx.command, fx.meta["exit_code"]) == ([], [])


@pytest.mark.parametrize("family,fx", RED, ids=lambda v: v if isinstance(v, str) else v.name)
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_a_cut_or_a_lost_line_never_loses_a_failing_id_or_misstates_a_count(family, fx, data):
    damaged = draw_damage(data, fx.text)
    exit_code = data.draw(st.sampled_from([fx.meta["exit_code"], None]))
    assert _damage(family, damaged, fx.command, exit_code) in (None, ([], []))


@pytest.mark.parametrize("family,fx", RED, ids=lambda v: v if isinstance(v, str) else v.name)
def test_every_single_lost_line(family, fx):
    """One lost line, every line in turn (random draws missed the node TAP case below)."""
    lines = fx.text.splitlines(True)
    bad = {}
    for k in range(len(lines)):
        got = _damage(family, "".join(lines[:k] + lines[k + 1:]), fx.command, fx.meta["exit_code"])
        if got not in (None, ([], [])):
            bad[k] = (lines[k], got)
    assert bad == {}


def _text(family: str, name: str) -> str:
    return next(fx for f, fx in RED if f == family and fx.name == name).text


@pytest.mark.parametrize("exit_code", [1, None])
def test_a_node_tap_record_whose_yaml_end_was_lost_does_not_swallow_the_next_failure(exit_code):
    """Found by the property: ``ok 20``'s ``...`` lost, its block ran on over ``not ok 21`` and dropped it."""
    lines = _text("node", "red_tap").splitlines(True)
    k = next(i for i, x in enumerate(lines) if x.strip() == "ok 20 - adds 19") + 3
    assert lines[k] == "      ...\n"
    damaged = "".join(lines[:k] + lines[k + 1:])
    out = js_node_test.sqz_format(request=FormatRequest(damaged, "node --test ntests/", exit_code=exit_code))
    assert "not ok 21 - adds wrongly" in out and "4 !== 5" in out and "not ok 22 - deep" in out
    assert "ok 20 - adds 19" not in out and "# fail 3" in out
