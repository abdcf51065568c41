"""The store contract: every backend (SQLite built in, plugins of ``sqz.stores``) behaves the same.

Import the tests into a backend's test module and give them a ``store_factory``
fixture: a callable that opens a new handle on that test's own backend, empty when
the test starts (calling it again in the same test opens the same data)::

    from store_contract import *  # noqa: F401,F403

    @pytest.fixture
    def store_factory(tmp_path): ...

Nothing here knows which backend it runs against.
"""

from __future__ import annotations

import inspect
import time

import pytest

from sqz_core.dedup import exact, ref_ttl
from sqz_core.expand import ExpandError, resolve
from sqz_core.pipeline import compress, digest_of
from sqz_core.api import StoreProtocol
from sqz_core.store import Store


__all__ = [name for name in dir() if name.startswith("test_")]  # filled in at the end

H1 = "a1" * 32
H2 = "a1b2" + "c3" * 30
H3 = "ff" * 32


def _public_methods(cls) -> list[str]:
    """Public methods of ``cls``, also those it inherits (the SQLite store's live in ``storesql.SqlStore``)."""
    return sorted(name for name, value in inspect.getmembers(cls, inspect.isfunction) if not name.startswith("_"))


@pytest.fixture
def store(store_factory):
    s = store_factory()
    yield s
    s.close()


def test_offers_every_public_method_of_the_sqlite_store(store):
    # ``open`` is a classmethod: each backend has its own way in (``open_store(url)``)
    missing = [name for name in _public_methods(Store) if not callable(getattr(type(store), name, None))]
    assert not missing, f"{type(store).__name__} lacks {missing}"


def test_implements_the_store_protocol(store):
    assert isinstance(store, StoreProtocol)
    # the protocol names every public method of the SQLite store, and nothing it lacks
    assert {n for n in dir(StoreProtocol) if not n.startswith("_")} == set(_public_methods(Store))


def test_blobs_round_trip_exact_bytes(store):
    data = bytes(range(256)) * 3 + "ünïcode\n".encode()
    assert store.get_blob(H1) is None
    store.put_blob(H1, data, "cat bin")
    assert store.get_blob(H1) == data
    store.put_blob(H1, b"other bytes", "again")  # same hash: the first bytes stay
    assert store.get_blob(H1) == data


def test_find_hashes_by_prefix(store):
    for h in (H1, H2, H3):
        store.put_blob(h, h.encode(), None)
    assert store.find_hashes("ff") == [H3]
    assert sorted(store.find_hashes("a1")) == sorted([H1, H2])
    assert len(store.find_hashes("a1", limit=1)) == 1
    assert store.find_hashes("0000") == []


def test_written_data_survives_close_and_reopen(store_factory):
    s = store_factory()
    s.put_blob(H1, b"kept across handles", "echo")
    s.mark_served("sess", H1)
    s.close()
    s = store_factory()
    try:
        assert s.get_blob(H1) == b"kept across handles"
        assert s.last_served("sess", H1) is not None
    finally:
        s.close()


def test_served_is_per_session(store):
    assert store.last_served("a", H1) is None
    before = time.time()
    store.mark_served("a", H1)
    when = store.last_served("a", H1)
    assert when is not None and before - 1 <= when <= time.time() + 1
    assert store.last_served("b", H1) is None
    store.mark_served("a", H1, when=100.0)
    assert store.last_served("a", H1) == 100.0


def test_freshness_window_and_session_isolation_of_refs(store):
    store.put_blob(H1, b"x" * 200, None)
    store.mark_served("a", H1)
    assert exact(store, "a", H1, ref_ttl()).startswith(f"§ref:{H1[:12]}§ unchanged since ")
    assert exact(store, "b", H1, ref_ttl()) is None
    store.mark_served("a", H2, when=time.time() - 3600)
    assert exact(store, "a", H2, ttl=1800) is None


def test_recent_files_newest_first_files_only(store):
    now = time.time()
    store.mark_served("s", H1, when=now - 10, output_hash=None, is_file=True)
    store.mark_served("s", H2, when=now - 5, output_hash=H3, is_file=True)
    store.mark_served("s", H3, when=now - 1, is_file=False)
    store.mark_served("other", H1, when=now, is_file=True)
    assert store.recent_files("s", now - 60) == [(H2, H3), (H1, None)]
    assert store.recent_files("s", now - 7) == [(H2, H3)]


