"""The daemon's wire format and its client: what ``sqz_core.hot`` and the server share.

The hot path imports this module only when it found the daemon's socket (or ``SQZ_DAEMON=auto`` may
start one): ``os``, ``sys`` and the C module ``_socket`` only, so a call that goes through the daemon
imports no pipeline, store, regex or JSON module. Any failure compresses in-process instead, with
the bytes read once. Messages are framed as the core frames the capped child's answer
(``sqz_core.api.pack_frame``/``unpack_frame``).
"""

from __future__ import annotations

import os
import sys

from sqz_core.api import pack_frame as pack
from sqz_core.api import unpack_frame as unpack

MAGIC = b"sqzd1"
MAX_BYTES = 8 * 1024 * 1024  # larger inputs are compressed in-process: start-up no longer dominates
TIMEOUT = 2.0
# what a call depends on besides argv and cwd: sqz's variables, the XDG/home directories, libpq's PG*,
# and PATH (a recovery hint names a bare ``sqz`` only when the caller's PATH finds this sqz)
ENV_PREFIXES = (b"SQZ_", b"XDG_", b"PG", b"HOME", b"LOCALAPPDATA", b"PATH")
MAX_FRAME = MAX_BYTES + (1 << 20)  # the largest input, its options, env and paths
_RECV_CHUNK = 1 << 16
START_EVERY_S = 30.0  # at most one start attempt per this many seconds (a daemon that cannot start)
START_DELAY_S = 2.0  # the started daemon warms up after this: the call that started it runs first
_warned = False


def daemon_stamp() -> list[bytes]:
    """What client and daemon must share: sqz version, sqz_core's directory and its mtime, interpreter prefix."""
    from sqz_core import api as core

    pkg = os.path.dirname(core.__file__ or "")
    return [core.VERSION.encode(), os.fsencode(pkg), str(os.stat(pkg).st_mtime_ns).encode(), os.fsencode(sys.prefix)]


def recv_message(sock, limit: int = MAX_FRAME) -> bytes:
    """One message; a declared size over ``limit`` is refused before anything is read."""
    size = int.from_bytes(_recv_exact(sock, 8), "big")
    if size > limit:
        raise ValueError("message too large")
    return _recv_exact(sock, size)


def _recv_exact(sock, n: int) -> bytes:
    """Exactly ``n`` bytes, read in chunks: memory grows with what arrives, not with what is declared."""
    buf = bytearray()
    while len(buf) < n:
        chunk = sock.recv(min(n - len(buf), _RECV_CHUNK))
        if not chunk:
            raise ValueError("connection closed mid-message")
        buf += chunk
    return bytes(buf)


def _warn(reason: str) -> None:
    global _warned
    if not _warned:
        _warned = True
        try:
            sys.stderr.write(f"sqz: the daemon did not answer ({reason}); compressed in-process\n")
        except Exception:
            pass


def via_daemon(data: bytes, opts: dict | None, hook: list[str] | None, path: str, st):
    """The call through the daemon at ``path`` (``st``: its ``os.stat``, None when there is none):
    ``(stdout, stderr before, stderr after, status)``; None: compress in-process; False: the request was
    delivered but the answer was lost (``sqz_core.hot._via_daemon`` says what the caller does then)."""
    mode = os.environ.get("SQZ_DAEMON")
    if len(data) > MAX_BYTES:
        return None
    if st is None:
        if mode == "auto":
            start_daemon(os.path.dirname(path))
        return None
    try:
        if st.st_uid != os.getuid() or (st.st_mode & 0o170000) != 0o140000:  # ours, and a socket
            return None
        import _socket

        if hook is not None:  # the agent and the hook's arguments
            verb, opt = b"hook", b"\0".join(os.fsencode(a) for a in hook)
        else:
            verb, opt = b"compress", b"\0".join([k.encode() + b"\0" + (b"1" if v is True else os.fsencode(v))
                                                 for k, v in (opts or {}).items() if v is not None and v is not False])
        env = b"\0".join([k + b"\0" + v for k, v in os.environb.items() if k.startswith(ENV_PREFIXES)])
        message = pack([MAGIC, *daemon_stamp(), verb, os.fsencode(os.getcwd()), opt, env, data])
        sock = _socket.socket(_socket.AF_UNIX, _socket.SOCK_STREAM)
    except Exception:
        return None
    sent = False
    try:
        sock.settimeout(TIMEOUT)
        try:
            sock.connect(path)
        except (ConnectionRefusedError, FileNotFoundError):  # a socket left by a daemon that is gone
            if mode == "auto":
                start_daemon(os.path.dirname(path))
            raise
        sock.sendall(message)
        sent = True
        sock.settimeout(TIMEOUT + len(data) / 250_000)  # + 4 s per MB of input
        reply = unpack(recv_message(sock))
        if reply[0] == b"ok" and len(reply) == 5:
            status, before, after, out = int(reply[1]), reply[2], reply[3], reply[4]
            return out, before.decode("utf-8", "surrogatepass"), after.decode("utf-8", "surrogatepass"), status
        if reply[0] in (b"mismatch", b"fallback"):  # not processed: in-process, as if there were no daemon
            return None
        raise ValueError(reply[0][:40].decode("ascii", "replace"))
    except Exception as exc:
        if not sent:
            return None
        _warn("timeout" if isinstance(exc, TimeoutError) else f"{type(exc).__name__}: {exc}")
        return False
    finally:
        sock.close()


def start_daemon(d: str) -> None:
    """``SQZ_DAEMON=auto``: start the daemon detached for the calls that follow, never waiting for it (this
    call compresses in-process). ``os.posix_spawn`` (no subprocess import): a new session, stdin from
    /dev/null and stdout/stderr to the daemon's log, so the agent's pipe is never held open by it. A
    second daemon started meanwhile exits at once (the pid file's lock); one that finds a stale socket
    removes it. Any failure is silent: the call goes on in-process."""
    try:
        import time

        os.makedirs(d, mode=0o700, exist_ok=True)
        if os.stat(d).st_uid != os.getuid():
            return
        stamp = os.path.join(d, "daemon.started")
        try:
            if time.time() - os.stat(stamp).st_mtime < START_EVERY_S:
                return
        except FileNotFoundError:
            pass
        os.close(os.open(stamp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600))
        os.utime(stamp)
        log = os.path.join(d, "daemon.log")
        actions = [(os.POSIX_SPAWN_OPEN, 0, os.devnull, os.O_RDONLY, 0),
                   (os.POSIX_SPAWN_OPEN, 1, log, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600),
                   (os.POSIX_SPAWN_DUP2, 1, 2)]
        os.posix_spawn(sys.executable, [sys.executable, "-m", "sqz_daemon", "--delay", str(START_DELAY_S)],
                       os.environ, file_actions=actions, setsid=True)
    except (OSError, AttributeError, ValueError):
        pass
