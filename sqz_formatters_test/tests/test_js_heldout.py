"""Held-out JS test-runner captures (large jest/vitest/node suites, coverage tables): what survives, what goes.

The fixtures (jest/big_red_*, jest/green_coverage, vitest/big_red_run, vitest/green_coverage,
node/big_red_*, node/green_coverage_tap) are real runs over real libraries captured by
scripts/capture_python_js.py; the family modules check their facts and snapshots, this one the
specific renderings, plus damaged input.
"""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from fmt_test_suite import cut_tail, other, text_of
from sqz_formatters_test import js_jest, js_node_test, js_vitest
from sqz_formatters_test.js_jest import compact_coverage_tables


def _jest(name):
    return js_jest.sqz_format(request=other("jest", name).request())


def _vitest(name):
    return js_vitest.sqz_format(request=other("vitest", name).request())


def _node(name):
    return js_node_test.sqz_format(request=other("node", name).request())


# ---------------------------------------------------------------- jest

def test_jest_big_keeps_every_title_and_located_frame():
    text, out = text_of("jest", "big_red_ci"), _jest("big_red_ci")
    for line in text.splitlines():
        s = line.strip()
        if s.startswith(("●", "FAIL ")) or re.match(r"^at .*:\d+:\d+\)$", s):
            assert s in out, s
    assert "Tests:       12 failed, 171 passed, 183 total" in out


def test_jest_passing_suite_heading_console_output_stays():
    out = _jest("big_red_ci").splitlines()
    # the console block is attributed to its (passing) suite, not to the failing suite printed before it
    k = out.index("PASS jbig/logging.test.js")
    assert out[k + 1].strip() == "● Console"
    assert "processed 100 items in 3 batches" in "\n".join(out[k:])
    # passing suites without console output still go (the summary counts them)
    assert "PASS jcov/report.test.js" not in _jest("green_coverage")


def test_jest_cause_repeating_the_message_is_said_once():
    text, out = text_of("jest", "big_red_ci"), _jest("big_red_ci")
    assert text.count('thrown: "Exceeded timeout of 150 ms for a test.') == 2
    assert out.count('thrown: "Exceeded timeout of 150 ms for a test.') == 1
    assert "    Cause: (the message above)" in out.splitlines()
    # the cause's own location is kept
    assert "at test (jbig/clock.test.js:27:3)" in out


def test_jest_cause_with_a_different_message_is_kept_whole():
    # the message under `Cause:` (indented by 8) differs from the one under the title (indented by 4)
    text = text_of("jest", "big_red_ci").replace(
        '        thrown: "Exceeded timeout of 150 ms for a test.', '        thrown: "socket hang up', 1)
    assert '    thrown: "Exceeded timeout of 150 ms for a test.' in text
    out = js_jest.sqz_format(request=_req(text, "jest --ci jbig", 1))
    assert "Cause:" in out and "(the message above)" not in out
    assert 'thrown: "socket hang up' in out


def test_jest_ci_snapshot_advice_goes_the_fact_stays():
    out = _jest("big_red_ci")
    assert "New snapshot was not written. The update flag must be explicitly passed to write a new snapshot." in out
    assert "This is likely because this test is run in a continuous integration" not in out


def test_jest_coverage_table_rows_kept_borders_dropped():
    text, out = text_of("jest", "green_coverage"), _jest("green_coverage")
    assert "------------|---------|" in text and "---|" not in out
    assert "File | % Stmts | % Branch | % Funcs | % Lines | Uncovered Line #s" in out
    assert " clock.js | 60 | 66.66 | 25 | 61.53 | 14-22" in out.splitlines()
    assert "All files | 59.45 | 40 | 57.14 | 56.25 |" in out.splitlines()


def test_jest_truncated_big_run_is_refused():
    assert js_jest.sqz_format(request=_req(cut_tail(text_of("jest", "big_red_ci"), 6), "jest --ci jbig", 1)) is None


# ---------------------------------------------------------------- coverage tables (shared by jest, vitest, node)

