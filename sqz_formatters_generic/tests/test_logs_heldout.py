"""Held-out logs (server and library logs captured outside the tuning set): failed requests
are never folded, a repeated warning folds into its first line, a traceback's body and the
exception that ends it stay whole, and a log with tracebacks in it is still read as a log."""

from __future__ import annotations

import re
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from sqz_formatters_generic.kinds import compress_kind, detect_kind
from sqz_formatters_generic.kinds.log_lines import _SEVERE_FIELD, looks_like_log
from sqz_core.request import FormatRequest
from sqz_testing import load_fixture

FIX = Path(__file__).parent / "fixtures" / "kinds" / "log"


def _out(name: str) -> tuple[str, str]:
    fx = load_fixture(FIX / f"{name}.txt")
    req = fx.request()
    assert detect_kind(req.text, req) == "log"
    return fx.text, compress_kind("log", req)


_FAILED = re.compile(r'"[A-Z]+ \S+ HTTP/[\d.]+" [45]\d\d\b')


def test_every_failed_request_is_kept_verbatim():
    for name in ("http_server_parallel", "gunicorn_flask", "uvicorn_boom", "http_server_access"):
        raw, out = _out(name)
        failed = [line for line in raw.split("\n") if _FAILED.search(line)]
        assert failed
        kept = out.split("\n")
        assert all(line in kept for line in failed), name


def test_successful_requests_still_fold():
    raw, out = _out("http_server_parallel")
    assert raw.count('"GET /health HTTP/1.1" 200 -') == 120
    assert out.count('"GET /health HTTP/1.1" 200 -') <= 3
    assert "[×120 lines like the one above" in out
    # the twelve missing files, each with its own path
    assert all(f'"GET /static/app-{i}.js HTTP/1.1" 404 -' in out for i in range(1, 13))


def test_a_repeated_warning_folds_into_its_first_occurrence():
    raw, out = _out("python_warnings_repeated")
    warning = raw.split("\n")[0]
    assert raw.count(warning) == 30
    assert out.count(warning) == 1
    lines = out.split("\n")
    at = lines.index(warning)
    assert lines[at + 1:at + 4] == ["[×30 lines like the one above, 29 of them further down, not shown]",
                                    "  lang, enc = locale.getdefaultlocale()",
                                    "[×30 lines like the one above, 29 of them further down, not shown]"]
    assert "2026-12-01 10:13:57,734 INFO exporter: export finished: 30 batches" in lines


def test_severe_lines_with_different_text_never_fold():
    lines = [f"2026-12-01 10:00:{s:02d} WARNING cache miss for key user:{s}" for s in range(10)]
    text = "\n".join(lines) + "\n"
    out = compress_kind("log", FormatRequest(text, "python3 app.py"))
    assert out is None or all(line in out for line in lines)


def test_a_traceback_body_and_its_exception_stay_whole():
    raw, out = _out("uvicorn_boom")
    first = raw[raw.index("Traceback (most recent call last):"):]
    first = first[: first.index("RuntimeError: payment gateway returned malformed JSON") + 53]
    assert first in out
    assert "[×" not in out[out.index("Traceback"):out.index("RuntimeError")]
    raw, out = _out("app_worker_traces")
    # every trace still ends with its exception line
    assert out.count("KeyError: 'payload'") == raw.count("KeyError: 'payload'")


def test_a_log_with_tracebacks_in_it_is_still_a_log():
    raw, out = _out("requests_urllib3_debug")
    assert len(out) < len(raw) / 1.5
    for line in raw.split("\n"):
        if " WARNING " in line or " ERROR " in line or line.startswith(("Traceback", "  File ")):
            assert line in out.split("\n")
    assert "ConnectionRefusedError: [Errno 111] Connection refused" in out


def test_a_bare_traceback_is_not_a_log():
    frames = "".join(f'  File "m{i}.py", line {i}, in f{i}\n    f{i + 1}()\n' for i in range(20))
    trace = "Traceback (most recent call last):\n" + frames + "ValueError: boom\n"
    assert not looks_like_log(trace)
    assert not looks_like_log("2026-12-01 10:00:00 INFO start\n" + trace)


def test_postgres_errors_keep_their_detail_and_statement():
    raw, out = _out("postgres_server")
    kept = out.split("\n")
    for i, line in enumerate(raw.split("\n")):
        if " ERROR:  " in line or " DETAIL:  " in line or " STATEMENT:  " in line:
            assert line in kept
    assert len(out) < len(raw) / 2


