"""Session memory: slices, deltas, pins, compaction, recall, pressure, abbreviation.

File content comes from this repository's own source files (real files, read as an
agent reads them); edits are made to temporary copies.
"""

import itertools
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sqz_core.abbrev import abbreviate, expand_abbreviations
from sqz_core.expand import resolve
from sqz_core.pipeline import MIN_REF_BYTES, compress, digest_of, net_win
from sqz_core.runnable import sqz_command
from sqz_core.sessions import compact, pressure, session_from_hook
from sqz_memory.memory import pin_bytes, recall
from sqz_core.store import Store
from sqz_core.tokens import estimate

SOURCE = (Path(__file__).resolve().parents[1] / "src" / "sqz_core" / "pipeline.py").read_bytes()
OTHER = (Path(__file__).resolve().parents[1] / "src" / "sqz_core" / "store.py").read_bytes()


@pytest.fixture
def store(tmp_path):
    s = Store.open(str(tmp_path / "db.sqlite"))
    yield s
    s.close()


def read(store, data, session="A", command="cat pipeline.py"):
    return compress(data, command=command, store=store, session=session)


def lines(data: bytes, first: int, last: int) -> bytes:
    return b"".join(data.splitlines(keepends=True)[first - 1:last])


def test_line_slice_of_a_fresh_read_is_a_ranged_ref(store):
    read(store, SOURCE)
    part = lines(SOURCE, 41, 80)
    r = read(store, part, command="sed -n '41,80p' pipeline.py")
    assert r.outcome == "slice"
    token = r.output.decode().split()[0]
    assert token == f"§ref:{digest_of(SOURCE)[:12]}:L41-80§"  # the id: 12 hex digits, unique in the store
    assert re.fullmatch(rf"{re.escape(token)} part of the file read \d+s ago "
                        rf"\(`{re.escape(sqz_command())} expand` this ref prints it\)\n", r.output.decode())
    assert resolve(store, token) == part


def test_slice_guards_small_and_other_sessions(store):
    read(store, SOURCE)
    assert read(store, lines(SOURCE, 41, 42), command="sed -n 41,42p pipeline.py").outcome != "slice"
    assert read(store, lines(SOURCE, 41, 80), session="B", command="sed -n 41,80p x").outcome != "slice"


def test_not_line_aligned_is_not_a_slice(store):
    read(store, SOURCE)
    part = lines(SOURCE, 41, 80)[3:]  # starts mid-line
    assert read(store, part, command="tail -c 1000 pipeline.py").outcome != "slice"


def test_reread_after_small_edit_is_a_delta_that_expands_exactly(store):
    read(store, SOURCE)
    read(store, OTHER, command="cat store.py")  # something else in between
    edited = SOURCE.replace(b"MIN_REF_BYTES = 160", b"MIN_REF_BYTES = 200", 1)
    assert edited != SOURCE
    r = read(store, edited)
    assert r.outcome == "delta"
    text = r.output.decode()
    assert "-MIN_REF_BYTES = 160" in text and "+MIN_REF_BYTES = 200" in text
    assert len(r.output) < len(edited) / 4
    new_hash = digest_of(edited)[:16]
    assert resolve(store, new_hash) == edited
    # reading the new version again is now an exact repeat
    assert read(store, edited).outcome == "ref"


def test_delta_not_across_sessions_or_after_compaction(store):
    read(store, SOURCE)
    edited = SOURCE.replace(b"MIN_REF_BYTES = 160", b"MIN_REF_BYTES = 200", 1)
    assert read(store, edited, session="B").outcome not in ("delta", "ref", "slice")
    compact(store, "A")
    assert read(store, edited, session="A").outcome not in ("delta", "ref", "slice")


def test_compaction_invalidates_refs(store):
    read(store, SOURCE)
    assert read(store, SOURCE).outcome == "ref"
    assert compact(store, "A") >= 1
    assert read(store, SOURCE).outcome != "ref"
    assert read(store, SOURCE).outcome == "ref"  # served again after compaction


def test_precompact_hook_reads_the_session_id_and_prints_nothing(tmp_path):
    env = dict(os.environ, SQZ_QUIET="1")
    sqz = [sys.executable, "-m", "sqz_core"]
    for _ in range(2):
        last = subprocess.run(sqz + ["compress", "--cmd", "cat pipeline.py", "--session", "claude-123"], input=SOURCE,
                              capture_output=True, env=env, check=True)
    assert last.stdout.startswith("§ref:".encode())
    payload = json.dumps({"session_id": "claude-123", "hook_event_name": "PreCompact", "trigger": "manual"})
    hook = subprocess.run(sqz + ["hook", "precompact"], input=payload.encode(), capture_output=True, env=env, check=True)
    assert hook.stdout == b"" and hook.returncode == 0
    after = subprocess.run(sqz + ["compress", "--cmd", "cat pipeline.py", "--session", "claude-123"], input=SOURCE,
                           capture_output=True, env=env, check=True)
    assert after.stdout == SOURCE


