"""gemini_cli end to end: the real Gemini CLI (npm, pinned by scripts/install_test_agent.sh) driven by a
scripted model on 127.0.0.1, configured by ``sqz init`` from this worktree.

The model server speaks the Gemini API the CLI uses (``POST /v1beta/models/M:streamGenerateContent?alt=sse``
through ``GOOGLE_GEMINI_BASE_URL``, key ``GEMINI_API_KEY``), answers each turn from a script and records
every request, so the assertions read what the model received: the function responses.
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
GEMINI = HERE.parent / ".test_agent" / "node_modules" / ".bin" / "gemini"
INSTALL = HERE.parent / "scripts" / "install_test_agent.sh"
MODEL = "gemini-2.5-flash"  # an explicit model: "auto" would first ask a routing model for a JSON score


class ScriptedGemini:
    """A Gemini API endpoint whose model turns come from ``script(contents) -> parts``; requests are kept."""

    def __init__(self, script):
        self.script = script
        self.requests: list[dict] = []
        self.turns = 0
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *a):  # quiet
                pass

            def do_POST(self):
                body = json.loads(self.rfile.read(int(self.headers.get("content-length") or 0)) or b"{}")
                outer.requests.append({"path": self.path, "body": body})
                if "streamGenerateContent" in self.path:
                    outer.turns += 1
                    parts = outer.script(body.get("contents", []))
                else:  # side calls (a JSON-schema helper): a short text is enough
                    parts = [{"text": '{"next_speaker": "user", "reasoning": "done"}'}]
                resp = {"candidates": [{"content": {"role": "model", "parts": parts}, "finishReason": "STOP",
                                        "index": 0}],
                        "usageMetadata": {"promptTokenCount": 100, "candidatesTokenCount": 10,
                                          "totalTokenCount": 110}, "modelVersion": MODEL}
                if "alt=sse" in self.path:
                    data = b"data: " + json.dumps(resp).encode() + b"\r\n\r\n"
                    ctype = "text/event-stream"
                else:
                    data, ctype = json.dumps(resp).encode(), "application/json"
                self.send_response(200)
                self.send_header("content-type", ctype)
                self.send_header("content-length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self):
        self.server.shutdown()
        self.server.server_close()


def function_responses(contents: list[dict]) -> list[dict]:
    """Every functionResponse part the CLI sent, in order (``{"name", "response"}``)."""
    return [p["functionResponse"] for c in contents for p in c.get("parts", []) if "functionResponse" in p]


def response_text(fr: dict) -> str:
    r = fr.get("response", {})
    return r.get("output", r.get("error", json.dumps(r))) if isinstance(r, dict) else str(r)


def setup_agent(root: Path, sqz: bool) -> dict:
    """HOME with the user's settings (one allow rule; telemetry, updates off), ``sqz init`` when ``sqz``."""
    home = root / "home"
    (home / ".gemini").mkdir(parents=True)
    settings = {"security": {"auth": {"selectedType": "gemini-api-key"}},
                "privacy": {"usageStatisticsEnabled": False},
                "telemetry": {"enabled": False},
                "general": {"disableAutoUpdate": True, "disableUpdateNag": True},
                "tools": {"allowed": ["run_shell_command(git log)"]}}
    (home / ".gemini" / "settings.json").write_text(json.dumps(settings, indent=2) + "\n")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GEMINI_", "GOOGLE_", "SQZ_"))}
    env.update(HOME=str(home), SQZ_DB_PATH=str(root / "sqz.db"), SQZ_CACHE_DIR=str(root / "sqz-cache"),
               XDG_DATA_HOME=str(home / ".local" / "share"), XDG_CACHE_HOME=str(home / ".cache"))
    if sqz:
        shim = sqz_shim(root)
        r = subprocess.run([str(shim), "init", "--only", "gemini-cli", "--yes"], env=dict(env, SQZ_BIN=str(shim)),
                           capture_output=True, text=True, timeout=30)
        assert r.returncode == 0, r.stdout + r.stderr
        env["SQZ_E2E_SHIM"] = str(shim)
    return env


def run_gemini(root: Path, env: dict, server: ScriptedGemini, prompt: str, cwd: Path):
    env = dict(env, GOOGLE_GEMINI_BASE_URL=server.url, GEMINI_API_KEY="dummy-key",
               GEMINI_CLI_TRUST_WORKSPACE="true", NO_COLOR="1", CI="1")
    env.pop("SQZ_E2E_SHIM", None)
    return subprocess.run([str(GEMINI), "-m", MODEL, "-p", prompt, "--output-format", "json"], cwd=cwd, env=env,
                          stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=180)


def require_gemini():
    """CI installs the CLI with scripts/install_test_agent.sh; without it this test fails, it never skips."""
    assert GEMINI.exists(), f"Gemini CLI missing: run {INSTALL} (npm, pinned version) first"


HINT = re.compile(r"sqz expand (n[0-9]{15,}|[0-9a-f]{8,})")  # the recovery line's decimal id, a ref's hex
PRINTED_HINT = re.compile(r"^\[([^\]\n]* expand n[0-9]{15,})\]$", re.M)  # the recovery line's command


