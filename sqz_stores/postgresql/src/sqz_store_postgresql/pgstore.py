"""The PostgreSQL store: the same methods and guarantees as ``sqz_core.api.Store``, for a team.

The statements are ``sqz_core``'s one SQL layer (``SqlStore`` over ``SqlDialect("postgresql")``:
the same text as SQLite runs, with ``%s`` placeholders); this module adds connecting,
migrations, the spool, and what only PostgreSQL does (tsvector recall, array sketches).
One database holds what many agents on many machines send: originals by SHA-256
(deduplicated across the team), what each agent session was served and when (refs
stay per session and per freshness window), pins, sketches, full-text recall
(tsvector/tsquery with ``ts_headline`` snippets) and one stats row per call.

Writes are buffered and sent in one transaction (one round trip in pipeline mode, one
commit) at the next read or at ``close``; a batch the server cannot take (it went
away) is appended to a private local spool file and replayed by a later call, so
nothing is lost. Every failure raises ``StoreError``; callers degrade to
compression without dedup.
"""

from __future__ import annotations

import hashlib
import marshal
import os
import time

import psycopg
from psycopg import errors as pg_errors
from psycopg import sql as pg_sql

from sqz_core.api import SqlDialect, SqlStore, StoreError, merged_counts

from .config import Config

SCHEMA_VERSION = 3

# Each step takes the schema from version N-1 to N. They run once, in order, in one
# transaction holding an advisory lock, so concurrent first-time openers do not race.
MIGRATIONS: dict[int, list[str]] = {
    1: [
        """CREATE TABLE IF NOT EXISTS blobs (
            hash     TEXT PRIMARY KEY,            -- sha256 hex of the original bytes
            data     BYTEA,                       -- NULL: a host that keeps originals local sent only the hash
            size     BIGINT NOT NULL,
            created  DOUBLE PRECISION NOT NULL,
            command  TEXT
        )""",
        """CREATE TABLE IF NOT EXISTS served (
            session     TEXT NOT NULL,
            hash        TEXT NOT NULL,
            served_at   DOUBLE PRECISION NOT NULL,
            output_hash TEXT,
            is_file     BOOLEAN NOT NULL DEFAULT FALSE,
            PRIMARY KEY (session, hash)
        )""",
        "CREATE INDEX IF NOT EXISTS served_recent ON served(session, served_at)",
        """CREATE TABLE IF NOT EXISTS calls (
            id          BIGSERIAL PRIMARY KEY,
            ts          DOUBLE PRECISION NOT NULL,
            session     TEXT,
            command     TEXT,
            family      TEXT,
            plugin      TEXT,
            outcome     TEXT NOT NULL,
            bytes_in    BIGINT NOT NULL,
            bytes_out   BIGINT NOT NULL,
            est_in      BIGINT NOT NULL,
            est_out     BIGINT NOT NULL,
            input_hash  TEXT,
            output_hash TEXT
        )""",
        "CREATE INDEX IF NOT EXISTS calls_ts ON calls(ts)",
        "CREATE INDEX IF NOT EXISTS calls_session ON calls(session, ts)",
        """CREATE TABLE IF NOT EXISTS token_counts (
            hash     TEXT NOT NULL,
            encoding TEXT NOT NULL,
            n        BIGINT NOT NULL,
            PRIMARY KEY (hash, encoding)
        )""",
        """CREATE TABLE IF NOT EXISTS pins (
            hash    TEXT PRIMARY KEY,
            label   TEXT,
            created DOUBLE PRECISION NOT NULL
        )""",
        """CREATE TABLE IF NOT EXISTS compactions (
            session TEXT NOT NULL,
            ts      DOUBLE PRECISION NOT NULL
        )""",
        """CREATE TABLE IF NOT EXISTS sketches (
            session TEXT NOT NULL,
            value   BIGINT NOT NULL,
            hash    TEXT NOT NULL,
            UNIQUE (session, hash, value)
        )""",
        "CREATE INDEX IF NOT EXISTS sketches_lookup ON sketches(session, value)",
        # full-text recall: PostgreSQL's own text search ('simple': tool output is not prose)
        """CREATE TABLE IF NOT EXISTS recall (
            hash    TEXT PRIMARY KEY,
            command TEXT,
            session TEXT,
            ts      DOUBLE PRECISION NOT NULL,
            body    TEXT NOT NULL,
            tsv     tsvector GENERATED ALWAYS AS (to_tsvector('simple', body)) STORED
        )""",
        "CREATE INDEX IF NOT EXISTS recall_tsv ON recall USING GIN (tsv)",
    ],
    2: [
        # which agent framework a call served; events outside compression (expand of a ref, compaction…)
        "ALTER TABLE calls ADD COLUMN IF NOT EXISTS agent TEXT",
        """CREATE TABLE IF NOT EXISTS events (
            id      BIGSERIAL PRIMARY KEY,
            ts      DOUBLE PRECISION NOT NULL,
            session TEXT,
            kind    TEXT NOT NULL,
            ref     TEXT,
            detail  TEXT
        )""",
        "CREATE INDEX IF NOT EXISTS events_ts ON events(ts)",
    ],
    3: [
        # the working directory of each call (`sqz stats --project`)
        "ALTER TABLE calls ADD COLUMN IF NOT EXISTS cwd TEXT",
    ],
}

