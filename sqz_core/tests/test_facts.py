"""The fact rule every fixture test and the benchmarks judge by."""

from sqz_core.testing import fact_kept, missing_facts


def test_a_string_fact_must_stand_as_it_is_but_padding_may_collapse():
    out = "web-1   Running   3\nFAILED tests/test_a.py::test_div - ZeroDivisionError\n"
    assert fact_kept(out, "web-1 Running 3")
    assert fact_kept(out, "FAILED tests/test_a.py::test_div - ZeroDivisionError")
    assert not fact_kept(out, "FAILED tests/test_a.py::test_div - ValueError")
    assert not fact_kept("web-1\nRunning 3\n", "web-1 Running 3")


def test_a_list_fact_needs_every_part_on_one_line():
    out = "modified: src/app.py, src/lib.py\nuntracked: notes.txt\n"
    assert fact_kept(out, ["src/lib.py", "modified"])
    assert not fact_kept(out, ["notes.txt", "modified"])
    assert missing_facts(out, [["notes.txt", "untracked"], ["src/app.py", "deleted"]]) == [["src/app.py", "deleted"]]


def test_a_string_fact_may_span_lines_and_blank_lines_do_not_count():
    raw = "Ran 25 tests in 0.000s\n\nOK\n"
    assert fact_kept(raw, "Ran 25 tests in 0.000s\n\nOK")
    assert fact_kept("Ran 25 tests in 0.000s\nOK\n", "Ran 25 tests in 0.000s\n\nOK")
    assert not fact_kept("Ran 25 tests in 0.000s\nFAILED (failures=1)\nOK\n", "Ran 25 tests in 0.000s\n\nOK")
