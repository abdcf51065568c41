"""Safety per span (issue 25.3): a secret, a ``user:pass@`` URL or a stack trace protects its own lines,
and the rest of the output is compressed as usual.

The real captures are in ``fixtures/spans`` (``scripts/capture_spans.sh``). A secret never reaches
the store: what is kept for ``sqz expand`` is the original with each secret line withheld, and the
page holds those lines verbatim, so the page and the expanded original together give every byte back.
"""

from __future__ import annotations

import sqlite3
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sqz_core.cleanup import clean_terminal
from sqz_core.expand import resolve
from sqz_core.pipeline import compress
from sqz_core.runnable import find_recovery
from sqz_core.safety import classify
from sqz_core.spans import WITHHELD, fold_library_frames, put_back, secret_spans
from sqz_core.store import Store
from sqz_core.tokens import count
from sqz_testing import bytes_at_rest, iter_fixtures, missing_facts

FIXTURES = {f.name: f for f in iter_fixtures(Path(__file__).parent / "fixtures" / "spans")}


def _secret_values(text: str) -> list[str]:
    """The password of every ``scheme://user:password@`` the detectors flag in ``text`` (what must not be stored)."""
    import re

    out = []
    for line in text.split("\n"):
        if classify(line + "\n", secrets_only=True) is None:
            continue
        for m in re.finditer(r"://([^/@\s:]*):([^/@\s]+)@", line):
            out.append(m.group(0))
    return out


def _rebuilt(page: str, stored: str) -> str:
    """The original from what ``expand`` prints and the page: each withheld line is the page's next secret line."""
    secret_lines = [line for line in page.split("\n") if classify(line + "\n", secrets_only=True) is not None]
    lines = stored.split("\n")
    it = iter(secret_lines)
    return "\n".join(next(it) if line == WITHHELD else line for line in lines)


def _run(fx, tmp_path):
    store = Store.open(str(tmp_path / "db.sqlite"))
    result = compress(fx.raw, command=fx.command, store=store, session="s1")
    return store, result, result.output.decode()


def test_fixture_set_is_complete():
    assert {"pytest_v_requests_utils", "requests_connection_refused", "urllib_connection_refused",
            "flask_dev_server_log", "django_check_bad_app", "django_check_settings_secret", "django_debug_500_text",
            "django_debug_500_html", "django_runserver_log", "werkzeug_debugger_page", "git_log_p_userinfo"} <= set(FIXTURES)


def test_pytest_v_with_userinfo_test_ids_is_compressed_around_them(tmp_path):
    fx = FIXTURES["pytest_v_requests_utils"]
    verdict = classify(fx.text)
    assert verdict.secret and "url-userinfo" in verdict.reason  # the reason it used to go out whole
    store, result, out = _run(fx, tmp_path)
    assert result.outcome == "safe" and result.plugin == "pytest"
    assert count(out)[0] * 3 < count(fx.text)[0]  # 7,265 → about 1,450 cl100k tokens here
    assert missing_facts(out, fx.facts) == []
    spans = secret_spans(fx.text)
    lines = fx.text.split("\n")
    secret_lines = [lines[i] for a, b in spans for i in range(a, b + 1)]
    assert len(secret_lines) >= 15
    for line in secret_lines:  # each secret line verbatim on the page
        assert line in out.split("\n")
    values = _secret_values(fx.text)
    assert values
    hint = find_recovery(out)
    assert hint is not None
    stored = resolve(store, hint[1]).decode()
    store.close()
    at_rest = bytes_at_rest(tmp_path)
    for value in values:
        assert value.encode() not in at_rest
        assert value not in stored
    assert stored.count(WITHHELD) == len(secret_lines)
    assert _rebuilt(out, stored) == fx.text  # every byte back: the page's secret lines, the rest from expand


