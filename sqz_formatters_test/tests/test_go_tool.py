"""go test (plain, -v, -json), go build and go vet formatter on real captured runs."""

from __future__ import annotations

import pytest

from fmt_test_suite import FormatterSuite, assert_whole, cut, raw_text
from sqz_formatters_test import go_tool as formatter

suite = FormatterSuite(formatter, "go")
run, fixture, ask = suite.run, suite.fixture, suite.ask
globals().update(suite.standard_tests(at_least=7))


@pytest.mark.parametrize("name", ["test_fail", "test_verbose_fail"])
def test_panic_keeps_the_programs_frames_and_names_the_runtimes(name):
    fx = fixture(name)
    out = run(fx)
    text = fx.request().text
    lines = text.splitlines()
    start = next(k for k, x in enumerate(lines) if x.startswith("panic: "))
    assert lines[start] == "panic: runtime error: integer divide by zero [recovered]"
    assert lines[start] in out.splitlines()  # the panic message, verbatim; its word-for-word repeat goes
    assert lines[start + 1] == "\tpanic: runtime error: integer divide by zero" and lines[start + 1] not in out
    for k, line in enumerate(lines):  # every frame of the program: function and file:line, together
        if line.startswith("example.com/calc."):
            assert f"{line}\n{lines[k + 1]}\n" in out
    # runs of only the test harness's frames are counted, not named
    assert "\t[3 Go runtime frames]" in out and "\t[2 Go runtime frames]" in out
    assert "tRunner" not in out
    assert "/usr/lib/go-1.19/src/testing/testing.go" not in out
    assert "=== RUN   TestWords" not in out and "--- PASS: TestWords " not in out


def test_a_failing_subtest_names_its_parent():
    out = run(fixture("test_fail"))
    lines = out.splitlines()
    assert "--- FAIL: TestDivTable (0.00s)" not in lines
    assert "    --- FAIL: TestDivTable/7/2 (0.00s)" in lines
    assert "--- FAIL: TestAddWrong (0.00s)" in lines  # a test without subtests keeps its line
    assert lines[-1] == "ok  \texample.com/calc/strutil\t(cached)"  # the bare FAIL after the package's goes
    assert "FAIL\texample.com/calc\t0.005s" in lines


def test_runtime_frames_other_than_the_harness_stay_named():
    out = run(fixture("test_timeout"))
    assert "\t[2 Go runtime frames: sync.runtime_Semacquire(), sync.(*WaitGroup).Wait()]" in out
    assert "goroutine 33 [running]:" in out.splitlines()  # a dump of several goroutines keeps each header


def test_one_goroutine_panic_loses_its_running_header():
    fx = fixture("test_fail")
    out = run(fx)
    assert "goroutine 56 [running]:" in fx.request().text and "goroutine" not in out
    assert "panic: runtime error: integer divide by zero [recovered]\n\t[3 Go runtime frames]\n" in out


def test_build_failure_is_not_a_pass():
    out = run(fixture("test_build_failed"))
    assert "FAIL\texample.com/calc [build failed]" in out
    assert "./describe.go:11:32: undefined: missing" in out


def test_json_is_rendered_as_plain_text():
    out = run(fixture("test_json_fail"))
    assert '"Action"' not in out
    assert "calc_test.go:75: Div(7, 2) = 3, <nil>; want 4" in out
    assert "TestAddTable/case01" not in out


def test_truncated_json_is_refused():
    text = fixture("test_json_fail").request().text
    half = text[: len(text) // 2]
    assert ask(half, "go test -json ./...", None) is None


def test_truncated_verbose_run_is_refused():
    text = fixture("test_verbose_green").request().text
    assert ask(cut(text, 0.3), "go test -v ./...", None) is None


def test_cargo_output_is_not_ours():
    text = raw_text("cargo", "test_fail")
    assert ask(text, "go test ./...", 1) is None


def test_other_verbs_and_shapes_are_not_ours():
    text = fixture("test_verbose_green").request().text
    for cmd in ("go run .", "go mod tidy", "go test -list . ./..."):
        assert ask(text, cmd, 0) is None


def test_timeout_dump_names_every_goroutine_and_shows_each_stack_once():
    """`go test -timeout` (a real deadlock): every goroutine id and state survives, a stack repeated
    by idle workers is shown once, the program's frames keep their locations."""
    import re as _re

    fx = fixture("test_timeout")
    text, out = fx.request().text, run(fx)
    heads = _re.findall(r"^goroutine (\d+) \[([^\]]+)\]:$", text, _re.M)
    assert len(heads) >= 10
    for gid, state in heads:
        assert (f"goroutine {gid} [{state}]:" in out
                or _re.search(rf"^goroutines? (\d+, )*{gid}(, \d+)* \[{_re.escape(state)}\]: the same stack as goroutine \d+$",
                              out, _re.M)), gid
    for line in text.splitlines():
        if "/tmp/sqz-capture/gopool/" in line or line.startswith("example.com/pool."):
            assert line in out.splitlines(), line
    assert out.count("example.com/pool.(*Pool).work(") == 2  # one stack per pool (their pointers differ)
    assert "/usr/lib/go-1.19/src/" not in out
    assert "FAIL\texample.com/pool\t" in out and "panic: test timed out after 5s" in out
    assert len(out) < len(text) * 0.4


def test_parent_fail_line_stays_when_it_took_longer_than_its_subtest():
    """issue 25: ``--- FAIL: TestSlugEmpty (0.03s)`` says a duration its ``/tab`` subtest's line does not."""
    lines = run(fixture("fam_v_parent_slower")).splitlines()
    at = lines.index("--- FAIL: TestSlugEmpty (0.03s)")
    assert lines[at + 1] == "    --- FAIL: TestSlugEmpty/tab (0.00s)"
    assert "--- PASS: TestSlugEmpty/blank (0.03s)" not in lines and "=== RUN   TestSlugEmpty" not in lines


def test_parent_fail_line_with_its_subtests_duration_still_goes():
    text = ("=== RUN   TestX\n=== RUN   TestX/a\n    x_test.go:9: bad\n--- FAIL: TestX (0.00s)\n"
            "    --- FAIL: TestX/a (0.00s)\nFAIL\nFAIL\texample.org/x\t0.002s\nFAIL\n")
    lines = ask(text, "go test -v ./...", 1).splitlines()
    assert "--- FAIL: TestX (0.00s)" not in lines and "    --- FAIL: TestX/a (0.00s)" in lines
