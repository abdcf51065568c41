"""The agent-side half of the pooling process: a store that forwards its calls over a Unix socket.

Standard library only, so a hot-path call pays neither the psycopg import (~0.1 s)
nor a PostgreSQL connection: the pool process (``sqz_store_postgresql.pool``) holds
both. Writes are sent without waiting for an answer (the pool buffers them and
commits them in one transaction at ``close``); reads wait for theirs.

Frames are a 4-byte big-endian length and a ``marshal`` payload; the socket lives in
a private (0700) directory of the user.
"""

from __future__ import annotations

import marshal
import os
try:  # the C module: a fraction of ``socket``'s import time, all a client needs
    import _socket as socket
except ImportError:  # pragma: no cover
    import socket
import struct
import sys
import time

from sqz_core.api import StoreError, config_env

READS = ("get_blob", "find_hashes", "last_served", "recent_files", "invalidate_session", "sessions", "unpin",
         "is_pinned", "pins", "similar", "has_fts", "search", "tokens_served", "calls", "events", "cached_count",
         "health", "prune_before", "reset", "vacuum", "origins", "purge_secrets", "flush")
WRITES = ("put_blob", "mark_served", "pin", "add_sketch", "index_text", "record_call", "record_event", "save_count")
REPLY_TIMEOUT = 15.0  # seconds; longer than the server's statement timeout (commands: stats, prune…)
# A hook call waits this long for each answer of the pool (``SQZ_PG_TIMEOUT_MS``); past it the call
# goes on without the store (one line on stderr) and its later store calls fail at once: a frozen
# server costs a call one such wait. The pool answers a healthy call's reads in about a millisecond.
HOT_REPLY_MS = 400
CLOSE_SECS = 15.0  # a hook call's wait for the pool to commit its writes (``close``): a busy server's lock waits
_HEADER = struct.Struct(">I")


def hot_reply_seconds() -> float:
    try:
        return max(10, min(int(config_env("SQZ_PG_TIMEOUT_MS") or HOT_REPLY_MS), 60_000)) / 1000
    except ValueError:
        return HOT_REPLY_MS / 1000


class NoAnswer(StoreError):
    """The pool took the call but did not answer in time (a frozen or overloaded server behind it)."""


def socket_path(cfg) -> str:
    """Where the pool for this URL and this local state listens (a private per-user directory)."""
    try:  # the C implementation without hashlib's OpenSSL set-up (as the pipeline does)
        from _sha256 import sha256
    except ImportError:  # pragma: no cover - other Pythons
        from hashlib import sha256

    base = os.environ.get("XDG_RUNTIME_DIR")
    if not base or not os.path.isdir(base):
        base = "/tmp"
    uid = os.getuid() if hasattr(os, "getuid") else 0
    tag = sha256(cfg.key().encode()).hexdigest()[:16]
    return os.path.join(base, f"sqz-{uid}", f"pg-{tag}.sock")


def send_frame(sock: socket.socket, obj) -> None:
    payload = marshal.dumps(obj)
    sock.sendall(_HEADER.pack(len(payload)) + payload)


def recv_frame(sock: socket.socket):
    """The next frame, or None at end of stream."""
    head = _recv_exactly(sock, _HEADER.size)
    if head is None:
        return None
    body = _recv_exactly(sock, _HEADER.unpack(head)[0])
    if body is None:
        return None
    return marshal.loads(body)


def _recv_exactly(sock: socket.socket, n: int) -> bytes | None:
    chunks = []
    while n:
        chunk = sock.recv(min(n, 1 << 20))
        if not chunk:
            return None
        chunks.append(chunk)
        n -= len(chunk)
    return b"".join(chunks)


