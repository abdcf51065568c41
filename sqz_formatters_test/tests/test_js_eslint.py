"""eslint: facts survive, noise is dropped, near misses give None, snapshots hold."""

from __future__ import annotations

from fmt_test_suite import FormatterSuite, cut_tail, text_of
from sqz_formatters_test import js_eslint as formatter

# refused: outputs with nothing to win or not ours: the formatter must answer None
suite = FormatterSuite(formatter, "eslint", refused={'clean'})
ask = suite.ask
globals().update(suite.standard_tests(complete={'clean', 'errors', 'errors_color', 'multi_file'},
                                      ratios={'errors': 0.91, 'multi_file': 0.9}))


def test_near_miss_other_formats_and_tools():
    assert ask(text_of("eslint", "errors"), "eslint -f json lint", 1) is None
    assert ask(text_of("eslint", "errors"), "eslint --format=compact lint", 1) is None
    assert ask(text_of("tsc", "errors"), "eslint lint", 1) is None


def test_near_miss_truncated_report():
    assert ask(cut_tail(text_of("eslint", "errors"), 3), "eslint lint", 1) is None
