"""mypy: facts survive, noise is dropped, near misses give None, snapshots hold."""

from __future__ import annotations

from fmt_test_suite import FormatterSuite, cut_tail, text_of
from sqz_formatters_test import py_mypy as formatter

# refused: outputs with nothing to win or not ours: the formatter must answer None
suite = FormatterSuite(formatter, "mypy", refused={'clean'})
ask = suite.ask
globals().update(suite.standard_tests(
    complete={'clean', 'errors', 'errors_pretty', 'multi_file'},
    ratios={'errors_pretty': 0.7, 'multi_file': 0.9, 'errors': 0.93}))


def test_near_miss_other_tools():
    assert ask(text_of("ruff", "check_concise"), "mypy .", 1) is None
    assert ask(text_of("tsc", "errors"), "mypy .", 1) is None


def test_near_miss_truncated_report():
    assert ask(cut_tail(text_of("mypy", "errors_pretty"), 1), "mypy --pretty typed", 1) is None
