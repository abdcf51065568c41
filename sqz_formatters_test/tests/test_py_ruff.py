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


def test_help_kept_only_when_it_names_new_code():
    out = ask(text_of("ruff", "check_select_all"), "ruff check --select ALL lint", 1)
    lines = out.splitlines()
    # a help quoting code the message lacks stays, right under its diagnostic
    i = lines.index("lint/util.py:4:17: B006 Do not use mutable data structures for argument defaults")
    assert lines[i + 1] == "  help: Replace with `None`; initialize within function"
    j = lines.index("lint/app.py:6:5: ANN201 Missing return type annotation for public function `main`")
    assert lines[j + 1] == "  help: Add return type annotation: `int`"
    # a help that repeats its message goes
    assert "Remove unused import: `os`" not in out
    assert "help: Replace with `cond is None`" not in out
    assert "help: Remove `print`" not in out
