"""The fact rule every fixture test and the benchmarks judge by."""

from sqz_testing import fact_kept, fact_kept_by_words, fact_words, missing_facts, missing_facts_by_words


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


# -- the word rule (issue 25): every word of a fact still somewhere in the output ---------------------

def test_words_are_identifiers_paths_and_numbers():
    assert fact_words('"GET /api/items/7 HTTP/1.1" 404') == ["GET", "api/items/7", "HTTP/1.1", "404"]
    assert fact_words(["src/app.py", "modified:"]) == ["src/app.py", "modified"]
    assert fact_words("tests/test_a.py::TestX::test_div[http://u:p@example.com] FAILED") == [
        "tests/test_a.py", "TestX", "test_div", "http", "u", "p@example.com", "FAILED"]
    assert fact_words({"under": "src/main.c", "line": "10:5: error: done."}) == ["src/main.c", "10", "5", "error",
                                                                                "done"]


def test_a_fact_is_kept_by_words_in_another_layout_or_order():
    raw_fact = ["src/app.py", "modified"]
    assert fact_kept_by_words("modified files:\n  src/app.py\n", raw_fact)
    assert not fact_kept("modified files:\n  src/app.py\n", raw_fact)  # the strict rule wants one line
    grouped = "tests/test_a.py\n  TestX::test_div FAILED\n"
    assert fact_kept_by_words(grouped, "FAILED tests/test_a.py::TestX::test_div")


def test_a_word_rewritten_or_dropped_loses_the_fact():
    assert not fact_kept_by_words("M src/app.py\n", "modified:   src/app.py")  # modified -> M
    assert not fact_kept_by_words("app.py modified\n", "modified: src/app.py")  # the path is one word
    assert not fact_kept_by_words('"GET /checkout HTTP/1.1" 200-404\n', '"GET /checkout HTTP/1.1" 500')
    assert missing_facts_by_words("a b\n", ["alpha beta", "a b"]) == ["alpha beta"]


def test_a_number_word_must_stand_whole():
    assert not fact_kept_by_words("14 failed, 3 passed\n", "4 failed")
    assert fact_kept_by_words("3 passed; 4 failed\n", "4 failed")
    assert not fact_kept_by_words("line 120\n", "line 12")
    assert fact_kept_by_words("HTTP/1.1 500\n", '"HTTP/1.1" 500')


def test_a_hex_id_is_kept_by_a_seven_character_prefix():
    full = "078b20a4c1d2e3f4a5b6c7d8e9f0011223344556"
    assert len(full) == 40
    assert fact_kept_by_words("078b20a api: sqz_core.api\n", f"commit {full}".replace("commit ", ""))
    assert fact_kept_by_words(f"commit {full}\nAuthor: x\n", "commit 078b20a4c1")  # the short id of a full one
    assert not fact_kept_by_words("078b20 api\n", full)  # six characters are not enough
    assert not fact_kept_by_words("078b20b api\n", full)  # another id


def test_the_word_rule_is_looser_than_the_strict_rule_never_stricter_on_these():
    out = "FAILED tests/test_a.py::test_div - ZeroDivisionError\n"
    for fact in ["FAILED tests/test_a.py::test_div - ZeroDivisionError", ["test_div", "FAILED"],
                 {"under": "tests/test_a.py", "line": "test_div"}]:
        assert fact_kept(out, fact) and fact_kept_by_words(out, fact)