def session(tmp_path: Path, sqz: bool):
    root = tmp_path
    work = root / "work"  # the workspace is not a repository: a command run outside repo/ fails
    work.mkdir()
    repo = make_repo(work)
    env = setup_agent(root, sqz)
    return root, work, repo, env


def test_gemini_cli_end_to_end_with_sqz(tmp_path):
    """git log allowed by the user's rule, run in dir_path, compressed; reads as Gemini gives them; expand."""
    require_gemini()
    root, work, repo, env = session(tmp_path, sqz=True)
    shim = root / "bin" / "sqz"
    policy = (root / "home" / ".gemini" / "policies" / "sqz.toml").read_text()
    assert shlex.quote(str(shim)).replace("/", "\\\\/") in policy  # init wrote rules for this very sqz

    def script(contents):
        done = sum(1 for c in contents if c.get("role") == "model")
        if done == 0:
            return [{"functionCall": {"name": "run_shell_command", "args": {
                "command": "git log --stat -n 5", "description": "recent commits", "dir_path": "repo"}}}]
        if done in (1, 2):
            return [{"functionCall": {"name": "read_file", "args": {"file_path": "repo/notes.txt"}}}]
        if done == 3:  # the recovery hint run exactly as printed (whatever words it names sqz by)
            first = response_text(function_responses(contents)[0])
            m = PRINTED_HINT.search(first)
            return [{"functionCall": {"name": "run_shell_command", "args": {
                "command": m.group(1) if m else "echo no-hint-in-output", "description": "original output",
                "dir_path": "repo"}}}]
        if done == 4:  # not allowed by the user's rule: sqz's rules must not let it through
            return [{"functionCall": {"name": "run_shell_command", "args": {
                "command": "touch not-allowed", "description": "write", "dir_path": "repo"}}}]
        if done == 5:  # the recovery line's id pasted in the ref form a ref prints: <sqz> expand '§ref:ID§'
            m = PRINTED_HINT.search(response_text(function_responses(contents)[0]))
            words, ref = m.group(1).rsplit(" ", 1) if m else ("echo", "no-hint-in-output")
            return [{"functionCall": {"name": "run_shell_command", "args": {
                "command": f"{words} '§ref:{ref}§'", "description": "original output", "dir_path": "repo"}}}]
        return [{"text": "done"}]

    server = ScriptedGemini(script)
    try:
        r = run_gemini(root, env, server, "Show the recent commits and the notes.", work)
    finally:
        server.close()
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]
    frs = function_responses(server.requests[-1]["body"]["contents"])
    assert [f["name"] for f in frs] == ["run_shell_command", "read_file", "read_file", "run_shell_command",
                                        "run_shell_command", "run_shell_command"]
    log, read1, read2, expand, touch, pasted = (response_text(f) for f in frs)
    # Gemini serves no refs of its own (no read result can be replaced, each rewritten command is compressed
    # on its own): the pasted form is the recovery line's id as a ref, allowed by sqz's policy rule as printed
    assert "denied" not in pasted, pasted
    for line in raw_git_log(repo).splitlines():
        assert line.strip() in pasted, (line, pasted)
    assert touch == "Tool execution denied by policy." and not (repo / "not-allowed").exists()
    # allowed as without sqz (the user's run_shell_command(git log) rule), in repo/ (dir_path kept)
    assert "denied" not in log and "not a git repository" not in log, log
    raw = raw_git_log(repo)
    for fact in MAKE_REPO_FACTS:
        assert fact in log, (fact, log)
    m = HINT.search(log)
    assert m, log  # compressed: a ref to the full output ...
    body = log.split("Output:", 1)[1].split("Process Group PGID")[0]
    assert len(body) < len(raw) * 0.7 and "Author: Ada <ada@example.org>" not in body  # ... and shorter
    # Gemini has no hook that replaces a read's result (AfterTool output is never read back):
    # the second read is the file again, in full, as without sqz
    assert "note 119: the release checklist item number 119 is done" in read1
    assert read2 == read1
    # sqz expand through the agent (allowed by sqz's policy rule) gives the original back, unwrapped
    assert "denied" not in expand, expand
    for line in raw.splitlines():
        assert line.strip() in expand, (line, expand)
    assert not HINT.search(expand)


def test_gemini_cli_still_works_when_sqz_is_missing(tmp_path):
    """sqz init, then the sqz it wrote is gone: Gemini still runs the command, as without sqz."""
    require_gemini()
    root, work, repo, env = session(tmp_path, sqz=True)
    shutil.rmtree(root / "bin")

    def script(contents):
        done = sum(1 for c in contents if c.get("role") == "model")
        if done == 0:
            return [{"functionCall": {"name": "run_shell_command", "args": {
                "command": "git log --stat -n 5", "description": "recent commits", "dir_path": "repo"}}}]
        if done == 1:
            return [{"functionCall": {"name": "read_file", "args": {"file_path": "repo/notes.txt"}}}]
        return [{"text": "done"}]

    server = ScriptedGemini(script)
    try:
        r = run_gemini(root, env, server, "Show the recent commits.", work)
    finally:
        server.close()
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]
    frs = function_responses(server.requests[-1]["body"]["contents"])
    log, read = (response_text(f) for f in frs)
    for line in raw_git_log(repo).splitlines():
        assert line.strip() in log, (line, log)
    assert "note 119: the release checklist item number 119 is done" in read