RECALL_MAX_CHARS = 200_000     # tsvector has a 1 MB limit; the rest of a huge output stays expandable
STATEMENT_TIMEOUT_MS = 10_000  # a hung server must not hang the agent's command for long
FLUSH_SECS = 15.0  # a hook call's bound on committing its writes (reads: ``client.hot_reply_seconds()``)
_HEADLINE = "StartSel=[, StopSel=], MaxWords=16, MinWords=6, MaxFragments=1, FragmentDelimiter=…"


def _one_line(exc: BaseException) -> str:
    """The first line of a driver message (libpq adds hints on further lines), without line breaks."""
    lines = [line.strip() for line in str(exc).splitlines() if line.strip()]
    return (lines[0][:300] if lines else "") or type(exc).__name__


def _lock_key(schema: str | None) -> int:
    digest = hashlib.sha256(f"sqz-store-migrations:{schema or ''}".encode()).digest()
    return int.from_bytes(digest[:8], "big", signed=True)


# -- connecting and migrating ------------------------------------------------------------

class NoAnswer(StoreError):
    """A round trip ran past a hook call's bound (a frozen or overloaded server)."""


def bounded(fn, timeout: float | None):
    """``fn()`` in a helper thread, waiting at most ``timeout`` seconds (None: ``fn()`` here).

    Past it, ``NoAnswer``; the thread is left to finish or to end with the process (a
    hook call exits right after), and its connection must not be used again.
    """
    if timeout is None:
        return fn()
    import threading

    box: dict = {}

    def run() -> None:
        try:
            box["value"] = fn()
        except BaseException as exc:  # handed to the caller
            box["error"] = exc

    worker = threading.Thread(target=run, name="sqz-pg-round-trip", daemon=True)
    worker.start()
    worker.join(timeout)
    if worker.is_alive():
        raise NoAnswer(f"postgresql: no answer within {int(timeout * 1000)} ms (server frozen or overloaded)")
    if "error" in box:
        raise box["error"]
    return box.get("value")


def connect(cfg: Config) -> psycopg.Connection:
    """An autocommit connection with a short connect timeout and the schema on the search path."""
    # synchronous_commit=off: a commit returns before its WAL reaches the disk (other sessions see it at
    # once; a server crash may lose the last ~0.6 s of writes) — right for a cache and stats store
    options = [f"-c statement_timeout={STATEMENT_TIMEOUT_MS}", "-c synchronous_commit=off"]
    if cfg.schema:
        options.append(f"-c search_path={cfg.schema}")
    try:
        from psycopg.conninfo import conninfo_to_dict

        user_options = conninfo_to_dict(cfg.conninfo).get("options")
        if user_options:
            options.insert(0, str(user_options))
        return psycopg.connect(cfg.conninfo, autocommit=True, application_name="sqz",
                               options=" ".join(options))
    except psycopg.Error as exc:
        raise StoreError(f"postgresql: {_one_line(exc)}") from exc


def schema_version(conn: psycopg.Connection) -> int:
    """The schema's version (0: no sqz tables yet)."""
    try:
        row = conn.execute("SELECT max(version) FROM schema_version").fetchone()
    except (pg_errors.UndefinedTable, pg_errors.InvalidSchemaName):
        return 0
    return int(row[0] or 0)


