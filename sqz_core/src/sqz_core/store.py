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

from .storesql import Dialect, SqlStore, holds_secret  # noqa: F401 (holds_secret: public here)

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


class StoreReadOnly(StoreError):
    """The store may be read, not written (file or directory not writable by this user)."""


def _is_read_only(exc: Exception) -> bool:
    msg = str(exc).lower()
    return "readonly" in msg or "read-only" in msg or "unable to open" in msg


# How long a hook call waits for another process's write lock (``SQZ_BUSY_TIMEOUT_MS``): past it,
# the call goes on without the store, so a held lock costs an agent's command this much, not seconds.
HOT_BUSY_MS = 60


def hot_busy_ms() -> int:
    from .config import env

    try:
        return max(0, min(int(env("SQZ_BUSY_TIMEOUT_MS") or HOT_BUSY_MS), 60_000))
    except ValueError:
        return HOT_BUSY_MS


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


def _spool_for(path: str):
    from .spool import Spool

    return Spool(os.path.join(os.path.dirname(os.path.abspath(path)),
                              "spool-" + os.path.basename(path)))


class Store(SqlStore):
    """A handle on the SQLite store. Use ``Store.open()``; every method may raise ``StoreError``.

    The statements are ``storesql``'s (shared with every SQL backend); this class runs them
    on SQLite: busy waits, WAL, FTS5 recall, schema migrations, upkeep. A write-behind
    handle (``open(write_behind=True)``, what hook calls use) keeps a call's writes until
    ``flush``/``close`` and sends them in one transaction; when another process holds the
    write lock past the short wait, the batch goes to the local spool (``spool``) and the
    next handle that gets the lock sends it: a busy store costs neither the compression,
    its refs nor its stats row.
    """

    dialect = Dialect("sqlite")

    def __init__(self, conn: sqlite3.Connection, path: str, hot: bool = False) -> None:
        super().__init__()
        self.conn = conn
        self.path = path
        # hot: one bounded wait, no retries, and after a busy answer every later use fails at once
        self.hot = hot
        self.busy = False
        self.busy_ms = 5000
        self.attempts = 1 if hot else 6
        self.readonly = False
        self.deferred = False
        self._in_batch = False
        self._spooling = False  # write-behind found the lock busy: later batches go to the spool
        self.spool = _spool_for(path)

    # -- opening ------------------------------------------------------------------
    @classmethod
    def open(cls, path: str, timeout: float = 5.0, *, hot: bool = False, write_behind: bool = False) -> Store:
        """Open (creating it private) the database at ``path``.

        ``hot``: for a hook call, which must not stall the agent: the wait for another
        process's write lock is ``hot_busy_ms()`` once, then ``StoreBusy``.
        ``write_behind``: writes wait for ``flush``/``close`` and go to the spool when the
        lock stays busy (see the class). A handle without it sends what the spool holds.
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
            if not fresh and not os.access(path, os.W_OK):
                return cls._open_read_only(path, timeout, hot)
            conn = sqlite3.connect(path, timeout=timeout, isolation_level=None, check_same_thread=False)

            def first_statements() -> None:
                conn.execute(f"PRAGMA busy_timeout = {int(timeout * 1000)}")
                # WAL with synchronous=NORMAL: a commit does not wait for fsync; the database stays
                # consistent on a crash (only the last calls' rows may be lost on power failure)
                conn.execute("PRAGMA synchronous = NORMAL")

            try:
                # a connection's first statement reads the WAL index, which another process may be
                # rebuilding (the last handle to close removes the WAL): brief, so worth a few retries
                _retrying(first_statements)
                store = cls(conn, path, hot)
                store.busy_ms = int(timeout * 1000)
                store._ensure_schema()
            except sqlite3.OperationalError as exc:
                conn.close()
                if fresh or not _is_read_only(exc):
                    raise
                # a writable file in a directory we may not write (no -wal/-shm can be made there)
                return cls._open_read_only(path, timeout, hot)
            store.deferred = write_behind
            if not write_behind and not hot:
                store._replay_spool()
            return store
        except StoreError:
            raise
        except (sqlite3.Error, OSError) as exc:
            if hot and isinstance(exc, sqlite3.OperationalError) and _is_busy(exc):
                if write_behind:  # the call still compresses as with a store; its writes wait in the spool
                    return SpoolOnly(path)  # type: ignore[return-value]
                raise StoreBusy(f"{path}: {exc}") from exc
            raise StoreError(f"{path}: {exc}") from exc

    @classmethod
    def _open_read_only(cls, path: str, timeout: float, hot: bool) -> Store:
        """A store this user may read but not write (mode 0444, a read-only directory or mount).

        It serves ``expand``, ``recall`` and ``stats``; a write raises ``StoreReadOnly`` (the
        pipeline then compresses without the store, so no output names content never kept),
        but for the token-count cache, which is skipped. SQLite reads a WAL database read-only
        through its ``-shm`` file; where that cannot be made (a read-only directory) the file
        is opened immutable, which is what it is to this user.
        """
        from urllib.parse import quote

        base = "file:" + quote(os.path.abspath(path))
        last: Exception | None = None
        for params in ("?mode=ro", "?mode=ro&immutable=1"):
            try:
                conn = sqlite3.connect(base + params, uri=True, timeout=timeout, isolation_level=None,
                                       check_same_thread=False)
                version = conn.execute("PRAGMA user_version").fetchone()[0]
            except sqlite3.Error as exc:
                last = exc
                continue
            if version != SCHEMA_VERSION:
                conn.close()
                raise StoreError(f"{path}: read-only store at schema v{version}; this sqz reads v{SCHEMA_VERSION}")
            store = cls(conn, path, hot)
            store.busy_ms = int(timeout * 1000)
            store.readonly = True
            return store
        raise StoreError(f"{path}: {last}")

    def _ensure_schema(self) -> None:
        version = _retrying(lambda: self.conn.execute("PRAGMA user_version").fetchone()[0])
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

    def _retry(self, fn, attempts: int | None = None):
        """``fn()`` with the busy policy of this handle (see ``open``); sqlite errors pass through."""
        if self.busy:
            raise StoreBusy("database is locked by another process")
        try:
            return _retrying(fn, attempts or self.attempts)
        except sqlite3.OperationalError as exc:
            if self.hot and _is_busy(exc):
                self.busy = True
                raise StoreBusy(str(exc)) from exc
            raise

    def batch(self):
        """One write transaction around several writes (one wait for the lock instead of one per write).

        ``with store.batch(): …``; committed at the end, rolled back on an exception. A
        write-behind handle sends all of a call's writes together already.
        """
        from contextlib import contextmanager, nullcontext

        if self.deferred:
            return nullcontext(self)
        if self.readonly:
            raise StoreReadOnly(f"{self.path}: read-only store")

        @contextmanager
        def run():
            try:
                self._retry(lambda: self.conn.execute("BEGIN IMMEDIATE"))
            except sqlite3.Error as exc:
                raise StoreError(str(exc)) from exc
            self._in_batch = True
            try:
                yield self
            except BaseException:
                self._in_batch = False
                try:
                    self.conn.execute("ROLLBACK")
                except sqlite3.Error:
                    pass
                raise
            self._in_batch = False
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
        """Send (or spool) the buffered writes and close; never raises."""
        try:
            self.flush()
        except StoreError as exc:
            import sys

            sys.stderr.write(f"sqz: store writes of this call lost ({exc})\n")
        try:
            self.conn.close()
        except sqlite3.Error:
            pass

    # -- running statements -------------------------------------------------------------
    def _run_read(self, sql: str, params=()) -> list:
        # a read takes no write lock (WAL): a busy answer is the WAL index being rebuilt, brief,
        # so a write-behind handle retries it rather than lose the call's caching
        try:
            return self._retry(lambda: self.conn.execute(sql, params).fetchall(), 4 if self.deferred else None)
        except sqlite3.Error as exc:
            raise StoreError(str(exc)) from exc

    def _execute(self, batch) -> None:
        for key, params in batch:
            self.conn.execute(self._sql(key), params)

    def _run_writes(self, batch: list) -> None:
        if self.readonly:
            raise StoreReadOnly(f"{self.path}: read-only store")
        if self._in_batch:  # inside ``batch()``: its transaction holds the lock already
            try:
                self._execute(batch)
            except sqlite3.Error as exc:
                raise StoreError(str(exc)) from exc
            return
        self._commit(batch, [])

    def _commit(self, batch: list, claimed: list) -> None:
        """``batch`` and the ``claimed`` spooled batches in one transaction (one wait for the lock)."""
        def run():
            self.conn.execute("BEGIN IMMEDIATE")
            try:
                for _, spooled in claimed:
                    self._execute(spooled)
                self._execute(batch)
                self.conn.execute("COMMIT")
            except BaseException:
                self.conn.execute("ROLLBACK")
                raise
        try:
            self._retry(run)
        except sqlite3.Error as exc:
            raise StoreError(str(exc)) from exc

    def flush(self, *, final: bool = True) -> None:
        """Send the buffered writes, with what the spool holds, in one transaction.

        When the lock stays busy past this handle's wait, the writes stay buffered (later
        flushes do not wait again) and the final flush (``close``, the end of a daemon call)
        spools them as one batch, which the next handle that gets the lock sends.
        ``StoreError`` only when they cannot be kept.
        """
        if not self._pending:
            return
        if self.readonly:
            self._pending = []
            raise StoreReadOnly(f"{self.path}: read-only store")
        if not self._spooling:
            batch, self._pending = self._pending, []
            claimed = self.spool.claim() if self.spool.waiting() else []
            try:
                self._commit(batch, claimed)
                self.spool.done(claimed)
                return
            except StoreError as exc:
                self.spool.give_back(claimed)
                self._pending = batch + self._pending
                if not (isinstance(exc, StoreBusy) or _is_busy(exc)):
                    self._pending = []
                    raise
                # reads go on (WAL readers do not wait for the lock): one wait per call, as before
                self.busy, self._spooling = False, True
        if not final:
            return
        batch, self._pending = self._pending, []
        try:
            self.spool.append(batch)
        except OSError as err:
            raise StoreError(f"store busy and its spool unwritable: {err}") from err

    def _replay_spool(self) -> int:
        """Send the batches earlier calls spooled (a handle that may wait); returns how many were sent."""
        if not self.spool.waiting():
            return 0
        claimed = self.spool.claim()
        if not claimed:
            return 0
        try:
            self._commit([], claimed)
        except StoreError:
            self.spool.give_back(claimed)
            return 0
        self.spool.done(claimed)
        return len(claimed)

    # -- what the shared layer leaves to SQLite ---------------------------------------------
    def get_blob(self, digest: str) -> bytes | None:
        data = super().get_blob(digest)
        if data is None:  # written behind: kept by this handle, or spooled by a call that found the store busy
            data = next((bytes(p[1]) for k, p in self._pending if k == "put_blob" and p[0] == digest), None)
        if data is None and self.spool.waiting():
            data = self.spool.blob(digest)
        return data

    def find_hashes(self, prefix: str, limit: int = 3) -> list[str]:
        """Full hashes starting with ``prefix`` (hex, lower case), also of content written behind."""
        found = super().find_hashes(prefix, limit)
        if len(found) < limit and (self._pending or self.spool.waiting()):
            behind = {p[0] for k, p in self._pending if k == "put_blob" and str(p[0]).startswith(prefix)}
            behind.update(self.spool.hashes(prefix))
            found += sorted(behind - set(found))[:limit - len(found)]
        return found

    def unpin(self, digest: str) -> bool:
        before = self._read("count_pin", (digest,))[0][0]
        self._write("unpin", (digest,))
        return bool(before)

    def save_count(self, digest: str, encoding: str, n: int) -> None:
        if not self.readonly:  # a cache: a read-only store is counted again next time
            super().save_count(digest, encoding, n)

    def has_fts(self) -> bool:
        return bool(self._run_read("SELECT 1 FROM sqlite_master WHERE name = 'recall'"))

    def index_text(self, digest: str, text: str, command: str | None, session: str | None) -> None:
        if not self.has_fts():
            return
        if self._read("recall_has", (digest,)):
            return
        self._write("index_text", (digest, self._command(command), session, time.time(), text, digest))

    def search(self, query: str, limit: int = 10) -> list[tuple[str, str | None, float, str]]:
        """``(hash, command, ts, snippet)`` best matches first (FTS5 rank), or LIKE matches without FTS5."""
        if self.has_fts():
            try:
                return [tuple(r) for r in self._read("search", (query, limit))]
            except StoreError:
                # not FTS query syntax (a path, an operator): search it as one quoted phrase
                phrase = '"' + query.replace('"', '""') + '"'
                return [tuple(r) for r in self._read("search", (phrase, limit))]
        return [tuple(r) for r in self._read("search_like", (f"%{query}%", limit))]

    def health(self) -> str:
        """``"ok"`` or SQLite's description of what is wrong."""
        rows = self._run_read("PRAGMA quick_check")
        return rows[0][0] if rows else "unknown"

    def _transaction(self, statements: list) -> dict:
        """Run ``(name, key or sql, params)`` statements in one write transaction; rows changed per name."""
        if self.readonly:
            raise StoreReadOnly(f"{self.path}: read-only store")
        if self._pending:
            self.flush()

        def run():
            self.conn.execute("BEGIN IMMEDIATE")
            try:
                done: dict = {}
                for name, sql, params in statements:
                    if name == "recall" and not self.conn.execute(
                            "SELECT 1 FROM sqlite_master WHERE name = 'recall'").fetchone():
                        continue
                    n = self.conn.execute(self._sql(sql), params).rowcount
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
        try:
            self.conn.execute("PRAGMA secure_delete = ON")
        except sqlite3.Error as exc:
            raise StoreError(str(exc)) from exc
        scanned, steps = self._purge_steps()
        done = self._transaction(steps) if steps else {}
        if steps:
            try:
                if self.has_fts():  # FTS5 keeps deleted rows' terms in old segments until the index is rebuilt
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


