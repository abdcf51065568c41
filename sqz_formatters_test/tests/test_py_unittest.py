"""python -m unittest: facts survive, noise is dropped, near misses give None, snapshots hold."""

from __future__ import annotations

from fmt_test_suite import FormatterSuite, cut_tail, other, text_of
from sqz_formatters_test import py_unittest as formatter

suite = FormatterSuite(formatter, "unittest")
run, ask = suite.run, suite.ask
globals().update(suite.standard_tests(
    complete={'green_default', 'import_error', 'red_default', 'red_verbose'},
    ratios={'red_verbose': 0.55, 'red_default': 0.97, 'green_default': 0.24}))


def test_near_miss_pytest_output():
    assert ask(text_of("pytest", "red_quiet"), "python -m unittest", 1) is None


def test_near_miss_truncated_run():
    assert ask(cut_tail(text_of("unittest", "red_default"), 2), "python -m unittest", 1) is None


def test_import_error_is_not_a_pass():
    out = run(other("unittest", "import_error"))
    assert "ModuleNotFoundError: No module named 'not_installed_module'" in out
    assert out.rstrip().endswith("FAILED (errors=1)")
