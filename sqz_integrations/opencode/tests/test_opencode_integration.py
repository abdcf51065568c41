"""opencode: hook contract (if transparent) and init/uninstall round trip on a seeded home."""

import json
import os
import subprocess
import sys

import pytest

from sqz_core import setup_cmds
from sqz_integration_opencode import integration


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


def test_bash_rewrite_and_read_dedup(home):
    out = json.loads(integration.hook(json.dumps({"tool": "bash", "sessionID": "o-1", "args": {"command": "ls"}}).encode(), []))
    assert out["command"].startswith("{ ( ls\n)") and "--session o-1" in out["command"]
    assert integration.hook(json.dumps({"tool": "bash", "sessionID": "o-1", "args": {"command": "htop"}}).encode(), []) is None
    text = "".join(f"const value{i} = compute({i});\n" for i in range(300))
    post = {"tool": "read", "sessionID": "o-1", "output": text}
    assert integration.hook(json.dumps(post).encode(), ["--post"]) is None
    assert "§ref:" in json.loads(integration.hook(json.dumps(post).encode(), ["--post"]))["output"]


def test_round_trip_generated_plugin(home):
    after = round_trip(home, {".config/opencode/opencode.jsonc": '{\n  // mine\n  "mcp": {}\n}\n'})
    src = after[".config/opencode/plugins/sqz.js"].decode()
    assert '["/opt/sqz tools/sqz"]' in src and "tool.execute.before" in src and "session.compacted" in src