class SpoolOnly(SqlStore):
    """A write-behind handle on a database this call could not even read (another process held it
    past the open's retries, e.g. checkpointing it as the last handle closed).

    Reads find nothing (no ref, no near-duplicate this time); the call's writes go to the
    spool as one batch at ``close``, so its original stays expandable and its stats row is
    counted when the next handle sends the spool.
    """

    dialect = Store.dialect
    deferred = True
    readonly = False
    busy = False

    def __init__(self, path: str) -> None:
        super().__init__()
        self.path = path
        self.spool = _spool_for(path)

    def _run_read(self, sql: str, params=()) -> list:
        return []

    def _run_writes(self, batch: list) -> None:
        self._pending.extend(batch)

    def _transaction(self, statements: list) -> dict:
        raise StoreBusy(f"{self.path}: database is locked by another process")

    def flush(self, *, final: bool = True) -> None:
        if final and self._pending:
            batch, self._pending = self._pending, []
            try:
                self.spool.append(batch)
            except OSError as err:
                raise StoreError(f"store busy and its spool unwritable: {err}") from err

    def get_blob(self, digest: str) -> bytes | None:
        """This handle's own writes, then the spool."""
        data = next((bytes(p[1]) for k, p in self._pending if k == "put_blob" and p[0] == digest), None)
        return data if data is not None else self.spool.blob(digest)

    def find_hashes(self, prefix: str, limit: int = 3) -> list[str]:
        behind = {p[0] for k, p in self._pending if k == "put_blob" and str(p[0]).startswith(prefix)}
        return sorted(behind | set(self.spool.hashes(prefix)))[:limit]

    def tokens_served(self, session: str, since: float) -> int:
        return 0

    def has_fts(self) -> bool:
        return False

    def index_text(self, digest: str, text: str, command: str | None, session: str | None) -> None:
        return None  # the next call of the same output indexes it

    def search(self, query: str, limit: int = 10) -> list[tuple[str, str | None, float, str]]:
        return []

    def health(self) -> str:
        return "busy: another process holds the database"

    def purge_secrets(self) -> dict:
        raise StoreBusy(f"{self.path}: database is locked by another process")

    def vacuum(self) -> bool:
        return False

    def close(self) -> None:
        try:
            self.flush()
        except StoreError as exc:
            import sys

            sys.stderr.write(f"sqz: store writes of this call lost ({exc})\n")
