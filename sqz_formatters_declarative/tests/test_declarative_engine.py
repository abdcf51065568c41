"""What one compiled spec does to an output: each rule on its own, the order they run in, near misses."""

from __future__ import annotations

from sqz_core.api import FormatRequest

from sqz_formatters_declarative.compile import compile_text
from sqz_formatters_declarative.engine import apply, matches


def spec(yaml: str) -> dict:
    specs, errors = compile_text(yaml, "t.yaml", "user")
    assert errors == []
    return specs[0]


BASE = "name: t\nmatch: {program: tool}\n"


def test_drop_and_keep():
    s = spec(BASE + "drop: ['^debug ']\n")
    assert apply(s, "debug a\nwork\ndebug b\ndone\n", 0) == "work\ndone\n"
    s = spec(BASE + "keep: ['^(work|done)$']\n")
    assert apply(s, "noise\nwork\nmore noise\ndone\n", 0) == "work\ndone\n"


def test_fold_by_pattern_keeps_first_and_last_with_a_count():
    s = spec(BASE + "fold: ['^fetch ']\nfold_identical: false\n")
    text = "start\n" + "".join(f"fetch part {i}\n" for i in range(6)) + "end\n"
    assert apply(s, text, 0) == "start\nfetch part 0\n  … 4 more like these …\nfetch part 5\nend\n"


def test_a_run_shorter_than_fold_min_stays():
    s = spec(BASE + "fold: ['^fetch ']\nfold_min: 4\n")
    text = "fetch 1\nfetch 2\nfetch 3\nend\n"
    assert apply(s, text, 0) == text


def test_identical_runs_fold_with_a_count():
    s = spec(BASE)
    assert apply(s, "waiting\nwaiting\nwaiting\nready\n", 0) == "waiting [×3]\nready\n"


def test_similar_runs_fold_when_asked():
    s = spec(BASE + "fold_similar: true\n")
    text = "".join(f"uploaded chunk {i} of 9 (id 3fa9b{i}c1d2)\n" for i in range(1, 10)) + "done\n"
    out = apply(s, text, 0)
    assert out == ("uploaded chunk 1 of 9 (id 3fa9b1c1d2)\n  … 7 more like these …\n"
                   "uploaded chunk 9 of 9 (id 3fa9b9c1d2)\ndone\n")
    assert apply(spec(BASE), text, 0) == text  # off by default


def test_head_and_tail_cut_the_middle_with_a_count():
    s = spec(BASE + "head: 2\ntail: 1\n")
    text = "".join(f"line {i}\n" for i in range(10))
    assert apply(s, text, 0) == "line 0\nline 1\n… 7 lines omitted …\nline 9\n"
    assert apply(spec(BASE + "tail: 2\n"), text, 0) == "… 8 lines omitted …\nline 8\nline 9\n"


def test_on_failure_error_lines_survive_every_other_rule():
    s = spec(BASE + "drop: ['.']\nhead: 0\ntail: 0\non_failure:\n  errors: ['^E: ']\n")
    text = "ok 1\nE: disk full\nok 2\nE: disk full\nE: disk full\nok 3\n"
    out = apply(s, text, 1)
    assert out.splitlines().count("E: disk full") == 3  # never dropped, folded or cut
    assert "ok 1" not in out
    # the same rules on a green run: the error pattern protects nothing
    assert "E: disk full" not in apply(s, text, 0)


def test_an_unknown_exit_status_counts_as_failing():
    s = spec(BASE + "drop: ['^E: ']\non_failure:\n  errors: ['^E: ']\n")
    assert apply(s, "E: boom\nfine\n", None) == "E: boom\nfine\n"
    assert apply(s, "E: boom\nfine\n", 0) == "fine\n"


def test_context_lines_around_an_error_are_kept():
    s = spec(BASE + "drop: ['^  at ']\non_failure:\n  errors: ['^Error']\n  context: 1\n")
    text = "  at a\n  at b\nError: x\n  at c\n  at d\n"
    assert apply(s, text, 2) == "  at b\nError: x\n  at c\n"


def test_keep_all_on_failure_returns_the_output_unchanged():
    s = spec(BASE + "drop: ['.']\non_failure:\n  keep_all: true\n")
    assert apply(s, "a\nb\n", 3) == "a\nb\n"
    assert apply(s, "a\nb\n", 0) == ""


def test_ansi_is_stripped_unless_turned_off():
    s = spec(BASE + "drop: ['^ok']\n")
    assert apply(s, "\x1b[32mok\x1b[0m\n\x1b[31mfail\x1b[0m\n", 0) == "fail\n"
    keep_codes = spec(BASE + "strip_ansi: false\ndrop: ['^ok']\n")
    assert apply(keep_codes, "\x1b[32mok\x1b[0m\n", 0) == "\x1b[32mok\x1b[0m\n"


def test_a_line_too_long_for_a_pattern_is_kept_and_counts_as_an_error_line():
    s = spec(BASE + "drop: ['x.*y.*z']\non_failure:\n  errors: ['e.*r.*r']\n")  # two backtracking repeats: cap 256
    long_line = "x" + "a" * 300 + "y z"
    assert apply(s, long_line + "\nxyz\n", 0) == long_line + "\n"  # not tested against the drop pattern: kept
    s2 = spec(BASE + "drop: ['.']\non_failure:\n  errors: ['e.*r.*r']\n")
    assert apply(s2, long_line + "\nshort\n", 1) == long_line + "\n"  # not sure it is no error: kept


def test_never_longer_than_the_input():
    s = spec(BASE)
    assert apply(s, "a\na\n", 0) == "a\na\n"  # "a [×2]" would be longer


def test_matching_by_program_subcommand_and_argv():
    s = spec("name: t\nmatch:\n  program: [pnpm, npm]\n  subcommand: install\n  argv: '--frozen-lockfile'\n")
    assert matches(s, FormatRequest("", "pnpm install --frozen-lockfile"))
    assert matches(s, FormatRequest("", "env CI=1 npm install --frozen-lockfile"))
    assert not matches(s, FormatRequest("", "pnpm install"))  # no such argument
    assert not matches(s, FormatRequest("", "pnpm add --frozen-lockfile"))  # another subcommand
    assert not matches(s, FormatRequest("", "yarn install --frozen-lockfile"))  # another program
    assert not matches(s, FormatRequest("", None, tool="read_file"))
