"""python -m unittest: facts survive, noise is dropped, near misses give None, snapshots hold."""

from __future__ import annotations

from fmt_test_suite import FormatterSuite, cut_tail, other, text_of
from sqz_formatters_test import py_unittest as formatter

suite = FormatterSuite(formatter, "unittest")
run, ask = suite.run, suite.ask
globals().update(suite.standard_tests(
    complete={'green_default', 'import_error', 'red_default', 'red_verbose'},
    ratios={'red_verbose': 0.4, 'red_default': 0.62, 'green_default': 0.24}))


def test_near_miss_pytest_output():
    assert ask(text_of("pytest", "red_quiet"), "python -m unittest", 1) is None


def test_near_miss_truncated_run():
    assert ask(cut_tail(text_of("unittest", "red_default"), 2), "python -m unittest", 1) is None


def test_import_error_is_not_a_pass():
    out = run(other("unittest", "import_error"))
    assert "ModuleNotFoundError: No module named 'not_installed_module'" in out
    assert out.rstrip().endswith("FAILED (errors=1)")


def test_failure_blocks_keep_titles_frames_statements_and_messages():
    """Rules and carets go; a subtest's repeated frames are named once and referred to after."""

    fx = other("unittest", "red_default")
    text, out = fx.request().text, run(fx)
    kept = out.splitlines()
    for line in text.splitlines():
        if line.startswith(("FAIL: ", "ERROR: ", "AssertionError", "ZeroDivisionError", "Ran ", "FAILED ")):
            assert line in kept, line
    assert '  File "/tmp/sqz-capture/pyjs/py/ut_red/test_calc.py", line 19, in test_divide_zero' in kept
    assert "    self.assertEqual(divide(1, 0), 0)" in kept and "    return a / b" in kept
    assert out.count('line 30, in test_upper') == 1 and "  [the same frame as above]" in kept
    assert "=" * 70 not in out and "-" * 70 not in out and "^^^^" not in out and "~~^~~" not in out
    assert "- C\n+ A" in out and "- B\n+ A" in out
    assert "Traceback (most recent call last):" not in out  # each title already says so


def test_library_frames_keep_their_location_not_their_statement():
    out = run(other("unittest", "import_error"))
    kept = out.splitlines()
    assert ('  File "/root/.pyenv/versions/3.11.7/lib/python3.11/unittest/loader.py", line 419, in _find_test_path'
            in kept)
    assert "module = self._get_module_from_name(name)" not in out and "__import__(name)" not in out
    assert "    import not_installed_module" in kept  # the test module's own statement stays
    assert "ImportError: Failed to import test module: ut_import.test_imp" in kept
    assert "Traceback (most recent call last):" not in out


def test_the_status_line_needs_its_separators_so_no_line_splits_many_ways():
    from sqz_formatters_test import py_unittest

    assert py_unittest._STATUS.match("FAILED (failures=2, errors=1, skipped=3)")
    assert py_unittest._STATUS.match("OK (skipped=43)") and py_unittest._STATUS.match("OK")
    # with the separator optional and \w for the key, this line split 2^30 ways before the match gave up
    assert not py_unittest._STATUS.match("FAILED (" + "a=11" * 30 + "!")
    assert not py_unittest._STATUS.match("FAILED (failures=2errors=1)")
