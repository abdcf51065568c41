"""codex: hook contract (if transparent) and init/uninstall round trip on a seeded home."""

import json
import os
import subprocess
import sys

import pytest

from sqz_core import setup_cmds
from sqz_integration_codex import integration


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


def test_round_trip_toml_and_agents_md(home):
    seed = {".codex/config.toml": '# my codex config\nmodel = "o3"\n\n[mcp_servers.docs]\ncommand = "docs"  # keep\n',
            ".codex/AGENTS.md": "# Global rules\n\nBe terse.\n"}
    after = round_trip(home, seed)
    toml = after[".codex/config.toml"].decode()
    assert toml.startswith(seed[".codex/config.toml"]) and '[mcp_servers.sqz]\ncommand = "/opt/sqz tools/sqz-mcp"' in toml
    assert "sqz compress" in after[".codex/AGENTS.md"].decode() and "SQZ_NO_DEDUP=1" in after[".codex/AGENTS.md"].decode()


def test_invalid_toml_left_alone(home):
    (home / ".codex").mkdir()
    (home / ".codex" / "config.toml").write_text("model = = 1\n")
    ctx = setup_cmds.make_ctx(home=str(home))
    lines = []
    assert setup_cmds.run_init({"codex": integration}, dict(ctx, force=True), echo=lines.append) == 1
    assert (home / ".codex" / "config.toml").read_text() == "model = = 1\n" and "invalid TOML" in " ".join(lines)
