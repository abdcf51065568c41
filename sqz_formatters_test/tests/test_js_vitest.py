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


def test_code_frame_keeps_the_pointed_line_and_every_location():
    """Each ❯ location, error and FAIL line stays; of a code frame only the line the caret points at."""
    from fmt_test_suite import other

    fx = other("vitest", "red_run")
    text, out = fx.request().text, suite.run(fx)
    lines = text.splitlines()
    for k, line in enumerate(lines):
        if line.startswith((" ❯ ", " FAIL ", "Caused by: ")) or "Error: " in line:
            assert line in out.splitlines(), line
        if formatter._CARET.match(line):
            assert lines[k - 1] in out.splitlines()
    assert "     10|   });" in text and "10|" not in out
    assert "[1/4]" not in out and "⎯ Failed Tests 3 ⎯" in out