def migrate(conn: psycopg.Connection, schema: str | None, target: int = SCHEMA_VERSION) -> int:
    """Bring the schema up to ``target`` once, under an advisory lock; returns the version before."""
    with conn.transaction():
        conn.execute("SELECT pg_advisory_xact_lock(%s)", (_lock_key(schema),))
        if schema:
            conn.execute(pg_sql.SQL("CREATE SCHEMA IF NOT EXISTS {}").format(pg_sql.Identifier(schema)))
        conn.execute("CREATE TABLE IF NOT EXISTS schema_version ("
                     "version INTEGER PRIMARY KEY, applied DOUBLE PRECISION NOT NULL)")
        current = int(conn.execute("SELECT COALESCE(max(version), 0) FROM schema_version").fetchone()[0])
        if current > SCHEMA_VERSION:
            raise StoreError(f"postgresql schema v{current} is newer than this sqz-store-postgresql "
                             f"(v{SCHEMA_VERSION}); upgrade it")
        for step in range(current + 1, target + 1):
            for statement in MIGRATIONS[step]:
                conn.execute(statement)
            conn.execute("INSERT INTO schema_version(version, applied) VALUES (%s, %s)", (step, time.time()))
    return current


def ensure_schema(conn: psycopg.Connection, schema: str | None, timeout: float | None = None) -> None:
    """One round trip when the schema is current (bounded by ``timeout``); the migrations otherwise
    (a one-time step, worth waiting for even on a hook call)."""
    try:
        version = bounded(lambda: schema_version(conn), timeout)
        if version == SCHEMA_VERSION:
            return
        if version > SCHEMA_VERSION:
            raise StoreError(f"postgresql schema v{version} is newer than this sqz-store-postgresql "
                             f"(v{SCHEMA_VERSION}); upgrade it")
        migrate(conn, schema)
    except psycopg.Error as exc:
        raise StoreError(f"postgresql: schema: {_one_line(exc)}") from exc


# -- the local spool: batches the server could not take -----------------------------------

def spool_path(cfg: Config) -> str:
    from sqz_core.api import cache_dir

    tag = hashlib.sha256(cfg.url.encode()).hexdigest()[:12]
    return os.path.join(cache_dir(), f"pg-spool-{tag}.bin")


def spool(cfg: Config, batch: list) -> None:
    """Append a batch of writes to the private spool file (one marshal record per batch)."""
    path = spool_path(cfg)
    try:
        os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
        try:
            os.write(fd, marshal.dumps(batch))
        finally:
            os.close(fd)
    except OSError:
        pass  # nowhere to keep it: the batch is lost, compression is not affected


def spooled_batches(cfg: Config) -> int:
    """How many batches wait in the spool (for doctor)."""
    try:
        with open(spool_path(cfg), "rb") as fh:
            n = 0
            while True:
                try:
                    marshal.load(fh)
                except EOFError:
                    return n
                n += 1
    except (OSError, ValueError):
        return 0


# -- the store ---------------------------------------------------------------------------

