"""Held-out pass #2 (``h2_*``: inflection, pyrsistent, humanize, python-dateutil and six suites;
jest/vitest/node suites over js-yaml, json5, semver, dayjs, lodash): what the Python and JavaScript
test-runner formatters keep and drop on these shapes, and that damaged input still gives
passthrough or a true summary."""

from __future__ import annotations

import re

from fmt_test_suite import FormatterSuite
from sqz_testing import missing_facts
from sqz_formatters_test import js_jest, js_node_test, py_pytest, py_unittest

pytest_suite = FormatterSuite(py_pytest, "pytest")
unittest_suite = FormatterSuite(py_unittest, "unittest")
jest_suite = FormatterSuite(js_jest, "jest")
node_suite = FormatterSuite(js_node_test, "node")


def _out(suite: FormatterSuite, name: str) -> tuple[str, str]:
    fx = suite.fixture(name)
    out = suite.run(fx)
    assert out is not None and missing_facts(out, fx.facts) == []
    return fx.text, out


# ---------------------------------------------------------------- pytest


def test_an_exception_group_keeps_every_sub_exception_its_steps_and_locations():
    """hypothesis's "N distinct failures": the group's drawing, each sub-exception's error, its
    falsifying steps and program frames stay; carets and library statements go; a frame an earlier
    sub-exception showed is counted."""
    raw, out = _out(pytest_suite, "h2_pyrsistent_hypothesis_stateful")
    lines = out.splitlines()
    assert "  + Exception Group Traceback (most recent call last):" in lines
    for n in range(1, 5):
        assert f"---------------- {n} ----------------" in out
    for err in ("    | IndexError: Index out of range: 8", "    | IndexError: list assignment index out of range"):
        assert err in lines
    assert raw.count("    | state.teardown()") == out.count("    | state.teardown()") == 4  # every reproduction
    assert '    |   File "/tmp/sqz-capture/pyh2/pyrsistent-0.20.0/pyrsistent/_pvector.py", line 409, in delete' in lines
    assert "    |     del l[_index_or_slice(index, stop)]" in lines  # a program frame keeps its statement
    # hypothesis's own frames: their location stays, their statement goes
    assert '  |   File "/tmp/sqz-pyjs-tools/venv-h2/lib/python3.11/site-packages/hypothesis/stateful.py", line 558, ' \
           'in runTest' in lines
    assert "run_state_machine_as_test(cls, settings=self.settings)" not in out
    assert "^^^^" not in out
    assert "    |   [1 frame already shown above]" in lines and "    |   [3 frames already shown above]" in lines
    assert len(out) < len(raw) * 3 // 4


def test_a_failed_summary_line_heads_its_report_instead_of_a_banner_it_repeats():
    raw, out = _out(pytest_suite, "h2_inflection_tb_short_durations")
    lines = out.splitlines()
    head = "FAILED test_inflection.py::test_titleize[ActiveRecord-Active Record] - AssertionError: assert 'Ac..."
    assert raw.count(head) == out.count(head) == 1
    k = lines.index(head)
    assert lines[k + 1:k + 4] == ["test_inflection.py:339: in test_titleize",
                                  "    assert titleized == inflection.titleize(before)",
                                  "E   AssertionError: assert 'Active Record' == 'Activerecord'"]
    assert "_ test_titleize[ActiveRecord-Active Record] _" not in out
    assert not any(re.match(r"^_ .* _$", x) for x in lines)  # every banner moved
    # the one-line string diff under it goes: the assertion line shows both strings whole
    assert "E     - Activerecord" in raw and "Activerecord\n" not in out
    assert "E     ?       ^" in raw and "?       ^" not in out
    # --durations keeps its table
    assert "0.01s setup    test_inflection.py::test_ordinalize[-6--6th]" in lines


