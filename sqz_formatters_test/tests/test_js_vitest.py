"""vitest: facts survive, noise is dropped, near misses give None, snapshots hold."""

from __future__ import annotations

from fmt_test_suite import FormatterSuite, cut_tail, text_of
from sqz_formatters_test import js_vitest as formatter

suite = FormatterSuite(formatter, "vitest")
ask = suite.ask
globals().update(suite.standard_tests(
    complete={'green_run', 'red_run', 'red_verbose'},
    ratios={'red_run': 0.81, 'red_verbose': 0.62, 'green_run': 0.69}))


def test_near_miss_other_runners_and_watch_mode():
    assert ask(text_of("jest", "red_default"), "vitest run", 1) is None
    assert ask(text_of("vitest", "red_run"), "vitest watch", 1) is None


def test_near_miss_truncated_and_unexplained_status():
    assert ask(cut_tail(text_of("vitest", "red_run"), 5), "vitest run vtests", 1) is None
    assert ask(text_of("vitest", "green_run"), "vitest run vgreen", 1) is None
