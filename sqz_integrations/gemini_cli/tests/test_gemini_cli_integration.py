"""gemini_cli: hook contract (if transparent) and init/uninstall round trip on a seeded home."""

import json
import os
import subprocess
import sys

import pytest

from sqz_core import setup_cmds
from sqz_integration_gemini_cli import integration


@pytest.fixture()
def home(tmp_path, monkeypatch):
    h = tmp_path / "home dir ü"
    h.mkdir()
    monkeypatch.setenv("HOME", str(h))
    for var in ("SQZ_DB_PATH", "SQZ_CACHE_DIR", "XDG_DATA_HOME", "XDG_CACHE_HOME"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("SQZ_BIN", "/opt/sqz tools/sqz")
    monkeypatch.setenv("SQZ_MCP_BIN", "/opt/sqz tools/sqz-mcp")
    return h


def tree(root):
    out = {}
    for d, _, files in os.walk(root):
        if "/.local" in d or "/.cache" in d:
            continue
        for f in files:
            with open(os.path.join(d, f), "rb") as fh:
                out[os.path.relpath(os.path.join(d, f), root)] = fh.read()
    return out


def round_trip(home, seed: dict):
    for rel, text in seed.items():
        p = home / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text)
    before = tree(home)
    ctx = setup_cmds.make_ctx(home=str(home))
    ctx["force"] = True
    names = {integration.name: integration}
    assert setup_cmds.run_init(names, ctx, echo=lambda s: None) == 0
    after = tree(home)
    assert after != before
    lines = []
    setup_cmds.run_init(names, ctx, echo=lines.append)
    assert tree(home) == after and lines == [f"{integration.name}: already configured"]
    assert setup_cmds.run_uninstall(names, ctx, echo=lambda s: None) == 0
    assert tree(home) == before
    return after


def test_before_tool_rewrites_shell_command(home):
    data = {"session_id": "g-1", "transcript_path": "/t.json", "cwd": "/p", "hook_event_name": "BeforeTool",
            "timestamp": "2025-12-01T10:30:00Z", "tool_name": "run_shell_command",
            "tool_input": {"command": "ls /nope", "description": "list"}}
    out = json.loads(integration.hook(json.dumps(data).encode(), []))["hookSpecificOutput"]
    assert out["hookEventName"] == "BeforeTool" and "decision" not in out
    new = out["tool_input"]["command"]
    assert "--session g-1" in new
    r = subprocess.run(["bash", "-c", new.replace("'/opt/sqz tools/sqz'", sys.executable + " -m sqz_core")],
                       capture_output=True, text=True, env=dict(os.environ, SQZ_DB_PATH=str(home / "db")))
    assert r.returncode == 2 and "No such file or directory" in r.stdout
    data["tool_input"]["command"] = "vim notes"
    assert integration.hook(json.dumps(data).encode(), []) is None
    data["tool_name"] = "read_file"
    assert integration.hook(json.dumps(data).encode(), []) is None


def test_after_tool_dedups_repeated_read(home):
    content = "".join(f"line {i}: some file content that repeats across reads\n" for i in range(300))
    data = {"session_id": "g-2", "hook_event_name": "AfterTool", "tool_name": "read_file",
            "tool_input": {"file_path": "/p/a.txt"}, "tool_response": {"llmContent": content, "returnDisplay": ""}}
    assert integration.hook(json.dumps(data).encode(), ["--post"]) is None
    out = json.loads(integration.hook(json.dumps(data).encode(), ["--post"]))["hookSpecificOutput"]
    assert out["hookEventName"] == "AfterTool" and "§ref:" in out["tool_output"]


def test_round_trip_keeps_seeded_settings(home):
    seed = '{\n  // my gemini settings\n  "theme": "GitHub",\n  "hooks": {"BeforeTool": [{"matcher": "write_file", "hooks": [{"type": "command", "command": "audit.sh"}]}]},\n  "mcpServers": {"docs": {"command": "docs"}}\n}\n'
    after = round_trip(home, {".gemini/settings.json": seed})
    text = after[".gemini/settings.json"].decode()
    assert "// my gemini settings" in text and "'/opt/sqz tools/sqz' hook gemini-cli" in text and "PreCompress" in text
