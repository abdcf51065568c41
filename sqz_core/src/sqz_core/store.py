"""The embedded store: SQLite in WAL mode, one file per user.

It keeps original bytes by SHA-256 (for ``sqz expand`` and dedup), when and to which
agent session each entry was served (refs are only emitted for content the same
session was served within the freshness window), and one row of stats per call.
Many ``sqz`` processes write at once: busy waits are bounded and retried, and any
database failure degrades to compression without dedup instead of reaching the agent.
"""

from __future__ import annotations

import os
import sqlite3
import time

SCHEMA_VERSION = 1

_SCHEMA = """
CREATE TABLE IF NOT EXISTS blobs (
    hash     TEXT PRIMARY KEY,          -- sha256 hex of the original bytes
    data     BLOB NOT NULL,
    size     INTEGER NOT NULL,
    created  REAL NOT NULL,
    command  TEXT
);
CREATE TABLE IF NOT EXISTS served (
    session   TEXT NOT NULL,
    hash      TEXT NOT NULL,
    served_at REAL NOT NULL,
    PRIMARY KEY (session, hash)
);
CREATE TABLE IF NOT EXISTS calls (
    id          INTEGER PRIMARY KEY,
    ts          REAL NOT NULL,
    session     TEXT,
    command     TEXT,
    family      TEXT,               -- program name (git, pytest…) or tool name
    plugin      TEXT,               -- formatter that answered, if any
    outcome     TEXT NOT NULL,      -- compressed | ref | passthrough | gate | safe | binary | empty | error
    bytes_in    INTEGER NOT NULL,
    bytes_out   INTEGER NOT NULL,
    est_in      INTEGER NOT NULL,   -- hot-path estimates (see tokens.estimate)
    est_out     INTEGER NOT NULL,
    input_hash  TEXT,               -- blobs.hash of the input, when stored
    output_hash TEXT                -- blobs.hash of what was served, when stored
);
CREATE INDEX IF NOT EXISTS calls_ts ON calls(ts);
CREATE TABLE IF NOT EXISTS token_counts (
    hash     TEXT NOT NULL,
    encoding TEXT NOT NULL,
    n        INTEGER NOT NULL,
    PRIMARY KEY (hash, encoding)
);
"""


class StoreError(Exception):
    """The store cannot be used; callers degrade to compression without dedup."""


def _retrying(fn, attempts: int = 6):
    delay = 0.02
    for i in range(attempts):
        try:
            return fn()
        except sqlite3.OperationalError as exc:
            msg = str(exc).lower()
            if ("locked" not in msg and "busy" not in msg) or i == attempts - 1:
                raise
            time.sleep(delay)
            delay *= 2