def test_a_long_run_of_library_frames_folds_and_the_first_and_last_frames_stay(tmp_path):
    """manage.py check with a typo in INSTALLED_APPS: 9 Django and importlib frames between the user's
    manage.py frames and the frame that raised; the 8 before the raising one fold into one counted line."""
    fx = FIXTURES["django_check_bad_app"]
    store, result, out = _run(fx, tmp_path)
    assert result.outcome == "safe"
    assert ("  [sqz: 8 library frames (django, importlib, importlib._bootstrap), source lines folded: "
            "django/core/management/__init__.py:442 execute_from_command_line; ") in out
    assert "importlib._bootstrap>:1176 _find_and_load]" in out
    assert missing_facts(out, fx.facts) == []
    lines = fx.text.split("\n")
    user = [k for k, line in enumerate(lines) if line.startswith('  File "') and "manage.py" in line]
    assert len(user) == 2
    for k in user:  # the user's frames with their source lines, verbatim
        assert "\n".join(lines[k:k + 2]) in out
    assert "\n".join(lines[-3:]) in out  # the raising frame and the exception line
    assert "utility.execute()" not in out and "site-packages/django/" not in out  # the folded frames are gone
    assert count(out)[0] < count(fx.text)[0] * 0.6
    assert resolve(store, find_recovery(out)[1]) == fx.raw  # no secret in it: the original byte for byte
    store.close()


def test_a_secret_in_a_traceback_keeps_the_whole_trace_unfolded_and_unstored(tmp_path):
    """The same long run of library frames, but the frame that raised shows a database password:
    nothing of the trace folds and nothing of the output is stored."""
    fx = FIXTURES["django_check_settings_secret"]
    assert "fakeTraceSecret42" in fx.text
    store, result, out = _run(fx, tmp_path)
    assert result.outcome == "safe"
    assert out == fx.text
    assert "[sqz:" not in out and find_recovery(out) is None
    assert store.find_hashes("", limit=5) == []
    store.close()
    assert b"fakeTraceSecret42" not in bytes_at_rest(tmp_path)


@pytest.mark.parametrize("name", ["requests_connection_refused", "urllib_connection_refused"])
def test_short_library_runs_stay_verbatim(tmp_path, name):
    """requests through urllib3, and urllib alone: no run of 8 library frames once each trace's first
    frame and the frame that raised stay (shorter runs folded lost facts on the blind set); nothing else
    to compress, so the output goes out as it was, unstored."""
    fx = FIXTURES[name]
    store, result, out = _run(fx, tmp_path)
    assert result.outcome == "safe"
    assert out == fx.text
    assert store.find_hashes("", limit=5) == []
    store.close()


def test_git_log_p_with_a_userinfo_url_is_formatted_around_its_line(tmp_path):
    """git log -p whose patch adds a test with a postgres://user:password@ URL: the git formatter renders
    the log with that line as a placeholder (keeping its ``+`` and indentation, so the hunk still
    parses), and the line is put back byte for byte; the store keeps the log with that line withheld."""
    fx = FIXTURES["git_log_p_userinfo"]
    secret_line = next(line for line in fx.text.split("\n") if "fakeLogSecret7" in line)
    store, result, out = _run(fx, tmp_path)
    assert result.outcome == "safe" and result.plugin == "git"
    assert count(out)[0] < count(fx.text)[0] * 0.8
    assert out.split("\n").count(secret_line) == 1
    assert out.index(secret_line) > out.index("Test the database URL setting")  # in its own commit's patch
    assert missing_facts(out, fx.facts) == []
    assert "index " not in out and "Author:" not in out  # the git formatter's rendering, not the log as it was
    stored = resolve(store, find_recovery(out)[1]).decode()
    store.close()
    assert "fakeLogSecret7" not in stored and stored.count(WITHHELD) == 1
    assert _rebuilt(out, stored) == fx.text
    assert b"fakeLogSecret7" not in bytes_at_rest(tmp_path)


def test_web_debug_pages_whose_rendering_loses_a_placeholder_go_out_whole(tmp_path):
    """Django's debug 500 page and Werkzeug's debugger page as HTML: the traceback sits in an HTML comment
    or a textarea, so the html content kind's text (markup dropped, whitespace squeezed) loses its
    placeholder line. A catch-all's rendering is then not used around the spans (the blind set lost 53
    facts by words on three such pages: tag and attribute words, entities): the page goes out unchanged,
    never stored. A formatter that claims the program may still have the blocks appended."""
    for name in ("django_debug_500_html", "werkzeug_debugger_page"):
        fx = FIXTURES[name]
        db = tmp_path / name
        db.mkdir()
        store, result, out = _run(fx, db)
        store.close()
        assert result.outcome == "safe" and result.plugin is None, name
        assert out == fx.text, name
        assert classify(fx.text).spans, name  # a traceback is there: protected, the page with it


