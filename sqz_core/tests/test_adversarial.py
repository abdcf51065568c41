"""Adversarial inputs: every core stage must stay linear (or bounded) in the size of its input.

Each case once took seconds to minutes on a few kilobytes (regexes backtracking across
blank lines or over space runs, cursor moves building the width they asked for). The work is
counted, not timed: the lines of Python a call runs (``work_done``) stay under a budget linear in
the input's lines and bytes, and no pattern of the stages can backtrack (``nested_repeats``), the
part of the work the count does not see (the regex engine runs in C).
"""

from __future__ import annotations

import time

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sqz_core import cleanup, safety
from sqz_core.pipeline import compress
from sqz_testing import nested_repeats, regex_patterns, work_done

SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                           HealthCheck.data_too_large])

# Lines of Python per input line and per byte, and a constant for set-up (lazy imports, first
# compiles). Measured at about 20 per line (1-line outputs of 3 bytes) and 1 per byte (a 240 KB
# line of JWT candidates) at most; a pass quadratic in either goes past it by orders of magnitude.
PER_LINE, PER_BYTE, SETUP = 40, 4, 50_000


def _budget(text) -> int:
    newline = b"\n" if isinstance(text, bytes) else "\n"
    return PER_LINE * (text.count(newline) + 1) + PER_BYTE * len(text) + SETUP


def _run(text: str, command: str = "cat build.log"):
    """Compress ``text`` and assert the work is linear in it; return the output as text."""
    data = text.encode()
    compress(data, command=command, store=None)  # warm: first imports and pattern compiles are not its work
    result, lines = work_done(compress, data, command=command, store=None)
    assert lines <= _budget(data), f"{lines} lines of Python for {len(data)} bytes (budget {_budget(data)})"
    return result.output.decode("utf-8", "replace")


def _linear(fn, *args, text: str):
    """``fn(*args)``, asserting the work is linear in ``text`` (its input)."""
    fn(*args)  # warm, as in _run
    out, lines = work_done(fn, *args)
    assert lines <= _budget(text), f"{fn.__name__}: {lines} lines for {len(text)} bytes (budget {_budget(text)})"
    return out


def test_no_pattern_of_the_stages_can_backtrack():
    for module in (cleanup, safety):
        for name, pattern in regex_patterns(module).items():
            assert nested_repeats(pattern) == [], (module.__name__, name, pattern)


# --- generators -------------------------------------------------------------------

_HEADS = st.sampled_from(["token refreshed", "Traceback (most recent call last):", "CREATE TABLE users",
                          "goroutine 1 [running]:", "stack backtrace:", "    at foo", "-----BEGIN RSA KEY-----",
                          "password = hunter22", "plain words"])
blank_runs = st.builds(lambda h, n: h + "\n" + "\n" * n, _HEADS, st.integers(0, 20000))
space_runs = st.builds(lambda h, n, tail: h + "\n" + " " * n + tail + "\n", _HEADS, st.integers(0, 100000),
                       st.sampled_from(["", "x", "\t", " \t"]))
cursor_escapes = st.builds(
    lambda ops: "a\n" + "".join(ops) + "\n",
    st.lists(st.builds(lambda n, op, tail: f"\x1b[{n}{op}{tail}",
                       st.one_of(st.just(""), st.integers(0, 10 ** 9).map(str), st.just("9" * 5000)),
                       st.sampled_from("ABCDGKJ"), st.sampled_from(["", "x", "hello", "\r", "\n"])),
             min_size=1, max_size=30).map(lambda ops: ["\x1b[1A"] + ops))
huge_tokens = st.builds(lambda word, ch, n: f"{word}{ch * n}\n",
                        st.sampled_from(["token=", "password: ", "eyJ", "ghp_", "sk-", "api_key=", "(", "a.b"]),
                        st.sampled_from(["a", "(", ".", " ", "="]), st.integers(0, 200000))
short_lines = st.builds(lambda n, mod: "".join(f"l{i % mod}\n" for i in range(n)),
                        st.integers(0, 100000), st.integers(1, 200))
PIECES = st.lists(st.one_of(blank_runs, space_runs, cursor_escapes, huge_tokens, short_lines), min_size=1, max_size=3)


@SETTINGS
@given(PIECES)
def test_pipeline_is_linear_and_keeps_the_last_line(pieces):
    text = "".join(pieces) + "end\n"
    lines = _run(text).rstrip("\n").split("\n")
    if "\x1b[" in text:  # a cursor left above the bottom row writes the last line there, as a terminal shows it
        assert any("end" in line for line in lines)
    else:
        assert "end" in lines[-1]


@SETTINGS
@given(st.integers(1, 200000), st.sampled_from(["", "x", "\t"]))
def test_trailing_whitespace_is_linear_and_exact(n, tail):
    text = "a  \n" + " " * n + tail + "\nb\t\n"
    out = _linear(cleanup.strip_trailing_whitespace, text, text=text)
    assert out == "a\n" + (" " * n + tail if tail == "x" else "") + "\nb\n"