def test_coverage_table_nested_directories_keep_their_indent():
    lines = ["----------|---------", "File      | % Stmts ", "----------|---------", "All files |   50 ",
             " src      |   50 ", "  a.js    |   40 ", "----------|---------"]
    assert compact_coverage_tables(lines) == ["File | % Stmts", "All files | 50", " src | 50", "  a.js | 40"]


def test_coverage_table_row_with_other_cell_count_ends_the_table():
    lines = ["File | % Stmts | % Lines", "a.js | 10 | 20", "note: a | b", "c.js |   1 |   2"]
    out = compact_coverage_tables(lines)
    assert out[:2] == ["File | % Stmts | % Lines", "a.js | 10 | 20"]
    assert out[2:] == ["note: a | b", "c.js |   1 |   2"]  # after the table: as printed


def test_dashes_without_a_table_stay():
    lines = ["----------", "some text", "----------|------"]
    assert compact_coverage_tables(lines) == lines


_CELL = st.text(alphabet="abc.-%| #ℹ0123456789", max_size=12)


@settings(max_examples=200, deadline=None)
@given(st.lists(_CELL, max_size=30))
def test_coverage_squeeze_never_invents_or_crashes(lines):
    out = compact_coverage_tables(lines)
    assert len(out) <= len(lines)
    if not any(js_jest._COV_HEADER.match(x) for x in lines):
        assert out == lines
    # every kept line's non-space text is the same text as some input line's (only padding and borders change)
    squeezed_inputs = {re.sub(r"[ |]", "", x) for x in lines}
    for x in out:
        assert re.sub(r"[ |]", "", x) in squeezed_inputs


# ---------------------------------------------------------------- vitest

def test_vitest_unhandled_error_keeps_error_file_and_test_drops_advice():
    out = _vitest("big_red_run")
    assert "⎯ Unhandled Rejection ⎯" in out.splitlines()
    assert "Error: late webhook failure: ECONNRESET" in out
    assert "❯ Timeout._onTimeout vbig/log.test.mjs:15:37" in out
    assert 'This error originated in "vbig/log.test.mjs" test file.' in out.splitlines()
    assert 'The latest test that might\'ve caused the error is "late rejection".' in out.splitlines()
    assert "Vitest caught 1 unhandled error during the test run." in out
    for advice in ("This might cause false positive tests.", "It doesn't mean the error was thrown inside",
                   "It might mean one of the following", "- The error was thrown, while Vitest",
                   "- If the error occurred after the test had been completed"):
        assert advice not in out, advice
    assert not any(set(x) == {"⎯"} for x in out.splitlines())


def test_vitest_failing_file_ticks_and_skips():
    out = _vitest("big_red_run")
    assert "   × coupons > rejects unknown codes 5ms" in out.splitlines()
    assert "     → unknown coupon FREE" in out.splitlines()
    assert "   ↓ with a broken fixture > counts stock" in out.splitlines()
    assert "✓ total > line 0 totals qty*price" not in out
    assert "Start at" not in out and "   Duration  2.83s" in out.splitlines()


def test_vitest_coverage_table_squeezed():
    out = _vitest("green_coverage")
    assert " cart.mjs | 69.23 | 75 | 66.66 | 69.23 | 9-10,15-16" in out.splitlines()
    assert "-----" not in out


def test_vitest_truncated_big_run_is_refused():
    cut = cut_tail(text_of("vitest", "big_red_run"), 8)
    assert js_vitest.sqz_format(request=_req(cut, "vitest run vbig", 1)) is None


# ---------------------------------------------------------------- node --test

def test_node_tap_drops_timings_generic_code_and_repeated_names():
    text, out = text_of("node", "big_red_tap"), _node("big_red_tap")
    assert "duration_ms: 0.465461" in text and "duration_ms:" not in out
    assert "code: 'ERR_TEST_FAILURE'" in text and "code: 'ERR_TEST_FAILURE'" not in out
    assert "      code: 'ERR_ASSERTION'" in out.splitlines()   # an assertion's own code stays
    assert "    # Subtest: parses a truncated record" not in out
    assert "    not ok 81 - parses a truncated record" in out.splitlines()
    # a suite's header stays: its failing children sit between it and its own result line
    assert "# Subtest: JSON round trip" in out.splitlines()
    assert "# duration_ms 1162.556106" in out.splitlines()   # the run's total is a count line, kept