def test_django_debug_page_as_text_protects_its_whole_chained_trace():
    """Django's text page chains a trace's parts without a Traceback header of their own, and blanks the
    ^^^ marker lines to spaces: the protected span runs from the header to the last frame of the last part."""
    fx = FIXTURES["django_debug_500_text"]
    lines = fx.text.split("\n")
    (a, b, _), = classify(fx.text).spans
    assert lines[a] == "Traceback (most recent call last):"
    assert lines[b + 1] == "" and lines[b + 2].startswith("Exception Type: ConnectionError at /stock/")
    assert sum(line.startswith("The above exception (") for line in lines[a:b + 1]) == 2
    assert any(line.startswith("During handling of the above exception (") for line in lines[a:b + 1])
    assert 'orders/views.py", line 16, in stock' in "\n".join(lines[a:b + 1])


def test_django_runserver_log_folds_access_lines_around_the_tracebacks(tmp_path):
    fx = FIXTURES["django_runserver_log"]
    store, result, out = _run(fx, tmp_path)
    assert result.outcome == "safe"
    assert count(out)[0] * 2 < count(fx.text)[0]
    assert missing_facts(out, fx.facts) == []
    first = fx.text.index("Traceback")
    trace = fx.text[first:fx.text.index('"GET /stock/ HTTP/1.1" 500', first)]
    assert trace in out  # the first chained trace, verbatim
    assert "the same 74-line stack trace as above, copy 2 of 2" in out
    assert resolve(store, find_recovery(out)[1]) == fx.raw
    store.close()


def test_flask_log_with_tracebacks_is_compressed_around_them(tmp_path):
    fx = FIXTURES["flask_dev_server_log"]
    store, result, out = _run(fx, tmp_path)
    assert result.outcome == "safe"
    assert count(out)[0] * 3 < count(fx.text)[0]
    assert missing_facts(out, fx.facts) == []
    shown = clean_terminal(fx.text)
    tb = shown.index("Traceback")
    exception_line = shown.index("KeyError: 'missing'", tb)
    first_trace = shown[tb:exception_line].split("\n")
    user = [k for k, line in enumerate(first_trace) if line.startswith("  File ") and "site-packages" not in line]
    assert user
    for k in user:  # user frames and their source lines verbatim; library frames may fold
        assert "\n".join(first_trace[k:k + 2]) in out
    assert first_trace[0] in out and "KeyError: 'missing'" in out
    assert "the same 17-line stack trace as above" in out
    assert resolve(store, find_recovery(out)[1]) == fx.raw
    store.close()


def test_a_secret_line_in_a_log_is_kept_in_place_and_withheld_at_rest(tmp_path):
    """A container log: the secret's line stays where it was, the repeats around it fold."""
    lines = ["worker: waiting for the database to accept connections"] * 60
    lines.insert(30, "worker: connecting to postgres://app:fakeSpanPw0001@db.internal:5432/app")
    text = "\n".join(lines) + "\n"
    store = Store.open(str(tmp_path / "db.sqlite"))
    result = compress(text.encode(), command="docker logs worker", store=store, session="s1")
    out = result.output.decode()
    assert result.outcome == "safe"
    assert len(out) < len(text) / 2
    shown = out.split("\n")
    assert lines[30] in shown
    assert shown.index(lines[30]) not in (0, len(shown) - 1)  # in place, between the folded repeats
    store.close()
    assert b"fakeSpanPw0001" not in bytes_at_rest(tmp_path)


def test_no_second_look_stores_a_secret_the_spans_missed(tmp_path):
    """A token split by a line wrap has no exact extent: the output goes out whole and nothing is stored."""
    token = "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"
    text = "".join(f"line {i} of a listing that repeats\n" for i in range(40)) + token[:20] + "\n" + token[20:] + "\n"
    assert secret_spans(text) is None
    store = Store.open(str(tmp_path / "db.sqlite"))
    result = compress(text.encode(), command="cat notes.txt", store=store, session="s1")
    assert result.outcome == "safe" and result.output == text.encode()
    assert store.find_hashes("", limit=5) == []
    store.close()


