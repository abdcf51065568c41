"""Held-out captures (real third-party suites: attrs, boltons, cachetools, idna, more-itertools,
packaging, simplejson, toolz): what the pytest, unittest and tox formatters keep and drop on shapes
the hand-made projects lack, and that damaged input still gives passthrough or a true summary."""

from __future__ import annotations

import re

import pytest
from fmt_test_suite import FormatterSuite
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqz_testing import missing_facts
from sqz_formatters_test import py_pytest, py_tox, py_unittest
from test_runner_damage import draw_damage

pytest_suite = FormatterSuite(py_pytest, "pytest")
unittest_suite = FormatterSuite(py_unittest, "unittest")
tox_suite = FormatterSuite(py_tox, "tox")


def _out(suite: FormatterSuite, name: str) -> tuple[str, str]:
    fx = suite.fixture(name)
    out = suite.run(fx)
    assert out is not None and missing_facts(out, fx.facts) == []
    return fx.text, out


# ---------------------------------------------------------------- pytest


def test_a_long_test_name_banner_with_one_underscore_each_side_is_a_banner():
    """pytest pads a long name (a subtest's parameters) with a single ``_`` each side: still a banner,
    so the report is compacted (source context dropped), not passed through whole."""
    raw, out = _out(pytest_suite, "ho_more_itertools_red_tb_long")
    banner = ("_ DistinctPermutationsTests.test_sortable_input_produces_sorted_output "
              "(iterable=[4, 3, 2, 1], r=2) _")
    assert banner in raw.splitlines() and banner in out.splitlines()
    assert "    def test_sortable_input_produces_sorted_output(self):" in raw
    assert "def test_sortable_input_produces_sorted_output(self):" not in out  # echoed source
    assert out.count("\n_ DistinctPermutationsTests.") == 4
    assert sum(x.startswith("SUBFAILED(") for x in out.splitlines()) == 4
    assert len(out) < 0.6 * len(raw)


def test_a_frame_separator_is_not_a_banner():
    assert py_pytest._banner("_ _ _ _ _ _ _ _ _ _") is None
    assert py_pytest._banner("_ a _").group("name") == "a"
    assert py_pytest._banner("______ test_x[1] ______").group("name") == "test_x[1]"


def test_tb_line_repeats_are_kept_once_with_their_count():
    raw, out = _out(pytest_suite, "ho_cachetools_red_tb_line")
    section = raw.split("= FAILURES =", 1)[1].split("= short test summary info =", 1)[0]
    loc = re.compile(r"^\S+:\d+: \S")
    entries = sum(1 for x in section.splitlines() if loc.match(x))
    assert entries > 200
    repeated = "/root/.pyenv/versions/3.11.7/lib/python3.11/unittest/case.py:866: AssertionError: 2 != 1"
    assert raw.count(repeated + "\n") == 57 and out.count(repeated + "\n") == 1
    out_section = out.split("= FAILURES =", 1)[1].split("\nFAILED ", 1)[0]
    shown = sum(1 for x in out_section.splitlines() if loc.match(x))
    counted = sum(int(n) - 1 for n in re.findall(r"^  \[×(\d+) in all\]$", out_section, re.M))
    assert shown + counted == entries  # every failure accounted for
    assert sum(x.startswith("FAILED ") for x in out.splitlines()) == 204  # the summary stays whole


def test_tb_line_section_with_text_after_its_last_location_is_kept_whole():
    body = ["E   AssertionError: 2 != 1", "/x/case.py:866: AssertionError: 2 != 1",
            "E   AssertionError: 2 != 1", "/x/case.py:866: AssertionError: 2 != 1", "unexpected trailing text"]
    assert py_pytest.compact_line_failures(body) == body
    assert py_pytest.compact_line_failures(body[:4]) == body[:2] + ["  [×2 in all]"]


def test_library_statements_go_in_long_frames_their_locations_stay():
    raw, out = _out(pytest_suite, "ho_attrs_red_default")
    assert ">           raise PackageNotFoundError(name)" in raw
    assert "raise PackageNotFoundError(name)" not in out
    assert ("/root/.pyenv/versions/3.11.7/lib/python3.11/importlib/metadata/__init__.py:565: "
            "PackageNotFoundError") in out
    assert '>       assert metadata.version("attrs") == mod.__version__' in out  # the test's own statement


def test_the_package_tox_installed_is_not_treated_as_a_library():
    raw, out = _out(tox_suite, "ho_cachetools_red_cov")
    assert ".tox/py/lib/python3.11/site-packages/cachetools/__init__.py:108: KeyError" in out
    assert ">       raise KeyError(key)" in raw and ">       raise KeyError(key)" in out


