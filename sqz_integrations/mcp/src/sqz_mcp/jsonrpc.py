"""JSON-RPC 2.0 over newline-delimited streams, as MCP's stdio transport uses it.

One message per line, UTF-8, no embedded newlines. Only what both the server and the
proxy need: parsing a line into a message (or the error to answer with), building
responses, and a thread-safe line writer.
"""

from __future__ import annotations

import json
import re
import threading

PARSE_ERROR = -32700
INVALID_REQUEST = -32600
METHOD_NOT_FOUND = -32601
INVALID_PARAMS = -32602
INTERNAL_ERROR = -32603
# Implementation-defined server error range (the MCP SDK's own codes): the proxy's upstream is gone;
# it did not answer in time.
UPSTREAM_GONE = -32000
UPSTREAM_TIMEOUT = -32001


# Deepest array/object nesting accepted. json.loads recurses once per level, so a short line of
# brackets can exhaust the stack (RecursionError); real MCP messages stay far below this.
MAX_DEPTH = 100
# A JSON string (escapes included) or one bracket; strings are skipped whole, so brackets inside
# them do not count. The unrolled string pattern is linear; an unterminated string runs to the end
# (else every quote after it would rescan the rest of the line: quadratic on '\\"' repeated).
_DEPTH_TOKEN = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*(?:"|\\?\Z)|[\[\]{}]')


def too_deep(text: str, limit: int = MAX_DEPTH) -> bool:
    """Whether JSON ``text`` nests arrays/objects deeper than ``limit``: one linear pass, no recursion."""
    if text.count("[") + text.count("{") <= limit:
        return False  # cannot nest deeper than it has brackets
    depth = 0
    for m in _DEPTH_TOKEN.finditer(text):
        c = m.group()
        if c in "[{":
            depth += 1
            if depth > limit:
                return True
        elif c in "]}":
            depth -= 1
    return False


# Tokens of a line read without parsing it: strings whole (escapes included), brackets, separators,
# and any other run of value characters (numbers, true/false/null, garbage). Linear.
_SCAN_TOKEN = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*(?:"|\\?\Z)|[\[\]{}:,]|[^\s"\[\]{}:,]+')
NO_ID = object()  # top_level_id found none


def top_level_id(text: str):
    """The ``"id"`` member of the JSON object ``text`` starts with, read without parsing (one linear
    pass, no recursion), so a line that is not valid JSON or nests too deep still names the request
    it answers; ``NO_ID`` when none can be read (not an object, no id before the line breaks off)."""
    if not text.lstrip().startswith("{"):
        return NO_ID
    depth = 0
    want_key = False
    key = None
    after_colon = False
    for m in _SCAN_TOKEN.finditer(text):
        tok = m.group()
        if depth == 1 and after_colon:
            after_colon = False
            if key == '"id"':
                if tok in "[]{}:,":
                    return NO_ID
                try:
                    value = json.loads(tok)
                except ValueError:
                    return NO_ID
                return value if value is None or isinstance(value, (str, int)) and not isinstance(value, bool) \
                    else NO_ID
        if tok in ("{", "["):
            depth += 1
            want_key = depth == 1 and tok == "{"
        elif tok in ("}", "]"):
            depth -= 1
            if depth <= 0:
                return NO_ID
        elif depth == 1:
            if tok == ",":
                want_key = True
            elif tok == ":":
                after_colon = True
            elif want_key:
                key, want_key = tok, False
    return NO_ID



class BadLine(Exception):
    """A line that is not a JSON-RPC message; ``code`` is the JSON-RPC error to answer with."""

    def __init__(self, code: int, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def decode_line(line: bytes):
    """The JSON value on ``line`` (a dict, or a list for a batch); raises ``BadLine``."""
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise BadLine(PARSE_ERROR, f"Parse error: line is not valid UTF-8 ({exc.reason} at byte {exc.start})") from None
    if too_deep(text):
        raise BadLine(INVALID_REQUEST, f"Invalid Request: JSON nested deeper than {MAX_DEPTH} levels")
    try:
        value = json.loads(text)
    except ValueError as exc:
        raise BadLine(PARSE_ERROR, f"Parse error: {exc}") from None
    if not isinstance(value, (dict, list)):
        raise BadLine(INVALID_REQUEST, "Invalid Request: a message must be a JSON object")
    return value


def is_request(msg) -> bool:
    return isinstance(msg, dict) and isinstance(msg.get("method"), str) and "id" in msg


def is_notification(msg) -> bool:
    return isinstance(msg, dict) and isinstance(msg.get("method"), str) and "id" not in msg


def is_response(msg) -> bool:
    return isinstance(msg, dict) and "method" not in msg and "id" in msg and ("result" in msg or "error" in msg)


def valid_id(mid) -> bool:
    """A request id MCP accepts: a string or an integer (JSON-RPC: numbers SHOULD be integers; MCP: MUST).

    ``1e400`` parses as a float (infinity) that no JSON encoder can echo as the token it came as, so
    a non-integer id is refused with -32600 rather than answered with an id that is not JSON.
    """
    return isinstance(mid, str) or (isinstance(mid, int) and not isinstance(mid, bool))


def result(msg_id, value) -> dict:
    return {"jsonrpc": "2.0", "id": msg_id, "result": value}


def error(msg_id, code: int, message: str, data=None) -> dict:
    if msg_id is not None and not valid_id(msg_id):
        msg_id = None  # JSON-RPC: an id that cannot be told is answered as null
    err = {"code": code, "message": message}
    if data is not None:
        err["data"] = data
    return {"jsonrpc": "2.0", "id": msg_id, "error": err}


def encode(msg) -> bytes:
    """One line: compact JSON, non-ASCII kept as UTF-8, newline-terminated (never embedded)."""
    return json.dumps(msg, ensure_ascii=False, separators=(",", ":")).encode("utf-8") + b"\n"


class LineWriter:
    """Writes whole lines to a binary stream from any thread; a closed peer makes writes no-ops."""

    def __init__(self, stream) -> None:
        self._stream = stream
        self._lock = threading.Lock()
        self.closed = False

    def write_line(self, data: bytes) -> bool:
        if not data.endswith(b"\n"):
            data += b"\n"
        with self._lock:
            if self.closed:
                return False
            try:
                self._stream.write(data)
                self._stream.flush()
                return True
            except (OSError, ValueError):
                self.closed = True
                return False

    def send(self, msg) -> bool:
        return self.write_line(encode(msg))

    def close(self) -> None:
        with self._lock:
            if not self.closed:
                self.closed = True
                try:
                    self._stream.close()
                except (OSError, ValueError):
                    pass