def test_put_back_refuses_a_changed_or_repeated_placeholder():
    from sqz_core.spans import placeholder

    blocks = ["A", "B"]
    marks = [placeholder(0), placeholder(1)]
    good = f"x\n{placeholder(0)}\ny\n{placeholder(1)}\n"
    assert put_back(good, marks, blocks) == "x\nA\ny\nB\n"
    assert put_back(f"x\n{placeholder(0)}\n", marks, blocks) is None  # one dropped
    assert put_back(f"{placeholder(0)}\n{placeholder(0)}\n{placeholder(1)}", marks, blocks) is None
    assert put_back(f"[×2 like {placeholder(0)}]\n{placeholder(1)}", marks, blocks) is None  # folded into a note
    # a placeholder keeps its line's indentation and diff marker, and only that line stands for it
    assert placeholder(0, "+    token = 'x'") == "+    " + placeholder(0)
    assert put_back(f"+    {placeholder(0)}\n{placeholder(1)}", [placeholder(0, "+  a"), marks[1]], blocks) is None
    assert put_back(f"+  {placeholder(0)}\n{placeholder(1)}", [placeholder(0, "+  a"), marks[1]], blocks) == "A\nB"


def test_library_frames_fold_but_the_raising_frame_stays():
    lines = ["Traceback (most recent call last):",
             '  File "/srv/app/main.py", line 3, in <module>', "    run()"]
    for k in range(10):
        lines += [f'  File "/venv/lib/python3.11/site-packages/lib{k % 5}/mod.py", line {k + 10}, in f{k}', f"    g{k}()"]
    lines += ["ValueError: bad"]
    kept, n = fold_library_frames(lines)
    assert n == 9
    assert kept[:3] == lines[:3]
    assert kept[3] == ("  [sqz: 9 library frames (lib0, lib1, lib2, lib3, +1), source lines folded: "
                       + "; ".join(f"lib{k % 5}/mod.py:{k + 10} f{k}" for k in range(9)) + "]")
    assert kept[4:] == lines[-3:]  # the frame that raised and the exception line
    assert fold_library_frames(lines[:3] + lines[-7:])[1] == 0  # 3 library frames: a short run stays
    kept, n = fold_library_frames(lines[:1] + lines[3:])  # no user frame: the trace's first frame stays too
    assert n == 8 and kept[1:3] == lines[3:5] and kept[3].startswith("  [sqz: 8 library frames (")
    assert kept[4:] == lines[-3:]


# --- adversarial properties ----------------------------------------------------------------
SECRETS = ["postgres://app:fakeProp{n}Pw@db:5432/x", "ghp_" + "Zz9" * 12 + "{n}", "AKIAFAKE{n}{n}{n}0000000"[:20],
           "Authorization: Bearer fakeBearer{n}xyz", "DB_PASSWORD=fakeDbProp{n}"]
FILLER = st.sampled_from([
    "2026-12-01 10:00:00 INFO ok", "tests/test_a.py::test_x PASSED [ 10%]", "", "same line", "same line",
    "Traceback (most recent call last):", '  File "/v/lib/python3.11/site-packages/x/y.py", line 1, in f',
    "    f()", "ValueError: boom", "\x1b[31mred\x1b[0m", "progress 10%\rprogress 100%", "é字🙂", "\t  ",
])


def _secret(n: int, kind: int) -> str:
    s = SECRETS[kind % len(SECRETS)].format(n=n)
    return s if not s.startswith("AKIA") else ("AKIA" + f"{n:016d}")[:20].replace("0", "Q")


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(parts=st.lists(st.one_of(FILLER, st.tuples(st.integers(0, 99), st.integers(0, 4), st.sampled_from(
    ["", "x ", "  ", "\t", "a=", "[", "\x1b[1m"]), st.sampled_from(["", " y", "\r", ";", "]", "\x1b[0m"]))),
    min_size=1, max_size=80), repeat=st.integers(1, 3), glue=st.sampled_from(["\n", "\r\n", "", " "]))