def test_invalidate_session_forgets_only_that_session(store):
    store.mark_served("a", H1)
    store.mark_served("a", H2)
    store.mark_served("b", H1)
    assert store.invalidate_session("a") == 2
    assert store.last_served("a", H1) is None
    assert store.last_served("b", H1) is not None
    assert store.invalidate_session("a") == 0


def test_sessions_lists_live_sessions(store):
    store.mark_served("a", H1, when=10.0)
    store.mark_served("a", H2, when=20.0)
    store.mark_served("b", H1, when=30.0)
    assert store.sessions() == [("b", 1, 30.0), ("a", 2, 20.0)]


def test_pins(store):
    store.put_blob(H1, b"conventions" * 10, "docs")
    assert not store.is_pinned(H1)
    store.pin(H1, "CONVENTIONS.md")
    assert store.is_pinned(H1)
    store.pin(H1, "renamed")
    rows = store.pins()
    assert [(r[0], r[1], r[3]) for r in rows] == [(H1, "renamed", 110)]
    assert exact(store, "any-session", H1, ref_ttl()).startswith(f"§ref:{H1[:12]}§ pinned content (")
    assert store.unpin(H1) is True
    assert store.unpin(H1) is False
    assert not store.is_pinned(H1) and store.pins() == []


def test_sketches_and_similar(store):
    store.add_sketch("s", H1, [1, 2, 3, 4, 5])
    store.add_sketch("s", H2, [4, 5, 6])
    store.add_sketch("s", H2, [4, 5, 6])  # idempotent
    store.add_sketch("t", H3, [1, 2, 3, 4, 5])
    assert store.similar("s", [1, 2, 3, 4, 5, 6], exclude=H3) == [(H1, 5), (H2, 3)]
    assert store.similar("s", [4, 5], exclude=H1) == [(H2, 2)]
    assert store.similar("s", [], exclude=H1) == []
    assert store.similar("s", [2 ** 32 - 1], exclude=H1) == []


def test_full_text_recall(store):
    assert store.has_fts() is True
    body = "collected 12 items\nERROR tests/test_db.py::test_connect - ConnectionRefusedError\n"
    store.index_text(H1, body, "pytest -q", "s")
    store.index_text(H1, body, "pytest -q", "s")  # same content: indexed once
    store.index_text(H2, "everything fine here\n", "make", "s")
    rows = store.search("ConnectionRefusedError")
    assert len(rows) == 1
    digest, command, ts, snippet = rows[0]
    assert (digest, command) == (H1, "pytest -q")
    assert isinstance(ts, float) and "ConnectionRefusedError" in snippet and "[" in snippet
    assert store.search("nonexistentword") == []
    # not query syntax (paths, operators, quotes): no error
    for query in ("tests/test_db.py", 'a "b', "-x OR", "(", "::"):
        assert isinstance(store.search(query), list)


def test_calls_tokens_served_and_order(store):
    t0 = time.time()
    for i in range(3):
        store.record_call(session="s", command=f"cmd {i}", family="git", plugin="git", outcome="compressed",
                          bytes_in=100 + i, bytes_out=10, est_in=30, est_out=5 + i, input_hash=H1,
                          output_hash=None, agent="claude-code", cwd="/home/dev/project")
    store.record_call(session="other", command="x", family=None, plugin=None, outcome="passthrough",
                      bytes_in=1, bytes_out=1, est_in=1, est_out=1000, input_hash=None, output_hash=None)
    rows = store.calls()
    assert [r[2] for r in rows] == ["cmd 0", "cmd 1", "cmd 2", "x"]
    assert tuple(rows[0][1:]) == ("s", "cmd 0", "git", "git", "compressed", 100, 10, 30, 5, H1, None, "claude-code",
                                  "/home/dev/project")
    assert rows[3][12] is None and rows[3][13] is None
    assert store.tokens_served("s", t0 - 1) == 5 + 6 + 7
    assert store.tokens_served("s", time.time() + 60) == 0
    assert store.calls(time.time() + 60) == []


def test_events(store):
    store.record_event("expand", session="s", ref="abcd", detail="d")
    store.record_event("compact", session=None)
    assert [(r[1], r[2], r[3], r[4]) for r in store.events()] == [("s", "expand", "abcd", "d"),
                                                                  (None, "compact", None, None)]


def test_token_count_cache(store):
    assert store.cached_count(H1, "cl100k") is None
    store.save_count(H1, "cl100k", 42)
    store.save_count(H1, "cl100k", 43)
    assert store.cached_count(H1, "cl100k") == 43
    assert store.cached_count(H1, "o200k") is None


