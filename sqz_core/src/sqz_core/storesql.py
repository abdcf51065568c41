"""The one SQL layer of every SQL store: statements written once, the backends' differences in one place.

``STATEMENTS`` holds each statement once, in the SQL that SQLite (3.24+) and PostgreSQL
both accept, with ``?`` placeholders. ``Dialect`` turns them into one backend's text:
its placeholder (``%s`` for psycopg) and the few statements that must differ
(``DIALECTS``: full-text search, set membership, sketches, recall rows). ``SqlStore``
implements the store protocol (``storeproto.StoreProtocol``) on top of them; a backend
(``store.Store`` for SQLite, the PostgreSQL plugin's ``PgStore``) supplies only how to
run a statement, a batch of writes and a transaction, and its own schema and upkeep.

Writes go through ``_write(key, params)``: run at once, or buffered (``_pending``) and
sent as one transaction by ``flush``, which a backend's write-behind uses. A buffered
batch names statements by key, so a spooled batch (``spool``) replays through the same
table, whatever version of the text wrote it.
"""

from __future__ import annotations

import time

TYPE_CHECKING = False  # not typing's: importing typing would cost every hook call (type checkers know the name)

# -- the statements ----------------------------------------------------------------------------

STATEMENTS: dict[str, str] = {
    # blobs: a row without bytes (data NULL) is a hash another host keeps local; bytes fill it in later
    "put_blob": "INSERT INTO blobs(hash, data, size, created, command) VALUES (?,?,?,?,?) "
                "ON CONFLICT (hash) DO UPDATE SET data = excluded.data WHERE blobs.data IS NULL",
    "put_hash_only": "INSERT INTO blobs(hash, data, size, created, command) VALUES (?,NULL,?,?,?) "
                     "ON CONFLICT (hash) DO NOTHING",
    "get_blob": "SELECT data FROM blobs WHERE hash = ? AND data IS NOT NULL",
    "find_hashes": "SELECT hash FROM blobs WHERE hash >= ? AND hash < ? AND data IS NOT NULL ORDER BY hash LIMIT ?",
    # sessions
    "last_served": "SELECT served_at FROM served WHERE session = ? AND hash = ?",
    "mark_served": "INSERT INTO served(session, hash, served_at, output_hash, is_file) VALUES (?,?,?,?,?) "
                   "ON CONFLICT (session, hash) DO UPDATE SET served_at = excluded.served_at, "
                   "output_hash = excluded.output_hash, is_file = excluded.is_file",
    "recent_files": "SELECT hash, output_hash FROM served WHERE session = ? AND is_file AND served_at >= ? "
                    "ORDER BY served_at DESC LIMIT ?",
    "forget_session": "DELETE FROM served WHERE session = ?",
    "note_compaction": "INSERT INTO compactions(session, ts) VALUES (?, ?)",
    "sessions": "SELECT session, COUNT(*), MAX(served_at) FROM served GROUP BY session ORDER BY MAX(served_at) DESC",
    # pins
    "pin": "INSERT INTO pins(hash, label, created) VALUES (?,?,?) "
           "ON CONFLICT (hash) DO UPDATE SET label = excluded.label, created = excluded.created",
    "count_pin": "SELECT COUNT(*) FROM pins WHERE hash = ?",
    "unpin": "DELETE FROM pins WHERE hash = ?",
    "is_pinned": "SELECT 1 FROM pins WHERE hash = ?",
    "pins": "SELECT p.hash, p.label, p.created, COALESCE(b.size, 0) FROM pins p "
            "LEFT JOIN blobs b ON b.hash = p.hash ORDER BY p.created",
    # near-duplicate sketches ({value_in}: the dialect's set membership)
    "add_sketch": "INSERT INTO sketches(session, value, hash) VALUES (?,?,?) ON CONFLICT DO NOTHING",
    "similar": "SELECT hash, COUNT(*) AS n FROM sketches WHERE session = ? AND {value_in} AND hash != ? "
               "GROUP BY hash ORDER BY n DESC, hash LIMIT ?",
    # recall
    "recall_has": "SELECT 1 FROM recall WHERE hash = ? LIMIT 1",
    "index_text": "INSERT INTO recall(hash, command, session, ts, body) VALUES (?,?,?,?,?) "
                  "ON CONFLICT (hash) DO NOTHING",
    # calls, events, token counts
    "tokens_served": "SELECT COALESCE(SUM(est_out), 0) FROM calls WHERE session = ? AND ts >= ?",
    "record_call": "INSERT INTO calls(ts, session, command, family, plugin, outcome, bytes_in, bytes_out, "
                   "est_in, est_out, input_hash, output_hash, agent, cwd) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
    "origins": "SELECT input_hash, output_hash, cwd FROM calls WHERE {input_in} OR {output_in}",
    "calls": "SELECT ts, session, command, family, plugin, outcome, bytes_in, bytes_out, est_in, est_out, "
             "input_hash, output_hash, agent, cwd FROM calls WHERE ts >= ? ORDER BY id",
    "record_event": "INSERT INTO events(ts, session, kind, ref, detail) VALUES (?,?,?,?,?)",
    "events": "SELECT ts, session, kind, ref, detail FROM events WHERE ts >= ? ORDER BY id",
    "cached_count": "SELECT n FROM token_counts WHERE hash = ? AND encoding = ?",
    "save_count": "INSERT INTO token_counts(hash, encoding, n) VALUES (?,?,?) "
                  "ON CONFLICT (hash, encoding) DO UPDATE SET n = excluded.n",
    # retention
    "prune_calls": "DELETE FROM calls WHERE ts < ?",
    "prune_events": "DELETE FROM events WHERE ts < ?",
    "prune_served": "DELETE FROM served WHERE served_at < ?",
    "prune_compactions": "DELETE FROM compactions WHERE ts < ?",
    # content still needed: pinned, referenced by a stats row, or what a served entry showed
    "prune_blobs": "DELETE FROM blobs WHERE created < ? AND hash NOT IN (SELECT hash FROM pins UNION "
                   "SELECT input_hash FROM calls WHERE input_hash IS NOT NULL UNION "
                   "SELECT output_hash FROM calls WHERE output_hash IS NOT NULL UNION SELECT hash FROM served "
                   "UNION SELECT output_hash FROM served WHERE output_hash IS NOT NULL)",
    "orphan_sketches": "DELETE FROM sketches WHERE hash NOT IN (SELECT hash FROM blobs)",
    "orphan_recall": "DELETE FROM recall WHERE hash NOT IN (SELECT hash FROM blobs)",
    # token counts of calls that remain are kept, so their figures stay exact after the content is gone
    "unused_counts": "DELETE FROM token_counts WHERE hash NOT IN (SELECT hash FROM blobs) AND hash NOT IN "
                     "(SELECT input_hash FROM calls WHERE input_hash IS NOT NULL UNION "
                     "SELECT output_hash FROM calls WHERE output_hash IS NOT NULL)",
    "reset_calls": "DELETE FROM calls",
    "reset_events": "DELETE FROM events",
    "reset_served": "DELETE FROM served",
    "reset_compactions": "DELETE FROM compactions",
    "reset_sketches": "DELETE FROM sketches",
    "reset_recall": "DELETE FROM recall",
    "reset_blobs": "DELETE FROM blobs",
    "reset_blobs_unpinned": "DELETE FROM blobs WHERE hash NOT IN (SELECT hash FROM pins)",
    "reset_pins": "DELETE FROM pins",
    # secrets an older version stored (sqz doctor --purge-secrets)
    "blob_hashes": "SELECT hash FROM blobs WHERE data IS NOT NULL",
    "blobs_by_hash": "SELECT hash, data FROM blobs WHERE {hash_in}",
    "purge_blob": "DELETE FROM blobs WHERE hash = ?",
    "purge_served": "DELETE FROM served WHERE hash = ? OR output_hash = ?",
    "purge_sketches": "DELETE FROM sketches WHERE hash = ?",
    "purge_pins": "DELETE FROM pins WHERE hash = ?",
    "purge_counts": "DELETE FROM token_counts WHERE hash = ?",
    "purge_call_inputs": "UPDATE calls SET input_hash = NULL WHERE input_hash = ?",
    "purge_call_outputs": "UPDATE calls SET output_hash = NULL WHERE output_hash = ?",
    "commands_of_calls": "SELECT id, command FROM calls WHERE command IS NOT NULL",
    "commands_of_blobs": "SELECT hash, command FROM blobs WHERE command IS NOT NULL",
    "rewrite_call_command": "UPDATE calls SET command = ? WHERE id = ?",
    "rewrite_blob_command": "UPDATE blobs SET command = ? WHERE hash = ?",
}