def test_no_secret_reaches_the_store_and_every_other_byte_comes_back(tmp_path, parts, repeat, glue):
    """Secrets at span edges (glued to neighbours, with escapes, CR, CRLF), overlapping spans, repeats."""
    pieces, secrets = [], []
    for p in parts:
        if isinstance(p, tuple):
            n, kind, before, after = p
            s = _secret(n, kind)
            if classify(s + "\n", secrets_only=True) is None:
                continue
            secrets.append(s)
            pieces.append(before + s + after)
        else:
            pieces.append(p)
    text = glue.join(pieces * repeat) + "\n"
    db = Path(tempfile.mkdtemp(dir=tmp_path))
    store = Store.open(str(db / "db.sqlite"))
    raw = text.encode()
    result = compress(raw, command="docker logs app", store=store, session="s")
    page = result.output.decode()
    hint = find_recovery(page)
    stored = resolve(store, hint[1]) if hint else None
    hashes = store.find_hashes("", limit=5)
    store.close()
    at_rest = bytes_at_rest(db)
    present = [s for s in secrets if s in text]
    for s in present:
        assert s.encode() not in at_rest
    if hint is None:
        assert not present or hashes == []  # nothing of a secret output is kept unless a hint needs it
        return
    if present and stored != raw:
        original, kept = text.split("\n"), stored.decode().split("\n")
        assert len(kept) == len(original)
        for o, k in zip(original, kept):  # each line the original's, or withheld and then on the page verbatim
            assert k == o or (k.rstrip("\r") == WITHHELD and clean_terminal(o).strip() in page)
    else:
        assert stored == raw


def test_invalid_utf8_and_huge_inputs_store_no_secret(tmp_path, monkeypatch):
    monkeypatch.setenv("SQZ_TIME_BUDGET_MS", "0")  # a loaded machine must not turn the big call into a timeout
    store = Store.open(str(tmp_path / "db.sqlite"))
    secret = "postgres://app:fakeHugePw0001@db:5432/x"
    bad = b"\xff\xfe " + secret.encode() + b"\n" + b"x\n" * 100
    r = compress(bad, command="docker logs a", store=store, session="s")
    assert r.output == bad
    huge = ("2026-12-01 10:00:00 INFO worker ok\n" * 60_000 + f"connect {secret}\n").encode()
    r = compress(huge, command="docker logs a", store=store, session="s")
    out = r.output.decode()
    assert f"connect {secret}" in out
    assert len(r.output) < len(huge) / 10
    store.close()
    assert secret.encode() not in bytes_at_rest(tmp_path)
    assert b"fakeHugePw0001" not in bytes_at_rest(tmp_path)


def test_fts_index_and_blobs_hold_no_secret_line(tmp_path):
    fx = FIXTURES["pytest_v_requests_utils"]
    store, result, out = _run(fx, tmp_path)
    store.close()
    con = sqlite3.connect(str(tmp_path / "db.sqlite"))
    rows = [r for (t,) in con.execute("select name from sqlite_master where type='table'") for r in
            con.execute(f"select * from \"{t}\"")]
    con.close()
    for value in _secret_values(fx.text):
        assert all(value not in (c.decode("utf-8", "replace") if isinstance(c, bytes) else str(c))
                   for row in rows for c in row)


@pytest.mark.parametrize("secret", [SECRETS[0].format(n=0), SECRETS[1].format(n=0), SECRETS[3].format(n=0)])
def test_a_secret_glued_to_an_escape_and_overwritten_by_a_redraw_is_not_stored(tmp_path, secret):
    """Found by the property test above: bold (``ESC[1m``) glued before a secret hid it from detectors that
    want a word boundary, and a carriage-return redraw over its start hid it from the cleaned text too, so
    the stored original (kept for the escapes' sake, issue 29.6) held it. Escapes are blanked for detection."""
    text = "\x1b[1m" + secret + "progress 10%\rprogress 100%\n"
    db = tmp_path / "store"
    db.mkdir()
    store = Store.open(str(db / "db.sqlite"))
    result = compress(text.encode(), command="docker logs app", store=store, session="s")
    store.close()
    assert secret.encode() not in bytes_at_rest(db)
    assert result.output == text.encode()  # secret content passes byte for byte