def test_a_class_banner_is_not_the_id_text_so_it_stays_and_the_summary_stays_below():
    raw, out = _out(pytest_suite, "h2_dateutil_showlocals")
    lines = out.splitlines()
    assert "_ RelativeDeltaTest.test15thISOYearWeek _" in lines
    assert lines.index("_ RelativeDeltaTest.test15thISOYearWeek _") < lines.index(
        "FAILED tests/test_relativedelta.py::RelativeDeltaTest::test15thISOYearWeek - AssertionError: date...")
    # --showlocals: the test case instance the banner names goes, the other locals stay
    assert "self       = <tests.test_relativedelta.RelativeDeltaTest testMethod=testWeeks>" in raw
    assert "testMethod=" not in out
    assert "rd         = relativedelta(years=+4, months=+2, days=+54)" in lines
    assert "td         = datetime.timedelta(days=8, seconds=3661, microseconds=1001)" in lines


def test_a_statement_an_e_line_restates_goes_others_stay():
    raw, out = _out(pytest_suite, "red_default")
    lines = out.splitlines()
    assert '>       assert {"a": 1, "b": 2} == {"a": 1, "b": 3}' in raw
    assert '>       assert {"a": 1, "b": 2} == {"a": 1, "b": 3}' not in lines
    assert '>       raise RuntimeError("cannot connect to db")' not in lines
    assert "E       RuntimeError: cannot connect to db" in lines
    assert '>       assert "a,b,c".split(",") == ["a", "b", "c", "d"]' in lines  # says what E does not
    assert '>       assert add(2, 2) == 5, "two plus two"' in lines
    assert '>           raise ValueError(f"bad config value: {value!r}")' in lines  # not a literal message
    assert "Use -v to get more diff" in raw and "Use -v" not in out and "use -vv" not in out
    # every FAILED line once; the ERROR line (its banner says "at setup") stays in the summary
    for line in raw.splitlines():
        if line.startswith(("FAILED ", "ERROR ")):
            assert lines.count(line) == 1, line
    assert "_ ERROR at setup of test_uses_fixture _" in lines


def test_skip_lines_of_one_file_and_reason_fold_keeping_every_line_number():
    raw, out = _out(pytest_suite, "h2_pyrsistent_ra_skips")
    lines = out.splitlines()
    numbers = re.findall(r"^SKIPPED \[1\] tests/vector_test\.py:(\d+): could not import", raw, re.M)
    assert len(numbers) == 101
    assert lines[0] == "collected 638 items"   # issue 25: the collection count stays (the lines below move by one)
    assert lines[2] == "SKIPPED [1] tests/vector_test.py:26: could not import 'pvectorc': No module named 'pvectorc'"
    assert lines[3] == ("  (+ 100 more SKIPPED [1] with this reason: tests/vector_test.py lines "
                        + ", ".join(numbers[1:]) + ")")
    assert out.count("could not import 'pvectorc'") == 1
    assert "SKIPPED [1] tests/vector_test.py:911: This test only applies to pvectorc" in lines  # another reason
    assert len(out) < len(raw) // 10


def test_two_skips_with_one_reason_stay_as_printed():
    lines = ["SKIPPED [1] a.py:3: slow", "SKIPPED [1] a.py:9: slow", "SKIPPED [2] b.py:1: slow"]
    assert py_pytest.fold_skip_reasons(lines) == lines


def test_a_repeated_fixture_list_is_referenced_every_error_keeps_its_id_and_location():
    raw, out = _out(pytest_suite, "h2_humanize_fixture_missing")
    lines = out.splitlines()
    listing = [x for x in raw.splitlines() if x.startswith(">       available fixtures: ")]
    assert len(listing) == 15 and len(set(listing)) == 1
    assert lines.count(listing[0]) == 1
    assert lines.count(">       available fixtures: _w… [as above]") == 14
    assert "use 'pytest --fixtures [testpath]' for help on them." not in out  # pytest's advice
    assert out.count("E       fixture 'benchmark' not found") == 15
    for n in (24, 28, 32, 36, 40):
        assert f"/tmp/sqz-capture/pyh2/humanize-4.17.0/tests/test_benchmarks.py:{n}" in lines
        assert f"tests/test_benchmarks.py, line {n}" not in out  # the location line says the same
    assert len(out) < len(raw) * 2 // 5


