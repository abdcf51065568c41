"""Held-out logs (server and library logs captured outside the tuning set): failed requests
are never folded, a repeated warning folds into its first line, a traceback's body and the
exception that ends it stay whole, and a log with tracebacks in it is still read as a log."""

from __future__ import annotations

import re
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from sqz_core.kinds import compress_kind, detect_kind
from sqz_core.kinds.log_lines import looks_like_log
from sqz_core.request import FormatRequest
from sqz_core.testing import load_fixture

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
    out = compress_kind("log", FormatRequest(text, "cat app.log"))
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
                      st.sampled_from(["tick", "job done", "retry", '"GET /x HTTP/1.1" 404 -', "cache miss"]),
                      st.integers(0, 3))


@settings(max_examples=200, deadline=None)
@given(st.lists(st.one_of(_LOG_LINE, st.sampled_from(["Traceback (most recent call last):",
                                                      '  File "a.py", line 1, in f', "    f()", "KeyError: 'x'", ""])),
                min_size=1, max_size=60))
def test_folding_never_loses_a_severe_line_text_or_a_failed_request(lines):
    text = "\n".join(lines) + "\n"
    out = compress_kind("log", FormatRequest(text, "cat app.log"))
    if out is None:
        return
    kept = set(out.split("\n"))
    stamp = re.compile(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d+ ")
    kept_text = {stamp.sub("", line) for line in kept}
    for line in lines:
        if " ERROR " in line or " WARNING " in line or _FAILED.search(line):
            assert stamp.sub("", line) in kept_text      # its text, if not its every repeat
        if line.startswith(("Traceback", "  File", "    f()", "KeyError")):
            assert line in kept
