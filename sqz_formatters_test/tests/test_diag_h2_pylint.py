"""pylint (handled by ``py_ruff``): grouped by file, repeats merged, module headers and rating kept."""

from __future__ import annotations

import re

from fmt_test_suite import FormatterSuite, located_in_raw, listed_by_file, text_of
from sqz_formatters_test import py_ruff as formatter

suite = FormatterSuite(formatter, "pylint")
ask = suite.ask
globals().update(suite.standard_tests(at_least=2, complete={"h2_click7_core", "h2_sortedcontainers"}))

_LINE = re.compile(r"^(?P<path>\S+?):(?P<loc>\d+:\d+): (?P<rest>[CRWEFI]\d{4}: .*)$", re.MULTILINE)


def test_every_message_kept_under_its_file_once():
    for name in ("h2_click7_core", "h2_sortedcontainers"):
        raw = text_of("pylint", name)
        out = ask(raw, "pylint x")
        rows = listed_by_file(out, lambda head: re.match(r"\d+:\d+[,:]", head) is not None)
        assert rows == located_in_raw(raw, _LINE), name


def test_module_headers_rating_and_duplicate_code_spans_kept():
    raw = text_of("pylint", "h2_sortedcontainers")
    out = ask(raw, "pylint sortedcontainers")
    for line in raw.splitlines():
        if line.startswith(("************* Module ", "Your code has been rated at ")):
            assert line in out.splitlines()
    # R0801 lists the similar spans and the code under the message: they stay under it, in order
    block = out.split("R0801: Similar lines in 2 files", 1)[1].splitlines()[1:4]
    assert [x.strip() for x in block] == ["==sortedcontainers.sorteddict:[173:179]",
                                          "==sortedcontainers.sortedset:[154:160]",
                                          "self.bisect_right = _list.bisect_right"]


def test_a_repeated_message_lists_every_location_in_order():
    out = ask(text_of("pylint", "h2_click7_core"), "pylint click7/core.py click7/parser.py")
    line = next(x for x in out.splitlines() if "(consider-using-f-string)" in x)
    locs = line.strip().split(": C0209", 1)[0].split(", ")
    assert locs[:3] == ["65:23", "90:8", "116:12"] and len(locs) == 22
    assert [int(x.split(":")[0]) for x in locs] == sorted(int(x.split(":")[0]) for x in locs)


def test_near_misses_give_none():
    raw = text_of("pylint", "h2_click7_core")
    assert ask(raw, "pylint --output-format=json click7") is None
    assert ask(raw, "pylint --reports=y click7") is None
    assert ask(raw.replace("Your code has been rated", "Rated"), "pylint click7") is None  # no rating: not a report
    crash = raw + "Traceback (most recent call last):\n  File \"x\", line 1\nastroid.exceptions.AstroidError\n"
    assert ask(crash, "pylint click7") is None
