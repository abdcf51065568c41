"""jest: facts survive, noise is dropped, near misses give None, snapshots hold."""

from __future__ import annotations

from fmt_test_suite import FormatterSuite, cut_tail, other, text_of
from sqz_formatters_test import js_jest as formatter

suite = FormatterSuite(formatter, "jest")
run, ask = suite.run, suite.ask
globals().update(suite.standard_tests(
    complete={'green_default', 'red_color', 'red_default', 'red_verbose'},
    ratios={'red_verbose': 0.6, 'red_default': 0.72, 'green_default': 0.53}))


def test_near_miss_other_runners():
    assert ask(text_of("vitest", "red_run"), "jest", 1) is None
    assert ask(text_of("pytest", "red_default"), "jest", 1) is None


def test_near_miss_truncated_and_unexplained_status():
    assert ask(cut_tail(text_of("jest", "red_default"), 5), "jest jtests", 1) is None
    assert ask(text_of("jest", "green_default"), "jest jgreen", 1) is None


def test_suite_that_failed_to_run_is_kept():
    out = run(other("jest", "red_default"))
    assert "FAIL jtests/broken.test.js" in out and "Test suite failed to run" in out


def test_code_frame_keeps_the_failing_statement_and_every_stack_line():
    """The `>` line of a code frame and every `at` line stay; echoed context and carets go."""
    fx = other("jest", "red_default")
    text, out = fx.request().text, run(fx)
    for line in text.splitlines():
        stripped = line.strip()
        if stripped.startswith("at ") or stripped.startswith("> ") or stripped.startswith("●"):
            assert line in out.splitlines(), line
    assert "      10 |   test(\"objects\", () => {" in text and "10 |" not in out
    assert not any(x.strip().startswith("|") for x in out.splitlines())
    assert "Expected: 5" in out and "Received: 4" in out
