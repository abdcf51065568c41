"""tox / nox: facts survive, noise is dropped, near misses give None, snapshots hold."""

from __future__ import annotations

from fmt_test_suite import FormatterSuite, cut_tail, text_of
from sqz_formatters_test import py_tox as formatter

suite = FormatterSuite(formatter, "tox")
ask = suite.ask
globals().update(suite.standard_tests(
    complete={'green_env', 'nox_red', 'red_envs'},
    ratios={'red_envs': 0.84, 'nox_red': 0.78, 'green_env': 0.62}))


def test_near_miss_plain_pytest_output():
    assert ask(text_of("pytest", "red_default"), "tox", 1) is None


def test_near_miss_nox_output_under_tox_and_back():
    assert ask(text_of("tox", "nox_red"), "tox", 1) is None
    assert ask(text_of("tox", "red_envs"), "nox", 1) is None


def test_near_miss_truncated_run():
    assert ask(cut_tail(text_of("tox", "red_envs"), 1), "tox", 1) is None
    assert ask(cut_tail(text_of("tox", "nox_red"), 4), "nox", 1) is None