# What one backend says differently: set membership, full-text recall (FTS5 or tsvector), bulk sketches.
DIALECTS: dict[str, dict[str, str]] = {
    "sqlite": {
        # an FTS5 table has no unique key: the row guards itself against a second copy
        "index_text": "INSERT INTO recall(hash, command, session, ts, body) SELECT ?,?,?,?,? "
                      "WHERE NOT EXISTS (SELECT 1 FROM recall WHERE hash = ?)",
        "search": "SELECT hash, command, ts, snippet(recall, 0, '[', ']', '…', 12) FROM recall "
                  "WHERE recall MATCH ? ORDER BY rank LIMIT ?",
        "search_like": "SELECT hash, command, created, substr(CAST(data AS TEXT), 1, 200) FROM blobs "
                       "WHERE CAST(data AS TEXT) LIKE ? ORDER BY created DESC LIMIT ?",
        "recall_rows": "SELECT rowid, hash, body FROM recall",
        "purge_recall": "DELETE FROM recall WHERE rowid = ?",
        "commands_of_recall": "SELECT rowid, command FROM recall WHERE command IS NOT NULL",
        "rewrite_recall_command": "UPDATE recall SET command = ? WHERE rowid = ?",
    },
    "postgresql": {
        "add_sketch": "INSERT INTO sketches(session, value, hash) SELECT ?, v, ? FROM unnest(?::bigint[]) AS v "
                      "ON CONFLICT DO NOTHING",
        "search": "SELECT r.hash, r.command, r.ts, ts_headline('simple', r.body, q, ?) "
                  "FROM recall r, websearch_to_tsquery('simple', ?) q WHERE r.tsv @@ q "
                  "ORDER BY ts_rank(r.tsv, q) DESC, r.ts DESC LIMIT ?",
        "recall_rows": "SELECT hash, hash, body FROM recall",
        "purge_recall": "DELETE FROM recall WHERE hash = ?",
        "commands_of_recall": "SELECT hash, command FROM recall WHERE command IS NOT NULL",
        "rewrite_recall_command": "UPDATE recall SET command = ? WHERE hash = ?",
    },
}


