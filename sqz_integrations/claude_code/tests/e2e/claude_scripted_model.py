"""A scripted model on 127.0.0.1 speaking the Anthropic Messages API, for driving the real Claude Code CLI.

``ScriptedModel(script)`` serves ``POST /v1/messages`` (streaming SSE or JSON) and answers
anything else with an empty JSON object. A request that offers tools (the agent's main loop)
is answered by ``script(messages)``: ``("tool", name, input)`` or ``("text", str)``; every such
request body is kept in ``requests`` for the test to read. Requests without tools (titles,
summaries…) get a short text answer.
"""

from __future__ import annotations

import itertools
import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

_ids = itertools.count(1)


def _events(message: dict, blocks: list[dict], stop: str) -> bytes:
    out = [("message_start", {"type": "message_start", "message": dict(message, content=[])})]
    for i, block in enumerate(blocks):
        if block["type"] == "text":
            out.append(("content_block_start", {"type": "content_block_start", "index": i,
                                                "content_block": {"type": "text", "text": ""}}))
            out.append(("content_block_delta", {"type": "content_block_delta", "index": i,
                                                "delta": {"type": "text_delta", "text": block["text"]}}))
        else:
            out.append(("content_block_start", {"type": "content_block_start", "index": i,
                                                "content_block": dict(block, input={})}))
            out.append(("content_block_delta", {"type": "content_block_delta", "index": i,
                                                "delta": {"type": "input_json_delta",
                                                          "partial_json": json.dumps(block["input"])}}))
        out.append(("content_block_stop", {"type": "content_block_stop", "index": i}))
    out.append(("message_delta", {"type": "message_delta", "delta": {"stop_reason": stop, "stop_sequence": None},
                                  "usage": {"output_tokens": 5}}))
    out.append(("message_stop", {"type": "message_stop"}))
    return b"".join(f"event: {name}\ndata: {json.dumps(data)}\n\n".encode() for name, data in out)


class ScriptedModel:
    """The server; use as a context manager. ``url`` is the base URL for ANTHROPIC_BASE_URL."""

    def __init__(self, script):
        self.script = script
        self.requests: list[dict] = []
        self.other: list[str] = []
        self.side: list[dict] = []
        self.errors: list[str] = []
        model = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def _send(self, status: int, body: bytes, ctype: str) -> None:
                self.send_response(status)
                self.send_header("content-type", ctype)
                self.send_header("content-length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def do_GET(self):
                model.other.append(f"GET {self.path}")
                self._send(200, b"{}", "application/json")

            do_HEAD = do_GET

            def do_POST(self):
                length = int(self.headers.get("content-length") or 0)
                raw = self.rfile.read(length)
                if not self.path.split("?")[0].endswith("/v1/messages"):
                    model.other.append(f"POST {self.path}")
                    self._send(200, b'{"input_tokens": 10}', "application/json")
                    return
                try:
                    body = json.loads(raw)
                    blocks, stop = model._answer(body)
                except Exception as exc:  # report, never hang the agent
                    model.errors.append(f"{type(exc).__name__}: {exc}")
                    blocks, stop = [{"type": "text", "text": f"script error: {exc}"}], "end_turn"
                    body = {}
                message = {"id": f"msg_{next(_ids)}", "type": "message", "role": "assistant",
                           "model": body.get("model", "claude-test"), "stop_reason": None, "stop_sequence": None,
                           "usage": {"input_tokens": 10, "output_tokens": 1,
                                     "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0}}
                if body.get("stream"):
                    self._send(200, _events(message, blocks, stop), "text/event-stream")
                else:
                    full = dict(message, content=blocks, stop_reason=stop)
                    self._send(200, json.dumps(full).encode(), "application/json")

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self._thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def _answer(self, body: dict) -> tuple[list[dict], str]:
        if not body.get("tools"):
            self.side.append(body)
            return [{"type": "text", "text": "ok"}], "end_turn"
        with threading.Lock():
            self.requests.append(body)
        action = self.script(body.get("messages") or [])
        if action[0] == "tool":
            return [{"type": "tool_use", "id": f"toolu_{next(_ids):04d}", "name": action[1], "input": action[2]}], \
                "tool_use"
        return [{"type": "text", "text": action[1]}], "end_turn"

    def __enter__(self):
        self._thread.start()
        return self

    def __exit__(self, *exc):
        self.server.shutdown()
        self.server.server_close()


def tool_results(messages: list[dict]) -> list[dict]:
    """Every ``tool_result`` block the agent sent, in order."""
    found = []
    for msg in messages:
        content = msg.get("content")
        if msg.get("role") == "user" and isinstance(content, list):
            found.extend(b for b in content if isinstance(b, dict) and b.get("type") == "tool_result")
    return found


def result_text(block: dict) -> str:
    """A tool_result's text (string content or its text blocks joined)."""
    content = block.get("content")
    if isinstance(content, str):
        return content
    return "".join(b.get("text", "") for b in content or [] if isinstance(b, dict))
