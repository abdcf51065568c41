"""pytest: facts survive, noise is dropped, near misses give None, snapshots hold."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from fmt_test_suite import FormatterSuite, cut_tail, other, text_of
from sqz_testing import missing_facts
from sqz_formatters_test import py_pytest as formatter

suite = FormatterSuite(formatter, "pytest")
run, ask = suite.run, suite.ask
globals().update(suite.standard_tests(
    complete={'collect_error', 'green_default', 'green_xdist', 'red_default', 'red_report_all', 'red_tb_no', 'red_verbose', 'red_xdist'},
    ratios={'red_default': 0.7, 'red_verbose': 0.23, 'red_quiet': 0.75, 'red_xdist': 0.74, 'red_tb_no': 0.47, 'red_tb_line': 0.63, 'red_report_all': 0.5, 'green_default': 0.1, 'collect_error': 0.95, 'no_tests': 0.22}))


def test_near_miss_other_runners_output():
    assert ask(text_of("unittest", "red_default"), "pytest", 1) is None
    assert ask(text_of("jest", "red_default"), "pytest", 1) is None


def test_near_miss_truncated_run():
    assert ask(cut_tail(text_of("pytest", "red_default"), 1), "pytest red", 1) is None
    assert ask(cut_tail(text_of("pytest", "red_verbose"), 8), "pytest -v red", 1) is None


def test_near_miss_unexplained_exit_status():
    # a green summary with a failing status (e.g. a plugin failed the run): not ours to explain
    assert ask(text_of("pytest", "green_default"), "pytest green", 1) is None


def test_collection_error_is_not_reported_as_pass():
    out = run(other("pytest", "collect_error"))
    assert "Interrupted: 2 errors during collection" in out
    assert "2 errors in" in out and "passed" not in out


def test_failure_sections_keep_statements_errors_and_locations_only():
    fx = other("pytest", "red_default")
    out = run(fx)
    lines = out.splitlines()
    text = fx.request().text
    restated = {'>       raise RuntimeError("cannot connect to db")',   # E   RuntimeError: cannot connect to db
                '>       assert {"a": 1, "b": 2} == {"a": 1, "b": 3}'}  # E   AssertionError: assert {'a': 1, …
    advice = {"E         Use -v to get more diff", "E         Omitting 1 identical items, use -vv to show"}
    for line in text.splitlines():
        if line.startswith(("E ", ">")) or re.match(r"red/test_\w+\.py:\d+: ", line):
            if line in restated or line in advice:
                assert line not in lines, line
            else:
                assert line in lines, line
    assert "value = 'x'" in lines  # argument values of a long frame are kept
    # a report is headed by its FAILED summary line (which names the test) instead of its banner
    assert "_ test_exception _" not in lines
    head = lines.index("FAILED red/test_math.py::test_exception - ValueError: bad config value: 'x'")
    assert lines[head + 1:head + 4] == ['>       load_config("x")', "red/test_math.py:30:", "value = 'x'"]
    assert "_ ERROR at setup of test_uses_fixture _" in lines  # an error's banner says at which step
    assert "ERROR red/test_math.py::test_uses_fixture - RuntimeError: cannot connect to db" in lines
    assert "= FAILURES =" not in lines and "= short test summary info =" not in lines
    assert "E" not in lines  # the empty line between an assertion and its explanation
    assert "collected 163 items" in lines  # issue 25: its words are a fact, even where the outcomes add up to it
    assert "    def test_add_wrong():" not in out  # echoed source context
    assert "        if value == \"x\":" not in out
    assert "_ _ _ _" not in out and "____" not in out and "====" not in out


def test_short_frames_keep_their_statement_and_drop_carets():
    out = run(other("pytest", "collect_error"))
    assert "collect/test_broken_import.py:1: in <module>\n    from mypkg.missing import helper\n" in out
    assert "E   ModuleNotFoundError: No module named 'mypkg'" in out
    assert "E                    ^" in out  # carets inside an E line are the message
    assert "^^^^^^^^" not in out and "???" not in out
    assert "collected 10 items / 2 errors" in out  # not the sum of the final line's outcomes


def test_library_frames_keep_their_location_not_their_source():
    out = run(other("pytest", "collect_error"))
    lines = out.splitlines()
    assert "/root/.pyenv/versions/3.11.7/lib/python3.11/ast.py:50: in parse" in lines
    assert "/tmp/sqz-pyjs-tools/venv/lib/python3.11/site-packages/_pytest/pathlib.py:640: in import_path" in lines
    assert "return compile(source, filename, mode, flags," not in out
    assert "importlib.import_module(module_name)" not in out
    # the import machinery's frozen frames become one counted line
    assert "(+ 4 frozen importlib frames)" in lines and "<frozen importlib" not in out
    assert "Hint: make sure" not in out


def test_xdist_worker_platform_lines_go():
    fx = other("pytest", "red_xdist")
    out = run(fx)
    assert fx.request().text.count("[gw0] linux -- Python 3.11.7") == 5
    assert "[gw0]" not in out and "-- Python 3.11.7" not in out
    assert "2 workers [163 items]" in out.splitlines()  # issue 25: kept, though 4 + 156 + 1 + 1 + 1 = 163
    assert "_ ERROR at setup of test_uses_fixture _" in out and "_ test_split _" not in out
    assert "\nFAILED red/test_strings.py::test_split - AssertionError: assert ['a', 'b', 'c'] == ['a', 'b', 'c'...\n" \
           '>       assert "a,b,c".split(",") == ["a", "b", "c", "d"]\n' in out  # heads its report


RECURSIVE_TEST = '''def f(n):
    if n == 0:
        raise ValueError("boom at the bottom")
    return f(n - 1)


def test_r():
    print("    indented output line")
    f(3)
'''


@pytest.mark.parametrize("tb", ["auto", "long"])
def test_captured_output_and_recursive_frames_of_a_real_run(tmp_path, tb):
    """A real pytest run (the suite's own pytest) on a recursive failure that prints to stdout."""
    (tmp_path / "test_t.py").write_text(RECURSIVE_TEST)
    proc = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-o", "addopts=",
                           f"--tb={tb}", "test_t.py"], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 1, proc.stdout
    out = ask(proc.stdout + proc.stderr, f"pytest --tb={tb} test_t.py", 1)
    assert ">       f(3)\ntest_t.py:9: \n" in out
    assert out.count("return f(n - 1)") == 3  # every frame of the recursion keeps its statement and location
    assert out.count("test_t.py:4:") == 3
    # the raise statement goes: the E line below restates it word for word
    assert ">           raise ValueError(\"boom at the bottom\")" not in out
    assert "E           ValueError: boom at the bottom\ntest_t.py:3: ValueError\n" in out
    assert "test_t.py:3: ValueError" in out
    assert "-- Captured stdout call --\n    indented output line\n" in out
    assert "FAILED test_t.py::test_r - ValueError: boom at the bottom" in out
    assert re.search(r"^1 failed in [\d.]+s$", out, re.M)
    assert "def f(n):" not in out and "if n == 0:" not in out  # echoed source context
    assert "_ _ _" not in out and "^^^^" not in out