class Dialect:
    """One backend's statements: placeholders in its style, its own statements where they differ."""

    def __init__(self, name: str, placeholder: str = "?") -> None:
        self.name = name
        self.placeholder = placeholder
        merged = dict(STATEMENTS, **DIALECTS.get(name, {}))
        self.sql = {key: self._placeholders(text) for key, text in merged.items()}

    def _placeholders(self, text: str) -> str:
        return text if self.placeholder == "?" else text.replace("?", self.placeholder)

    def __getitem__(self, key: str) -> str:
        return self.sql[key]

    def member(self, column: str, values: list, array_type: str = "text") -> tuple[str, tuple]:
        """``column`` is one of ``values``: a placeholder list in SQLite, ``= ANY(array)`` in PostgreSQL."""
        if self.name == "postgresql":
            return f"{column} = ANY({self.placeholder}::{array_type}[])", (list(values),)
        return f"{column} IN ({','.join('?' * len(values))})", tuple(values)


def merged(a: dict, b: dict) -> dict:
    """Two stores' per-table counts added up."""
    return {k: a.get(k, 0) + b.get(k, 0) for k in dict.fromkeys([*a, *b])}


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


def withhold_credentials(command: str | None) -> str | None:
    """The command line as a store shared by a team may keep it: credentials never leave the machine.

    Userinfo in URLs is masked; a command line carrying a secret (a token, a ``password=``
    argument: sqz's own secret classifier) is replaced by a placeholder; every shape the
    local store masks (``secrets.scrub_command``) is masked too.
    """
    if not command:
        return command
    from .safety import classify
    from .secrets import _CRED_ARG, _URL_USERINFO, scrub_command

    verdict = classify(command)
    if (verdict is not None and verdict.secret) or _CRED_ARG.search(command):
        return "[command withheld: it holds a credential]"
    return (scrub_command(_URL_USERINFO.sub(r"\1***@", command)) or "").replace("\x00", "")