class Store:
    """A handle on the SQLite store. Use ``Store.open()``; every method may raise ``StoreError``."""

    def __init__(self, conn: sqlite3.Connection, path: str) -> None:
        self.conn = conn
        self.path = path

    # -- opening ------------------------------------------------------------------
    @classmethod
    def open(cls, path: str, timeout: float = 5.0) -> Store:
        try:
            fresh = not os.path.exists(path)
            if fresh:
                parent = os.path.dirname(path)
                if parent:
                    os.makedirs(parent, mode=0o700, exist_ok=True)
                # create the file with private permissions before SQLite opens it
                fd = os.open(path, os.O_CREAT | os.O_RDWR, 0o600)
                os.close(fd)
            conn = sqlite3.connect(path, timeout=timeout, isolation_level=None, check_same_thread=False)
            conn.execute(f"PRAGMA busy_timeout = {int(timeout * 1000)}")
            store = cls(conn, path)
            store._ensure_schema()
            return store
        except (sqlite3.Error, OSError) as exc:
            raise StoreError(f"{path}: {exc}") from exc

    def _ensure_schema(self) -> None:
        version = self.conn.execute("PRAGMA user_version").fetchone()[0]
        if version == SCHEMA_VERSION:
            return
        if version > SCHEMA_VERSION:
            raise StoreError(f"database schema v{version} is newer than this sqz (v{SCHEMA_VERSION})")

        def migrate():
            if self.conn.execute("PRAGMA journal_mode").fetchone()[0].lower() != "wal":
                self.conn.execute("PRAGMA journal_mode=WAL")
            self.conn.execute("BEGIN IMMEDIATE")
            try:
                if self.conn.execute("PRAGMA user_version").fetchone()[0] < SCHEMA_VERSION:
                    for statement in _SCHEMA.split(";"):
                        if statement.strip():
                            self.conn.execute(statement)
                    self.conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
                self.conn.execute("COMMIT")
            except BaseException:
                self.conn.execute("ROLLBACK")
                raise

        _retrying(migrate)

    def close(self) -> None:
        try:
            self.conn.close()
        except sqlite3.Error:
            pass

    # -- helpers ---------------------------------------------------------------------
    def _write(self, sql: str, params=()) -> None:
        try:
            _retrying(lambda: self.conn.execute(sql, params))
        except sqlite3.Error as exc:
            raise StoreError(str(exc)) from exc

    def _read(self, sql: str, params=()) -> list:
        try:
            return _retrying(lambda: self.conn.execute(sql, params).fetchall())
        except sqlite3.Error as exc:
            raise StoreError(str(exc)) from exc

    # -- blobs -----------------------------------------------------------------------
    def put_blob(self, digest: str, data: bytes, command: str | None = None) -> None:
        self._write("INSERT OR IGNORE INTO blobs(hash, data, size, created, command) VALUES (?,?,?,?,?)",
                    (digest, sqlite3.Binary(data), len(data), time.time(), command))

    def get_blob(self, digest: str) -> bytes | None:
        rows = self._read("SELECT data FROM blobs WHERE hash = ?", (digest,))
        return bytes(rows[0][0]) if rows else None

    def find_hashes(self, prefix: str, limit: int = 3) -> list[str]:
        """Full hashes starting with ``prefix`` (hex, lower case)."""
        hi = prefix + "g"  # 'g' sorts after every hex digit
        return [r[0] for r in self._read("SELECT hash FROM blobs WHERE hash >= ? AND hash < ? LIMIT ?",
                                         (prefix, hi, limit))]

    # -- sessions ----------------------------------------------------------------------
    def last_served(self, session: str, digest: str) -> float | None:
        rows = self._read("SELECT served_at FROM served WHERE session = ? AND hash = ?", (session, digest))
        return rows[0][0] if rows else None

    def mark_served(self, session: str, digest: str, when: float | None = None) -> None:
        self._write("INSERT INTO served(session, hash, served_at) VALUES (?,?,?) "
                    "ON CONFLICT(session, hash) DO UPDATE SET served_at = excluded.served_at",
                    (session, digest, when if when is not None else time.time()))

    # -- calls -------------------------------------------------------------------------
    def record_call(self, *, session: str | None, command: str | None, family: str | None,
                    plugin: str | None, outcome: str, bytes_in: int, bytes_out: int, est_in: int,
                    est_out: int, input_hash: str | None, output_hash: str | None) -> None:
        self._write("INSERT INTO calls(ts, session, command, family, plugin, outcome, bytes_in, bytes_out, "
                    "est_in, est_out, input_hash, output_hash) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
                    (time.time(), session, command, family, plugin, outcome, bytes_in, bytes_out,
                     est_in, est_out, input_hash, output_hash))

    def calls(self, since: float = 0.0) -> list[tuple]:
        return self._read("SELECT ts, session, command, family, plugin, outcome, bytes_in, bytes_out, est_in, "
                          "est_out, input_hash, output_hash FROM calls WHERE ts >= ? ORDER BY id", (since,))

    def cached_count(self, digest: str, encoding: str) -> int | None:
        rows = self._read("SELECT n FROM token_counts WHERE hash = ? AND encoding = ?", (digest, encoding))
        return rows[0][0] if rows else None

    def save_count(self, digest: str, encoding: str, n: int) -> None:
        self._write("INSERT OR REPLACE INTO token_counts(hash, encoding, n) VALUES (?,?,?)", (digest, encoding, n))

    def health(self) -> str:
        """``"ok"`` or SQLite's description of what is wrong."""
        rows = self._read("PRAGMA quick_check")
        return rows[0][0] if rows else "unknown"
