"""ctest formatter on real captured runs."""

from __future__ import annotations

from fmt_test_suite import FormatterSuite, cut, raw_text
from sqz_formatters_test import c_ctest as formatter

suite = FormatterSuite(formatter, "ctest")
run, fixture, ask = suite.run, suite.fixture, suite.ask
globals().update(suite.standard_tests(at_least=3))


def test_failure_output_is_kept():
    out = run(fixture("ctest_output_on_failure"))
    assert "test_counts: expected 3 words, got 2" in out
    assert "(+ 3 passed)" in out


def test_truncated_run_is_refused():
    text = fixture("ctest_fail").request().text
    assert ask(cut(text, 0.5), "ctest --test-dir build", None) is None


def test_verbose_run_is_not_ours():
    text = fixture("ctest_fail").request().text
    assert ask(text, "ctest -V --test-dir build", 8) is None


def test_cmake_output_is_not_ours():
    text = raw_text("cmake", "configure")
    assert ask(text, "ctest", 0) is None