class PgStore(SqlStore):
    """A handle on the team store. Use ``open_direct(cfg)``; every method may raise ``StoreError``."""

    dialect = SqlDialect("postgresql", "%s")
    deferred = True  # every write waits for the next read or ``close`` (one transaction, one round trip)

    def __init__(self, conn: psycopg.Connection, cfg: Config, timeout: float | None = None) -> None:
        super().__init__()
        self.conn = conn
        self.cfg = cfg
        # a hook call's bound on each round trip (None: wait as long as the server takes)
        self.timeout = timeout
        self.dead: str | None = None  # why this handle stopped: a round trip ran past ``timeout``

    def _bounded(self, fn):
        """``fn()``, or ``StoreError`` once ``timeout`` passes (see ``bounded``)."""
        if self.dead is not None:
            raise StoreError(self.dead)
        try:
            return bounded(fn, self.timeout)
        except NoAnswer as exc:
            self.dead = str(exc)
            raise

    # -- plumbing --------------------------------------------------------------------------
    def _command(self, command: str | None) -> str | None:
        from sqz_core.api import withhold_credentials

        return withhold_credentials(command)

    def _text(self, value):
        return value.replace("\x00", "") if isinstance(value, str) else value

    def _run_read(self, sql: str, params: tuple = ()) -> list:
        try:
            return self._bounded(lambda: self.conn.execute(sql, params).fetchall())
        except psycopg.Error as exc:
            raise StoreError(f"postgresql: {_one_line(exc)}") from exc

    def _run_writes(self, batch: list) -> None:
        self._pending.extend(batch)
        self.flush()

    def _send(self, batch: list) -> None:
        for attempt in range(3):
            try:
                with self.conn.pipeline(), self.conn.transaction():
                    for key, params in batch:
                        self.conn.execute(self._sql(key), params)
                return
            except (pg_errors.DeadlockDetected, pg_errors.SerializationFailure):
                if attempt == 2:
                    raise
                time.sleep(0.01 * (attempt + 1))

    def flush(self, *, final: bool = True) -> None:
        """Send the buffered writes in one transaction; spool them locally if the server went away."""
        if not self._pending:
            return
        batch, self._pending = self._pending, []
        try:
            if self.dead is not None:
                raise StoreError(self.dead)
            # a busy (not frozen) server may make a commit wait on row locks: a longer bound than reads
            bounded(lambda: self._send(batch), None if self.timeout is None else max(self.timeout, FLUSH_SECS))
        except NoAnswer as exc:
            self.dead = str(exc)
            raise  # not spooled: the whole batch was sent, the server commits it when it wakes
        except psycopg.OperationalError as exc:
            spool(self.cfg, batch)
            raise StoreError(f"postgresql: {_one_line(exc)} ({len(batch)} writes kept in the local spool)") from exc
        except psycopg.Error as exc:
            raise StoreError(f"postgresql: {_one_line(exc)}") from exc

    def replay_spool(self) -> int:
        """Send what earlier calls could not (oldest first); returns the number of batches sent."""
        path = spool_path(self.cfg)
        if not os.path.exists(path):
            return 0
        taking = f"{path}.{os.getpid()}.replay"
        try:
            os.replace(path, taking)
        except OSError:
            return 0  # another process is replaying it
        batches = []
        try:
            with open(taking, "rb") as fh:
                while True:
                    try:
                        batches.append(marshal.load(fh))
                    except EOFError:
                        break
        except (OSError, ValueError):
            pass  # a torn last record: keep the complete ones
        try:
            self._bounded(lambda: self._send([w for batch in batches for w in batch]))
        except NoAnswer:
            for batch in batches:
                spool(self.cfg, batch)
            os.unlink(taking)
            raise
        except psycopg.OperationalError as exc:
            for batch in batches:
                spool(self.cfg, batch)
            os.unlink(taking)
            raise StoreError(f"postgresql: {_one_line(exc)}") from exc
        except psycopg.Error:
            os.replace(taking, path + ".rejected")  # kept for inspection, never retried
            return 0
        os.unlink(taking)
        return len(batches)

    def ping(self) -> bool:
        try:
            self._bounded(lambda: self.conn.execute("SELECT 1"))
            return True
        except (psycopg.Error, StoreError):
            return False

    def close(self) -> None:
        """Flush (or spool) the buffered writes and disconnect; never raises."""
        try:
            self.flush()
        except StoreError:
            pass
        if self.dead is not None:
            return  # a round trip still holds the connection; the process's exit ends it
        try:
            self.conn.close()
        except Exception:
            pass

    def _transaction(self, steps: list) -> dict:
        """Run ``(name, key or sql, params)`` statements in one transaction; rows changed per name."""
        self.flush()
        def run() -> dict:
            done: dict = {}
            with self.conn.transaction():
                for name, statement, params in steps:
                    n = self.conn.execute(self._sql(statement), params).rowcount
                    done[name] = done.get(name, 0) + max(n, 0)
            return done
        try:
            return self._bounded(run)
        except psycopg.Error as exc:
            raise StoreError(f"postgresql: {_one_line(exc)}") from exc

    # -- what only PostgreSQL does -----------------------------------------------------------
    def has_fts(self) -> bool:
        return True

    def index_text(self, digest: str, text: str, command: str | None, session: str | None) -> None:
        self._write("index_text", (digest, self._text(self._command(command)), session, time.time(),
                                   self._text(text[:RECALL_MAX_CHARS])))

    def search(self, query: str, limit: int = 10) -> list[tuple[str, str | None, float, str]]:
        """``(hash, command, ts, snippet)`` best matches first (``ts_rank``), snippets by ``ts_headline``."""
        return [(r[0], r[1], r[2], r[3]) for r in self._read("search", (_HEADLINE, self._text(query), limit))]

    def purge_secrets(self) -> dict:
        """Delete stored content and recall rows a secret detector flags; scrub stored command lines
        (what versions before the detectors kept). Counts per kind, as the SQLite store reports them."""
        self.flush()
        scanned, steps = self._purge_steps()
        done = self._transaction(steps) if steps else {}
        if steps:
            self.vacuum()
        return {"scanned": scanned, "blobs": done.get("blobs", 0), "recall": done.get("recall", 0),
                "commands": done.get("commands", 0)}

    def vacuum(self) -> bool:
        """Let PostgreSQL reuse the space of deleted rows (plain VACUUM of sqz's tables); False if it cannot."""
        self.flush()
        try:
            self.conn.execute("VACUUM blobs, served, calls, token_counts, pins, compactions, sketches, recall, events")
            return True
        except psycopg.Error:
            return False

    def health(self) -> str:
        """``"ok"``, or what is wrong (schema version, spooled writes not yet sent)."""
        version = int(self._read("SELECT COALESCE(max(version), 0) FROM schema_version")[0][0])
        if version != SCHEMA_VERSION:
            return f"schema v{version}, expected v{SCHEMA_VERSION}"
        waiting = spooled_batches(self.cfg)
        if waiting:
            return f"{waiting} batch(es) of writes wait in the local spool {spool_path(self.cfg)}"
        return "ok"