def test_the_test_case_instance_goes_other_arguments_stay():
    raw, out = _out(pytest_suite, "ho_cachetools_red_quiet")
    assert "self = <tests.test_lru.LRUCacheTest testMethod=test_clear>" in raw
    assert "testMethod=" not in out
    assert "self = Cache({2: [2]}, maxsize=2, currsize=3), key = 1" in out
    _, hyp = _out(pytest_suite, "ho_attrs_red_hypothesis")
    alone = re.compile(r"^self = <tests\.test_funcs\.TestAsDict object at 0x[0-9a-f]+>$", re.M)
    assert alone.search(pytest_suite.fixture("ho_attrs_red_hypothesis").text) and not alone.search(hyp)


def test_test_instance_needs_the_banners_class_and_method():
    cls = py_pytest._banner_class("LRUCacheTest.test_clear")
    assert cls == ("LRUCacheTest", "test_clear")
    assert py_pytest._is_test_instance("self = <tests.test_lru.LRUCacheTest testMethod=test_clear>", cls)
    assert py_pytest._is_test_instance("self = <tests.t.LRUCacheTest object at 0x7f2b>", cls)
    assert not py_pytest._is_test_instance("self = <tests.test_lru.LRUCacheTest testMethod=test_copy>", cls)
    assert not py_pytest._is_test_instance("self = <tests.t.OtherTest object at 0x7f2b>", cls)
    assert not py_pytest._is_test_instance("self = LRUCache({}, maxsize=2, currsize=2)", cls)
    assert py_pytest._banner_class("test_function[1]") is None


def test_an_argument_line_repeated_in_one_report_is_shown_once():
    raw, out = _out(pytest_suite, "ho_attrs_red_hypothesis")
    arg = "C = <class 'tests.test_funcs._C.<locals>.C'>"
    for block in out.split("\n_ TestAsDict.")[1:]:
        assert block.count(arg + "\n") <= 1
    assert raw.count(arg + "\n") > out.count(arg + "\n") >= 1


def test_native_traceback_head_goes_after_the_banner():
    raw, out = _out(pytest_suite, "ho_simplejson_red_tb_native")
    assert raw.count("Traceback (most recent call last):") == 19
    assert "Traceback (most recent call last):" not in out
    assert out.count("\n_ ") + out.startswith("_ ") == 19
    assert ('  File "/tmp/sqz-capture/pyho/simplejson-4.3.0/simplejson/tests/test_dump.py", line 73, '
            "in test_encode_truefalse") in out


def test_sysconfig_header_line_goes():
    raw, out = _out(pytest_suite, "ho_packaging_collect_missing_dep")
    assert "sysconfig platform: linux-x86_64" in raw and "sysconfig" not in out
    assert "collected 10734 items / 5 errors / 446 deselected / 10288 selected" in out


# ---------------------------------------------------------------- unittest


def test_unittest_verbose_docstring_tests_that_passed_go_whole():
    raw, out = _out(unittest_suite, "ho_simplejson_red_verbose")
    name = ("test_boundary_at_max_bitcount (simplejson.tests.test_bitsize_int_as_string."
            "TestBitSizeIntAsString.test_boundary_at_max_bitcount)")
    assert name + "\n" in raw and name not in out
    # a failing docstring test keeps its name line and its docstring's FAIL line
    assert ("test_exact_tuple (simplejson.tests.test_dump.TestListEncodingPaths.test_exact_tuple)\n"
            "Fast path: exact tuple when tuple_as_array=True. ... FAIL") in out
    assert " ... ok" not in out


def test_unittest_skips_are_folded_by_reason():
    raw, out = _out(unittest_suite, "ho_simplejson_red_verbose")
    assert raw.count("... skipped 'C Extension not available'") == 12
    assert out.count("... skipped 'C Extension not available'") == 1
    assert "(+ 11 more skipped 'C Extension not available')" in out
    shown = len(re.findall(r" \.\.\. skipped '", out))
    more = sum(int(n) for n in re.findall(r"^\(\+ (\d+) more skipped '", out, re.M))
    assert shown + more == 45 and "FAILED (failures=19, skipped=45)" in out


def test_unittest_library_frames_shown_in_an_earlier_block_are_counted():
    raw, out = _out(unittest_suite, "ho_packaging_import_errors")
    frame = ('  File "/root/.pyenv/versions/3.11.7/lib/python3.11/unittest/loader.py", line 419, '
             "in _find_test_path")
    assert raw.count(frame) == 5 and out.count(frame) == 1
    assert out.count("  [2 library frames already shown above]") == 4
    for mod in ("manylinux", "musllinux", "specifiers", "tags", "version"):
        assert f'File "/tmp/sqz-capture/pyho/packaging-26.4/tests/test_{mod}.py", line' in out


