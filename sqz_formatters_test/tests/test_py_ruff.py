"""ruff check: facts survive, noise is dropped, near misses give None, snapshots hold."""

from __future__ import annotations

from fmt_test_suite import FormatterSuite, cut_tail, text_of
from sqz_formatters_test import py_ruff as formatter

# refused: outputs with nothing to win or not ours: the formatter must answer None
suite = FormatterSuite(formatter, "ruff", refused={'check_clean'})
ask = suite.ask
globals().update(suite.standard_tests(
    complete={'check_clean', 'check_concise', 'check_errors', 'check_select_all', 'multi_file_concise',
              'multi_file_full'},
    ratios={'check_errors': 0.31, 'check_select_all': 0.4, 'multi_file_full': 0.25, 'multi_file_concise': 0.86,
            'check_concise': 0.92}))


def test_near_miss_other_formats_and_subcommands():
    text = text_of("ruff", "check_errors")
    assert ask(text, "ruff check --output-format=json lint", 1) is None
    assert ask(text, "ruff check --statistics lint", 1) is None
    assert ask(text, "ruff format lint", 1) is None


def test_near_miss_other_tools_and_truncation():
    assert ask(text_of("mypy", "errors"), "ruff check", 1) is None
    assert ask(cut_tail(text_of("ruff", "check_errors"), 2), "ruff check lint", 1) is None
