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


def test_an_under_fact_binds_a_line_to_its_group_header():
    fact = {"under": "src/main.c", "line": "10:5: error: use of undeclared identifier 'total'"}
    raw = "src/main.c:10:5: error: use of undeclared identifier 'total'\n"
    grouped = "src/util.c\n  7:9: warning: x\nsrc/main.c\n  In function 'main':\n  10:5: error: use of undeclared identifier 'total'\n"
    assert fact_kept(raw, fact) and fact_kept(grouped, fact)
    wrong_file = "src/util.c\n  10:5: error: use of undeclared identifier 'total'\nsrc/main.c\n  7:9: warning: x\n"
    assert not fact_kept(wrong_file, fact)
    assert not fact_kept("src/main.c\n10:5: error: use of undeclared identifier 'total'\n", fact)  # not under it
    assert fact_kept("src/main.c\n  x\n    10:5: error: use of undeclared identifier 'total'\n",
                     {"under": "x", "line": ["10:5", "undeclared identifier"]})


def test_a_number_at_a_fact_end_is_not_a_piece_of_a_longer_number():
    merged = "src/a.py\n16, 26: error: Function is missing a type annotation  [no-untyped-def]\n"
    assert not fact_kept(merged, ["6", "Function is missing a type annotation"])
    assert not fact_kept(merged, {"under": "src/a.py", "line": ["6", "missing a type annotation"]})
    assert fact_kept("6, 16: error: Function is missing a type annotation", ["6", "missing a type annotation"])
    assert not fact_kept("== 14 failed, 2 passed ==", "4 failed")
    assert fact_kept("== 4 failed, 12 passed ==", "4 failed") and fact_kept("4 failed", "4 failed")
    assert not fact_kept("python3 -m http.server 18766", "http.server 1876")
    # an id is not a number: a short commit id stands for the full one
    assert fact_kept("commit 99d72f3387f9a0b1c2d3e4f5a6b7c8d9e0f1a2b3", "99d72f3387f9")
    assert fact_kept("v1.2.3 released", "1.2")  # a version's parts are separated by dots, not digits
