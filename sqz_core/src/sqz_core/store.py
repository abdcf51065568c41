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

SCHEMA_VERSION = 4

# Each step takes the database from version N-1 to N; they run once, in order, in one
# transaction, so an old database is brought up to date the first time a newer sqz opens it.
MIGRATIONS: dict[int, list[str]] = {
    1: [
        """CREATE TABLE IF NOT EXISTS blobs (
            hash     TEXT PRIMARY KEY,          -- sha256 hex of the original bytes
            data     BLOB NOT NULL,
            size     INTEGER NOT NULL,
            created  REAL NOT NULL,
            command  TEXT
        )""",
        """CREATE TABLE IF NOT EXISTS served (
            session   TEXT NOT NULL,
            hash      TEXT NOT NULL,
            served_at REAL NOT NULL,
            PRIMARY KEY (session, hash)
        )""",
        """CREATE TABLE IF NOT EXISTS calls (
            id          INTEGER PRIMARY KEY,
            ts          REAL NOT NULL,
            session     TEXT,
            command     TEXT,
            family      TEXT,               -- program name (git, pytest…) or tool name
            plugin      TEXT,               -- formatter that answered, if any
            outcome     TEXT NOT NULL,      -- compressed, ref, delta, slice, passthrough, gate, safe, binary…
            bytes_in    INTEGER NOT NULL,
            bytes_out   INTEGER NOT NULL,
            est_in      INTEGER NOT NULL,   -- hot-path estimates (see tokens.estimate)
            est_out     INTEGER NOT NULL,
            input_hash  TEXT,               -- blobs.hash of the input, when stored
            output_hash TEXT                -- blobs.hash of what was served, when stored
        )""",
        "CREATE INDEX IF NOT EXISTS calls_ts ON calls(ts)",
        """CREATE TABLE IF NOT EXISTS token_counts (
            hash     TEXT NOT NULL,
            encoding TEXT NOT NULL,
            n        INTEGER NOT NULL,
            PRIMARY KEY (hash, encoding)
        )""",
    ],
    2: [
        # what the model was shown for each served entry, and whether it was file content
        "ALTER TABLE served ADD COLUMN output_hash TEXT",
        "ALTER TABLE served ADD COLUMN is_file INTEGER NOT NULL DEFAULT 0",
        "CREATE INDEX IF NOT EXISTS served_recent ON served(session, served_at)",
        "CREATE INDEX IF NOT EXISTS calls_session ON calls(session, ts)",
        """CREATE TABLE IF NOT EXISTS pins (
            hash    TEXT PRIMARY KEY,
            label   TEXT,
            created REAL NOT NULL
        )""",
        """CREATE TABLE IF NOT EXISTS compactions (
            session TEXT NOT NULL,
            ts      REAL NOT NULL
        )""",
        # bottom-k MinHash sketches of file content, for near-duplicate candidates (session lifetime)
        """CREATE TABLE IF NOT EXISTS sketches (
            session TEXT NOT NULL,
            value   INTEGER NOT NULL,
            hash    TEXT NOT NULL
        )""",
        "CREATE INDEX IF NOT EXISTS sketches_lookup ON sketches(session, value)",
        "CREATE UNIQUE INDEX IF NOT EXISTS sketches_unique ON sketches(session, hash, value)",
    ],
    3: [
        # which agent framework a call served (hook integrations pass it; SQZ_AGENT / --agent)
        "ALTER TABLE calls ADD COLUMN agent TEXT",
        # things that happen outside compression: expand of a ref, compaction… (regret signals, audits)
        """CREATE TABLE IF NOT EXISTS events (
            id      INTEGER PRIMARY KEY,
            ts      REAL NOT NULL,
            session TEXT,
            kind    TEXT NOT NULL,      -- expand | compact | …
            ref     TEXT,               -- the hash prefix or ref involved
            detail  TEXT
        )""",
        "CREATE INDEX IF NOT EXISTS events_ts ON events(ts)",
    ],
    4: [
        # the working directory of each call, so `sqz stats --project` finds hook sessions too
        "ALTER TABLE calls ADD COLUMN cwd TEXT",
    ],
}
# full-text recall; created only where SQLite has FTS5 (recall falls back to LIKE otherwise)
_FTS = ("CREATE VIRTUAL TABLE IF NOT EXISTS recall USING fts5(body, hash UNINDEXED, command UNINDEXED, "
        "session UNINDEXED, ts UNINDEXED, tokenize='unicode61')")


