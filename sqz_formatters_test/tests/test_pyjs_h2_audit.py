"""Fact audit of the held-out pass #2 captures (``h2_*``) of the Python/JS test runners: what pytest's
report rewrites (a FAILED line heading its report, restated statements and string diffs dropped,
skip lines folded) must never lose or misplace, checked on the raw captures."""

from __future__ import annotations

import re

from fmt_test_suite import FormatterSuite
from sqz_testing import missing_facts
from sqz_formatters_test import py_pytest

pytest_suite = FormatterSuite(py_pytest, "pytest")
_STOP = "!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!! stopping after 1 failures !!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!"


def _out(name: str) -> tuple[str, list[str]]:
    fx = pytest_suite.fixture(name)
    out = pytest_suite.run(fx)
    assert out is not None and missing_facts(out, fx.facts) == []
    return fx.text, out.splitlines()


def test_x_stop_line_stays_below_the_report_its_failed_line_now_heads():
    """-x: the FAILED line moves up to head its report; pytest's ``!!! stopping after`` line, printed
    under it in the short summary, is not part of that line and stays last, above the counts."""
    for name, location in (("h2_dateutil_unmodified_tz_exitfirst", "tests/test_tz.py:1130: AssertionError"),
                           ("red_exitfirst", "red/test_math.py:16: AssertionError")):
        raw, lines = _out(name)
        assert raw.count(_STOP) == lines.count(_STOP) == 1
        k = next(i for i, x in enumerate(lines) if x.startswith("FAILED "))
        stop = lines.index(_STOP)
        assert lines.index(location) > k  # the report sits under its FAILED line ...
        assert stop > lines.index(location)  # ... and the stop line under the report
        assert re.match(r"^1 failed, \d+ passed", lines[stop + 1])


def test_x_stop_line_stays_after_a_report_whose_banner_stays():
    raw, lines = _out("h2_dateutil_exitfirst_dots")
    assert lines.index("_ RelativeDeltaTest.test15thISOYearWeek _") < lines.index(
        "tests/test_relativedelta.py:145: AssertionError") < lines.index(_STOP)


def test_a_progress_row_of_padding_alone_goes():
    """pytest prints ``<padding> [ 7%]`` when a module's dots filled the row before: progress, no fact."""
    for name in ("h2_dateutil_exitfirst_dots", "h2_dateutil_collect_continue"):
        raw, lines = _out(name)
        assert any(re.match(r"^\s+\[\s*\d+%\]$", x) for x in raw.splitlines())
        assert not any(re.match(r"^\s*\[\s*\d+%\]$", x) for x in lines)
        assert any(x.startswith("collected ") for x in lines)


def test_every_falsifying_example_keeps_its_steps_in_order():
    """hypothesis: each sub-exception's ``Failing test case`` block (steps and draws) is reproduced whole."""
    raw, lines = _out("h2_pyrsistent_hypothesis_stateful")

    def blocks(text_lines):
        found, cur = [], None
        for x in text_lines:
            if x.endswith("| Failing test case: <state machine>"):
                cur = []
            elif cur is not None:
                if x.endswith("| state.teardown()"):
                    found.append(cur)
                    cur = None
                else:
                    cur.append(x.strip())
        return found

    want = blocks(raw.splitlines())
    assert len(want) == 4 and blocks(lines) == want
    assert "| Draw 3: 8" in want[0] and "| Draw 2: 4" in want[1]


def test_statements_the_e_line_does_not_restate_stay():
    """``E  assert '1e+06' == '1,234,567'`` shows values, not the expression: the statement stays."""
    raw, lines = _out("h2_humanize_red_quiet_params")
    stmt = ">       assert humanize.intcomma(*test_args) == expected"
    assert raw.count(stmt) == 12 and stmt in lines
    raw, lines = _out("h2_inflection_teardown_error")
    assert ('>       assert set(inflection.UNCOUNTABLES) == before, "the test left words in inflection.UNCOUNTABLES"'
            in lines)
    assert "E         'ors'" in lines  # a set diff is no one-line string diff: it stays


def test_every_setup_error_keeps_its_location_and_every_skip_its_line_number():
    raw, lines = _out("h2_humanize_fixture_missing")
    for n in (24, 28, 32, 36, 40, 44, 48, 52, 56, 60, 64, 68, 73, 77, 81):
        assert f"/tmp/sqz-capture/pyh2/humanize-4.17.0/tests/test_benchmarks.py:{n}" in lines
    raw, lines = _out("h2_pyrsistent_ra_skips")
    numbers = set(re.findall(r"^SKIPPED \[1\] tests/vector_test\.py:(\d+): could not import", raw, re.M))
    out = "\n".join(lines)
    assert len(numbers) == 101 and all(re.search(rf"\b{n}\b", out) for n in numbers)


def test_tox_run_drops_the_codspeed_plugin_header_like_the_benchmark_one():
    """pytest-codspeed's session header (``codspeed: 5.0.4 (disabled, …)``) is plugin chatter like
    pytest-benchmark's ``benchmark: …``: it goes; the tox lines and every failure stay."""
    from sqz_formatters_test import py_tox

    suite = FormatterSuite(py_tox, "tox")
    fx = suite.fixture("h2_humanize_red_cov")
    out = suite.run(fx)
    assert out is not None and missing_facts(out, fx.facts) == []
    assert any(x.startswith("codspeed: 5.0.4") for x in fx.text.splitlines())
    assert "codspeed: " not in out and "benchmark: 5.3.1" not in out
    assert out.count(">       assert humanize.intcomma(*test_args) == expected") == 12