# ---------------------------------------------------------------- unittest


def test_unittest_frames_an_earlier_block_showed_are_counted_each_blocks_first_frame_stays():
    raw, out = _out(unittest_suite, "h2_dateutil_verbose")
    weeks = '  File "/tmp/sqz-capture/pyh2/python_dateutil-4.0.0/src/dateutil/relativedelta.py", line 268, in weeks'
    assert raw.count(weeks) == 9 and out.count(weeks) == 1
    blocks = re.findall(r"^(?:FAIL|ERROR): \w+ \(([\w.]+)\)$", out, re.M)
    assert len(blocks) == 15
    for test_id in blocks:  # each block still names its test's own frame first
        name = test_id.rsplit(".", 1)[1]
        assert re.search(rf'^  File "\S+/tests/test_relativedelta\.py", line \d+, in {name}$', out, re.M), name
    # every frame line of the raw blocks is either shown or counted
    folded = sum(int(n) for n in re.findall(r"^  \[(\d+) frames? already shown above\]$", out, re.M))
    assert folded >= 8
    assert raw.count('\n  File "') == out.count('\n  File "') + folded
    assert out.count("ZeroDivisionError: division by zero") == 9
    assert "FAILED (failures=6, errors=9, skipped=43)" in out


# ---------------------------------------------------------------- jest


def test_jest_bail_summary_is_read():
    raw, out = _out(jest_suite, "h2_bail_silent")
    assert "Test Suites: 1 failed, 1 of 4 total" in out.splitlines()
    assert "Snapshots:   0 total" in raw and "Snapshots:" not in out and "Time:" not in out


def test_jest_package_frames_fold_after_the_first_and_a_doubled_frame_is_counted():
    raw, out = _out(jest_suite, "h2_multi_file_red")
    lines = out.splitlines()
    assert "      at syntaxError (../../../sqz-pyjs-tools/js/node_modules/json5/lib/parse.js:1110:17)" in lines
    assert "      [+ 4 frames in node_modules: json5]" in lines
    assert "at lex (" in raw and "at lex (" not in out
    assert "      at parse (jh2/src/config.js:9:38)" in lines  # the program's frames stay
    # a run of two package frames stays whole
    assert "      at Object.throwingMatcher [as toThrow] (../../../sqz-pyjs-tools/js/node_modules/expect/build/" \
           "index.js:2235:93)" in lines
    assert raw.count("      at Object.toThrow (jh2/parse.test.js:22:59)\n") == 2
    assert "      at Object.toThrow (jh2/parse.test.js:22:59) [×2]" in lines


def test_jest_a_short_package_run_and_distinct_frames_stay():
    lines = ["    at a (x/node_modules/p/a.js:1:1)", "    at b (x/node_modules/p/b.js:2:2)", "    at c (src/c.js:3:3)",
             "    at c (src/c.js:4:4)"]
    assert js_jest.fold_package_frames(lines) == lines


# ---------------------------------------------------------------- node --test dot reporter


def test_node_dot_reporter_keeps_every_failure_and_folds_node_frames():
    raw, out = _out(node_suite, "h2_dot_multi")
    lines = out.splitlines()
    assert lines[:3] == [".XXXXXX.............", ".............XXXX...", ".................XX"]
    for line in raw.splitlines():
        if line.startswith("✖ "):
            assert line in lines, line
    assert "node:internal/test_runner" in raw
    assert not any("(node:internal/" in x for x in lines)
    assert "      [2 frames in node:internal/test_runner/test]" in lines


def test_node_dot_reporter_cut_before_its_failure_list_gives_passthrough():
    fx = node_suite.fixture("h2_dot_multi")
    text = fx.text[:fx.text.index("Failed tests:")]
    assert node_suite.ask(text, fx.command, 1) is None
    assert node_suite.ask("hello\n", fx.command, 1) is None
    # an all-green dot run (no X) with no failure list is read
    assert js_node_test.compact_dot(["....", "...."]) == ["....", "...."]
