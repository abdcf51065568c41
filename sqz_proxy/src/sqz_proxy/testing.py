"""Test helpers: the proxy on a loopback port in a background thread, and a fake upstream.

``running_proxy(upstream_url)`` yields a started ``Proxy`` (its ``port``) served by its own event
loop thread. ``FakeUpstream`` is a stdlib HTTP server on 127.0.0.1 that records every request
(method, path, headers, body bytes) and answers from a handler the test sets: a JSON body, an
SSE stream sent event by event, a gzip body, or a connection reset part-way.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from .routes import Upstreams


@contextlib.contextmanager
def running_proxy(upstream: str | None = None, *, rewriter=None, per_provider=None, **kwargs):
    from .server import Proxy

    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    proxy = Proxy(Upstreams(upstream, per_provider, env={}), rewriter=rewriter, quiet=True, **kwargs)
    asyncio.run_coroutine_threadsafe(proxy.start("127.0.0.1", 0), loop).result(30)
    try:
        yield proxy
    finally:
        asyncio.run_coroutine_threadsafe(proxy.close(), loop).result(30)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(10)
        loop.close()


class Recorded:
    __slots__ = ("method", "path", "headers", "body")

    def __init__(self, method, path, headers, body):
        self.method, self.path, self.headers, self.body = method, path, headers, body

    def json(self):
        return json.loads(self.body)


def sse(events: list[tuple[str, dict]]) -> list[bytes]:
    """Anthropic-style SSE events, one chunk each."""
    return [f"event: {name}\ndata: {json.dumps(data)}\n\n".encode() for name, data in events]


class FakeUpstream:
    """``handler(recorded) -> (status, headers, chunks | bytes)``; chunks are written and flushed one by one
    (chunked transfer encoding), ``pause`` seconds apart. ``reset_after`` chunks: the socket is reset."""

    def __init__(self, handler=None, pause: float = 0.0):
        self.requests: list[Recorded] = []
        self.handler = handler or (lambda rec: (200, {"content-type": "application/json"}, b'{"ok":true}'))
        self.pause = pause
        outer = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            disable_nagle_algorithm = True

            def log_message(self, *a):
                pass

            def _body(self) -> bytes:
                if "chunked" in (self.headers.get("transfer-encoding") or "").lower():
                    out = b""
                    while True:
                        size = int(self.rfile.readline().strip().split(b";")[0], 16)
                        if size == 0:
                            self.rfile.readline()
                            return out
                        out += self.rfile.read(size)
                        self.rfile.readline()
                return self.rfile.read(int(self.headers.get("content-length") or 0))

            def _any(self):
                rec = Recorded(self.command, self.path, {k.lower(): v for k, v in self.headers.items()}, self._body())
                outer.requests.append(rec)
                status, headers, payload = outer.handler(rec)
                reset_after = headers.pop("x-test-reset-after", None)
                self.send_response(status)
                for k, v in headers.items():
                    self.send_header(k, v)
                if isinstance(payload, bytes):
                    self.send_header("content-length", str(len(payload)))
                    self.end_headers()
                    if self.command != "HEAD":
                        self.wfile.write(payload)
                    return
                self.send_header("transfer-encoding", "chunked")
                self.end_headers()
                for i, chunk in enumerate(payload):
                    if reset_after is not None and i >= int(reset_after):
                        self.wfile.flush()
                        self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")
                        self.connection.close()
                        self.close_connection = True
                        return
                    self.wfile.write(f"{len(chunk):x}\r\n".encode() + chunk + b"\r\n")
                    self.wfile.flush()
                    if outer.pause:
                        time.sleep(outer.pause)
                self.wfile.write(b"0\r\n\r\n")
                self.wfile.flush()

            do_GET = do_POST = do_PUT = do_DELETE = do_HEAD = do_PATCH = _any

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self._thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self):
        self._thread.start()
        return self

    def __exit__(self, *exc):
        self.server.shutdown()
        self.server.server_close()