def test_session_from_hook_payloads():
    assert session_from_hook(b'{"session_id": "abc"}', []) == "abc"
    assert session_from_hook(b'{"sessionId": "g1"}', []) == "g1"
    assert session_from_hook(b"not json", ["--session", "x"]) == "x"
    assert session_from_hook(b"not json", []) is None


def test_pinned_content_is_a_ref_in_any_session_without_ttl(store, monkeypatch):
    digest = pin_bytes(store, OTHER, "store.py")
    monkeypatch.setenv("SQZ_REF_TTL_SECS", "1")
    r = read(store, OTHER, session="fresh-session", command="cat store.py")
    assert r.outcome == "ref" and r.output.decode().startswith(f"§ref:{digest[:12]}§ pinned content (")
    assert store.unpin(digest)
    assert read(store, OTHER, session="another", command="cat store.py").outcome != "ref"


def test_recall_finds_compressed_output_with_ref_and_age(store):
    read(store, SOURCE)
    found = recall(store, "gate", limit=5)
    assert found and found[0]["ref"] == f"§ref:{digest_of(SOURCE)[:12]}§"  # the id refs print
    assert found[0]["command"] == "cat pipeline.py" and found[0]["age_seconds"] >= 0
    # text that is not FTS5 query syntax is searched as a phrase instead of raising
    assert recall(store, "net-win gate:")[0]["ref"] == found[0]["ref"]
    assert recall(store, "a-b/c.d (weird") == []


def test_safe_content_is_never_indexed_for_recall(store):
    secret = b"DATABASE_PASSWORD=correct-horse-battery\n" + b"x = 1\n" * 40
    compress(secret, store=store, session="A")
    assert recall(store, "correct") == []


def test_pressure_levels_follow_tokens_served(store, monkeypatch):
    monkeypatch.setenv("SQZ_PRESSURE_BUDGET", "1000")
    assert pressure(store, "P")[0] == "default"
    store.record_call(session="P", command="x", family="x", plugin=None, outcome="compressed", bytes_in=1,
                      bytes_out=1, est_in=900, est_out=850, input_hash=None, output_hash=None)
    assert pressure(store, "P")[0] == "high"
    store.record_call(session="P", command="x", family="x", plugin=None, outcome="compressed", bytes_in=1,
                      bytes_out=1, est_in=100, est_out=100, input_hash=None, output_hash=None)
    assert pressure(store, "P")[0] == "critical"
    monkeypatch.setenv("SQZ_PRESSURE_BUDGET", "0")
    assert pressure(store, "P")[0] == "default"


def test_critical_pressure_cuts_long_unformatted_output_recoverably(store, monkeypatch):
    monkeypatch.setenv("SQZ_PRESSURE_BUDGET", "10")
    store.record_call(session="P", command="x", family="x", plugin=None, outcome="compressed", bytes_in=1,
                      bytes_out=1, est_in=100, est_out=100, input_hash=None, output_hash=None)
    data = "".join(f"row {i} value {i * 7}\n" for i in range(1000)).encode()
    r = compress(data, command="some-tool", store=store, session="P")
    out = r.output.decode()
    assert "lines omitted" in out and "row 0 value 0" in out and "row 999 value 6993" in out
    assert resolve(store, digest_of(data)[:16]) == data
    # file content is never cut
    assert compress(data, command="cat rows.txt", store=store, session="P2").output == data


def test_abbreviation_replaces_plain_phrases_and_reverses():
    text = "".join(f"step {i}: waiting for the database connection to become ready\n" for i in range(8))
    short = abbreviate(text)
    assert short is not None and "§1" in short and len(short) < len(text)
    assert expand_abbreviations(short) == text


def test_abbreviation_never_touches_paths_hashes_or_code():
    text = "".join(f"/usr/lib/python3/dist-packages/some_module.py:{i}: a1b2c3d4e5f6 def handle_request(self):\n"
                   for i in range(10))
    assert abbreviate(text) is None


def test_abbreviation_replaces_a_phrase_only_where_it_stands_free():
    # at the text's start and after a blank it is replaced; glued to a path or a key (``/tmp/…``,
    # ``key=…``) it is part of that word and stays as written
    text = ("waiting for the database\n" + "".join(f"step {i}: waiting for the database\n" for i in range(7))
            + "see /tmp/waiting for the database\nkey=waiting for the database\n")
    short = abbreviate(text)
    assert short is not None and short.endswith("[sqz abbreviations: §1=waiting for the database]\n")
    lines = short.split("\n")
    assert lines[0] == "§1" and lines[1:8] == [f"step {i}: §1" for i in range(7)]
    assert lines[8:10] == ["see /tmp/waiting for the database", "key=waiting for the database"]
    assert expand_abbreviations(short) == text


def test_no_abbrev_switch(store, monkeypatch):
    text = "".join(f"step {i}: waiting for the database connection to become ready\n" for i in range(8)).encode()
    assert b"\xc2\xa71" in compress(text, store=store, session="x", no_cache=True).output
    monkeypatch.setenv("SQZ_NO_ABBREV", "1")
    assert b"\xc2\xa71" not in compress(text, store=store, session="y", no_cache=True).output
    monkeypatch.delenv("SQZ_NO_ABBREV")
    assert b"\xc2\xa71" not in compress(text, store=store, session="z", no_cache=True, abbreviate=False).output


