"""cursor: hook contract (if transparent) and init/uninstall round trip on a seeded home."""

import json
import os
import subprocess
import sys

import pytest

from sqz_core import setup_cmds
from sqz_integration_cursor import integration


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


def test_advisory_tier_has_no_hook():
    assert integration.tier == "advisory" and not hasattr(integration, "hook")


def test_round_trip_keeps_existing_servers(home):
    after = round_trip(home, {".cursor/mcp.json": '{\n  "mcpServers": {\n    "github": {"command": "gh-mcp"}\n  }\n}\n'})

    from sqz_core.configfiles import parse_jsonc, to_python

    value = to_python(parse_jsonc(after[".cursor/mcp.json"].decode()))
    assert value["mcpServers"]["sqz"]["command"] == "/opt/sqz tools/sqz-mcp" and len(value["mcpServers"]) == 2