def test_health_ok(store):
    assert store.health() == "ok"


def test_prune_before_keeps_what_is_pinned_or_referenced(store):
    old, cutoff = time.time() - 7200, time.time() - 3600
    for h in (H1, H2, H3):
        store.put_blob(h, h.encode(), None)
    store.pin(H3, "docs")
    store.record_call(session="s", command="c", family=None, plugin=None, outcome="compressed", bytes_in=1,
                      bytes_out=1, est_in=1, est_out=1, input_hash=H2, output_hash=None)
    store.mark_served("s", H1, when=old)
    store.record_event("expand", session="s")
    done = store.prune_before(time.time() + 60)  # everything is older than that
    assert done["calls"] == 1 and done["served"] == 1 and done["events"] == 1
    assert store.get_blob(H3) == H3.encode()  # pinned
    assert store.calls() == [] and store.last_served("s", H1) is None
    store.put_blob(H1, b"fresh", None)
    store.prune_before(cutoff)
    assert store.get_blob(H1) is not None  # newer than the cutoff


def test_reset_cache_keeps_stats_and_pins(store):
    store.put_blob(H1, b"one", None)
    store.put_blob(H3, b"pinned", None)
    store.pin(H3, None)
    store.mark_served("s", H1)
    store.record_call(session="s", command="c", family=None, plugin=None, outcome="ref", bytes_in=1,
                      bytes_out=1, est_in=1, est_out=1, input_hash=None, output_hash=None)
    store.reset(cache=True, stats=False)
    assert store.get_blob(H1) is None and store.last_served("s", H1) is None
    assert store.get_blob(H3) == b"pinned" and store.is_pinned(H3)
    assert len(store.calls()) == 1
    store.reset(cache=True, stats=True)
    assert store.calls() == [] and store.pins() == [] and store.get_blob(H3) is None
    assert store.vacuum() in (True, False)


# -- the pipeline on top of the store ----------------------------------------------------

BIG = "".join(f"row {i}: value {i * 7 % 13} status ok\n" for i in range(120)).encode()


def test_pipeline_refs_stay_in_their_session_and_expand_restores(store):
    first = compress(BIG, command="cat rows.txt", session="s1", store=store)
    again = compress(BIG, command="cat rows.txt", session="s1", store=store)
    other = compress(BIG, command="cat rows.txt", session="s2", store=store)
    assert again.outcome == "ref", again
    assert other.outcome != "ref", other
    assert resolve(store, first.digest[:16]) == BIG


def test_pipeline_never_stores_secrets_or_stack_traces(store):
    secret = "AKIAIOSFODNN7EXAMPLE"
    leaked = (f"config loaded\naws_access_key_id = {secret}\n" + "line of output\n" * 40).encode()
    trace = ('Traceback (most recent call last):\n  File "app.py", line 3, in <module>\n    main()\n'
             'ValueError: bad input\n' * 5 + "more output\n" * 40).encode()
    first_trace = trace.split(b"ValueError: bad input\n", 1)[0] + b"ValueError: bad input\n"
    for data in (leaked, trace):
        for _ in range(2):
            r = compress(data, command="cat config", session="s", store=store)
            assert r.outcome == "safe"
            # a secret passes unchanged; identical later copies of a trace fold, its first copy stays verbatim
            assert r.output == data if data is leaked else r.output.startswith(first_trace)
        assert store.get_blob(digest_of(data)) is None
        assert store.last_served("s", digest_of(data)) is None
    assert store.search(secret) == [] and store.search("ValueError") == []
    with pytest.raises(ExpandError):
        resolve(store, digest_of(leaked)[:16])


def test_purge_secrets_removes_what_an_older_version_stored(store):
    """Versions before the secret detectors stored outputs holding secrets: the purge deletes them."""
    leaked = b"PGHOST=db.internal\nPGPASSWORD=fakePgPass0001\n" + b"line of output\n" * 20
    plain = b"ordinary output\n" * 20
    for data in (leaked, plain):
        store.put_blob(digest_of(data), data, "cat .env")
        store.index_text(digest_of(data), data.decode(), "cat .env", "s")
    counts = store.purge_secrets()
    assert counts["blobs"] == 1 and counts["scanned"] >= 2
    assert store.get_blob(digest_of(leaked)) is None and store.get_blob(digest_of(plain)) == plain
    assert store.search("fakePgPass0001") == []
    assert store.purge_secrets()["blobs"] == 0  # nothing left to find


__all__ = [name for name in dir() if name.startswith("test_")] + ["store"]
