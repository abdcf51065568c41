"""copilot_cli: hook contract (if transparent) and init/uninstall round trip on a seeded home."""

import json
import os
import subprocess
import sys

import pytest

from sqz_core import setup_cmds
from sqz_integration_copilot_cli import integration


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


def test_pre_tool_use_modified_args(home):
    data = {"sessionId": "c-1", "timestamp": 1704614600000, "cwd": "/p", "toolName": "bash",
            "toolArgs": json.dumps({"command": "git status", "description": "status"})}
    out = json.loads(integration.hook(json.dumps(data).encode(), []))
    assert set(out) == {"modifiedArgs"} and out["modifiedArgs"]["description"] == "status"
    assert "--session c-1" in out["modifiedArgs"]["command"]
    data["toolArgs"] = {"command": "git status", "mode": "async"}
    assert integration.hook(json.dumps(data).encode(), []) is None
    data["toolName"] = "view"
    assert integration.hook(json.dumps(data).encode(), []) is None


def test_round_trip_own_hooks_file(home):
    after = round_trip(home, {".copilot/config.json": '{"model": "x"}\n', ".copilot/hooks/audit.json": '{"version": 1, "hooks": {}}\n'})
    doc = json.loads(after[".copilot/hooks/sqz.json"])
    assert doc["version"] == 1 and doc["hooks"]["preToolUse"][0]["bash"] == "'/opt/sqz tools/sqz' hook copilot-cli"
    assert doc["hooks"]["PreCompact"][0]["bash"].endswith("hook precompact")
