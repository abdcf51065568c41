"""The streamable-HTTP transport of the server (MCP 2025-03-26 and later), bound to loopback.

One endpoint, ``/mcp``. A POST carries one JSON-RPC message (or a batch): requests get
``application/json`` answers (or a one-event SSE stream when the client accepts only
``text/event-stream``); notifications and responses get 202. The initialize answer carries
an ``Mcp-Session-Id``; later requests must send it (400 without, 404 when unknown), and
each session has its own dedup session. GET gets 405 (this server never sends unprompted
messages); DELETE ends a session. Requests whose ``Origin`` or ``Host`` is not loopback get
403, against DNS rebinding.

The server listens on loopback only, and every request must carry
``Authorization: Bearer TOKEN`` (401 otherwise): a loopback port is open to every local
user, and the tools read the owner's files and store. The token is random per start,
printed once on stderr and written to a file only its owner can read (``--token-file``;
default ``$XDG_RUNTIME_DIR/sqz/mcp-http-PORT.token``, else the sqz cache directory), which
is removed when the server exits.
"""

from __future__ import annotations

import hmac
import json
import os
import secrets
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlsplit

from . import jsonrpc
from .compression import log
from .server import PROTOCOL_VERSIONS

ENDPOINT = "/mcp"
MAX_BODY = 64 * 1024 * 1024
# listen() backlog: connections that arrive together wait for accept() instead of being reset
# (socketserver's default is 5; the kernel caps it at net.core.somaxconn)
BACKLOG = 1024
# connections served at once, one thread each; more wait in the backlog until one ends
MAX_CONNECTIONS = 256
IDLE_SECONDS = 60  # a kept-alive connection idle this long is closed, freeing its slot
_LOOPBACK = frozenset({"localhost", "127.0.0.1", "::1", "[::1]"})


def _host_name(value: str) -> str:
    value = value.strip().lower()
    if value.startswith("["):
        return value[: value.find("]") + 1] if "]" in value else value
    return value.rsplit(":", 1)[0] if value.count(":") == 1 else value


def _loopback_origin(origin: str) -> bool:
    try:
        host = urlsplit(origin).hostname
    except ValueError:
        return False
    return host is not None and host in _LOOPBACK


class _Sessions:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._ids: dict[str, str] = {}

    def create(self) -> tuple[str, str]:
        sid = secrets.token_hex(16)
        with self._lock:
            self._ids[sid] = f"mcp-http:{sid[:16]}"
        return sid, self._ids[sid]

    def get(self, sid: str) -> str | None:
        with self._lock:
            return self._ids.get(sid)

    def drop(self, sid: str) -> bool:
        with self._lock:
            return self._ids.pop(sid, None) is not None


def default_token_file(port: int) -> str:
    run = os.environ.get("XDG_RUNTIME_DIR")
    if run:
        base = os.path.join(run, "sqz")
    else:
        from sqz_core.api import cache_dir

        base = cache_dir()
    return os.path.join(base, f"mcp-http-{port}.token")


def write_token(path: str, token: str) -> None:
    """``token`` into ``path``, created 0600 (its directory 0700 when we create it); never through a link."""
    parent = os.path.dirname(path)
    if parent:
        os.makedirs(parent, mode=0o700, exist_ok=True)
    try:
        os.unlink(path)  # a stale file (or a link someone planted) is replaced, not written through
    except FileNotFoundError:
        pass
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o600)
    try:
        os.write(fd, (token + "\n").encode("ascii"))
    finally:
        os.close(fd)


class LoopbackHTTPServer(ThreadingHTTPServer):
    """``ThreadingHTTPServer`` sized for many clients at once: a deep backlog, a bounded number of
    connection threads (the accept loop waits for a free slot, so a burst queues instead of
    spawning without limit), idle keep-alive connections closed after IDLE_SECONDS."""

    request_queue_size = BACKLOG
    daemon_threads = True

    def __init__(self, *args, **kwargs) -> None:
        self._slots = threading.BoundedSemaphore(MAX_CONNECTIONS)
        super().__init__(*args, **kwargs)

    def process_request(self, request, client_address) -> None:
        self._slots.acquire()
        try:
            super().process_request(request, client_address)
        except BaseException:
            self._slots.release()
            raise

    def process_request_thread(self, request, client_address) -> None:
        try:
            super().process_request_thread(request, client_address)
        finally:
            self._slots.release()