# --- regressions: each input makes the old code blow the bound -----------------------

def test_blank_run_after_credential_word():
    # safety._CRED_LINE's ^\s* spanned the blank run: 11.8 s
    out = _run("token refreshed\n" + "\n" * 10000 + "end\n")
    assert out.split("\n")[-2] == "end"
    assert "token refreshed" in out


def test_blank_run_after_traceback_and_ddl_words():
    for head in ("Traceback (most recent call last):", "create table", "    at x"):
        out = _run(head + "\n" + "\n" * 30000 + "end\n")
        assert out.rstrip("\n").endswith("end"), head


def test_traceback_after_blank_lines_is_found():
    # ^\s* used to start the match on the first blank line, so the frame check looked at a blank line
    text = "\n\nTraceback (most recent call last):\n  File \"a.py\", line 1, in <module>\nValueError: x\n"
    verdict = safety.classify(text)
    assert verdict is not None and "python-traceback" in verdict.reason


def test_long_space_run():
    # cleanup._TRAILING_WS backtracked over the run: 113 s
    out = _run(" " * 200000 + "x\n")
    assert out.rstrip("\n").endswith("x")


def test_cursor_forward_far():
    # cleanup.resolve_cursor_moves built a 100000-column line: 26.5 s
    text = "a\n\x1b[1A\x1b[100000Cx\n"
    out = _linear(cleanup.clean_terminal, text, text=text)
    assert "x" in out and len(out) < 10000
    assert "x" in _run(text)


def test_cursor_bomb():
    # 26 bytes asked for ten million rows and columns: > 300 s and 585 MB
    text = "\x1b[1A\x1b[9999999B\x1b[9999999Cx\n"
    out = _linear(cleanup.clean_terminal, text, text=text)
    assert "x" in out and len(out) < 20000
    assert "x" in _run(text)


def test_cursor_move_with_thousands_of_digits():
    # int() refuses more than 4300 digits: this raised ValueError
    text = "a\n\x1b[1A\x1b[" + "9" * 5000 + "Cx\n"
    out = _linear(cleanup.clean_terminal, text, text=text)
    assert "x" in out


def test_cursor_replay_keeps_redraws():
    # the caps leave ordinary progress redraws alone
    text = "step 1\nstep 2\n\x1b[2A\x1b[2Kdone 1\x1b[1B\r\x1b[5Cend\n"
    assert cleanup.resolve_cursor_moves(text).split("\n")[:2] == ["done 1", "step end"]


def test_go_frame_line_of_parentheses():
    # _GO_FUNC's ^[\w./*()\[\]-]+\(.*\) backtracked quadratically over a run of "("
    text = "goroutine 1 [running]:\nmain.main()\n\t/src/main.go:5 +0x1d\n" + "(" * 100000 + "\nexit status 2\n"
    verdict = _linear(safety.classify, text, text=text)
    assert verdict is not None and "go-goroutine" in verdict.reason
    assert safety._go_func("main.(*T).Run(0xc000010000)") and safety._go_func("created by main.main")
    assert safety._go_func("net/http.(*conn).serve(...)") and not safety._go_func("(" * 100)


def test_many_ddl_lines_in_one_paragraph():
    # each span walked the whole paragraph with a regex per line: quadratic in spans
    lines = [f"CREATE TABLE t{i} (x int);" for i in range(20000)]
    text = "\n".join(lines) + "\n"
    verdict = _linear(safety.classify, text, text=text)
    assert verdict is not None and verdict.reason == "sql-ddl" and len(verdict.spans) == 20000
    assert _linear(safety.paragraphs_holding, lines, verdict.spans, text=text) == [(0, 19999)]
    assert safety.keeps_paragraphs(text, text, verdict.spans)


def test_pem_blocks_without_end():
    text = "-----BEGIN RSA PRIVATE KEY-----\nabc\n" * 20000
    verdict = _linear(safety.classify, text, text=text)
    assert verdict is not None and verdict.secret and len(verdict.spans) == 20000
    assert verdict.spans[0] == (0, 40000)  # no END line: the block runs to the last line


def test_many_short_lines():
    # 1M short lines took 14.8 s; fold_repeated_blocks tried 11 block sizes on every line
    text = "".join(f"l{i % 97}\n" for i in range(300000))
    out = _run(text)
    assert out.startswith("l0\nl1\n") and out.rstrip("\n").endswith("l" + str(299999 % 97))


def test_jwt_candidates_in_one_run():
    # every "eyJ" of "-eyJ-eyJ…" rescanned the rest of the run: 240 KB took 20 s
    text = "-eyJ" * 60000
    assert _linear(safety.classify, text, text=text) is None
    jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U"
    verdict = safety.classify("ok\n" + text + "\nBearer " + jwt + "\n")
    assert verdict is not None and verdict.secret and verdict.spans == ((2, 2),)
    assert safety.classify("x-eyJ-" + jwt).secret


