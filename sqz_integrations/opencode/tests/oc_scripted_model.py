"""A scripted model on 127.0.0.1 speaking the OpenAI Chat Completions API (streamed), for the OpenCode end-to-end test.

``ScriptedModel(step)`` serves ``POST /v1/chat/completions``; ``step(messages)`` gets the
conversation (a list of chat messages) and returns ``("tool", name, args)`` or
``("text", words)``. Requests without tools (OpenCode's title and summary calls) get a short
text answer. Every request body is kept in ``requests`` for the test's assertions.
"""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class ScriptedModel:
    def __init__(self, step):
        self.step = step
        self.requests: list[dict] = []
        self.lock = threading.Lock()
        model = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *a):  # quiet
                pass

            def do_GET(self):
                body = json.dumps({"object": "list", "data": [{"id": "scripted", "object": "model"}]}).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def do_POST(self):
                n = int(self.headers.get("Content-Length") or 0)
                req = json.loads(self.rfile.read(n) or b"{}")
                with model.lock:
                    model.requests.append(req)
                if req.get("tools"):
                    try:
                        answer = model.step(req.get("messages") or [])
                    except Exception as exc:  # a broken script ends the run with its reason
                        answer = ("text", f"script error: {type(exc).__name__}: {exc}")
                else:
                    answer = ("text", "Scripted run")
                model._stream(self, answer, req.get("stream", False))

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.server.shutdown()
        self.server.server_close()

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    def _stream(self, handler, answer, stream: bool) -> None:
        base = {"id": "chatcmpl-scripted", "object": "chat.completion.chunk", "created": 0, "model": "scripted"}
        if answer[0] == "tool":
            _, name, args = answer
            delta = {"role": "assistant", "content": None, "tool_calls": [
                {"index": 0, "id": f"call_{len(self.requests)}", "type": "function",
                 "function": {"name": name, "arguments": json.dumps(args)}}]}
            finish = "tool_calls"
        else:
            delta, finish = {"role": "assistant", "content": answer[1]}, "stop"
        usage = {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}
        if not stream:
            msg = dict(delta)
            body = json.dumps(dict(base, object="chat.completion", usage=usage, choices=[
                {"index": 0, "message": msg, "finish_reason": finish}])).encode()
            handler.send_response(200)
            handler.send_header("Content-Type", "application/json")
            handler.send_header("Content-Length", str(len(body)))
            handler.end_headers()
            handler.wfile.write(body)
            return
        chunks = [dict(base, choices=[{"index": 0, "delta": delta, "finish_reason": None}]),
                  dict(base, choices=[{"index": 0, "delta": {}, "finish_reason": finish}]),
                  dict(base, choices=[], usage=usage)]
        handler.send_response(200)
        handler.send_header("Content-Type", "text/event-stream")
        handler.send_header("Cache-Control", "no-cache")
        handler.end_headers()
        for c in chunks:
            handler.wfile.write(b"data: " + json.dumps(c).encode() + b"\n\n")
        handler.wfile.write(b"data: [DONE]\n\n")
        handler.wfile.flush()


def tool_results(messages: list[dict]) -> list[str]:
    """The text of every tool result in the conversation, in order."""
    out = []
    for m in messages:
        if m.get("role") == "tool":
            c = m.get("content")
            if isinstance(c, list):
                c = "".join(p.get("text", "") for p in c if isinstance(p, dict))
            out.append(c if isinstance(c, str) else json.dumps(c))
    return out
