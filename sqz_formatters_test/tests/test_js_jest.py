"""jest: facts survive, noise is dropped, near misses give None, snapshots hold."""

from __future__ import annotations

from fmt_test_suite import FormatterSuite, cut_tail, other, text_of
from sqz_formatters_test import js_jest as formatter

suite = FormatterSuite(formatter, "jest")
run, ask = suite.run, suite.ask
globals().update(suite.standard_tests(
    complete={'green_default', 'red_color', 'red_default', 'red_verbose'},
    ratios={'red_verbose': 0.79, 'red_default': 0.99, 'green_default': 0.53}))


def test_near_miss_other_runners():
    assert ask(text_of("vitest", "red_run"), "jest", 1) is None
    assert ask(text_of("pytest", "red_default"), "jest", 1) is None


def test_near_miss_truncated_and_unexplained_status():
    assert ask(cut_tail(text_of("jest", "red_default"), 5), "jest jtests", 1) is None
    assert ask(text_of("jest", "green_default"), "jest jgreen", 1) is None


def test_suite_that_failed_to_run_is_kept():
    out = run(other("jest", "red_default"))
    assert "FAIL jtests/broken.test.js" in out and "Test suite failed to run" in out