class PooledStore:
    """The store interface, served by the pool process; every method may raise ``StoreError``."""

    def __init__(self, sock: socket.socket, path: str, timeout: float = REPLY_TIMEOUT) -> None:
        self.sock = sock
        self.path = path
        self.timeout = timeout

    def _call(self, name: str, args: tuple, kwargs: dict, reply: bool):
        if self.sock is None:
            raise StoreError("postgresql pool: connection already closed")
        try:
            send_frame(self.sock, (name, args, kwargs, reply))
            if not reply:
                return None
            answer = recv_frame(self.sock)
        except socket.timeout as exc:
            self._drop()  # the answer may still come: this handle is done, later calls fail at once
            raise NoAnswer(f"postgresql: no answer within {int(self.timeout * 1000)} ms "
                           "(server frozen or overloaded)") from exc
        except (OSError, ValueError, EOFError) as exc:
            self._drop()
            raise StoreError(f"postgresql pool: {type(exc).__name__}: {exc}") from exc
        if answer is None:
            self._drop()
            raise StoreError("postgresql pool: the pool process went away")
        status, value = answer
        if status != "ok":
            raise StoreError(value)
        return value

    def _drop(self) -> None:
        try:
            self.sock.close()
        except OSError:
            pass
        self.sock = None

    def batch(self):
        """The pipeline's grouped writes: the pool process commits a call's writes together already."""
        from contextlib import nullcontext

        return nullcontext()

    def close(self) -> None:
        """Let the pool commit this call's writes (it spools them if the server is gone); never raises."""
        if self.sock is None:
            return
        try:  # the pool commits what it was sent once it reads "close": wait for that (a busy server's
            # commit may wait on row locks), but not as long as a command's reply timeout
            self.sock.settimeout(max(self.timeout, CLOSE_SECS))
            send_frame(self.sock, ("close", (), {}, True))
            recv_frame(self.sock)
        except (OSError, ValueError, EOFError):  # socket.timeout included
            pass
        self._drop()


def _forward(name: str, reply: bool):
    def method(self, *args, **kwargs):
        value = self._call(name, args, kwargs, reply)
        if name in ("recent_files", "sessions", "pins", "similar", "search", "calls", "events"):
            return [tuple(row) for row in value]
        return value

    method.__name__ = name
    method.__doc__ = f"``{name}`` on the team store, through the pool process."
    return method


for _name in READS:
    setattr(PooledStore, _name, _forward(_name, True))
for _name in WRITES:
    setattr(PooledStore, _name, _forward(_name, False))


def connect(cfg, timeout: float = REPLY_TIMEOUT) -> PooledStore | None:
    """A store through the running pool process, or None when there is none (the caller connects directly).

    ``timeout``: how long to wait for each answer (``hot_reply_seconds()`` on a hook call).
    Raises ``StoreError`` when the pool answers that PostgreSQL is unreachable, ``NoAnswer``
    when it does not answer in time (connecting directly would wait for the same server).
    """
    if not hasattr(socket, "AF_UNIX"):
        return None
    path = socket_path(cfg)
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        sock.settimeout(timeout)
        sock.connect(path)
    except OSError:
        sock.close()
        return None
    try:
        send_frame(sock, ("open", (), {}, True))
        answer = recv_frame(sock)
    except socket.timeout as exc:
        sock.close()
        raise NoAnswer(f"postgresql: no answer within {int(timeout * 1000)} ms (server frozen or overloaded)") from exc
    except OSError:
        sock.close()
        return None
    if answer is None:
        sock.close()
        return None
    if answer[0] != "ok":
        sock.close()
        raise StoreError(answer[1])
    return PooledStore(sock, path, timeout)


def start_pool(cfg) -> None:
    """Start the pool process in the background (at most one start attempt every few seconds)."""
    path = socket_path(cfg)
    stamp = path + ".started"
    try:
        os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
        if time.time() - os.stat(stamp).st_mtime < 5:
            return
    except FileNotFoundError:
        pass
    except OSError:
        return
    try:
        with open(stamp, "w"):
            pass
        import subprocess

        subprocess.Popen([sys.executable, "-m", "sqz_store_postgresql.pool", cfg.url],
                         stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                         close_fds=True, start_new_session=True)
    except OSError:
        pass  # no pool: every call connects directly, which works, only slower
