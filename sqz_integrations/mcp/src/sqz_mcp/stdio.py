"""The stdio transport of the server: one JSON-RPC message per line on stdin and stdout.

The reader answers cheap requests (initialize, ping, tools/list) at once and queues tool
calls for one worker thread, so a ping is answered while a long grep runs; a
``notifications/cancelled`` for a queued call drops it. A line that is not valid UTF-8
or not JSON gets a -32700 answer with a null id. When stdin closes, queued calls are
finished and answered, then the process exits. A client that declares the roots capability
is asked for its roots (``roots/list``) after ``notifications/initialized`` and on
``notifications/roots/list_changed``; tool calls wait for its answer (up to ROOTS_WAIT).
"""

from __future__ import annotations

import json
import queue
import sys
import threading

from . import jsonrpc
from .compression import log

_STOP = object()
# After these the server asks the client for its roots (when it declared the capability).
ROOTS_TRIGGERS = ("notifications/initialized", "notifications/roots/list_changed")
ROOTS_WAIT = 5.0  # seconds a tool call waits for the client's roots/list answer


def _key(mid) -> str:
    return json.dumps(mid, sort_keys=True)


def serve_stdio(server, session: str, stdin=None, stdout=None) -> int:
    stdin = stdin if stdin is not None else sys.stdin.buffer
    out = jsonrpc.LineWriter(stdout if stdout is not None else sys.stdout.buffer)
    calls: queue.Queue = queue.Queue()
    inflight: set[str] = set()   # queued or running tool calls
    cancelled: set[str] = set()  # of those, the ones the client cancelled
    lock = threading.Lock()
    roots_ready = threading.Event()  # cleared while a roots/list request to the client is unanswered
    roots_ready.set()

    def worker() -> None:
        while True:
            msg = calls.get()
            if msg is _STOP:
                return
            roots_ready.wait(ROOTS_WAIT)  # a call right after initialize reads the client's roots
            key = _key(msg["id"])
            with lock:
                skip = key in cancelled
            response = None if skip else server.handle(msg, session)
            with lock:
                skip = key in cancelled
                cancelled.discard(key)
                inflight.discard(key)
            if response is not None and not skip:
                out.send(response)

    thread = threading.Thread(target=worker, name="sqz-mcp-tools", daemon=True)
    thread.start()
    try:
        for line in iter(stdin.readline, b""):
            line = line.rstrip(b"\r\n")
            if not line.strip():
                continue
            try:
                msg = jsonrpc.decode_line(line)
            except jsonrpc.BadLine as exc:
                out.send(jsonrpc.error(None, exc.code, exc.message))
                continue
            if isinstance(msg, list):
                if not msg:
                    out.send(jsonrpc.error(None, jsonrpc.INVALID_REQUEST, "Invalid Request: empty batch"))
                    continue
                answers = [a for a in (server.handle(m, session) for m in msg) if a is not None]
                if answers:
                    out.send(answers)
                continue
            if jsonrpc.is_notification(msg) and msg["method"] in ROOTS_TRIGGERS:
                request = server.roots_request()
                if request is not None:
                    roots_ready.clear()
                    out.send(request)
                continue
            if jsonrpc.is_response(msg) and server.roots_response(msg):
                roots_ready.set()
                continue
            if jsonrpc.is_notification(msg) and msg["method"] == "notifications/cancelled":
                params = msg.get("params") or {}
                if isinstance(params, dict) and "requestId" in params:
                    key = _key(params["requestId"])
                    with lock:
                        if key in inflight:
                            cancelled.add(key)
                continue
            if jsonrpc.is_request(msg) and msg["method"] == "tools/call":
                with lock:
                    inflight.add(_key(msg["id"]))
                calls.put(msg)
                continue
            response = server.handle(msg, session)
            if response is not None:
                out.send(response)
    except KeyboardInterrupt:
        pass
    except OSError as exc:
        log(f"stdin read failed: {exc}")
    calls.put(_STOP)
    thread.join()
    return 0