# --- the per-call time budget ------------------------------------------------------------
# Every stage is linear now, so no real input is slow enough to reach the budget here: a stage
# made slow on purpose (a sleep) stands for whatever input or plugin a future stage misjudges.

def _slow(seconds, fn):
    def slow(*args, **kwargs):
        time.sleep(seconds)
        return fn(*args, **kwargs)
    return slow


SLOW_INPUT = "".join(f"worker {i % 3}: waiting for the lock on the build directory\n" for i in range(300)).encode()


def test_past_the_time_budget_the_original_goes_out_unchanged(monkeypatch, tmp_path):
    from sqz_core import pipeline
    from sqz_core.store import Store

    store = Store.open(str(tmp_path / "db.sqlite"))
    assert compress(SLOW_INPUT, store=store, session="a").output != SLOW_INPUT  # normally compressed
    monkeypatch.setenv("SQZ_TIME_BUDGET_MS", "100")
    monkeypatch.setattr(pipeline, "fold_repeats", _slow(0.3, pipeline.fold_repeats))
    data = SLOW_INPUT + b"and one new line\n"
    result = compress(data, store=store, session="b")
    assert (result.outcome, result.output) == ("timeout", data)
    assert "time budget" in result.reason
    assert store.get_blob(pipeline.digest_of(data)) is None  # nothing stored for a call that gave up
    store.close()


def test_a_slow_formatter_is_cut_by_the_budget_too(monkeypatch):
    from sqz_core import pipeline, plugins

    monkeypatch.setenv("SQZ_TIME_BUDGET_MS", "100")
    monkeypatch.setattr(plugins, "call_first", _slow(0.15, plugins.call_first))
    folded = []
    monkeypatch.setattr(pipeline, "fold_repeats", lambda text: folded.append(text) or text)
    start = time.monotonic()
    result = compress(SLOW_INPUT, command="make", store=None)
    took = time.monotonic() - start
    assert (result.outcome, result.output) == ("timeout", SLOW_INPUT)
    assert folded == []  # checked between stages: it stopped at the check after the formatter
    # the budget is the behaviour: its own value, plus the two slow calls (detect, format) that
    # ran before the check, plus a wide margin for a loaded machine; no stage after them ran
    assert took < pipeline.time_budget() + 2 * 0.15 + 5.0, took


def test_timeout_is_recorded_in_stats_and_said_once(monkeypatch, tmp_path, capsys):
    from sqz_core import hot, pipeline
    from sqz_core.store import Store

    monkeypatch.setenv("SQZ_DB_PATH", str(tmp_path / "db.sqlite"))
    monkeypatch.setenv("SQZ_CACHE_DIR", str(tmp_path / "cache"))  # its own plugin index
    monkeypatch.delenv("SQZ_STORE_URL", raising=False)
    monkeypatch.delenv("SQZ_QUIET", raising=False)
    monkeypatch.setenv("SQZ_TIME_BUDGET_MS", "50")
    monkeypatch.setattr(pipeline, "fold_repeats", _slow(0.2, pipeline.fold_repeats))
    opts = hot._parse(["--cmd", "make"], allow_rest=False)[0]
    result = hot.compress_bytes(SLOW_INPUT, opts)
    hot._note(result)
    assert result.output == SLOW_INPUT
    err = capsys.readouterr().err.splitlines()
    assert err == ["sqz: sent unchanged (over the 0.05 s time budget; SQZ_TIME_BUDGET_MS sets it)"]
    store = Store.open(str(tmp_path / "db.sqlite"))
    assert [row[5] for row in store.calls()] == ["timeout"]
    store.close()


def test_time_budget_setting():
    import os

    from sqz_core.pipeline import DEFAULT_TIME_BUDGET_MS, time_budget

    old = os.environ.pop("SQZ_TIME_BUDGET_MS", None)
    try:
        assert time_budget() == DEFAULT_TIME_BUDGET_MS / 1000 == 2.0
        for value, expected in (("250", 0.25), ("0", float("inf")), ("nonsense", 2.0)):
            os.environ["SQZ_TIME_BUDGET_MS"] = value
            assert time_budget() == expected
    finally:
        os.environ.pop("SQZ_TIME_BUDGET_MS", None)
        if old is not None:
            os.environ["SQZ_TIME_BUDGET_MS"] = old


def test_last_line_written_above_the_bottom_row_stays_on_screen():
    # found by hypothesis: the cursor moves up 3 rows, so "end" overwrites a blank row above "a"
    text = "CREATE TABLE users\n" + "\n" * 8 + "a\n\x1b[1A\x1b[A\x1b[A\n" + "end\n"
    assert "end" in cleanup.clean_terminal(text).split("\n")
    assert "end" in _run(text)
