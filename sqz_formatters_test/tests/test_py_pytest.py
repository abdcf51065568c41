"""pytest: facts survive, noise is dropped, near misses give None, snapshots hold."""

from __future__ import annotations

from fmt_test_suite import FormatterSuite, cut_tail, other, text_of
from sqz_formatters_test import py_pytest as formatter

suite = FormatterSuite(formatter, "pytest")
run, ask = suite.run, suite.ask
globals().update(suite.standard_tests(
    complete={'collect_error', 'green_default', 'red_default', 'red_report_all', 'red_tb_no', 'red_verbose', 'red_xdist'},
    ratios={'red_default': 0.7, 'red_verbose': 0.23, 'red_quiet': 0.75, 'red_xdist': 0.74, 'red_tb_no': 0.47, 'red_tb_line': 0.63, 'red_report_all': 0.5, 'green_default': 0.1, 'collect_error': 0.95, 'no_tests': 0.22}))


def test_near_miss_other_runners_output():
    assert ask(text_of("unittest", "red_default"), "pytest", 1) is None
    assert ask(text_of("jest", "red_default"), "pytest", 1) is None


def test_near_miss_truncated_run():
    assert ask(cut_tail(text_of("pytest", "red_default"), 1), "pytest red", 1) is None
    assert ask(cut_tail(text_of("pytest", "red_verbose"), 8), "pytest -v red", 1) is None


def test_near_miss_unexplained_exit_status():
    # a green summary with a failing status (e.g. a plugin failed the run): not ours to explain
    assert ask(text_of("pytest", "green_default"), "pytest green", 1) is None


def test_collection_error_is_not_reported_as_pass():
    out = run(other("pytest", "collect_error"))
    assert "Interrupted: 2 errors during collection" in out
    assert "2 errors in" in out and "passed" not in out


def test_failure_sections_are_verbatim():
    fx = other("pytest", "red_default")
    text = fx.request().text
    start, end = text.index("= ERRORS ="), text.index("= warnings summary =")
    body = text[text.rindex("\n", 0, start) + 1:text.rindex("\n", 0, end)]
    assert body in run(fx)


def test_warnings_keep_non_deprecations_and_count_the_rest():
    out = run(other("pytest", "red_default"))
    assert "RuntimeWarning: overflow encountered in scale()" in out
    assert "UserWarning: cache directory missing" in out
    assert "legacy_call('a') is deprecated" in out
    assert "legacy_call('b') is deprecated" not in out
    assert "(+ 6 more deprecation warning entries folded: 17 warnings in red/test_legacy.py, red/test_math.py)" in out