# -- the store on top of them ------------------------------------------------------------------


class SqlStore:
    """The store protocol over ``Dialect`` statements. A backend defines ``_run_read(sql, params)``,
    ``_run_writes(batch)`` (``(key or sql, params)`` pairs in one transaction), ``_transaction(steps)``
    (``(name, key or sql, params)``: rows changed per name), ``has_fts``, ``search``, ``health``,
    ``vacuum``, ``close``; and may override ``_command`` (how a command line is kept) and ``_text``.
    Every method may raise ``StoreError``."""

    dialect: Dialect
    if TYPE_CHECKING:  # pragma: no cover - what each backend defines (see above)
        def _run_read(self, sql: str, params: tuple = ()) -> list: ...
        def _run_writes(self, batch: list) -> None: ...
        def _transaction(self, statements: list) -> dict: ...
        def has_fts(self) -> bool: ...
    # True: writes wait in ``_pending`` until ``flush`` (at the next read, or the end of the call)
    deferred = False

    def __init__(self) -> None:
        self._pending: list[tuple[str, tuple]] = []

    # -- plumbing ---------------------------------------------------------------------------
    def _sql(self, key: str) -> str:
        return self.dialect.sql.get(key, key)

    def _write(self, key: str, params: tuple = ()) -> None:
        if self.deferred:
            self._pending.append((key, tuple(params)))
        else:
            self._run_writes([(key, tuple(params))])

    def _write_all(self, batch: list) -> None:
        if self.deferred:
            self._pending.extend((key, tuple(params)) for key, params in batch)
        elif batch:
            self._run_writes([(key, tuple(params)) for key, params in batch])

    def _read(self, key: str, params: tuple = ()) -> list:
        return self._query(self._sql(key), params)

    def _query(self, sql: str, params: tuple = ()) -> list:
        """Rows of a read; a deferred store sends its buffered writes first (reads see them)."""
        if self._pending:
            self.flush(final=False)
        return self._run_read(sql, params)

    def flush(self, *, final: bool = True) -> None:
        """Send the buffered writes in one transaction (nothing to do for a store that writes at once).

        ``final``: the end of the call (a backend may keep writes it cannot send yet until then)."""
        if self._pending:
            batch, self._pending = self._pending, []
            self._run_writes(batch)

    def batch(self):
        """One write transaction around several writes: ``with store.batch(): …``.

        A deferred store sends its writes together already; the others override it."""
        from contextlib import nullcontext

        return nullcontext()

    def _command(self, command: str | None) -> str | None:
        """The command line as the store keeps it: secret spans replaced by ``***``."""
        if not command:
            return command
        from .secrets import scrub_command

        return scrub_command(command)

    def _text(self, value):
        return value

    # -- blobs ------------------------------------------------------------------------------
    def put_blob(self, digest: str, data: bytes, command: str | None = None) -> None:
        self._write("put_blob", (digest, bytes(data), len(data), time.time(), self._text(self._command(command))))

    def get_blob(self, digest: str) -> bytes | None:
        rows = self._read("get_blob", (digest,))
        return bytes(rows[0][0]) if rows else None

    def find_hashes(self, prefix: str, limit: int = 3) -> list[str]:
        """Full hashes starting with ``prefix`` (hex, lower case) whose bytes the store holds."""
        return [r[0] for r in self._read("find_hashes", (prefix, prefix + "g", limit))]  # 'g' > every hex digit

    # -- sessions ---------------------------------------------------------------------------
    def last_served(self, session: str, digest: str) -> float | None:
        rows = self._read("last_served", (session, digest))
        return rows[0][0] if rows else None

    def mark_served(self, session: str, digest: str, when: float | None = None, *, output_hash: str | None = None,
                    is_file: bool = False) -> None:
        self._write("mark_served", (session, digest, when if when is not None else time.time(), output_hash,
                                    bool(is_file)))

    def recent_files(self, session: str, since: float, limit: int = 20) -> list[tuple[str, str | None]]:
        """``(hash, output_hash)`` of file content served to ``session`` since ``since``, newest first."""
        return [(r[0], r[1]) for r in self._read("recent_files", (session, since, limit))]

    def invalidate_session(self, session: str) -> int:
        """Forget what ``session`` was served (after the agent compacted its history); returns how many."""
        done = self._transaction([("served", "forget_session", (session,)),
                                  ("compactions", "note_compaction", (session, time.time()))])
        return done.get("served", 0)

    def sessions(self) -> list[tuple[str, int, float]]:
        """``(session, entries served, last served)`` for every session with live entries."""
        return [(r[0], int(r[1]), r[2]) for r in self._read("sessions")]

    # -- pins -------------------------------------------------------------------------------
    def pin(self, digest: str, label: str | None) -> None:
        self._write("pin", (digest, self._text(label), time.time()))

    def unpin(self, digest: str) -> bool:
        return bool(self._transaction([("pins", "unpin", (digest,))]).get("pins", 0))

    def is_pinned(self, digest: str) -> bool:
        return bool(self._read("is_pinned", (digest,)))

    def pins(self) -> list[tuple[str, str | None, float, int]]:
        return [(r[0], r[1], r[2], int(r[3])) for r in self._read("pins")]

    # -- near-duplicate sketches ------------------------------------------------------------
    def add_sketch(self, session: str, digest: str, values: list[int]) -> None:
        if not values:
            return
        if self.dialect.name == "postgresql":  # one statement over an array
            self._write("add_sketch", (session, digest, [int(v) for v in values]))
            return
        self._write_all([("add_sketch", (session, int(v), digest)) for v in values])

    def similar(self, session: str, values: list[int], exclude: str, limit: int = 3) -> list[tuple[str, int]]:
        """Entries of ``session`` sharing sketch values with ``values``: ``(hash, shared)`` most shared first."""
        if not values:
            return []
        value_in, params = self.dialect.member("value", [int(v) for v in values], "bigint")
        sql = self._sql("similar").replace("{value_in}", value_in)
        return [(r[0], int(r[1])) for r in self._query(sql, (session, *params, exclude, limit))]

    # -- recall -----------------------------------------------------------------------------
    def tokens_served(self, session: str, since: float) -> int:
        """Estimated tokens served to ``session`` since ``since`` (for pressure levels)."""
        return int(self._read("tokens_served", (session, since))[0][0])

    # -- calls and events -------------------------------------------------------------------
    def record_call(self, *, session: str | None, command: str | None, family: str | None,
                    plugin: str | None, outcome: str, bytes_in: int, bytes_out: int, est_in: int,
                    est_out: int, input_hash: str | None, output_hash: str | None, agent: str | None = None,
                    cwd: str | None = None) -> None:
        self._write("record_call", (time.time(), session, self._text(self._command(command)), family, plugin, outcome,
                                    bytes_in, bytes_out, est_in, est_out, input_hash, output_hash, agent,
                                    self._text(cwd)))

    def origins(self, digests: list[str]) -> dict[str, set]:
        """Where each stored entry came from: the ``cwd`` of the calls that stored or served it
        (a working directory, or the file or directory an MCP tool read). Entries no call
        names are absent; a call without a recorded ``cwd`` contributes None."""
        out: dict[str, set] = {}
        wanted = list(dict.fromkeys(digests))
        for i in range(0, len(wanted), 200):
            chunk = wanted[i:i + 200]
            input_in, p_in = self.dialect.member("input_hash", chunk)
            output_in, p_out = self.dialect.member("output_hash", chunk)
            sql = self._sql("origins").replace("{input_in}", input_in).replace("{output_in}", output_in)
            for in_h, out_h, cwd in self._query(sql, (*p_in, *p_out)):
                for h in (in_h, out_h):
                    if h in chunk:
                        out.setdefault(h, set()).add(cwd)
        return out

    def calls(self, since: float = 0.0) -> list[tuple]:
        """Rows ``(ts, session, command, family, plugin, outcome, bytes_in, bytes_out, est_in, est_out,
        input_hash, output_hash, agent, cwd)`` since ``since``, oldest first."""
        return [tuple(r) for r in self._read("calls", (since,))]

    def record_event(self, kind: str, *, session: str | None = None, ref: str | None = None,
                     detail: str | None = None) -> None:
        self._write("record_event", (time.time(), session, kind, self._text(ref), self._text(detail)))

    def events(self, since: float = 0.0) -> list[tuple]:
        """Rows ``(ts, session, kind, ref, detail)`` since ``since``, oldest first."""
        return [tuple(r) for r in self._read("events", (since,))]

    def cached_count(self, digest: str, encoding: str) -> int | None:
        rows = self._read("cached_count", (digest, encoding))
        return int(rows[0][0]) if rows else None

    def save_count(self, digest: str, encoding: str, n: int) -> None:
        self._write("save_count", (digest, encoding, n))

    # -- retention (sqz stats --prune, sqz reset) -------------------------------------------
    def prune_before(self, cutoff: float) -> dict:
        """Forget everything older than ``cutoff``: stats rows, events, served marks, compaction marks,
        and stored content nothing newer refers to (pinned content is kept). Counts per table."""
        return self._transaction([
            ("calls", "prune_calls", (cutoff,)), ("events", "prune_events", (cutoff,)),
            ("served", "prune_served", (cutoff,)), ("compactions", "prune_compactions", (cutoff,)),
            ("blobs", "prune_blobs", (cutoff,)), ("sketches", "orphan_sketches", ()),
            ("recall", "orphan_recall", ()), ("token_counts", "unused_counts", ()),
        ])

    def reset(self, *, cache: bool = True, stats: bool = True) -> dict:
        """Empty the cache (stored content, served marks, sketches, recall index; pins kept unless
        ``stats`` is reset too) and/or the stats (calls, events). Token counts of calls that remain are
        kept, so their figures stay exact after the content is gone. Counts per table."""
        steps: list = []
        if stats:
            steps += [("calls", "reset_calls", ()), ("events", "reset_events", ())]
        if cache:
            steps += [("served", "reset_served", ()), ("compactions", "reset_compactions", ()),
                      ("sketches", "reset_sketches", ()), ("recall", "reset_recall", ()),
                      ("blobs", "reset_blobs" if stats else "reset_blobs_unpinned", ())]
            if stats:
                steps.append(("pins", "reset_pins", ()))
        steps.append(("token_counts", "unused_counts", ()))
        return self._transaction(steps)

    # -- secrets an older sqz stored (sqz doctor --purge-secrets) ---------------------------
    def _purge_steps(self) -> tuple[int, list]:
        """``(blobs scanned, transaction steps)`` that delete flagged content and scrub stored commands."""
        from .secrets import scrub_command

        flagged: set[str] = set()
        hashes = [r[0] for r in self._read("blob_hashes")]
        for i in range(0, len(hashes), 64):
            hash_in, params = self.dialect.member("hash", hashes[i:i + 64])
            for digest, data in self._query(self._sql("blobs_by_hash").replace("{hash_in}", hash_in), params):
                if data is not None and holds_secret(bytes(data)):
                    flagged.add(digest)
        recall_rows = []
        if self.has_fts():
            recall_rows = [key for key, digest, body in self._read("recall_rows")
                           if digest in flagged or holds_secret((body or "").encode("utf-8", "replace"))]
        steps: list = []
        for digest in sorted(flagged):
            steps += [("blobs", "purge_blob", (digest,)), ("served", "purge_served", (digest, digest)),
                      ("sketches", "purge_sketches", (digest,)), ("pins", "purge_pins", (digest,)),
                      ("token_counts", "purge_counts", (digest,)), ("calls_in", "purge_call_inputs", (digest,)),
                      ("calls_out", "purge_call_outputs", (digest,))]
        steps += [("recall", "purge_recall", (key,)) for key in recall_rows]
        tables = [("commands_of_calls", "rewrite_call_command"), ("commands_of_blobs", "rewrite_blob_command")]
        if self.has_fts():
            tables.append(("commands_of_recall", "rewrite_recall_command"))
        for select, update in tables:
            for key, command in self._read(select):
                clean = self._purged_command(command, scrub_command)
                if clean != command:
                    steps.append(("commands", update, (clean, key)))
        return len(hashes), steps

    def _purged_command(self, command: str, scrub) -> str:
        return scrub(command)
