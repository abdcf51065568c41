"""flake8 (handled by ``py_ruff``): grouped by file, repeats merged; facts survive, near misses give None."""

from __future__ import annotations

import re

from fmt_test_suite import FormatterSuite, located_in_raw, listed_by_file, text_of
from sqz_formatters_test import py_ruff as formatter

suite = FormatterSuite(formatter, "flake8")
ask = suite.ask
globals().update(suite.standard_tests(at_least=2, complete={"h2_click7", "h2_colorama_cachetools"}))

_LINE = re.compile(r"^(?P<path>\S+?):(?P<loc>\d+:\d+): (?P<rest>[A-Z]+\d+ .*)$", re.MULTILINE)


def test_every_diagnostic_kept_under_its_file_once():
    """Not a sample: every ``path:line:col: CODE message`` of the raw report is under its path in the output,
    its location listed exactly once on the line that ends with its code and message."""
    for name in ("h2_click7", "h2_colorama_cachetools"):
        raw = text_of("flake8", name)
        out = ask(raw, "flake8 x")
        assert listed_by_file(out) == located_in_raw(raw, _LINE), name


def test_repeats_merge_and_distinct_messages_do_not():
    out = ask(text_of("flake8", "h2_colorama_cachetools"), "flake8 --max-line-length 100 colorama cachetools")
    raw = text_of("flake8", "h2_colorama_cachetools")
    assert len(out.splitlines()) < len(raw.splitlines()) / 2
    # F401 with different names stays one line per name
    f401 = [x for x in out.splitlines() if " F401 " in x]
    assert len(f401) == len({x.split(" F401 ", 1)[1] for x in f401})


def test_near_misses_give_none():
    raw = text_of("flake8", "h2_click7")
    assert ask(raw, "flake8 --statistics click7") is None
    assert ask(raw, "flake8 --format=pylint click7") is None
    assert ask(raw + "\n12\n", "flake8 click7") is None              # --count's total: not a diagnostic
    assert ask(raw + "Traceback (most recent call last):\n", "flake8 click7") is None
    assert ask("click7/a.py:1:1: E101 x\n", "flake8 click7") is None  # one diagnostic: nothing to group