# ---------------------------------------------------------------- tox


def test_a_unittest_run_inside_tox_is_compacted():
    raw, out = _out(tox_suite, "ho_more_itertools_red_unittest")
    assert raw.count(" ... ok\n") > 700 and " ... ok" not in out
    assert "(+ 733 passed)" in out
    assert ".pkg: build_sdist>" in raw and ".pkg:" not in out
    assert len(out) < 0.1 * len(raw)


def test_the_coverage_table_keeps_its_rows_without_rules():
    raw, out = _out(tox_suite, "ho_cachetools_green_cov")
    assert "coverage: platform linux" in raw and "coverage: platform" not in out
    assert "-" * 40 not in out
    rows = [x for x in raw.splitlines() if x.startswith((".tox/py/lib/", "TOTAL", "Name "))]
    assert len(rows) == 9 and all(r in out.splitlines() for r in rows)


# ---------------------------------------------------------------- damage

_IDS = (re.compile(r"^(?:SUB)?(?:FAILED|ERROR)(?:\(.*?\))? (\S+)"), re.compile(r"^_+ (.+?) _+$"),
        re.compile(r"^(\S+::\S*) (?:FAILED|ERROR)\b"))
_DAMAGED = ["ho_more_itertools_red_tb_long", "ho_cachetools_red_tb_line", "ho_attrs_red_hypothesis",
            "ho_simplejson_red_tb_native", "ho_toolz_red_doctest_tb_short", "ho_boltons_red_xdist"]


def _ids(text: str) -> set[str]:
    out = set()
    for line in text.splitlines():
        if py_pytest._FRAME_SEP.match(line):
            continue
        for p in _IDS:
            m = p.match(line)
            if m:
                out.add(m.group(1))
    return out


def _lost(text: str, command: str, exit_code) -> list[str] | None:
    out = pytest_suite.ask(text, command, exit_code)
    if out is None:
        return None
    return sorted(i for i in _ids(text) if i not in out)


@pytest.mark.parametrize("name", _DAMAGED)
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_a_cut_or_a_lost_line_gives_passthrough_or_keeps_every_failing_id(name, data):
    fx = pytest_suite.fixture(name)
    damaged = draw_damage(data, fx.text)
    exit_code = data.draw(st.sampled_from([fx.meta["exit_code"], None]))
    assert _lost(damaged, fx.command, exit_code) in (None, [])


@pytest.mark.parametrize("name", ["ho_more_itertools_red_tb_long", "ho_toolz_red_doctest_tb_short"])
def test_every_single_lost_line(name):
    fx = pytest_suite.fixture(name)
    lines = fx.text.splitlines(True)
    bad = {k: lines[k] for k in range(len(lines))
           if _lost("".join(lines[:k] + lines[k + 1:]), fx.command, fx.meta["exit_code"]) not in (None, [])}
    assert bad == {}


def test_a_truncated_tb_line_run_is_refused():
    fx = pytest_suite.fixture("ho_cachetools_red_tb_line")
    cut = fx.text[: fx.text.index("= short test summary info =") - 200]
    assert pytest_suite.ask(cut, fx.command, 1) is None


def test_xdist_verbose_started_lines_go_when_their_outcome_is_shown():
    fx = pytest_suite.fixture("ho_toolz_red_xdist_verbose")
    out = pytest_suite.run(fx)
    assert "toolz/tests/test_itertoolz.py::test_remove \n" in fx.text
    assert "test_remove" not in out and "(+ 50 passed)" in out
    assert "[gw0] [ 86%] FAILED toolz/tests/test_itertoolz.py::test_interleave" in out.splitlines()  # as xdist wrote it
    # a test whose outcome line is missing (its worker went down) keeps its started line
    lines = [x for x in fx.text.splitlines(True) if not x.startswith("[gw") or "test_remove" not in x]
    crashed = pytest_suite.ask("".join(lines), fx.command, 1)
    assert "toolz/tests/test_itertoolz.py::test_remove" in [x.rstrip() for x in crashed.splitlines()]
    assert "[gw0] [ 86%] FAILED toolz/tests/test_itertoolz.py::test_interleave" in crashed.splitlines()


def test_native_library_frames_keep_their_location_not_their_statement():
    raw, out = _out(pytest_suite, "ho_simplejson_red_tb_native")
    frame = '  File "/root/.pyenv/versions/3.11.7/lib/python3.11/unittest/case.py", line 623, in run'
    assert raw.count(frame + "\n    self._callTestMethod(testMethod)") == 19
    assert out.count(frame) == 1 and "self._callTestMethod(testMethod)" not in out
    assert "    self.assertEqual('[0, 1, -1]', json.dumps(" in out  # the test's own statement


