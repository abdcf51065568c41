"""What sqz-mcp asks of sqz-core: compression, dedup, expansion and recall, one lock around the store.

File content goes through ``sqz_core.api.compress`` with a file tool name, so the core
only deduplicates it (exact repeats, ranged refs, near-duplicate deltas); this module makes
sure what comes back is either such a reference or the content exactly as read.
Grep and directory listings are lossless by design: they get exact-repeat dedup only.
Any failure of the store or the pipeline degrades to sending the content unchanged.
"""

from __future__ import annotations

import os
import sys
import threading
import time


def log(message: str) -> None:
    """One line on stderr (stdout carries protocol messages only)."""
    try:
        sys.stderr.write(f"sqz-mcp: {message}\n")
        sys.stderr.flush()
    except (OSError, ValueError):
        pass


def new_session_id(kind: str) -> str:
    """One dedup session per server process: ``mcp:<pid>:<start time>``."""
    return f"{kind}:{os.getpid()}:{int(time.time())}"


class Compressor:
    """The store (opened lazily, ``None`` when unusable) and the calls that use it."""

    def __init__(self, no_cache: bool = False) -> None:
        self.no_cache = no_cache
        self._store = None
        self._store_failed = False
        self.lock = threading.RLock()

    @property
    def store(self):
        if self._store is None and not self._store_failed and not self.no_cache:
            from sqz_core.api import db_path
            from sqz_core.api import Store, StoreError

            try:
                self._store = Store.open(db_path())
            except StoreError as exc:
                self._store_failed = True
                log(f"store unavailable, dedup and expand disabled: {exc}")
        return self._store

    def close(self) -> None:
        with self.lock:
            if self._store is not None:
                self._store.close()
                self._store = None

    # -- recording ---------------------------------------------------------------------
    def _record(self, session, command, family, plugin, outcome, raw: bytes, out: bytes, est_in, est_out,
                input_hash=None, output_hash=None, origin=None) -> None:
        store = self._store
        if store is None:
            return
        from sqz_core.api import StoreError

        try:
            store.record_call(session=session, command=command, family=family, plugin=plugin, outcome=outcome,
                              bytes_in=len(raw), bytes_out=len(out), est_in=est_in, est_out=est_out,
                              input_hash=input_hash, output_hash=output_hash, cwd=origin)
        except StoreError:
            pass

    # -- the pipeline ------------------------------------------------------------------------
    def compress_text(self, text: str, *, tool: str | None, session: str, command: str | None = None,
                      file_content: bool = False, family: str | None = None, origin: str | None = None) -> str:
        """``text`` through the sqz pipeline; file content comes back verbatim unless it became a reference.

        ``origin``: the real path the text was read from, recorded so recall and expand serve it
        only to clients whose roots contain it (see ``may_serve``).
        """
        from sqz_core.api import compress

        raw = text.encode("utf-8", "surrogatepass")
        with self.lock:
            store = None if self.no_cache else self.store
            r = compress(raw, command=command, tool=tool, session=session, store=store, no_cache=self.no_cache)
            out = r.output
            if file_content and r.outcome == "compressed" and _only_terminal_cleanup(text, out):
                out = raw  # the core's terminal clean-up must not touch a file's bytes
            self._record(session, command, family or tool, r.plugin, r.outcome, raw, out, r.est_in, r.est_out,
                         r.digest if r.stored else None, r.output_digest if out is r.output else None, origin)
        return out.decode("utf-8", errors="replace")

    def dedup_only(self, text: str, *, tool: str, session: str, command: str | None = None,
                   origin: str | None = None) -> str:
        """Exact-repeat dedup without any other stage (the lossless grep and listing tools)."""
        from sqz_core.api import MIN_REF_BYTES, digest_of
        from sqz_core.api import classify
        from sqz_core.api import StoreError
        from sqz_core.api import estimate

        try:
            from sqz_core.api import config_env, exact_ref, ref_ttl
        except ImportError:  # an sqz-core without exact refs: send in full
            return text
        raw = text.encode("utf-8", "surrogatepass")
        with self.lock:
            store = None if self.no_cache else self.store
            if store is None or len(raw) < MIN_REF_BYTES or config_env("SQZ_NO_DEDUP") == "1":
                return text
            verdict = classify(text)
            if verdict is not None and verdict.level == "safe":
                return text  # credentials, stack traces, DDL: never cached
            digest = digest_of(raw)
            est = estimate(text)
            try:
                ttl = ref_ttl()
                ref = exact_ref(store, session, digest, ttl) if ttl > 0 else None
                if ref is not None and len(ref) < len(text):
                    store.mark_served(session, digest)
                    self._record(session, command, tool, None, "ref", raw, ref.encode(), est, estimate(ref), digest,
                                 origin=origin)
                    return ref
                store.put_blob(digest, raw, command)
                store.mark_served(session, digest)
                self._record(session, command, tool, None, "passthrough", raw, raw, est, est, digest, origin=origin)
            except StoreError as exc:
                log(f"store error, sent in full: {exc}")
        return text

    def may_serve(self, store, digests: list[str], session: str, roots) -> set[str]:
        """Which of ``digests`` this client may see: what this session was served, or content
        whose recorded origin lies within ``roots``.

        Content without a known origin (stored before origins were recorded, or text a client
        passed to ``compress``) is refused unless this session was served it: nothing says the
        caller could read it, and the store holds every project's outputs.
        """
        allowed = {d for d in digests if store.last_served(session, d) is not None}
        rest = [d for d in digests if d not in allowed]
        if rest and roots is not None:
            for digest, places in store.origins(rest).items():
                if any(p and roots.contains(p) for p in places):
                    allowed.add(digest)
        return allowed

    def expand(self, ref: str, session: str | None = None, roots=None) -> bytes:
        """The original bytes behind ``ref``; raises ``sqz_core.api.ExpandError`` or ``LookupError``.

        With ``session``, only content ``may_serve`` allows (``roots`` None: this session's only).
        """
        from sqz_core.api import parse_ref, resolve, unique_hash
        from sqz_core.api import StoreError

        with self.lock:
            store = self.store
            if store is None:
                raise LookupError("no store: nothing was cached (--no-cache, or the database could not be opened)")
            try:
                norm = normalize_ref(ref)
                if session is not None:
                    prefix, _rng = parse_ref(norm)
                    digest = unique_hash(store, prefix)
                    if not self.may_serve(store, [digest], session, roots):
                        raise LookupError(f"{prefix}: stored from outside this server's roots (or from an unknown "
                                          "place) and not sent to this session; `sqz expand` in a shell shows it")
                return resolve(store, norm)
            except StoreError as exc:
                raise LookupError(f"store error: {exc}") from None

    def recall(self, query: str, limit: int, session: str | None = None, roots=None) -> list:
        """Past outputs matching ``query`` (``sqz_memory.api.recall``); raises ``LookupError`` if unavailable.

        With ``session``, only hits ``may_serve`` allows.
        """
        try:
            from sqz_memory.api import recall
        except ImportError:
            raise LookupError("recall needs the sqz-memory distribution (pip install sqz-memory)") from None
        from sqz_core.api import StoreError

        with self.lock:
            store = self.store
            if store is None:
                raise LookupError("no store: nothing was cached (--no-cache, or the database could not be opened)")
            try:
                if session is None:
                    return list(recall(store, query, limit))
                hits = list(recall(store, query, min(250, limit * 5)))
                allowed = self.may_serve(store, [h["hash"] for h in hits], session, roots)
            except StoreError as exc:
                raise LookupError(f"store error: {exc}") from None
            return [h for h in hits if h["hash"] in allowed][:limit]


def normalize_ref(ref: str) -> str:
    """Accept what an agent copies: ``§ref:H§``, ``ref:H``, ``H:L3-9``, or ``§delta:A→B§`` (the new version B)."""
    r = ref.strip().strip("§").strip()
    if r.startswith("delta:") and "→" in r:
        r = r.split("→", 1)[1]
    elif r.startswith("ref:"):
        r = r[4:]
    return r


def _only_terminal_cleanup(text: str, out: bytes) -> bool:
    """True when ``out`` is ``text`` with only the core's terminal clean-up applied (not a ref or delta)."""
    from sqz_core.api import clean_terminal

    try:
        served = out.decode("utf-8")
    except UnicodeDecodeError:
        return False
    cleaned = clean_terminal(text)
    return served == cleaned or served == cleaned + "\n"
