"""``sqz-mcp proxy -- CMD…``: sits between any MCP client and any stdio MCP server.

Every message is relayed as the exact line it arrived as, in both directions, except a few
responses to the client's own requests:

* ``initialize``: a short note on ``§ref:HASH§`` is appended to the instructions;
* ``tools/list``: descriptions compacted (input schemas untouched), ``sqz_expand`` (and,
  with ``--lazy-tools``, ``sqz_tool_help``) appended to the last page;
* ``tools/call``: each text content item goes through the sqz pipeline (refs on repeats,
  safe content untouched, the net-win gate); error results and non-text items are kept.

Calls to the injected tools are answered here. Server→client requests (sampling,
elicitation, roots, ping) and notifications pass through untouched, as do the client's
answers. Lines from the client that are not JSON get -32700 here (the upstream must only
ever see valid messages); non-JSON lines the upstream prints on stdout are dropped and
logged, so stdout carries protocol messages only.

Every client request ends. An upstream line that cannot be relayed (not JSON, nested too deep)
but names a pending request's id in its top-level object (read without parsing) answers that
request with a -32603 error; a line that names none (log noise, a line cut before its id) is
dropped, since guessing would fail a request whose real answer may still come. A request the
upstream leaves unanswered for ``timeout`` seconds (``--timeout``, ``SQZ_MCP_PROXY_TIMEOUT``,
default 120, 0: never; ``initialize``, which waits for the upstream to start, at least 300 s) gets a
-32001 error and the upstream a ``notifications/cancelled``; a late answer is dropped. The clock
restarts on the request's progress notifications and is held while the upstream waits for the
client (a sampling or elicitation request of its own).

Shutdown: when the client closes stdin, the upstream's stdin is closed and it gets 2.5 s to
exit, then SIGTERM and another 2.5 s, then SIGKILL; results it writes meanwhile are passed
on. When the upstream dies, every pending request gets a JSON-RPC error and the proxy exits.
"""

from __future__ import annotations

import json
import os
import queue
import select
import signal
import subprocess
import sys
import threading
import time

from . import jsonrpc
from .compression import Compressor, log, new_session_id
from .descriptions import compact_tools
from .server import BAD_ID

GRACE = 2.5
DEFAULT_TIMEOUT = 120.0
# initialize waits for the upstream to start (``npx -y`` may download it first): at least this long
START_TIMEOUT = 300.0
TIMEOUT_ENV = "SQZ_MCP_PROXY_TIMEOUT"

EXPAND_TOOL = {
    "name": "sqz_expand",
    "description": "Original content of a §ref:HASH§ token or an sqz note's hex prefix.",
    "inputSchema": {"type": "object", "properties": {"ref": {"type": "string"}}, "required": ["ref"]},
}
TOOL_HELP_TOOL = {
    "name": "sqz_tool_help",
    "description": "Full description of a tool whose listed one ends in …",
    "inputSchema": {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]},
}
NOTE_CACHE = ("Results of this server pass through sqz: `§ref:HASH§` stands for content already sent in this "
              "session, a last line `[sqz expand ID]` marks a shortened result; sqz_expand with the ref or ID "
              "returns the original.")
NOTE_NO_CACHE = "Results of this server pass through sqz, which may fold repeated lines; nothing is cached."


def _key(mid) -> str:
    return json.dumps(mid, sort_keys=True)


def read_lines(fd: int):
    """Lines (without the newline) from a raw file descriptor until EOF; no buffered-reader locks."""
    buf = b""
    while True:
        try:
            chunk = os.read(fd, 65536)
        except InterruptedError:
            continue
        except OSError:
            chunk = b""
        if not chunk:
            if buf:
                yield buf
            return
        buf += chunk
        if b"\n" in chunk:
            *lines, buf = buf.split(b"\n")
            for line in lines:
                yield line


def pipeline_tool(name: str) -> tuple[str, bool]:
    """(tool name for the pipeline, is file content): file reads and patches are only deduplicated."""
    from sqz_core.api import FILE_TOOLS

    low = name.lower()
    if low in FILE_TOOLS:
        return name, True
    words = set(low.replace("-", "_").split("_"))
    if words & {"file", "files", "text", "content", "contents"} and words & {"read", "get", "view", "open", "cat", "show"}:
        return "read_file", True
    if words & {"diff", "patch", "edit"}:
        return "patch", True
    return name, False


