"""Versioned migrations: from an empty schema, from the previous version, and concurrent first openers."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import psycopg
import pytest

from sqz_core.api import StoreError
from sqz_store_postgresql.pgstore import SCHEMA_VERSION, connect, migrate, open_direct
from sqz_store_postgresql.store import Config


def versions(cfg: Config) -> list[int]:
    conn = connect(cfg)
    try:
        return [r[0] for r in conn.execute("SELECT version FROM schema_version ORDER BY version")]
    finally:
        conn.close()


def test_empty_schema_is_brought_to_the_current_version(schema_url):
    cfg = Config(schema_url)
    store = open_direct(cfg)
    store.close()
    assert SCHEMA_VERSION == 3
    assert versions(cfg) == [1, 2, 3]


def test_v1_schema_is_upgraded_and_keeps_its_rows(schema_url):
    cfg = Config(schema_url)
    conn = connect(cfg)
    migrate(conn, cfg.schema, target=1)
    conn.execute("INSERT INTO blobs(hash, data, size, created, command) VALUES (%s, %s, 3, 1.0, 'echo')",
                 ("ab" * 32, b"old"))
    conn.execute("INSERT INTO calls(ts, session, command, outcome, bytes_in, bytes_out, est_in, est_out) "
                 "VALUES (2.0, 's', 'echo', 'compressed', 3, 1, 2, 1)")
    with pytest.raises(psycopg.errors.UndefinedColumn):  # v1 has no agent column
        conn.execute("SELECT agent FROM calls")
    conn.close()
    assert versions(cfg) == [1]
    store = open_direct(cfg)
    try:
        assert store.get_blob("ab" * 32) == b"old"
        assert store.calls() == [(2.0, "s", "echo", None, None, "compressed", 3, 1, 2, 1, None, None, None, None)]
        store.record_event("expand", session="s")  # a v2 table
        assert len(store.events()) == 1
    finally:
        store.close()
    assert versions(cfg) == [1, 2, 3]


def test_concurrent_first_openers_run_the_migrations_once(schema_url):
    cfg = Config(schema_url)

    def open_and_write(i: int) -> int:
        store = open_direct(cfg)
        try:
            store.put_blob(f"{i:064x}", b"x", None)
            return len(store.find_hashes(f"{i:064x}"))
        finally:
            store.close()

    with ThreadPoolExecutor(12) as pool:
        assert list(pool.map(open_and_write, range(12))) == [1] * 12
    assert versions(cfg) == [1, 2, 3]


def test_a_newer_schema_is_refused_with_a_clear_message(schema_url):
    cfg = Config(schema_url)
    open_direct(cfg).close()
    conn = connect(cfg)
    conn.execute("INSERT INTO schema_version(version, applied) VALUES (99, 0)")
    conn.close()
    with pytest.raises(StoreError, match="v99 is newer"):
        open_direct(cfg)