def make_handler(server, sessions: _Sessions, token: str | None = None):
    expected = f"Bearer {token}".encode("ascii") if token else None

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        server_version = "sqz-mcp"
        timeout = IDLE_SECONDS  # socket timeout: an idle or stalled connection ends

        def log_message(self, fmt, *args) -> None:  # access log to stderr only when asked
            pass

        # -- helpers -------------------------------------------------------------------------
        def _send(self, status: int, body: bytes = b"", ctype: str | None = None, headers=None) -> None:
            self.send_response(status)
            if ctype:
                self.send_header("Content-Type", ctype)
            for k, v in (headers or {}).items():
                self.send_header(k, v)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            if body:
                self.wfile.write(body)

        def _send_error(self, status: int, code: int, message: str, headers=None) -> None:
            self._send(status, jsonrpc.encode(jsonrpc.error(None, code, message)), "application/json", headers)

        def _guard(self) -> bool:
            """Bearer token, path, Origin/Host (DNS rebinding) and protocol-version checks; False when answered."""
            if expected is not None:
                given = (self.headers.get("Authorization") or "").strip().encode("utf-8", "replace")
                if not hmac.compare_digest(given, expected):
                    self.close_connection = True
                    self._send_error(401, jsonrpc.INVALID_REQUEST, "Unauthorized: send Authorization: Bearer TOKEN "
                                     "(printed by sqz-mcp at start, and in its token file)",
                                     {"WWW-Authenticate": 'Bearer realm="sqz-mcp"'})
                    return False
            if urlsplit(self.path).path != ENDPOINT:
                self._send(404, b"not found: the MCP endpoint is /mcp\n", "text/plain")
                return False
            origin = self.headers.get("Origin")
            host = self.headers.get("Host")
            if (origin is not None and not _loopback_origin(origin)) or (host is not None and _host_name(host) not in _LOOPBACK):
                self._send_error(403, jsonrpc.INVALID_REQUEST, "Forbidden: Origin/Host is not loopback")
                return False
            version = self.headers.get("MCP-Protocol-Version")
            if version is not None and version not in PROTOCOL_VERSIONS:
                self._send_error(400, jsonrpc.INVALID_REQUEST, f"Bad Request: unsupported MCP-Protocol-Version {version}")
                return False
            return True

        # -- methods ---------------------------------------------------------------------------
        def do_GET(self) -> None:
            if self._guard():
                self._send(405, b"", None, {"Allow": "POST, DELETE"})

        def do_DELETE(self) -> None:
            if not self._guard():
                return
            sid = self.headers.get("Mcp-Session-Id")
            if not sid:
                self._send_error(400, jsonrpc.INVALID_REQUEST, "Bad Request: missing Mcp-Session-Id")
            elif sessions.drop(sid):
                self._send(200)
            else:
                self._send_error(404, jsonrpc.INVALID_REQUEST, "Session not found")

        def do_POST(self) -> None:
            if not self._guard():
                return
            try:
                length = int(self.headers.get("Content-Length", "-1"))
            except ValueError:
                length = -1
            if length < 0 or length > MAX_BODY:
                self.close_connection = True
                self._send_error(400 if length < 0 else 413, jsonrpc.INVALID_REQUEST,
                                 "Bad Request: Content-Length required" if length < 0 else "Payload too large")
                return
            body = self.rfile.read(length)
            try:
                msg = jsonrpc.decode_line(body)
            except jsonrpc.BadLine as exc:
                self._send_error(400, exc.code, exc.message)
                return
            messages = msg if isinstance(msg, list) else [msg]
            is_init = any(isinstance(m, dict) and m.get("method") == "initialize" for m in messages)
            sid = self.headers.get("Mcp-Session-Id")
            headers = {}
            if is_init:
                sid, session = sessions.create()
                headers["Mcp-Session-Id"] = sid
            elif not sid:
                self._send_error(400, jsonrpc.INVALID_REQUEST, "Bad Request: missing Mcp-Session-Id")
                return
            else:
                session = sessions.get(sid)
                if session is None:
                    self._send_error(404, jsonrpc.INVALID_REQUEST, "Session not found")
                    return
            answers = [a for a in (server.handle(m, session) for m in messages) if a is not None]
            if not answers:
                self._send(202, b"", None, headers)
                return
            payload = answers if isinstance(msg, list) else answers[0]
            accept = self.headers.get("Accept", "")
            if "text/event-stream" in accept and "application/json" not in accept and "*/*" not in accept:
                data = json.dumps(payload, ensure_ascii=False, separators=(",", ":"))
                self._send(200, f"event: message\ndata: {data}\n\n".encode("utf-8"), "text/event-stream",
                           {**headers, "Cache-Control": "no-cache"})
            else:
                self._send(200, jsonrpc.encode(payload), "application/json", headers)

    return Handler


def serve_http(server, host: str = "127.0.0.1", port: int = 3000, token_file: str | None = None) -> int:
    if host not in ("127.0.0.1", "::1", "localhost"):
        raise ValueError(f"sqz-mcp serves HTTP on loopback only, not {host!r}")
    token = secrets.token_urlsafe(32)
    httpd = LoopbackHTTPServer((host, port), make_handler(server, _Sessions(), token))
    real_port = httpd.server_address[1]
    path = token_file or default_token_file(real_port)
    try:
        write_token(path, token)
    except OSError as exc:
        log(f"cannot write the token file {path}: {exc.strerror or exc}")
        httpd.server_close()
        return 1
    log(f"listening on http://{host}:{real_port}{ENDPOINT}")
    log(f"bearer token (send Authorization: Bearer TOKEN; also in {path}, mode 0600): {token}")
    import signal

    def _terminate(*_):
        raise KeyboardInterrupt  # leave serve_forever, so the token file is removed

    try:
        signal.signal(signal.SIGTERM, _terminate)
    except ValueError:  # not the main thread (tests run the server in a thread)
        pass
    try:
        httpd.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        httpd.server_close()
        try:
            os.unlink(path)
        except OSError:
            pass
    return 0
