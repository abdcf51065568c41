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
    assert "50% tests passed, 3 tests failed out of 6" in out  # counts the passing tests
    assert "Passed" not in out and "Start " not in out and "(+ 3 passed)" not in out


def test_header_and_rerun_advice_go_the_log_path_stays():
    out = run(fixture("ctest_fail"))
    assert "Test project /tmp/sqz-capture/cmakeproj/build" not in out
    assert "--rerun-failed" not in out and "Total Test time" not in out
    assert "Output from these tests are in: /tmp/sqz-capture/cmakeproj/build/Testing/Temporary/LastTest.log" in out
    assert "6/6 Test #6: negatives ........................***Exception: SegFault  0.00 sec" in out


def test_truncated_run_is_refused():
    text = fixture("ctest_fail").request().text
    assert ask(cut(text, 0.5), "ctest --test-dir build", None) is None


def test_extra_verbose_run_is_not_ours():
    text = fixture("ctest_fail").request().text
    assert ask(text, "ctest -VV --test-dir build", 8) is None


def test_cmake_output_is_not_ours():
    text = raw_text("cmake", "configure")
    assert ask(text, "ctest", 0) is None