_LOG_LINE = st.builds(lambda s, lvl, msg, n: f"2026-12-01 10:00:{s:02d},000 {lvl} app: {msg} {n}",
                      st.integers(0, 59), st.sampled_from(["INFO", "DEBUG", "WARNING", "ERROR"]),
                      st.sampled_from(["tick", "job done", "retry", '"GET /x HTTP/1.1" 404 -', "cache miss",
                                       "connect() failed (111: refused) *7 port", "open /srv/f7 failed, pid",
                                       "worker *8 exited with 0 after", "key user:3 in"]),
                      st.sampled_from([0, 1, 2, 3, 17, 1401]))

_SEVERE_NOTE = re.compile(r"\[×(\d+) lines like the one above(?:, \d+ of them further down, not shown)?; "
                          r"the other (\d+), in order, are the line above with its timestamps and lone numbers, "
                          r"counted from the left, set to: (.*)\]")


def rebuild_severe_folds(out: str) -> list[str]:
    """Every line a severe-line note folded, rebuilt from the line above the note and the values
    the note lists (``value k: a | b×3``: the k-th field, timestamps and lone numbers counted, of
    each of the other lines in order; ``value k: as value j``)."""
    rebuilt: list[str] = []
    lines = out.split("\n")
    for at, line in enumerate(lines):
        m = _SEVERE_NOTE.fullmatch(line)
        if not m:
            continue
        first = lines[at - 1]
        spans = [f.span() for f in _SEVERE_FIELD.finditer(first)]
        others = int(m.group(2))
        assert int(m.group(1)) == others + 1
        cols: dict[int, list[str]] = {}
        for part in m.group(3).split("; "):
            k, _, vals = part.partition(": ")
            k = int(k.removeprefix("value ")) - 1
            if vals.startswith("as value "):
                cols[k] = cols[int(vals.removeprefix("as value ")) - 1]
                continue
            col: list[str] = []
            for v in vals.split(" | "):
                v, _, c = v.partition("×")
                col += [v] * (int(c) if c else 1)
            assert len(col) == others, line       # one value for each folded line, none merged
            cols[k] = col
        for j in range(others):
            pieces, prev = [], 0
            for k, (a, b) in enumerate(spans):
                pieces += [first[prev:a], cols[k][j] if k in cols else first[a:b]]
                prev = b
            rebuilt.append("".join(pieces) + first[prev:])
    return rebuilt


def test_the_rebuild_fails_when_a_note_drops_or_merges_a_value():
    lines = [f"2026-12-01 10:00:0{s} ERROR app: connect() to upstream failed *{140 + s} port {8000 + s % 2}"
             for s in range(10)]
    out = compress_kind("log", FormatRequest("\n".join(lines) + "\n", "python3 app.py"))
    assert out is not None
    kept = out.split("\n")
    assert kept == [lines[0], kept[1], lines[8], lines[9], ""]   # the log's last two lines, whole
    assert kept[1].startswith("[×8 lines like the one above; the other 7, in order, are the line above with ")
    assert rebuild_severe_folds(out) == lines[1:8]
    assert "*141 | *142 | *143 | *144 | *145 | *146 | *147;" in kept[1] and "8001 | 8000 | 8001 | 8000" in kept[1]
    merged = out.replace("*143 | *144", "*143×2")              # two ids merged into one
    assert rebuild_severe_folds(merged) != lines[1:8]
    dropped = out.replace("*143 | *144 | ", "*143 | ")         # one id dropped
    try:
        wrong = rebuild_severe_folds(dropped)
    except AssertionError:
        wrong = None
    assert wrong != lines[1:8]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(_LOG_LINE, st.sampled_from(["Traceback (most recent call last):",
                                                      '  File "a.py", line 1, in f', "    f()", "KeyError: 'x'", ""])),
                min_size=1, max_size=60))
def test_folding_never_loses_a_severe_line_text_or_a_failed_request(lines):
    """A severe line stays on the page: verbatim, rebuilt exactly from its fold note, or (an exact
    repeat, timestamps aside) as the text of its first occurrence."""
    text = "\n".join(lines) + "\n"
    out = compress_kind("log", FormatRequest(text, "python3 app.py"))
    if out is None:
        return
    kept = set(out.split("\n"))
    rebuilt = set(rebuild_severe_folds(out))
    assert rebuilt <= set(lines)                          # a note rebuilds real lines only
    stamp = re.compile(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d+ ")
    kept_text = {stamp.sub("", line) for line in kept}
    for line in lines:
        if " ERROR " in line or " WARNING " in line or _FAILED.search(line):
            # its every value, or its text if not its every repeat
            assert line in kept or line in rebuilt or stamp.sub("", line) in kept_text
        if line.startswith(("Traceback", "  File", "    f()", "KeyError")):
            assert line in kept