def test_an_empty_passes_section_goes():
    fx = pytest_suite.fixture("ho_boltons_report_all")
    lines = fx.text.splitlines(True)
    start = next(i for i, x in enumerate(lines) if " PASSES " in x)
    end = next(i for i, x in enumerate(lines) if " short test summary info " in x)
    out = pytest_suite.ask("".join(lines[:start + 1] + lines[end:]), fx.command, 0)  # nothing captured
    assert "PASSES" not in out and "23 passed in 1.36s" in out
    assert "(captured output of passing tests dropped:" in pytest_suite.run(fx)


def test_a_library_frame_an_earlier_report_showed_is_counted_not_repeated():
    raw, out = _out(pytest_suite, "ho_packaging_collect_missing_dep")
    frame = "/root/.pyenv/versions/3.11.7/lib/python3.11/importlib/__init__.py:126: in import_module"
    assert raw.count(frame) == 5 and out.count(frame) == 1
    assert out.count("  [1 library frame already shown above]") == 4
    for mod, line in (("manylinux", 18), ("musllinux", 7), ("specifiers", 21), ("tags", 24), ("version", 13)):
        assert f"tests/test_{mod}.py:{line}: in <module>" in out  # the project's own frames all stay


_POOL = sorted({x for fx in (*pytest_suite.all, *unittest_suite.all, *tox_suite.all)
                if fx.name.startswith("ho_") for x in fx.text.splitlines()[:400]})


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from(_POOL), max_size=80), st.sampled_from(["pytest", "python -m unittest", "tox"]))
def test_shuffled_real_lines_never_crash_a_formatter(lines, command):
    """Real lines in any order (sections, banners, frames, summaries out of place): an answer or None,
    never an exception; a pytest answer names every failing id its input's summary names."""
    text = "\n".join(lines) + "\n"
    out = {"pytest": pytest_suite, "python -m unittest": unittest_suite, "tox": tox_suite}[command].ask(text, command, 1)
    if out is not None and command == "pytest":
        assert py_pytest._summary_ids(text.splitlines()) <= py_pytest._summary_ids(out.splitlines())


def test_resource_warnings_keep_every_location_their_hints_once():
    raw, out = _out(pytest_suite, "ho_boltons_warnings_always")
    hint = "  Enable tracemalloc to get traceback where the object was allocated."
    assert raw.count(hint + "\n") == 30 and out.count(hint + "\n") == 1
    assert "(+ 58 repeated hint lines like the above dropped)" in out  # 29 × the two hint lines
    at = re.compile(r"^  \S+:\d+: ResourceWarning: ", re.M)
    assert len(at.findall(raw)) == len(at.findall(out)) == 30  # every warning's location and message
    assert "tests/test_jsonutils.py::test_reverse_iter_lines [×4]" in out
    assert "    utf8_file_str = codecs.open(CUR_FILE_PATH, encoding='utf8').read()" in raw
    assert "utf8_file_str" not in out  # the echoed source: the location names it


def test_a_warning_message_continued_on_more_lines_is_not_taken_for_echoed_source():
    entry = ["t.py::test_a", "  /p/t.py:3: UserWarning: first line", "    second line of the message",
             "    warnings.warn(msg)"]
    assert not py_pytest._echoed_warning_source(entry, 2)  # another 4-space line follows it
    assert py_pytest._echoed_warning_source(entry[:2] + entry[3:], 2)
    assert py_pytest._fold_repeated_ids(["a::t", "a::t", "b::t", "  /p:1: W: m"]) == ["a::t [×2]", "b::t", "  /p:1: W: m"]


def test_showlocals_lines_the_arguments_already_show_go_escaped_ids_stay_whole():
    raw, out = _out(pytest_suite, "ho_packaging_red_unicode_ids")
    assert "filename   = 'some_PACKAGE-1.0-py3-none-any.whl'" in raw  # --showlocals (the project's addopts)
    assert "filename   =" not in out and "tags       =" not in out
    assert "filename = 'some_PACKAGE-1.0-py3-none-any.whl', name = 'some-package'" in out
    for line in raw.splitlines():
        if line.startswith("FAILED "):
            assert line in out.splitlines()  # ids with \\x escapes, dots and brackets kept whole
    # each report is headed by its FAILED line, which holds the banner's text
    assert "_ test_parse_wheel_filename[" not in out
    assert out.count("\nFAILED tests/test_utils.py::test_parse_wheel_filename[") + out.startswith("FAILED ") == 3
