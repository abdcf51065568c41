"""tsc: facts survive, noise is dropped, near misses give None, snapshots hold."""

from __future__ import annotations

from fmt_test_suite import FormatterSuite, text_of
from sqz_formatters_test import js_tsc as formatter

# refused: outputs with nothing to win or not ours: the formatter must answer None
suite = FormatterSuite(formatter, "tsc", refused={'clean'})
ask = suite.ask
globals().update(suite.standard_tests(
    complete={'clean', 'errors', 'errors_pretty', 'multi_file', 'multi_file_pretty'},
    ratios={'errors_pretty': 0.6, 'multi_file_pretty': 0.55, 'multi_file': 0.87, 'errors': 0.93}))


def test_near_miss_other_tools_and_modes():
    assert ask(text_of("mypy", "errors_pretty"), "tsc --pretty", 1) is None
    assert ask(text_of("eslint", "errors"), "tsc", 1) is None
    assert ask(text_of("tsc", "errors_pretty"), "tsc --watch --pretty", 1) is None
