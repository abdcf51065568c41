"""Helpers for the sqz-mcp tests: raw line-protocol processes, the official SDK client, upstream paths."""

from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
DIST = os.path.dirname(HERE)
UPSTREAMS = os.path.join(DIST, ".upstreams")
NODE_MODULES = os.path.join(UPSTREAMS, "node", "node_modules", "@modelcontextprotocol")
SQZ_MCP = [sys.executable, "-m", "sqz_mcp"]
STUB = [sys.executable, os.path.join(HERE, "stub_upstream.py")]
INSTALL_HINT = "run sqz_integrations/mcp/scripts/install_test_upstreams.sh first"


def _need(path: str) -> str:
    if not os.path.exists(path):
        raise FileNotFoundError(f"{path} is missing: {INSTALL_HINT}")
    return path


def filesystem_server(*dirs: str) -> list[str]:
    return ["node", _need(os.path.join(NODE_MODULES, "server-filesystem", "dist", "index.js")), *dirs]


def everything_server() -> list[str]:
    return ["node", _need(os.path.join(NODE_MODULES, "server-everything", "dist", "index.js")), "stdio"]


def git_server(repo: str) -> list[str]:
    return [_need(os.path.join(UPSTREAMS, "git-venv", "bin", "mcp-server-git")), "--repository", repo]


def init_msg(mid=1, version="2025-06-18", capabilities=None) -> dict:
    return {"jsonrpc": "2.0", "id": mid, "method": "initialize",
            "params": {"protocolVersion": version, "capabilities": capabilities or {},
                       "clientInfo": {"name": "sqz-mcp-tests", "version": "0"}}}


def call_msg(mid, name: str, arguments: dict) -> dict:
    return {"jsonrpc": "2.0", "id": mid, "method": "tools/call", "params": {"name": name, "arguments": arguments}}


class RawProc:
    """A process spoken to line by line: write messages to stdin, read JSON lines from stdout."""

    def __init__(self, argv: list[str], cwd: str | None = None, env: dict | None = None) -> None:
        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                     cwd=cwd, env=env)
        self.lines: queue.Queue = queue.Queue()
        self.raw_lines: list[bytes] = []
        self.stderr = b""
        threading.Thread(target=self._pump, daemon=True).start()
        threading.Thread(target=self._pump_err, daemon=True).start()

    def _pump(self) -> None:
        for line in self.proc.stdout:
            self.raw_lines.append(line)
            self.lines.put(line)
        self.lines.put(None)

    def _pump_err(self) -> None:
        self.stderr = self.proc.stderr.read()

    def send(self, msg) -> None:
        data = msg if isinstance(msg, bytes) else json.dumps(msg).encode() + b"\n"
        self.proc.stdin.write(data)
        self.proc.stdin.flush()

    def recv(self, timeout: float = 10.0):
        """The next message on stdout (parsed); fails on timeout or EOF."""
        line = self.lines.get(timeout=timeout)
        if line is None:
            raise EOFError(f"stdout closed; stderr: {self.stderr.decode(errors='replace')[-2000:]}")
        return json.loads(line)

    def recv_until(self, pred, timeout: float = 10.0) -> tuple[dict, list]:
        """The first message matching ``pred`` and the ones that came before it."""
        before = []
        deadline = time.monotonic() + timeout
        while True:
            msg = self.recv(max(0.05, deadline - time.monotonic()))
            if pred(msg):
                return msg, before
            before.append(msg)

    def silent_for(self, seconds: float) -> bool:
        """True when nothing arrives on stdout for ``seconds``."""
        try:
            line = self.lines.get(timeout=seconds)
        except queue.Empty:
            return True
        self.lines.put(line)
        return False

    def request(self, msg: dict, timeout: float = 10.0) -> dict:
        self.send(msg)
        reply, _ = self.recv_until(lambda m: m.get("id") == msg["id"] and "method" not in m, timeout)
        return reply

    def initialize(self, **kw) -> dict:
        reply = self.request(init_msg(**kw))
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        return reply

    def close_stdin(self) -> None:
        self.proc.stdin.close()

    def finish(self, timeout: float = 15.0) -> int:
        try:
            self.proc.stdin.close()
        except OSError:
            pass
        try:
            return self.proc.wait(timeout)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        for f in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            try:
                f.close()
            except OSError:
                pass


def run_sdk(argv: list[str], body, cwd: str | None = None, **session_kw):
    """Run ``await body(session)`` with the official MCP SDK's stdio client connected to ``argv``."""
    import anyio
    from mcp import ClientSession, StdioServerParameters
    from mcp.client.stdio import stdio_client

    params = StdioServerParameters(command=argv[0], args=argv[1:], cwd=cwd, env=dict(os.environ))

    async def main():
        with open(os.devnull, "w") as errlog:
            async with stdio_client(params, errlog=errlog) as (r, w):
                async with ClientSession(r, w, **session_kw) as session:
                    await session.initialize()
                    return await body(session)

    return anyio.run(main)


def texts(result) -> list[str]:
    return [c.text for c in result.content if getattr(c, "type", None) == "text"]