class StoreError(Exception):
    """The store cannot be used; callers degrade to compression without dedup."""


class StoreBusy(StoreError):
    """Another process holds the write lock longer than the hot path may wait."""


# How long a hook call waits for another process's write lock (``SQZ_BUSY_TIMEOUT_MS``): past it,
# the call goes on without the store, so a held lock costs an agent's command this much, not seconds.
HOT_BUSY_MS = 60


def hot_busy_ms() -> int:
    try:
        return max(0, min(int(os.environ.get("SQZ_BUSY_TIMEOUT_MS", HOT_BUSY_MS)), 60_000))
    except ValueError:
        return HOT_BUSY_MS


def _scrub(command: str | None) -> str | None:
    """The command line as the store keeps it: secret spans replaced by ``***``."""
    if not command:
        return command
    from .secrets import scrub_command

    return scrub_command(command)


def holds_secret(data: bytes) -> bool:
    """What the pipeline refuses to store: a secret in the raw text or in what the terminal showed."""
    from .cleanup import clean_terminal
    from .safety import classify

    text = data.decode("utf-8", "replace")
    for candidate in {text, clean_terminal(text)}:
        verdict = classify(candidate)
        if verdict is not None and verdict.secret:
            return True
    return False


def _is_busy(exc: Exception) -> bool:
    msg = str(exc).lower()
    return "locked" in msg or "busy" in msg


def _retrying(fn, attempts: int = 6):
    delay = 0.02
    for i in range(attempts):
        try:
            return fn()
        except sqlite3.OperationalError as exc:
            if not _is_busy(exc) or i == attempts - 1:
                raise
            time.sleep(delay)
            delay *= 2