EDIT = st.tuples(st.integers(min_value=1, max_value=300), st.text(alphabet="abc xyz=()\n", max_size=40))
SESSIONS = itertools.count()


def _slice_ref(store, base: bytes, first: int, last: int) -> str:
    """The slice ref the store gives for lines ``first``-``last`` of ``base`` (read under a minute ago).

    Built from the real digest and the real ``sqz`` words: the estimate of a hex digest depends on its
    mix of digits and letters, and of the words on where sqz is installed, so a fixed sample ref would
    make the expectation depend on the content of pipeline.py (which this test reads)."""
    from sqz_core.expand import short_id
    from sqz_core.runnable import sqz_command

    return (f"§ref:{short_id(store, digest_of(base))}:L{first}-{last}§ part of the file read 59s ago "
            f"(`{sqz_command()} expand` this ref prints it)\n")


def test_expand_of_slices_and_deltas_is_byte_exact(store):
    """A line range of a fresh read is a slice exactly when it is big enough; an edited re-read is a delta
    (a ref when the edits changed nothing); both expand byte-exact."""
    counts = {"cases": 0, "asserted": 0}

    @settings(max_examples=60, deadline=None)
    @given(edits=st.lists(EDIT, min_size=1, max_size=4), first=st.integers(1, 200), span=st.integers(1, 120))
    def check(edits, first, span):
        counts["cases"] += 1
        session = f"prop-{next(SESSIONS)}"  # a fresh session even when hypothesis replays an example
        base = SOURCE
        read(store, base, session=session)
        part = lines(base, first, first + span)
        r = read(store, part, session=session, command="sed -n p pipeline.py")
        last = min(first + span, base.count(b"\n"))
        if len(part) >= MIN_REF_BYTES and part.count(b"\n") >= 2 and net_win(
                estimate(part.decode()), estimate(_slice_ref(store, base, first, last)), "default"):
            assert r.outcome == "slice", (first, span, r)
            assert resolve(store, r.output.decode().split()[0]) == part
        else:  # too short, or the slice ref would not save enough: the same gate as any result
            assert r.outcome not in ("ref", "slice", "delta"), (first, span, r)
            assert r.output == part  # short content is sent in full
        changed = base.splitlines(keepends=True)
        for line_no, new in edits:
            changed[min(line_no, len(changed) - 1)] = (new + "\n").encode()
        new_bytes = b"".join(changed)
        r = read(store, new_bytes, session=session)
        if new_bytes == base:
            assert r.outcome == "ref", r
            assert resolve(store, r.output.decode().split()[0]) == base
        else:
            assert r.outcome == "delta", r
            new_hash = r.output.decode().split("→", 1)[1][:16]
            assert resolve(store, new_hash) == new_bytes
        counts["asserted"] += 1

    check()
    assert counts["asserted"] == counts["cases"] >= 60, counts


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(sessions=st.lists(st.sampled_from(["s1", "s2", "s3"]), min_size=2, max_size=8),
       compact_at=st.integers(0, 8))
def test_no_ref_ever_crosses_sessions_or_a_compaction(store, sessions, compact_at):
    tag = abs(hash((tuple(sessions), compact_at)))
    data = SOURCE + f"# variant {tag}\n".encode()
    served: set[str] = set()
    for i, sid in enumerate(sessions):
        if i == compact_at and served:
            victim = sorted(served)[0]
            compact(store, f"{tag}:{victim}")
            served.discard(victim)
        r = read(store, data, session=f"{tag}:{sid}")
        if r.outcome in ("ref", "slice", "delta"):
            assert sid in served, f"ref for {sid} which was never served (or compacted)"
        served.add(sid)


def test_a_version_1_database_is_migrated_in_place(tmp_path):
    import sqlite3

    from sqz_core.store import MIGRATIONS, SCHEMA_VERSION

    path = tmp_path / "old.sqlite"
    conn = sqlite3.connect(path)
    for statement in MIGRATIONS[1]:
        conn.execute(statement)
    conn.execute("PRAGMA user_version = 1")
    conn.execute("INSERT INTO blobs(hash, data, size, created, command) VALUES (?,?,?,?,?)",
                 ("ab" * 32, b"kept across the migration\n", 26, 0.0, "echo"))
    conn.execute("INSERT INTO served(session, hash, served_at) VALUES ('A', ?, 0)", ("ab" * 32,))
    conn.commit()
    conn.close()
    store = Store.open(str(path))
    assert store.conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    assert resolve(store, "abab") == b"kept across the migration\n"
    assert store.last_served("A", "ab" * 32) == 0.0
    assert store.recent_files("A", -1) == []  # the new column defaulted to "not a file"
    store.close()
    again = Store.open(str(path))  # a second open runs nothing
    assert again.conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    again.close()
