"""The pooling process: keeps psycopg imported and PostgreSQL connections open for ``sqz`` calls.

``python -m sqz_store_postgresql.pool URL`` (started in the background by the first
call that finds none). It listens on a Unix socket in a private directory, serves
each client connection with one pooled ``PgStore`` (the client's writes are buffered
and committed in one transaction when it closes), and exits after
``SQZ_PG_POOL_IDLE_SECS`` (default 600) without clients. A lock file keeps it to one
process per URL and local state. When PostgreSQL is unreachable it answers ``open``
with the reason, so the agent's call degrades at once (and for two seconds does not
retry the connection).
"""

from __future__ import annotations

import os
import socket
import sys
import threading
import time

from sqz_core.api import StoreError, config_env

from .client import READS, WRITES, recv_frame, send_frame, socket_path
from .config import Config

_ALLOWED = frozenset(READS) | frozenset(WRITES)
MAX_IDLE_CONNECTIONS = 8
DOWN_SECS = 2.0


class Pool:
    """Open ``PgStore`` handles waiting for the next client, and the state of the server."""

    def __init__(self, cfg: Config) -> None:
        self.cfg = cfg
        self.idle: list = []
        self.lock = threading.Lock()
        self.down_until = 0.0
        self.down_reason = ""
        self.active = 0
        self.last_activity = time.monotonic()

    def checkout(self):
        from .pgstore import make_store, open_direct

        with self.lock:
            self.active += 1
            self.last_activity = time.monotonic()
            if time.monotonic() < self.down_until:
                raise StoreError(self.down_reason)
            store = self.idle.pop() if self.idle else None
        if store is not None:
            if store.ping():
                store.replay_spool()
                if not self.cfg.store_originals:  # a fresh local handle per call (the file may have moved)
                    store.local.close()
                    store = make_store(store.conn, self.cfg)
                return store
            store.close()
        try:
            return open_direct(self.cfg)
        except StoreError as exc:
            with self.lock:
                self.down_until = time.monotonic() + DOWN_SECS
                self.down_reason = str(exc)
            raise

    def checkin(self, store) -> None:
        """Commit the client's writes (spooled if the server went away) and keep the connection."""
        try:
            store.flush()
            healthy = True
        except StoreError:
            healthy = False
        with self.lock:
            self.active -= 1
            self.last_activity = time.monotonic()
            if healthy and len(self.idle) < MAX_IDLE_CONNECTIONS and not store.conn.closed:
                self.idle.append(store)
                return
        store.close()

    def release_failed_open(self) -> None:
        with self.lock:
            self.active -= 1
            self.last_activity = time.monotonic()


def serve_client(pool: Pool, conn: socket.socket) -> None:
    """One agent call: ``open``, then its store calls, then ``close``."""
    store = None
    try:
        first = recv_frame(conn)
        if first is None or first[0] != "open":
            return
        try:
            store = pool.checkout()
        except StoreError as exc:
            pool.release_failed_open()
            send_frame(conn, ("err", str(exc)))
            return
        send_frame(conn, ("ok", None))
        deferred_error = None
        while True:
            frame = recv_frame(conn)
            if frame is None:
                break
            name, args, kwargs, reply = frame
            if name == "close":
                pool.checkin(store)
                store = None
                send_frame(conn, ("ok", None))
                break
            if name not in _ALLOWED:
                answer = ("err", f"postgresql pool: unknown method {name!r}")
            elif deferred_error is not None:
                answer, deferred_error = ("err", deferred_error), None
            else:
                try:
                    answer = ("ok", getattr(store, name)(*args, **kwargs))
                except StoreError as exc:
                    answer = ("err", str(exc))
                except Exception as exc:  # a bug must not take the pool down
                    answer = ("err", f"postgresql pool: {type(exc).__name__}: {exc}")
            if reply:
                send_frame(conn, answer)
            elif answer[0] != "ok":
                deferred_error = answer[1]
    except (OSError, ValueError, EOFError):
        pass
    finally:
        if store is not None:
            pool.checkin(store)
        try:
            conn.close()
        except OSError:
            pass


def _take_lock(path: str):
    """Hold ``path``.lock for the life of the process; None when another pool holds it."""
    import fcntl

    fd = os.open(path + ".lock", os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        return None
    return fd


def wait_listening(cfg: Config, timeout: float) -> bool:
    """True once a pool answers on ``cfg``'s socket (tests and benchmarks)."""
    from .client import connect

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            store = connect(cfg)
        except StoreError:
            store = None
        if store is not None:
            store.close()
            return True
        time.sleep(0.05)
    return False


def serve(url: str, stop: threading.Event | None = None) -> int:
    """Serve store calls for ``url`` until idle (or ``stop`` is set); 0 also when another pool serves it."""
    cfg = Config(url)
    path = socket_path(cfg)
    os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
    lock = _take_lock(path)
    if lock is None:
        return 0  # another pool serves this URL
    try:
        idle_limit = float(config_env("SQZ_PG_POOL_IDLE_SECS") or "600")
    except ValueError:
        idle_limit = 600.0
    pool = Pool(cfg)
    try:
        from .pgstore import open_direct

        pool.idle.append(open_direct(cfg))
    except StoreError:
        pass  # the server is down now: clients are told so when they ask
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        os.unlink(path)
    except FileNotFoundError:
        pass
    old_umask = os.umask(0o077)
    try:
        listener.bind(path)
    finally:
        os.umask(old_umask)
    listener.listen(64)
    listener.settimeout(0.2 if stop is not None else 1.0)
    try:
        while stop is None or not stop.is_set():
            try:
                conn, _ = listener.accept()
            except socket.timeout:
                with pool.lock:
                    idle_for = time.monotonic() - pool.last_activity
                    if pool.active == 0 and idle_for > idle_limit:
                        break
                if not os.path.exists(path):
                    break  # someone removed our socket: a newer pool may take over
                continue
            conn.settimeout(None)
            threading.Thread(target=serve_client, args=(pool, conn), daemon=True).start()
    finally:
        try:
            if os.path.exists(path):
                os.unlink(path)
        except OSError:
            pass
        listener.close()
        for store in pool.idle:
            store.close()
    return 0


if __name__ == "__main__":
    sys.exit(serve(sys.argv[1]))