class Store:
    """A handle on the SQLite store. Use ``Store.open()``; every method may raise ``StoreError``."""

    def __init__(self, conn: sqlite3.Connection, path: str, hot: bool = False) -> None:
        self.conn = conn
        self.path = path
        # hot: one bounded wait, no retries, and after a busy answer every later use fails at once
        self.hot = hot
        self.busy = False
        self.busy_ms = 5000
        self.attempts = 1 if hot else 6

    # -- opening ------------------------------------------------------------------
    @classmethod
    def open(cls, path: str, timeout: float = 5.0, *, hot: bool = False) -> Store:
        """Open (creating it private) the database at ``path``.

        ``hot``: for a hook call, which must not stall the agent: the wait for another
        process's write lock is ``hot_busy_ms()`` once, then ``StoreBusy``.
        """
        if hot:
            timeout = hot_busy_ms() / 1000
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
            # WAL with synchronous=NORMAL: a commit does not wait for fsync; the database stays
            # consistent on a crash (only the last calls' rows may be lost on power failure)
            conn.execute("PRAGMA synchronous = NORMAL")
            store = cls(conn, path, hot)
            store.busy_ms = int(timeout * 1000)
            store._ensure_schema()
            return store
        except StoreError:
            raise
        except (sqlite3.Error, OSError) as exc:
            if hot and isinstance(exc, sqlite3.OperationalError) and _is_busy(exc):
                raise StoreBusy(f"{path}: {exc}") from exc
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
                current = self.conn.execute("PRAGMA user_version").fetchone()[0]
                for step in range(current + 1, SCHEMA_VERSION + 1):
                    for statement in MIGRATIONS[step]:
                        self.conn.execute(statement)
                    if step == 2:
                        try:
                            self.conn.execute(_FTS)
                        except sqlite3.OperationalError:
                            pass  # no FTS5 in this SQLite build
                if current < SCHEMA_VERSION:
                    self.conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
                self.conn.execute("COMMIT")
            except BaseException:
                self.conn.execute("ROLLBACK")
                raise

        # a one-time step (new file, new version): worth waiting for, even on the hot path
        hot, self.hot, self.attempts = self.hot, False, 6
        self.conn.execute("PRAGMA busy_timeout = 5000")
        try:
            self._retry(migrate)
        finally:
            self.hot, self.attempts = hot, (1 if hot else 6)
            self.conn.execute(f"PRAGMA busy_timeout = {self.busy_ms}")

    def _retry(self, fn):
        """``fn()`` with the busy policy of this handle (see ``open``); sqlite errors pass through."""
        if self.busy:
            raise StoreBusy("database is locked by another process")
        try:
            return _retrying(fn, self.attempts)
        except sqlite3.OperationalError as exc:
            if self.hot and _is_busy(exc):
                self.busy = True
                raise StoreBusy(str(exc)) from exc
            raise

    def batch(self):
        """One write transaction around several writes (one wait for the lock instead of one per write).

        ``with store.batch(): …``; committed at the end, rolled back on an exception.
        """
        from contextlib import contextmanager

        @contextmanager
        def run():
            try:
                self._retry(lambda: self.conn.execute("BEGIN IMMEDIATE"))
            except sqlite3.Error as exc:
                raise StoreError(str(exc)) from exc
            try:
                yield self
            except BaseException:
                try:
                    self.conn.execute("ROLLBACK")
                except sqlite3.Error:
                    pass
                raise
            try:
                self.conn.execute("COMMIT")
            except sqlite3.Error as exc:
                try:
                    self.conn.execute("ROLLBACK")
                except sqlite3.Error:
                    pass
                raise StoreError(str(exc)) from exc

        return run()

    def close(self) -> None:
        try:
            self.conn.close()
        except sqlite3.Error:
            pass

    # -- helpers ---------------------------------------------------------------------
    def _write(self, sql: str, params=()) -> None:
        try:
            self._retry(lambda: self.conn.execute(sql, params))
        except sqlite3.Error as exc:
            raise StoreError(str(exc)) from exc

    def _read(self, sql: str, params=()) -> list:
        try:
            return self._retry(lambda: self.conn.execute(sql, params).fetchall())
        except sqlite3.Error as exc:
            raise StoreError(str(exc)) from exc

    # -- blobs -----------------------------------------------------------------------
    def put_blob(self, digest: str, data: bytes, command: str | None = None) -> None:
        self._write("INSERT OR IGNORE INTO blobs(hash, data, size, created, command) VALUES (?,?,?,?,?)",
                    (digest, sqlite3.Binary(data), len(data), time.time(), _scrub(command)))

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

    def mark_served(self, session: str, digest: str, when: float | None = None, *, output_hash: str | None = None,
                    is_file: bool = False) -> None:
        self._write("INSERT INTO served(session, hash, served_at, output_hash, is_file) VALUES (?,?,?,?,?) "
                    "ON CONFLICT(session, hash) DO UPDATE SET served_at = excluded.served_at, "
                    "output_hash = excluded.output_hash, is_file = excluded.is_file",
                    (session, digest, when if when is not None else time.time(), output_hash, int(is_file)))

    def recent_files(self, session: str, since: float, limit: int = 20) -> list[tuple[str, str | None]]:
        """``(hash, output_hash)`` of file content served to ``session`` since ``since``, newest first."""
        return [(r[0], r[1]) for r in self._read(
            "SELECT hash, output_hash FROM served WHERE session = ? AND is_file = 1 AND served_at >= ? "
            "ORDER BY served_at DESC LIMIT ?", (session, since, limit))]

    def invalidate_session(self, session: str) -> int:
        """Forget what ``session`` was served (after the agent compacted its history); returns how many."""
        done = self._transaction([
            ("served", "DELETE FROM served WHERE session = ?", (session,)),
            ("compactions", "INSERT INTO compactions(session, ts) VALUES (?, ?)", (session, time.time())),
        ])
        return done.get("served", 0)

    def sessions(self) -> list[tuple[str, int, float]]:
        """``(session, entries served, last served)`` for every session with live entries."""
        return [tuple(r) for r in self._read(
            "SELECT session, COUNT(*), MAX(served_at) FROM served GROUP BY session ORDER BY MAX(served_at) DESC")]

    # -- pins -------------------------------------------------------------------------
    def pin(self, digest: str, label: str | None) -> None:
        self._write("INSERT OR REPLACE INTO pins(hash, label, created) VALUES (?,?,?)", (digest, label, time.time()))

    def unpin(self, digest: str) -> bool:
        before = self._read("SELECT COUNT(*) FROM pins WHERE hash = ?", (digest,))[0][0]
        self._write("DELETE FROM pins WHERE hash = ?", (digest,))
        return bool(before)

    def is_pinned(self, digest: str) -> bool:
        return bool(self._read("SELECT 1 FROM pins WHERE hash = ?", (digest,)))

    def pins(self) -> list[tuple[str, str | None, float, int]]:
        return [tuple(r) for r in self._read(
            "SELECT p.hash, p.label, p.created, COALESCE(b.size, 0) FROM pins p LEFT JOIN blobs b ON b.hash = p.hash "
            "ORDER BY p.created")]

    # -- near-duplicate sketches ----------------------------------------------------------
    def add_sketch(self, session: str, digest: str, values: list[int]) -> None:
        def run():
            self.conn.executemany("INSERT OR IGNORE INTO sketches(session, value, hash) VALUES (?,?,?)",
                                  [(session, v, digest) for v in values])
        try:
            self._retry(run)
        except sqlite3.Error as exc:
            raise StoreError(str(exc)) from exc

    def similar(self, session: str, values: list[int], exclude: str, limit: int = 3) -> list[tuple[str, int]]:
        """Entries of ``session`` sharing sketch values with ``values``: ``(hash, shared)`` most shared first."""
        if not values:
            return []
        marks = ",".join("?" * len(values))
        return [(r[0], r[1]) for r in self._read(
            f"SELECT hash, COUNT(*) AS n FROM sketches WHERE session = ? AND value IN ({marks}) AND hash != ? "
            "GROUP BY hash ORDER BY n DESC LIMIT ?", (session, *values, exclude, limit))]

    # -- recall ---------------------------------------------------------------------------
    def has_fts(self) -> bool:
        return bool(self._read("SELECT 1 FROM sqlite_master WHERE name = 'recall'"))

    def index_text(self, digest: str, text: str, command: str | None, session: str | None) -> None:
        if not self.has_fts():
            return
        if self._read("SELECT 1 FROM recall WHERE hash = ? LIMIT 1", (digest,)):
            return
        self._write("INSERT INTO recall(body, hash, command, session, ts) VALUES (?,?,?,?,?)",
                    (text, digest, _scrub(command), session, time.time()))

    def search(self, query: str, limit: int = 10) -> list[tuple[str, str | None, float, str]]:
        """``(hash, command, ts, snippet)`` best matches first (FTS5 rank), or LIKE matches without FTS5."""
        if self.has_fts():
            try:
                return [tuple(r) for r in self._read(
                    "SELECT hash, command, ts, snippet(recall, 0, '[', ']', '…', 12) FROM recall "
                    "WHERE recall MATCH ? ORDER BY rank LIMIT ?", (query, limit))]
            except StoreError:
                # not FTS query syntax (a path, an operator): search it as one quoted phrase
                phrase = '"' + query.replace('"', '""') + '"'
                return [tuple(r) for r in self._read(
                    "SELECT hash, command, ts, snippet(recall, 0, '[', ']', '…', 12) FROM recall "
                    "WHERE recall MATCH ? ORDER BY rank LIMIT ?", (phrase, limit))]
        rows = self._read("SELECT hash, command, created, substr(CAST(data AS TEXT), 1, 200) FROM blobs "
                          "WHERE CAST(data AS TEXT) LIKE ? ORDER BY created DESC LIMIT ?", (f"%{query}%", limit))
        return [tuple(r) for r in rows]

    def tokens_served(self, session: str, since: float) -> int:
        """Estimated tokens served to ``session`` since ``since`` (for pressure levels)."""
        return self._read("SELECT COALESCE(SUM(est_out), 0) FROM calls WHERE session = ? AND ts >= ?",
                          (session, since))[0][0]

    # -- calls -------------------------------------------------------------------------
    def record_call(self, *, session: str | None, command: str | None, family: str | None,
                    plugin: str | None, outcome: str, bytes_in: int, bytes_out: int, est_in: int,
                    est_out: int, input_hash: str | None, output_hash: str | None, agent: str | None = None,
                    cwd: str | None = None) -> None:
        self._write("INSERT INTO calls(ts, session, command, family, plugin, outcome, bytes_in, bytes_out, "
                    "est_in, est_out, input_hash, output_hash, agent, cwd) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                    (time.time(), session, _scrub(command), family, plugin, outcome, bytes_in, bytes_out,
                     est_in, est_out, input_hash, output_hash, agent, cwd))

    def origins(self, digests: list[str]) -> dict[str, set]:
        """Where each stored entry came from: the ``cwd`` of the calls that stored or served it
        (a working directory, or the file or directory an MCP tool read). Entries no call
        names are absent; a call without a recorded ``cwd`` contributes None."""
        out: dict[str, set] = {}
        wanted = list(dict.fromkeys(digests))
        for i in range(0, len(wanted), 200):
            chunk = wanted[i:i + 200]
            marks = ",".join("?" * len(chunk))
            for in_h, out_h, cwd in self._read(
                    f"SELECT input_hash, output_hash, cwd FROM calls WHERE input_hash IN ({marks}) "
                    f"OR output_hash IN ({marks})", (*chunk, *chunk)):
                for h in (in_h, out_h):
                    if h in chunk:
                        out.setdefault(h, set()).add(cwd)
        return out

    def calls(self, since: float = 0.0) -> list[tuple]:
        """Rows ``(ts, session, command, family, plugin, outcome, bytes_in, bytes_out, est_in, est_out,
        input_hash, output_hash, agent, cwd)`` since ``since``, oldest first."""
        return [tuple(r) for r in self._read(
            "SELECT ts, session, command, family, plugin, outcome, bytes_in, bytes_out, est_in, "
            "est_out, input_hash, output_hash, agent, cwd FROM calls WHERE ts >= ? ORDER BY id", (since,))]

    def record_event(self, kind: str, *, session: str | None = None, ref: str | None = None,
                     detail: str | None = None) -> None:
        self._write("INSERT INTO events(ts, session, kind, ref, detail) VALUES (?,?,?,?,?)",
                    (time.time(), session, kind, ref, detail))

    def events(self, since: float = 0.0) -> list[tuple]:
        """Rows ``(ts, session, kind, ref, detail)`` since ``since``, oldest first."""
        return self._read("SELECT ts, session, kind, ref, detail FROM events WHERE ts >= ? ORDER BY id", (since,))

    def cached_count(self, digest: str, encoding: str) -> int | None:
        rows = self._read("SELECT n FROM token_counts WHERE hash = ? AND encoding = ?", (digest, encoding))
        return rows[0][0] if rows else None

    def save_count(self, digest: str, encoding: str, n: int) -> None:
        self._write("INSERT OR REPLACE INTO token_counts(hash, encoding, n) VALUES (?,?,?)", (digest, encoding, n))

    def health(self) -> str:
        """``"ok"`` or SQLite's description of what is wrong."""
        rows = self._read("PRAGMA quick_check")
        return rows[0][0] if rows else "unknown"

    # -- retention (sqz stats --prune, sqz reset) --------------------------------------------
    def _transaction(self, statements: list) -> dict:
        """Run ``(name, sql, params)`` statements in one write transaction; rows changed per name."""
        def run():
            self.conn.execute("BEGIN IMMEDIATE")
            try:
                done: dict = {}
                for name, sql, params in statements:
                    if name == "recall" and not self.conn.execute(
                            "SELECT 1 FROM sqlite_master WHERE name = 'recall'").fetchone():
                        continue
                    n = self.conn.execute(sql, params).rowcount
                    done[name] = done.get(name, 0) + max(n, 0)
                self.conn.execute("COMMIT")
                return done
            except BaseException:
                self.conn.execute("ROLLBACK")
                raise
        try:
            return self._retry(run)
        except sqlite3.Error as exc:
            raise StoreError(str(exc)) from exc

    # content still needed: pinned, referenced by a stats row, or what a served entry showed
    _KEPT = ("SELECT hash FROM pins UNION SELECT input_hash FROM calls WHERE input_hash IS NOT NULL "
             "UNION SELECT output_hash FROM calls WHERE output_hash IS NOT NULL "
             "UNION SELECT hash FROM served UNION SELECT output_hash FROM served WHERE output_hash IS NOT NULL")

    def prune_before(self, cutoff: float) -> dict:
        """Forget everything older than ``cutoff``: stats rows, events, served marks, compaction marks,
        and stored content nothing newer refers to (pinned content is kept). Counts per table."""
        return self._transaction([
            ("calls", "DELETE FROM calls WHERE ts < ?", (cutoff,)),
            ("events", "DELETE FROM events WHERE ts < ?", (cutoff,)),
            ("served", "DELETE FROM served WHERE served_at < ?", (cutoff,)),
            ("compactions", "DELETE FROM compactions WHERE ts < ?", (cutoff,)),
            ("blobs", f"DELETE FROM blobs WHERE created < ? AND hash NOT IN ({self._KEPT})", (cutoff,)),
            ("sketches", "DELETE FROM sketches WHERE hash NOT IN (SELECT hash FROM blobs)", ()),
            ("recall", "DELETE FROM recall WHERE hash NOT IN (SELECT hash FROM blobs)", ()),
            ("token_counts", "DELETE FROM token_counts WHERE hash NOT IN (SELECT hash FROM blobs) AND hash NOT IN "
                             "(SELECT input_hash FROM calls WHERE input_hash IS NOT NULL UNION "
                             "SELECT output_hash FROM calls WHERE output_hash IS NOT NULL)", ()),
        ])

    def reset(self, *, cache: bool = True, stats: bool = True) -> dict:
        """Empty the cache (stored content, served marks, sketches, recall index; pins kept unless
        ``stats`` is reset too) and/or the stats (calls, events). Token counts of calls that remain are
        kept, so their figures stay exact after the content is gone. Counts per table."""
        steps: list = []
        if stats:
            steps += [("calls", "DELETE FROM calls", ()), ("events", "DELETE FROM events", ())]
        if cache:
            keep_pins = "" if stats else " WHERE hash NOT IN (SELECT hash FROM pins)"
            steps += [("served", "DELETE FROM served", ()), ("compactions", "DELETE FROM compactions", ()),
                      ("sketches", "DELETE FROM sketches", ()), ("recall", "DELETE FROM recall", ()),
                      ("blobs", "DELETE FROM blobs" + keep_pins, ())]
            if stats:
                steps.append(("pins", "DELETE FROM pins", ()))
        steps.append(("token_counts", "DELETE FROM token_counts WHERE hash NOT IN (SELECT hash FROM blobs) AND "
                                      "hash NOT IN (SELECT input_hash FROM calls WHERE input_hash IS NOT NULL UNION "
                                      "SELECT output_hash FROM calls WHERE output_hash IS NOT NULL)", ()))
        return self._transaction(steps)

    # -- secrets an older sqz stored (sqz doctor --purge-secrets) ---------------------------------
    def purge_secrets(self) -> dict:
        """Delete stored content and index rows a secret detector flags; scrub stored command lines.

        Versions before the secret detectors kept ``.env`` files, headers with tokens, URLs with
        passwords… and unscrubbed ``--cmd`` lines. Flagged blobs go with their index rows, served
        marks, sketches and pins (stats rows stay, without their hashes); commands are rewritten
        by ``secrets.scrub_command``. Deleted pages are overwritten (``secure_delete``), the
        full-text index is rebuilt and the file vacuumed and checkpointed, so no copy of a
        secret stays in the database, its WAL or free pages. Counts per kind.
        """
        from .secrets import scrub_command

        try:
            self.conn.execute("PRAGMA secure_delete = ON")
            fts = self.has_fts()
            flagged: set[str] = set()
            scanned = 0
            cur = self.conn.execute("SELECT hash, data FROM blobs")
            while rows := cur.fetchmany(64):
                for digest, data in rows:
                    scanned += 1
                    if holds_secret(bytes(data)):
                        flagged.add(digest)
            recall_rows: list[int] = []
            if fts:
                cur = self.conn.execute("SELECT rowid, hash, body FROM recall")
                while rows := cur.fetchmany(64):
                    recall_rows += [rowid for rowid, digest, body in rows
                                    if digest in flagged or holds_secret((body or "").encode("utf-8", "replace"))]
            updates = []
            tables = [("calls", "id"), ("blobs", "hash")] + ([("recall", "rowid")] if fts else [])
            for table, key in tables:
                for k, command in self.conn.execute(f"SELECT {key}, command FROM {table} WHERE command IS NOT NULL"
                                                    ).fetchall():
                    clean = scrub_command(command)
                    if clean != command:
                        updates.append((f"UPDATE {table} SET command = ? WHERE {key} = ?", (clean, k)))
        except sqlite3.Error as exc:
            raise StoreError(str(exc)) from exc
        steps = []
        for digest in sorted(flagged):
            steps += [("blobs", "DELETE FROM blobs WHERE hash = ?", (digest,)),
                      ("served", "DELETE FROM served WHERE hash = ? OR output_hash = ?", (digest, digest)),
                      ("sketches", "DELETE FROM sketches WHERE hash = ?", (digest,)),
                      ("pins", "DELETE FROM pins WHERE hash = ?", (digest,)),
                      ("token_counts", "DELETE FROM token_counts WHERE hash = ?", (digest,)),
                      ("calls_in", "UPDATE calls SET input_hash = NULL WHERE input_hash = ?", (digest,)),
                      ("calls_out", "UPDATE calls SET output_hash = NULL WHERE output_hash = ?", (digest,))]
        steps += [("recall", "DELETE FROM recall WHERE rowid = ?", (rowid,)) for rowid in recall_rows]
        steps += [("commands", sql, params) for sql, params in updates]
        done = self._transaction(steps) if steps else {}
        if steps:
            try:
                if fts:  # FTS5 keeps deleted rows' terms in old segments until the index is rebuilt
                    self.conn.execute("INSERT INTO recall(recall) VALUES ('rebuild')")
                    self.conn.execute("INSERT INTO recall(recall) VALUES ('optimize')")
                self.conn.execute("VACUUM")
                self.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            except sqlite3.Error as exc:
                raise StoreError(f"secrets deleted, but the file could not be compacted: {exc}") from exc
        return {"scanned": scanned, "blobs": done.get("blobs", 0), "recall": done.get("recall", 0),
                "commands": done.get("commands", 0)}

    def vacuum(self) -> bool:
        """Give freed pages back to the file system; False when another process holds the database."""
        try:
            self.conn.execute("VACUUM")
            return True
        except sqlite3.Error:
            return False