# Methods whose data stays on this machine when originals are not sent to the team store.
LOCAL_METHODS = ("get_blob", "find_hashes", "last_served", "mark_served", "recent_files", "invalidate_session",
                 "sessions", "pin", "unpin", "is_pinned", "pins", "add_sketch", "similar", "has_fts",
                 "index_text", "search")


class HashOnlyStore(PgStore):
    """``store_originals=0``: the team store gets hashes, sizes and stats; content stays local.

    Originals, refs (what each session was served), pins, sketches and recall live in
    the local SQLite store, so ``expand``, dedup refs and recall work on this machine
    only; other machines see the hashes and the stats rows, never the bytes.
    """

    def __init__(self, conn: psycopg.Connection, cfg: Config, timeout: float | None = None) -> None:
        super().__init__(conn, cfg, timeout)
        from sqz_core.api import Store, db_path

        self.local = Store.open(db_path())

    def put_blob(self, digest: str, data: bytes, command: str | None = None) -> None:
        self.local.put_blob(digest, data, command)
        self._write("put_hash_only", (digest, len(data), time.time(), self._text(self._command(command))))

    def close(self) -> None:
        super().close()
        self.local.close()

    def prune_before(self, cutoff: float) -> dict:
        return merged_counts(self.local.prune_before(cutoff), super().prune_before(cutoff))

    def reset(self, *, cache: bool = True, stats: bool = True) -> dict:
        return merged_counts(self.local.reset(cache=cache, stats=stats), super().reset(cache=cache, stats=stats))

    def vacuum(self) -> bool:
        return self.local.vacuum() and super().vacuum()

    def purge_secrets(self) -> dict:
        return merged_counts(self.local.purge_secrets(), super().purge_secrets())


def _delegate(name: str):
    def method(self, *args, **kwargs):
        return getattr(self.local, name)(*args, **kwargs)

    method.__name__ = name
    method.__doc__ = f"``{name}`` on the local SQLite store (originals stay on this machine)."
    return method


for _name in LOCAL_METHODS:
    setattr(HashOnlyStore, _name, _delegate(_name))


def make_store(conn: psycopg.Connection, cfg: Config, timeout: float | None = None) -> PgStore:
    return PgStore(conn, cfg, timeout) if cfg.store_originals else HashOnlyStore(conn, cfg, timeout)


def open_direct(cfg: Config, timeout: float | None = None) -> PgStore:
    """Connect with psycopg, bring the schema up to date, send any spooled writes.

    ``timeout``: a hook call's bound on each round trip, connecting included (libpq's own
    ``connect_timeout`` is 2 s at the least; a frozen server accepts the TCP connection
    and then never answers, so only a bound of our own holds).
    """
    from .config import note_down

    try:
        conn = bounded(lambda: connect(cfg), timeout)
    except StoreError as exc:
        note_down(cfg, str(exc))
        raise
    try:
        ensure_schema(conn, cfg.schema, timeout)
    except NoAnswer as exc:
        note_down(cfg, str(exc))
        raise  # the connection stays with the abandoned round trip
    except BaseException:
        conn.close()
        raise
    store = make_store(conn, cfg, timeout)
    try:
        store.replay_spool()
    except StoreError:
        if store.dead is not None:
            note_down(cfg, store.dead)
            raise
    return store
