"""A scripted model on 127.0.0.1 speaking the OpenAI Responses API (streamed), for the Codex end-to-end test.

``ScriptedModel(step)`` serves ``POST /v1/responses``; ``step(request)`` gets the request body
(``input`` holds the conversation: messages, ``function_call`` and ``function_call_output``
items) and returns ``("tool", name, args)`` or ``("text", words)``. Every request body is kept
in ``requests`` for the test's assertions.
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
            protocol_version = "HTTP/1.1"

            def log_message(self, *a):  # quiet
                pass

            def _json(self, obj, status=200):
                body = json.dumps(obj).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def do_GET(self):
                if self.path.rstrip("/").endswith("/models"):
                    self._json({"object": "list", "data": [{"id": "scripted", "object": "model"}], "models": []})
                else:
                    self._json({"error": "not found"}, 404)

            def do_POST(self):
                n = int(self.headers.get("Content-Length") or 0)
                req = json.loads(self.rfile.read(n) or b"{}")
                if not self.path.rstrip("/").endswith("/responses"):
                    self._json({"error": {"message": f"unexpected {self.path}"}}, 404)
                    return
                with model.lock:
                    model.requests.append(req)
                    number = len(model.requests)
                try:
                    answer = model.step(req)
                except Exception as exc:  # a broken script ends the run with its reason
                    answer = ("text", f"script error: {type(exc).__name__}: {exc}")
                model._stream(self, answer, number)

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

    def _stream(self, handler, answer, number: int) -> None:
        rid = f"resp_{number}"
        if answer[0] == "tool":
            _, name, args = answer
            item = {"type": "function_call", "id": f"fc_{number}", "call_id": f"call_{number}", "name": name,
                    "arguments": json.dumps(args), "status": "completed"}
        else:
            item = {"type": "message", "id": f"msg_{number}", "role": "assistant", "status": "completed",
                    "content": [{"type": "output_text", "text": answer[1], "annotations": []}]}
        usage = {"input_tokens": 10, "input_tokens_details": {"cached_tokens": 0}, "output_tokens": 5,
                 "output_tokens_details": {"reasoning_tokens": 0}, "total_tokens": 15}
        events = [
            ("response.created", {"type": "response.created",
                                  "response": {"id": rid, "object": "response", "status": "in_progress", "output": []}}),
            ("response.output_item.added", {"type": "response.output_item.added", "output_index": 0, "item": item}),
            ("response.output_item.done", {"type": "response.output_item.done", "output_index": 0, "item": item}),
            ("response.completed", {"type": "response.completed",
                                    "response": {"id": rid, "object": "response", "status": "completed",
                                                 "output": [item], "usage": usage}}),
        ]
        body = b"".join(f"event: {name}\ndata: {json.dumps(data)}\n\n".encode() for name, data in events)
        handler.send_response(200)
        handler.send_header("Content-Type", "text/event-stream")
        handler.send_header("Content-Length", str(len(body)))
        handler.end_headers()
        handler.wfile.write(body)
        handler.wfile.flush()


def tool_outputs(request: dict) -> list[str]:
    """The text of every tool result in a request's ``input``, in order."""
    out = []
    for item in request.get("input") or []:
        if isinstance(item, dict) and item.get("type") in ("function_call_output", "custom_tool_call_output"):
            o = item.get("output")
            if isinstance(o, list):
                o = "".join(p.get("text", "") for p in o if isinstance(p, dict))
            elif isinstance(o, dict):
                o = o.get("content") if isinstance(o.get("content"), str) else json.dumps(o)
            out.append(o if isinstance(o, str) else json.dumps(o))
    return out


def tool_names(request: dict) -> list[str]:
    return [t.get("name") or t.get("type") for t in request.get("tools") or []]