class _Terminated(Exception):
    pass


class Proxy:
    def __init__(self, cmd: list[str], *, lazy_tools: bool = False, no_desc: bool = False, no_cache: bool = False,
                 grace: float = GRACE, timeout: float = DEFAULT_TIMEOUT, stdin_fd: int = 0, stdout=None) -> None:
        self.cmd = cmd
        self.lazy = lazy_tools
        self.no_desc = no_desc
        self.no_cache = no_cache
        self.grace = grace
        self.timeout = timeout                 # seconds an upstream may leave a request unanswered; 0: never
        self.stdin_fd = stdin_fd
        self.client = jsonrpc.LineWriter(stdout if stdout is not None else sys.stdout.buffer)
        self.compressor = Compressor(no_cache=no_cache)
        self.session = new_session_id("mcp-proxy")
        self.lock = threading.Lock()
        self.pending: dict[str, dict] = {}     # client request id -> what it asked
        self.internal: dict[str, list] = {}    # our own requests to the upstream -> [event, response]
        self.originals: dict[str, str] = {}    # upstream tool name -> original description
        self.upstream_tools: set[str] = set()
        self.shortened = False                 # some description was cut (sqz_tool_help is worth listing)
        self.dead: str | None = None
        self.timed_out: set[str] = set()       # client requests answered with a timeout error: late answers dropped
        self.awaiting_client: set[str] = set() # the upstream's own requests to the client, not yet answered
        self.stopping = threading.Event()
        self.rewake = threading.Event()        # a new request may be due before the watcher's next look
        self.events: queue.Queue = queue.Queue()
        self.proc: subprocess.Popen | None = None
        self.upstream_in: jsonrpc.LineWriter | None = None
        self._seq = 0

    # -- local tools ------------------------------------------------------------------------
    def local_tools(self) -> list[dict]:
        tools = [] if self.no_cache else [EXPAND_TOOL]
        if self.lazy and self.shortened:
            tools.append(TOOL_HELP_TOOL)
        return [t for t in tools if t["name"] not in self.upstream_tools]

    def _is_local_call(self, msg: dict) -> str | None:
        if msg.get("method") != "tools/call":
            return None
        params = msg.get("params")
        name = params.get("name") if isinstance(params, dict) else None
        if name in {t["name"] for t in self.local_tools()}:
            return name
        return None

    def _answer_local(self, msg: dict, name: str) -> None:
        params = msg.get("params") or {}
        args = params.get("arguments") if isinstance(params.get("arguments"), dict) else {}
        try:
            if name == "sqz_expand":
                res = self._expand(args)
            else:
                res = self._tool_help(args)
        except Exception as exc:
            log(f"{name} failed: {type(exc).__name__}: {exc}")
            self.client.send(jsonrpc.error(msg["id"], jsonrpc.INTERNAL_ERROR, f"Internal error: {exc}"))
            return
        self.client.send(jsonrpc.result(msg["id"], res))

    def _expand(self, args: dict) -> dict:
        from sqz_core.api import ExpandError

        from .tools import text_result

        ref = args.get("ref")
        if not isinstance(ref, str):
            return text_result("ref must be a string", is_error=True)
        try:
            # only what this proxy served (it has no roots to judge anything else by)
            return text_result(self.compressor.expand(ref, session=self.session).decode("utf-8", errors="replace"))
        except (ExpandError, LookupError) as exc:
            return text_result(str(exc), is_error=True)

    def _tool_help(self, args: dict) -> dict:
        from .tools import text_result

        name = args.get("name")
        if not isinstance(name, str):
            return text_result("name must be a string", is_error=True)
        with self.lock:
            known = name in self.originals
        if not known:
            self._fetch_tool_list()
        with self.lock:
            desc = self.originals.get(name)
        if desc is None:
            return text_result(f"no tool named {name!r} on this server", is_error=True)
        return text_result(desc)

    def _fetch_tool_list(self, timeout: float = 10.0) -> None:
        """Ask the upstream for its tools (every page) to learn the original descriptions."""
        cursor = None
        for _ in range(100):
            params = {"cursor": cursor} if cursor else {}
            resp = self._internal_request("tools/list", params, timeout)
            result = resp.get("result") if isinstance(resp, dict) else None
            if not isinstance(result, dict):
                return
            tools = result.get("tools") if isinstance(result.get("tools"), list) else []
            _, originals = compact_tools(tools)
            with self.lock:
                self.originals.update(originals)
            cursor = result.get("nextCursor")
            if not cursor:
                return

    def _internal_request(self, method: str, params: dict, timeout: float):
        with self.lock:
            self._seq += 1
            mid = f"sqz-proxy-{self._seq}"
            slot = [threading.Event(), None]
            self.internal[_key(mid)] = slot
        if self.upstream_in is None or not self.upstream_in.send({"jsonrpc": "2.0", "id": mid, "method": method,
                                                                   "params": params}):
            return None
        slot[0].wait(timeout)
        with self.lock:
            self.internal.pop(_key(mid), None)
        return slot[1]

    # -- client -> upstream -------------------------------------------------------------------
    def _track(self, msg: dict) -> None:
        params = msg.get("params") if isinstance(msg.get("params"), dict) else {}
        entry = {"method": msg["method"], "t0": time.monotonic(),
                 "limit": max(self.timeout, START_TIMEOUT) if msg["method"] == "initialize" else self.timeout}
        meta = params.get("_meta")
        if isinstance(meta, dict) and "progressToken" in meta:
            entry["progress"] = _key(meta["progressToken"])
        if msg["method"] == "tools/call":
            entry["tool"] = params.get("name") if isinstance(params.get("name"), str) else ""
            entry["args"] = params.get("arguments")
        self.pending[_key(msg["id"])] = entry
        self.rewake.set()

    def on_client_line(self, line: bytes) -> None:
        if not line.strip():
            return
        try:
            msg = jsonrpc.decode_line(line)
        except jsonrpc.BadLine as exc:
            self.client.send(jsonrpc.error(None, exc.code, exc.message))
            return
        messages = msg if isinstance(msg, list) else [msg]
        bad = [m for m in messages if isinstance(m, dict) and "id" in m and not jsonrpc.valid_id(m["id"])]
        if bad:  # an id the proxy could not echo exactly (1e400 is a float): refused, never forwarded
            for _ in bad:
                self.client.send(jsonrpc.error(None, jsonrpc.INVALID_REQUEST, BAD_ID))
            messages = [m for m in messages if not any(m is b for b in bad)]
            if not messages:
                return
            msg = messages if isinstance(msg, list) else messages[0]
            line = jsonrpc.encode(msg).rstrip(b"\n")
        requests = [m for m in messages if jsonrpc.is_request(m)]
        answered = [_key(m["id"]) for m in messages if jsonrpc.is_response(m)]
        if answered:
            with self.lock:
                if any(k in self.awaiting_client for k in answered):
                    self.awaiting_client.difference_update(answered)
                    now = time.monotonic()
                    for entry in self.pending.values():  # the upstream was waiting for the client
                        entry["t0"] = now
        if isinstance(msg, dict) and jsonrpc.is_request(msg):
            local = self._is_local_call(msg)
            if local is not None:
                threading.Thread(target=self._answer_local, args=(msg, local), daemon=True).start()
                return
        with self.lock:
            dead = self.dead
            if dead is None:
                for m in requests:
                    self._track(m)
        if dead is not None:
            for m in requests:
                self.client.send(jsonrpc.error(m["id"], jsonrpc.UPSTREAM_GONE, dead))
            return
        for m in messages:
            if jsonrpc.is_notification(m) and m["method"] == "notifications/cancelled":
                params = m.get("params")
                if isinstance(params, dict) and "requestId" in params:
                    with self.lock:
                        self.pending.pop(_key(params["requestId"]), None)
        if self.upstream_in is None or not self.upstream_in.write_line(line + b"\n"):
            with self.lock:
                lost = [m for m in requests if self.pending.pop(_key(m["id"]), None) is not None]
            for m in lost:
                self.client.send(jsonrpc.error(m["id"], jsonrpc.UPSTREAM_GONE,
                                               "upstream MCP server is not accepting input (its stdin is closed)"))

    # -- upstream -> client -------------------------------------------------------------------
    def on_upstream_line(self, line: bytes) -> None:
        if not line.strip():
            return
        try:
            text = line.decode("utf-8")
        except UnicodeDecodeError:
            text = line.decode("utf-8", errors="replace")
            line = text.encode("utf-8")
            log("upstream sent invalid UTF-8; bad bytes replaced with U+FFFD")
        if jsonrpc.too_deep(text):
            self._unrelayable(text, f"nested deeper than {jsonrpc.MAX_DEPTH} levels",
                              f"a line from the upstream nested deeper than {jsonrpc.MAX_DEPTH} levels")
            return
        try:
            msg = json.loads(text)
        except (ValueError, RecursionError) as exc:
            self._unrelayable(text, f"not valid JSON ({exc})", "a non-JSON line from the upstream's stdout")
            return
        if isinstance(msg, dict):
            new = self._on_upstream_message(msg)
            if new is None:  # ours: consumed
                return
            if new is msg:
                self.client.write_line(line + b"\n")
            else:
                self.client.send(new)
            return
        if isinstance(msg, list):
            out = []
            changed = False
            for m in msg:
                new = self._on_upstream_message(m) if isinstance(m, dict) else m
                if new is None:
                    changed = True
                    continue
                changed = changed or new is not m
                out.append(new)
            if not changed:
                self.client.write_line(line + b"\n")
            elif out:
                self.client.send(out)
            return
        log(f"dropped a non-message line from the upstream's stdout: {text[:200]!r}")

    def _unrelayable(self, text: str, why: str, what: str) -> None:
        """An upstream line that cannot be relayed: an error for the pending request it names, else dropped."""
        mid = jsonrpc.top_level_id(text)
        key = None if mid is jsonrpc.NO_ID else _key(mid)
        with self.lock:
            slot = self.internal.get(key) if key is not None else None
            entry = self.pending.pop(key, None) if key is not None and slot is None else None
        if slot is not None:  # our own request: its waiter sees no answer
            slot[0].set()
        if entry is None:
            log(f"dropped {what} (it names no pending request): {text[:200]!r}")
            return
        log(f"the upstream's answer to {entry['method']} (id {key}) is {why}; the client gets an error instead")
        self.client.send(jsonrpc.error(mid, jsonrpc.INTERNAL_ERROR,
                                       f"upstream MCP server answered {entry['method']} with a message that "
                                       f"cannot be relayed: {why}"[:500]))

    def _on_upstream_message(self, msg: dict):
        """``msg`` itself to relay it as it came, a new dict to relay instead, None when it was ours."""
        if not jsonrpc.is_response(msg):
            if jsonrpc.is_request(msg):  # the upstream waits for the client: the clocks hold
                with self.lock:
                    self.awaiting_client.add(_key(msg["id"]))
            elif msg.get("method") == "notifications/progress":
                params = msg.get("params")
                token = _key(params.get("progressToken")) if isinstance(params, dict) else None
                with self.lock:
                    for entry in self.pending.values():
                        if entry.get("progress") == token:
                            entry["t0"] = time.monotonic()
            return msg
        key = _key(msg.get("id"))
        with self.lock:
            slot = self.internal.get(key)
            entry = None if slot is not None else self.pending.pop(key, None)
            late = entry is None and slot is None and key in self.timed_out
            if late:
                self.timed_out.discard(key)
        if slot is not None:
            slot[1] = msg
            slot[0].set()
            return None
        if late:  # the client already got the timeout error for it
            log(f"dropped the upstream's answer to request {key}, which came after the {self.timeout:g} s timeout")
            return None
        if entry is None or not isinstance(msg.get("result"), dict):
            return msg
        try:
            return self._rewrite(entry, msg)
        except Exception as exc:  # the upstream's answer as it came is always correct
            log(f"could not rewrite the {entry['method']} result, relayed as is: {type(exc).__name__}: {exc}")
            return msg

    def _rewrite(self, entry: dict, msg: dict):
        method = entry["method"]
        result = msg["result"]
        if method == "initialize":
            note = NOTE_NO_CACHE if self.no_cache else NOTE_CACHE
            old = result.get("instructions")
            new_result = dict(result)
            new_result["instructions"] = f"{old}\n\n{note}" if isinstance(old, str) and old.strip() else note
            return {**msg, "result": new_result}
        if method == "tools/list":
            return self._rewrite_tool_list(msg, result)
        if method == "tools/call":
            return self._rewrite_call(entry, msg, result)
        return msg

    def _rewrite_tool_list(self, msg: dict, result: dict):
        tools = result.get("tools")
        if not isinstance(tools, list):
            return msg
        names = {t.get("name") for t in tools if isinstance(t, dict)}
        compacted, originals = compact_tools(tools, lazy=self.lazy)
        cut = any(isinstance(t, dict) and str(t.get("description", "")).endswith("…") for t in compacted)
        with self.lock:
            self.originals.update(originals)
            self.shortened = self.shortened or (cut and not self.no_desc)
            self.upstream_tools.update(n for n in names if isinstance(n, str))
        if self.no_desc:
            compacted = tools
        extra = [] if result.get("nextCursor") else self.local_tools()
        if compacted is tools and not extra:
            return msg
        return {**msg, "result": {**result, "tools": list(compacted) + extra}}

    def _rewrite_call(self, entry: dict, msg: dict, result: dict):
        content = result.get("content")
        if result.get("isError") or not isinstance(content, list):
            return msg
        name = entry.get("tool") or ""
        ptool, is_file = pipeline_tool(name)
        args = entry.get("args")
        label = f"{name} {json.dumps(args, ensure_ascii=False, sort_keys=True)}"[:300] if args else name
        new_content = []
        changed = False
        for item in content:
            if isinstance(item, dict) and item.get("type") == "text" and isinstance(item.get("text"), str):
                text = item["text"]
                if is_file:
                    from .file_tools import strip_ansi_only

                    text = strip_ansi_only(text)
                out = self.compressor.compress_text(text, tool=ptool, session=self.session, command=label,
                                                    file_content=is_file, family=name)
                if out != item["text"]:
                    item = {**item, "text": out}
                    changed = True
            new_content.append(item)
        if not changed:
            return msg
        return {**msg, "result": {**result, "content": new_content}}

    # -- process management -------------------------------------------------------------------
    def _spawn(self) -> bool:
        try:
            self.proc = subprocess.Popen(self.cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=None,
                                         bufsize=0, start_new_session=True)
        except OSError as exc:
            log(f"cannot start the upstream MCP server {self.cmd[0]!r}: {exc.strerror or exc}")
            return False
        self.upstream_in = jsonrpc.LineWriter(self.proc.stdin)
        return True

    def _signal_group(self, sig) -> None:
        try:
            os.killpg(self.proc.pid, sig)
        except (ProcessLookupError, PermissionError):
            try:
                self.proc.send_signal(sig)
            except ProcessLookupError:
                pass

    def _stop_upstream(self) -> None:
        """Close its stdin, wait, SIGTERM, wait, SIGKILL (the whole process group)."""
        proc = self.proc
        self.upstream_in.close()
        try:
            proc.wait(self.grace)
            return
        except subprocess.TimeoutExpired:
            pass
        log(f"upstream still running {self.grace:g}s after its stdin closed; sending SIGTERM")
        self._signal_group(signal.SIGTERM)
        try:
            proc.wait(self.grace)
            return
        except subprocess.TimeoutExpired:
            pass
        self._signal_group(signal.SIGKILL)
        proc.wait()

    def _fail_pending(self, reason: str) -> None:
        with self.lock:
            self.dead = reason
            lost = list(self.pending.items())
            self.pending.clear()
            for slot in self.internal.values():
                slot[0].set()
        for key, _entry in lost:
            self.client.send(jsonrpc.error(json.loads(key), jsonrpc.UPSTREAM_GONE, reason))

    def _watch_timeouts(self) -> None:
        while not self.stopping.is_set():
            self.rewake.clear()  # before expire: a request tracked from here on is seen, or wakes the wait
            due = self.expire(time.monotonic())
            self.rewake.wait(max(0.05, due - time.monotonic()))

    def expire(self, now: float) -> float:
        """Answers the requests the upstream has left unanswered for ``timeout`` seconds at ``now`` with
        an error (and cancels them upstream); returns the time the next one is due."""
        expired = []
        with self.lock:
            if self.dead is None and not self.awaiting_client:
                for key, entry in list(self.pending.items()):
                    if now - entry["t0"] >= entry["limit"]:
                        expired.append((key, self.pending.pop(key)))
                        self.timed_out.add(key)
            due = min((e["t0"] + e["limit"] for e in self.pending.values()), default=now + self.timeout)
            if self.awaiting_client:  # held: an answer of the client restarts every clock anyway
                due = now + self.timeout
        if expired:
            self._cancel_upstream([{"jsonrpc": "2.0", "method": "notifications/cancelled",
                                    "params": {"requestId": json.loads(key), "reason": "timed out in sqz-mcp proxy"}}
                                   for key, _ in expired])
        for key, entry in expired:
            log(f"the upstream did not answer {entry['method']} (id {key}) within {entry['limit']:g} s; "
                "the client gets an error and the upstream a cancellation")
            self.client.send(jsonrpc.error(json.loads(key), jsonrpc.UPSTREAM_TIMEOUT,
                                           f"upstream MCP server did not answer {entry['method']} within "
                                           f"{entry['limit']:g} s (sqz-mcp proxy --timeout)"))
        return due

    def _cancel_upstream(self, notes: list[dict]) -> None:
        """Sends ``notes`` to the upstream now when its stdin pipe has room, else from a thread of their
        own (a frozen upstream's full pipe must not hold up the client's errors)."""
        writer = self.upstream_in
        if writer is None:
            return
        try:
            room = bool(select.select([], [self.proc.stdin.fileno()], [], 0)[1])
        except (OSError, ValueError, AttributeError):
            room = False
        if room:
            for note in notes:
                writer.send(note)
        else:
            threading.Thread(target=lambda: [writer.send(n) for n in notes], daemon=True).start()

    def _exit_reason(self) -> str:
        code = self.proc.poll()
        if code is None:
            return "upstream MCP server closed its stdout before answering"
        if code < 0:
            return f"upstream MCP server was killed by signal {-code} before answering"
        return f"upstream MCP server exited with status {code} before answering"

    def run(self) -> int:
        if not self._spawn():
            return 127

        def pump_upstream() -> None:
            for line in read_lines(self.proc.stdout.fileno()):
                self.on_upstream_line(line)
            self.events.put("upstream-eof")

        def pump_client() -> None:
            for line in read_lines(self.stdin_fd):
                self.on_client_line(line)
            self.events.put("client-eof")

        def on_term(signum, frame):
            raise _Terminated()

        old = None
        if threading.current_thread() is threading.main_thread():
            old = signal.signal(signal.SIGTERM, on_term)
        reader = threading.Thread(target=pump_upstream, name="sqz-proxy-upstream", daemon=True)
        reader.start()
        threading.Thread(target=pump_client, name="sqz-proxy-client", daemon=True).start()
        if self.timeout > 0:
            threading.Thread(target=self._watch_timeouts, name="sqz-proxy-timeouts", daemon=True).start()
        status = 0
        try:
            first = self.events.get()
            if first == "client-eof":
                self._stop_upstream()
                reader.join(self.grace)  # results read before the exit are passed on
                self._fail_pending(self._exit_reason())
            else:
                try:
                    self.proc.wait(self.grace)
                except subprocess.TimeoutExpired:
                    self._signal_group(signal.SIGKILL)
                    self.proc.wait()
                reason = self._exit_reason()
                log(reason.replace(" before answering", ""))
                self._fail_pending(reason)
                status = 1
        except (_Terminated, KeyboardInterrupt):
            self._signal_group(signal.SIGTERM)
            try:
                self.proc.wait(self.grace)
            except subprocess.TimeoutExpired:
                self._signal_group(signal.SIGKILL)
            status = 143
        finally:
            self.stopping.set()
            self.rewake.set()
            if old is not None:
                signal.signal(signal.SIGTERM, old)
            self.compressor.close()
        self.client.close()
        return status