def test_node_spec_big_run_keeps_failures_and_folds_node_frames():
    out = _node("big_red_spec")
    assert "✔ parses record 0" not in out
    assert out.startswith("(+ 141 passing tests not listed)")
    assert "at TestContext.<anonymous> (file:///tmp/sqz-capture/pyjs/jsbig/nbig/parse.test.mjs:13:10)" in out
    assert "node:internal/test_runner/test:796:25" not in out


def test_node_coverage_in_tap_comments_squeezed():
    out = _node("green_coverage_tap")
    assert "# ncov/lib/queue.mjs | 64.71 | 80.00 | 75.00 | 12-17" in out.splitlines()
    assert "# all files | 78.57 | 88.89 | 80.00 |" in out.splitlines()
    assert "# -----" not in out
    assert "# start of coverage report" in out and "# end of coverage report" in out


def test_lone_node_frame_stays_as_printed_runs_fold():
    lines = ["Error: x", "    at Object.readdirSync (node:fs:1521:26)", "    at main (/app/m.js:8:17)",
             "    at Module._compile (node:internal/modules/cjs/loader:1521:14)",
             "    at Function.executeUserEntryPoint [as runMain] (node:internal/modules/run_main:164:12)",
             "    at node:internal/main/run_main_module:28:49 {", "  code: 'ENOENT'", "}"]
    out = js_node_test.fold_node_frames(lines)
    assert out[1] == "    at Object.readdirSync (node:fs:1521:26)"
    assert out[2] == "    at main (/app/m.js:8:17)"
    assert out[3] == ("    [3 frames in node:internal/modules/cjs/loader, node:internal/modules/run_main, "
                      "node:internal/main/run_main_module] {")
    assert out[4:] == ["  code: 'ENOENT'", "}"]


def test_node_tap_cut_before_counts_is_refused():
    text = text_of("node", "big_red_tap")
    cut = text[:text.index("# tests 147")]
    assert js_node_test.sqz_format(request=_req(cut, "node --test nbig/", 1)) is None


def _req(text, command, exit_code):
    from sqz_core import FormatRequest
    return FormatRequest(text, command, exit_code=exit_code)


def test_jest_verbose_console_before_its_passing_suite_keeps_the_suite_line():
    """--verbose prints a suite's console output before the suite's own PASS line."""
    out = _jest("big_red_verbose").splitlines()
    k = out.index("PASS jbig/logging.test.js")
    assert any(x.strip() == "console.warn" for x in out[k - 8:k])
    assert "PASS jbig/logging.test.js" in text_of("jest", "big_red_verbose")


def test_jest_verbose_all_passing_describe_goes_failing_ones_stay():
    text, out = text_of("jest", "big_red_verbose"), _jest("big_red_verbose")
    assert "\n  chunking\n" in text and "\n  chunking\n" not in out
    lines = out.splitlines()
    # describe blocks holding a failure keep their line and the ✕ under it
    k = lines.index("  ranges")
    assert lines[k + 1] == "    ✕ caret on zero major is narrow (5 ms)"


def test_jest_verbose_describe_with_a_skip_stays():
    text = ("FAIL a.test.js\n  outer\n    ✓ one (1 ms)\n    ○ skipped two\n  inner\n    ✓ three\n\n"
            "  ● x › y\n\n    boom\n\n      at Object.<anonymous> (a.test.js:1:1)\n\n"
            "Test Suites: 1 failed, 1 total\nTests:       1 failed, 1 skipped, 2 passed, 4 total\n")
    out = js_jest.sqz_format(request=_req(text, "jest --verbose", 1))
    assert "  outer\n    ○ skipped two\n" in out
    assert "  inner" not in out and "✓" not in out
