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


def test_code_frame_goes_every_stack_line_stays():
    """Every `at` line and title stays; the code frame (context, caret, `>` statement) goes."""
    fx = other("jest", "red_default")
    text, out = fx.request().text, run(fx)
    for line in text.splitlines():
        stripped = line.strip()
        if stripped.startswith("at ") or stripped.startswith("●"):
            assert line in out.splitlines(), line
    assert "      10 |   test(\"objects\", () => {" in text and "10 |" not in out
    assert "    >  8 |     expect(add(2, 2)).toBe(5);" in text and "expect(add(2, 2))" not in out
    assert not any(x.strip().startswith(("|", ">")) for x in out.splitlines())
    assert "Expected: 5" in out and "Received: 4" in out
    assert "      at Object.toBe (jtests/math.test.js:8:23)" in out  # where the `>` line was


def test_failing_statement_without_a_location_below_stays():
    text = ("FAIL t/a.test.js\n  ● a › b\n\n    boom\n\n    > 3 |   x();\n        |   ^\n\n"
            "Test Suites: 1 failed, 1 total\nTests:       1 failed, 1 total\n")
    out = ask(text, "jest", 1)
    assert "    > 3 |   x();" in out and "|   ^" not in out


def test_passing_suites_and_ticks_go_the_counts_stay():
    out = run(other("jest", "red_verbose"))
    assert "PASS " not in out and "✓" not in out and "not listed" not in out
    assert "✕ adds wrongly (2 ms)" in out and "○ skipped later" in out
    assert "Tests:       3 failed, 1 skipped, 39 passed, 43 total" in out


def test_count_lines_need_their_separators_so_no_line_splits_many_ways():
    from sqz_formatters_test import js_jest, js_vitest

    assert js_jest._SUITES.match("Test Suites: 1 failed, 1 of 4 total")
    assert js_jest._TESTS.match("Tests:       2 failed, 9 passed, 11 total")
    assert js_vitest._FILES.match(" Test Files  2 failed | 1 passed (3)")
    assert js_vitest._TESTS.match("      Tests  3 failed | 12 passed (15)")
    assert js_vitest._DURATION.match("   Duration  1.21s (transform 80ms, setup 0ms, collect 210ms, tests 35ms)")
    # items run together are not counts; with the separator optional and \w for the word, a line like
    # this one split 2^30 ways before the match gave up
    for head in ("Test Suites: ", "Tests: ", " Test Files  ", "      Tests  "):
        line = head + "1 a1" * 30 + "!"
        assert not (js_jest._SUITES.match(line) or js_jest._TESTS.match(line) or js_vitest._FILES.match(line)
                    or js_vitest._TESTS.match(line))
    assert not js_jest._TESTS.match("Tests: 2 failed9 passed")