def test_warnings_keep_each_deprecation_message_and_count_the_repeats():
    out = run(other("pytest", "red_default"))
    assert "RuntimeWarning: overflow encountered in scale()" in out
    assert "UserWarning: cache directory missing" in out
    assert "legacy_call('a') is deprecated" in out
    assert "legacy_call('b') is deprecated" not in out      # same message, another quoted value: folded
    # a different deprecated name or category is a different message: kept
    assert "DeprecationWarning: old_api() is deprecated, use new_api()" in out
    assert "PendingDeprecationWarning: format v1 will be removed" in out
    assert 'warnings.warn("overflow encountered in scale()", RuntimeWarning)' not in out  # echoed source
    assert "(+ 4 more deprecation warning entries like the above folded: 4 warnings in red/test_legacy.py)" in out


TRACEBACK_ON_STDERR = '''import traceback


def f(n):
    raise ValueError("boom")


def test_r():
    try:
        f(3)
    except ValueError:
        traceback.print_exc()
    f(3)
'''


def test_python_traceback_in_captured_output_is_kept_and_the_report_compacted(tmp_path):
    # the traceback a test printed stays whole; the report around it is compacted like any other
    # (the pack renders the traces of its report: pytest declares reports_traces)
    from sqz_core.pipeline import compress
    from sqz_core.store import Store

    (tmp_path / "test_t.py").write_text(TRACEBACK_ON_STDERR)
    proc = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-o", "addopts=", "test_t.py"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 1 and "Traceback (most recent call last):" in proc.stdout, proc.stdout
    text = proc.stdout + proc.stderr
    out = ask(text, "pytest test_t.py", 1)
    lines = text.splitlines()
    start = lines.index("Traceback (most recent call last):")
    end = next(k for k in range(start, len(lines)) if lines[k].startswith("ValueError: boom"))
    assert "\n".join(lines[start:end + 1]) in out  # the printed traceback, verbatim
    assert "E       ValueError: boom" in out and "test_t.py:5: ValueError" in out
    assert "platform" not in out and "test_t.py F" not in out
    assert "_ _ _" not in out and "=" * 20 not in out
    assert formatter.reports_traces is True
    result = compress((text).encode(), command="pytest test_t.py", store=Store.open(str(tmp_path / "db.sqlite")),
                      session="s")
    assert result.outcome == "compressed" and result.plugin == "pytest"


def test_native_tracebacks_show_each_frame_once():
    """--tb=native (pytest 9 prints its own and pluggy's frames): every distinct frame once, with
    its statement; a frame seen earlier in the section becomes part of one counted line."""
    fx = other("pytest", "red_tb_native")
    text, out = fx.request().text, run(fx)
    frames = {line for line in text.splitlines() if formatter._NATIVE_FRAME.match(line)}
    kept = out.splitlines()
    # every distinct frame of the FAILURES section (captured logs apart) appears exactly once
    report = out[:out.index("-- Captured log call --")] + out[out.index("FAILED tb/test_worker.py::test_size - "):]
    for line in frames:
        assert line in kept, line
        if "/tb/worker.py\", line 13" not in line and "/tb/worker.py\", line 8" not in line:
            assert report.count(line + "\n") == 1, line
    assert "  [19 frames already shown above]" in kept
    assert "ValueError: invalid literal for int() with base 10: '12kb'" in kept
    assert len(out) < len(text) // 2


def test_a_logged_traceback_inside_the_report_is_compressed_by_the_pipeline(tmp_path):
    """Tracebacks in captured logs no longer hold the report verbatim: identical copies fold to one
    (the first, verbatim) and the rest is compacted, stored and recoverable."""
    from sqz_core.pipeline import compress
    from sqz_core.store import Store

    fx = other("pytest", "red_logged_traceback")
    store = Store.open(str(tmp_path / "db.sqlite"))
    result = compress(fx.raw, command=fx.command, store=store, session="s")
    out = result.output.decode()
    assert result.outcome == "compressed" and result.plugin == "pytest"
    lines = fx.text.splitlines()
    start = lines.index("Traceback (most recent call last):")
    block = "\n".join(lines[start:start + 8])
    assert block.endswith("KeyError: 'payload'") and out.count(block) == 1
    assert out.count("[sqz: the same 8-line stack trace as above") == 2
    assert missing_facts(out, fx.facts) == []
    assert store.get_blob(result.digest) == fx.raw
