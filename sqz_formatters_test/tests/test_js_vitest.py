"""vitest: facts survive, noise is dropped, near misses give None, snapshots hold."""

from __future__ import annotations

from fmt_test_suite import FormatterSuite, cut_tail, text_of
from sqz_formatters_test import js_vitest as formatter

suite = FormatterSuite(formatter, "vitest")
ask = suite.ask
globals().update(suite.standard_tests(
    complete={'green_run', 'red_run', 'red_verbose'},
    ratios={'red_run': 0.65, 'red_verbose': 0.48, 'green_run': 0.69}))


def test_near_miss_other_runners_and_watch_mode():
    assert ask(text_of("jest", "red_default"), "vitest run", 1) is None
    assert ask(text_of("vitest", "red_run"), "vitest watch", 1) is None


def test_near_miss_truncated_and_unexplained_status():
    assert ask(cut_tail(text_of("vitest", "red_run"), 5), "vitest run vtests", 1) is None
    assert ask(text_of("vitest", "green_run"), "vitest run vgreen", 1) is None


def test_code_frame_goes_every_location_stays():
    """Each ❯ location, error and FAIL line stays; a code frame a ❯ location above locates goes whole."""
    from fmt_test_suite import other

    fx = other("vitest", "red_run")
    text, out = fx.request().text, suite.run(fx)
    lines = text.splitlines()
    for line in lines:
        if line.startswith((" ❯ ", " FAIL ", "Caused by: ")) or "Error: " in line:
            assert line in out.splitlines(), line
    assert "     10|   });" in text and "10|" not in out
    assert "      9|     expect(add(2, 2)).toBe(5);" in text and "expect(add(2, 2))" not in out
    assert not any(formatter._CARET.match(x) or formatter._FRAME_LINE.match(x) for x in out.splitlines())
    assert "[1/4]" not in out and "⎯ Failed Tests 3 ⎯" in out


def test_pointed_line_without_a_location_above_stays():
    text = ("⎯⎯⎯ Failed Tests 1 ⎯⎯⎯\n\n FAIL  t/a.test.js > a\nError: boom\n      3|   x();\n"
            "       |   ^\n\n Test Files  1 failed (1)\n      Tests  1 failed (1)\n")
    out = suite.ask(text, "vitest run", 1)
    assert "      3|   x();" in out and "|   ^" not in out


def test_green_run_keeps_counts_and_total_duration():
    out = suite.run(suite.fixture("green_run"))
    assert out.splitlines() == [" Test Files  2 passed (2)", "      Tests  42 passed (42)", "   Duration  449ms"]
