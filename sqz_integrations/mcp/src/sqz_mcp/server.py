"""The MCP server's request handling, independent of the transport (stdio or streamable HTTP).

``McpServer.handle(msg, session)`` takes one decoded JSON-RPC message and returns the
response to send, or None (notifications and responses are never answered).
"""

from __future__ import annotations

from . import jsonrpc
from ._version import VERSION
from .compression import log
from .tools import INSTRUCTIONS, TOOLS, ToolBox, UnknownTool, text_result

# Revisions of the initialize handshake this server speaks, oldest to newest.
PROTOCOL_VERSIONS = ("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25")
LATEST = PROTOCOL_VERSIONS[-1]
BAD_ID = "Invalid Request: an id must be a string or an integer"


def negotiate(requested) -> str:
    """The client's version when supported, else the latest this server speaks (the spec's rule)."""
    return requested if requested in PROTOCOL_VERSIONS else LATEST


class McpServer:
    def __init__(self, roots, compressor) -> None:
        self.toolbox = ToolBox(roots, compressor)
        self.compressor = compressor
        self.client_roots = False  # the client declared the roots capability
        self._roots_seq = 0
        self._roots_pending: str | None = None

    # -- client roots (a transport that can send requests to the client calls these) ----------
    def roots_request(self):
        """A ``roots/list`` request to send to the client, or None when it has no roots capability."""
        if not self.client_roots:
            return None
        self._roots_seq += 1
        self._roots_pending = f"sqz-roots-{self._roots_seq}"
        return {"jsonrpc": "2.0", "id": self._roots_pending, "method": "roots/list"}

    def roots_response(self, msg) -> bool:
        """Takes the client's answer to ``roots_request`` (True when ``msg`` was it) and applies it."""
        if not (isinstance(msg, dict) and self._roots_pending is not None and msg.get("id") == self._roots_pending):
            return False
        self._roots_pending = None
        result = msg.get("result")
        roots = result.get("roots") if isinstance(result, dict) else None
        if not isinstance(roots, list):
            log(f"roots/list failed, keeping {', '.join(self.toolbox.roots.dirs)}: {msg.get('error')}")
            return True
        from .roots import paths_from_uris
        uris = [r.get("uri") for r in roots if isinstance(r, dict)]
        now = self.toolbox.roots.set_client_roots(paths_from_uris(uris))
        log(f"roots from the client: {', '.join(now)}")
        return True

    def initialize_result(self, params) -> dict:
        requested = params.get("protocolVersion") if isinstance(params, dict) else None
        return {
            "protocolVersion": negotiate(requested),
            "capabilities": {"tools": {"listChanged": False}},
            "serverInfo": {"name": "sqz-mcp", "title": "sqz", "version": VERSION},
            "instructions": INSTRUCTIONS,
        }

    def handle(self, msg, session: str):
        """The response to ``msg`` (a dict), or None when none is due."""
        if not isinstance(msg, dict):
            return jsonrpc.error(None, jsonrpc.INVALID_REQUEST, "Invalid Request")
        if jsonrpc.is_notification(msg) or jsonrpc.is_response(msg):
            return None
        if "id" in msg and not jsonrpc.valid_id(msg["id"]):
            return jsonrpc.error(None, jsonrpc.INVALID_REQUEST, BAD_ID)
        if not jsonrpc.is_request(msg) or msg.get("jsonrpc") != "2.0":
            return jsonrpc.error(msg.get("id"), jsonrpc.INVALID_REQUEST,
                                 "Invalid Request: expected a JSON-RPC 2.0 request, notification or response")
        mid = msg["id"]
        method = msg["method"]
        params = msg.get("params")
        if params is not None and not isinstance(params, dict):
            return jsonrpc.error(mid, jsonrpc.INVALID_PARAMS, "params must be an object")
        params = params or {}
        try:
            if method == "initialize":
                caps = params.get("capabilities")
                self.client_roots = isinstance(caps, dict) and isinstance(caps.get("roots"), dict)
                return jsonrpc.result(mid, self.initialize_result(params))
            if method == "ping":
                return jsonrpc.result(mid, {})
            if method == "tools/list":
                return jsonrpc.result(mid, {"tools": TOOLS})
            if method == "tools/call":
                return self._call(mid, params, session)
            return jsonrpc.error(mid, jsonrpc.METHOD_NOT_FOUND, f"Method not found: {method}")
        except Exception as exc:  # answered, and the next request is served
            log(f"{method} failed: {type(exc).__name__}: {exc}")
            return jsonrpc.error(mid, jsonrpc.INTERNAL_ERROR, f"Internal error: {type(exc).__name__}: {exc}")

    def _call(self, mid, params: dict, session: str) -> dict:
        name = params.get("name")
        if not isinstance(name, str):
            return jsonrpc.error(mid, jsonrpc.INVALID_PARAMS, "tools/call needs a tool name")
        args = params.get("arguments")
        try:
            return jsonrpc.result(mid, self.toolbox.call(name, args, session))
        except UnknownTool:
            return jsonrpc.error(mid, jsonrpc.INVALID_PARAMS, f"Unknown tool: {name}")
        except Exception as exc:
            if name == "compress" and isinstance(args, dict) and isinstance(args.get("text"), str):
                log(f"compress failed, returning its input: {type(exc).__name__}: {exc}")
                return jsonrpc.result(mid, text_result(args["text"]))
            raise
