"""Held-out pass #2 (``h2_*``): ctest ``-V`` runs and ``go test -v`` subtest trees.

- ctest -V: a passing test's numbered lines go with its result line; a failing test keeps its
  command, directory and output; set-up chatter and the passed-tests list go; a run whose last
  test printed but never reported gives None.
- go test -v: log lines, printed under ``=== RUN`` as they are made, move under their test's
  ``--- FAIL`` line (the plain layout); lines of a test that never reports stay where they were.
"""

from __future__ import annotations

from fmt_test_suite import other
from sqz_core import FormatRequest
from sqz_testing import missing_facts

from sqz_formatters_test import c_ctest, go_tool


def _run(module, family, name, command=None):
    fx = other(family, name)
    text = fx.request().text
    return text, module.sqz_format(request=FormatRequest(text, command or fx.command, exit_code=fx.meta.get("exit_code")))


def test_ctest_verbose_keeps_the_failed_test_whole_and_drops_passes():
    fx = other("ctest", "h2_lua_ctest_verbose")
    text, out = _run(c_ctest, "ctest", "h2_lua_ctest_verbose")
    assert missing_facts(out, fx.facts) == []
    assert '2: Test command: /tmp/sqz-capture/h2-luacm-ctest/build/lua "-W" "-e" "_U=true" "math.lua"' in out
    assert "2: \tmath.lua:655: in main chunk" in out
    assert "3: testing sort" not in out and "15: testing bitwise operations" not in out
    assert "UpdateCTestConfiguration" not in out and "Checking test dependency graph" not in out
    assert "The following tests passed:" not in out and "\tbitwise" not in out
    assert "67% tests passed, 1 tests failed out of 3" in out       # the count of the passes stays
    assert len(out) < len(text) * 0.5


def test_ctest_verbose_cut_after_a_test_printed_is_refused():
    text = other("ctest", "h2_lua_ctest_verbose").request().text
    cut = text[:text.index("2/3 Test  #3: sort")]                   # sort printed, no result line
    cut += "\n67% tests passed, 1 tests failed out of 3\n"
    req = FormatRequest(cut, "ctest -V", exit_code=8)
    assert c_ctest.sqz_format(request=req) is None


def test_ctest_extra_verbose_is_still_not_ours():
    text = other("ctest", "h2_lua_ctest_verbose").request().text
    assert c_ctest.sqz_format(request=FormatRequest(text, "ctest -VV", exit_code=8)) is None


def test_go_verbose_log_lines_sit_under_their_own_subtest():
    # -v prints a log line under `=== RUN   TestRead/TrimSpace`, the FAIL line much later: the
    # rendering puts the message under the FAIL line of the test that logged it
    fx = other("go", "h2_gostd_v_race_subtests")
    text, out = _run(go_tool, "go", "h2_gostd_v_race_subtests")
    assert missing_facts(out, fx.facts) == []
    for header, line in (("TestRead/TrimSpace", "reader_test.go:442: ReadAll() output:"),
                         ("TestRead/TrimQuote", "reader_test.go:439: unexpected Readall() error"),
                         ("TestShouldEscape", "url_test.go:1729: shouldEscape('~', 1) returned true; expected false")):
        fact = {"under": header, "line": line}
        assert missing_facts(text, [fact]) == []          # so in the raw run (under its RUN header)
        assert missing_facts(out, [fact]) == []           # and under its FAIL line here
    lines = out.splitlines()
    i = lines.index("    --- FAIL: TestRead/TrimSpace (0.00s)")
    assert lines[i + 1:i + 4] == ['        reader_test.go:442: ReadAll() output:',
                                  '            got  [[" a" "  b" "   c"]]', '            want [["a" "b" "c"]]']
    assert "=== RUN" not in out and "--- PASS" not in out
    # issue 25: the parent took 0.04s, its failing subtest 0.00s: the parent's own line stays
    assert lines[i - 1] == "--- FAIL: TestRead (0.04s)"


def test_go_verbose_output_of_a_test_that_never_reports_stays_in_place():
    text = ("=== RUN   TestA\n    a_test.go:3: first\n=== RUN   TestB\n    b_test.go:9: boom\n"
            "--- FAIL: TestA (0.00s)\nFAIL\nFAIL\texample.com/ab\t0.002s\nFAIL\n")
    out = go_tool.sqz_format(request=FormatRequest(text, "go test -v ./...", exit_code=1))
    lines = out.splitlines()
    assert lines[:2] == ["--- FAIL: TestA (0.00s)", "    a_test.go:3: first"]
    assert "    b_test.go:9: boom" in lines                # TestB's line is not dropped nor given to TestA
    assert lines.index("    b_test.go:9: boom") > lines.index("    a_test.go:3: first")


def test_go_plain_layout_still_drops_the_implied_parent():
    text = ("--- FAIL: TestDiv (0.00s)\n    --- FAIL: TestDiv/7/2 (0.00s)\n"
            "        calc_test.go:75: Div(7, 2) = 3; want 4\nFAIL\nFAIL\texample.com/calc\t0.002s\nFAIL\n")
    out = go_tool.sqz_format(request=FormatRequest(text, "go test ./...", exit_code=1))
    assert "--- FAIL: TestDiv (" not in out
    assert "--- FAIL: TestDiv/7/2 (0.00s)" in out and "calc_test.go:75: Div(7, 2) = 3; want 4" in out


def test_go_json_failures_render_as_text():
    fx = other("go", "h2_gostd_json_fail")
    text, out = _run(go_tool, "go", "h2_gostd_json_fail")
    assert missing_facts(out, fx.facts) == []
    assert '"Action"' not in out and "--- PASS" not in out
    assert len(out) < len(text) * 0.1


def test_go_bench_keeps_every_figure_without_the_column_padding():
    fx = other("go", "h2_gostd_bench")
    text, out = _run(go_tool, "go", "h2_gostd_bench")
    assert missing_facts(out, fx.facts) == []
    lines = out.splitlines()
    assert "BenchmarkRead-2 792504 3044 ns/op 664 B/op 16 allocs/op" in lines
    assert "BenchmarkEncode/256-2 1746913 588.9 ns/op 434.68 MB/s 0 B/op 0 allocs/op" in lines
    # the machine header once, each package's `pkg:` line and result stay
    assert lines.count("goos: linux") == 1 and lines.count("cpu: AMD EPYC") == 1
    assert [l for l in lines if l.startswith("pkg: ")] == [
        "pkg: example.com/h2std/csv", "pkg: example.com/h2std/hex", "pkg: example.com/h2std/url"]
    assert sum(l.startswith("ok  \texample.com/h2std/") for l in lines) == 3
    figures = [l.split()[1:] for l in text.splitlines() if l.startswith("Benchmark")]
    assert figures == [l.split()[1:] for l in lines if l.startswith("Benchmark")]  # every number, in order
    assert len(out) < len(text) * 0.7


def test_go_bench_failure_is_still_reported():
    text = ("goos: linux\ngoarch: amd64\npkg: example.com/b\nBenchmarkX-2   \t  100\t  12 ns/op\n"
            "--- FAIL: BenchmarkY\n    b_test.go:9: bad setup\nFAIL\nexit status 1\nFAIL\texample.com/b\t0.01s\nFAIL\n")
    out = go_tool.sqz_format(request=FormatRequest(text, "go test -bench . ./...", exit_code=1))
    assert "--- FAIL: BenchmarkY" in out and "b_test.go:9: bad setup" in out
    assert "BenchmarkX-2 100 12 ns/op" in out and "FAIL\texample.com/b\t0.01s" in out
