"""``sqz init --proxy`` points agents at the proxy, ``sqz doctor`` says when it is down, ``sqz uninstall`` undoes it."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import tomllib

from sqz_proxy.testing import running_proxy


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def run(env, *args):
    return subprocess.run([sys.executable, "-m", "sqz_core", *args], env=env, capture_output=True, text=True,
                          timeout=120)


def test_init_proxy_doctor_and_uninstall(tmp_path):
    home = tmp_path / "home"
    (home / ".claude").mkdir(parents=True)
    (home / ".codex").mkdir()
    (home / ".config" / "opencode").mkdir(parents=True)
    original = '{\n  "model": "opus"\n}\n'
    (home / ".claude" / "settings.json").write_text(original)
    (home / ".codex" / "config.toml").write_text('model = "gpt-5-codex"\n')
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SQZ_PROXY", "ANTHROPIC_", "CLAUDE"))}
    env.update(HOME=str(home), SQZ_PROXY_PORT=str(port), XDG_CONFIG_HOME=str(home / ".config"))
    r = run(env, "init", "--only", "claude-code,codex,opencode,gemini-cli", "--proxy", "--yes")
    assert r.returncode == 0, r.stdout + r.stderr
    url = f"http://127.0.0.1:{port}"
    assert f"export GOOGLE_GEMINI_BASE_URL={url}/gemini" in r.stdout
    claude = json.loads((home / ".claude" / "settings.json").read_text())
    assert claude["model"] == "opus" and claude["env"]["ANTHROPIC_BASE_URL"] == url
    starts = [h["command"] for e in claude["hooks"]["SessionStart"] for h in e["hooks"]]
    assert any(c.endswith(f" proxy start --port {port} --quiet") for c in starts), starts
    codex = tomllib.loads((home / ".codex" / "config.toml").read_text())
    assert codex["model"] == "gpt-5-codex" and "model_provider" not in codex
    assert codex["model_providers"]["sqz-proxy"]["base_url"] == f"{url}/openai/v1"
    # the profile is its own file (Codex 0.171 refuses a [profiles.sqz-proxy] table in config.toml)
    assert "profiles" not in codex
    profile = tomllib.loads((home / ".codex" / "sqz-proxy.config.toml").read_text())
    assert profile["model_provider"] == "sqz-proxy"
    oc = json.loads((home / ".config" / "opencode" / "opencode.json").read_text())
    assert oc["provider"]["anthropic"]["options"]["baseURL"] == f"{url}/anthropic/v1"
    before = {p: (home / p).read_text() for p in (".claude/settings.json", ".codex/config.toml",
                                                  ".config/opencode/opencode.json")}
    again = run(env, "init", "--only", "claude-code,codex,opencode", "--proxy", "--yes")
    assert again.returncode == 0, again.stdout + again.stderr
    assert {p: (home / p).read_text() for p in before} == before  # a second run changes nothing

    down = run(env, "doctor", "--only", "claude-code")
    assert down.returncode == 1
    assert f"proxy: problem: claude-code sends its model calls to the sqz proxy at {url}, which is not running" \
        in down.stdout, down.stdout
    assert "codex sends its model calls" in down.stdout and "opencode sends its model calls" in down.stdout

    with running_proxy("http://127.0.0.1:9") as proxy:
        up = run(dict(env, SQZ_PROXY_PORT=str(proxy.port)), "doctor", "--only", "claude-code")
    assert f"127.0.0.1:{proxy.port}" not in up.stdout

    r = run(env, "uninstall", "--only", "claude-code,codex,opencode")
    assert r.returncode == 0, r.stdout + r.stderr
    assert (home / ".claude" / "settings.json").read_text() == original
    assert (home / ".codex" / "config.toml").read_text() == 'model = "gpt-5-codex"\n'
    assert not (home / ".codex" / "sqz-proxy.config.toml").exists()


def test_init_proxy_installs_each_agents_start_on_demand_and_uninstall_removes_it_exactly(tmp_path):
    home = tmp_path / "home"
    for d in (".gemini", ".copilot", ".codex", ".config/opencode", ".claude"):
        (home / d).mkdir(parents=True)
    gemini_before = '{\n  "general": {"vimMode": true}\n}\n'
    (home / ".gemini" / "settings.json").write_text(gemini_before)
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SQZ_PROXY", "ANTHROPIC_", "CLAUDE", "CODEX_",
                                                                    "GOOGLE_", "COPILOT_"))}
    env.update(HOME=str(home), SQZ_PROXY_PORT=str(port), XDG_CONFIG_HOME=str(home / ".config"))
    agents = "gemini-cli,copilot-cli,codex,opencode"
    r = run(env, "init", "--only", agents, "--proxy", "--yes")
    assert r.returncode == 0, r.stdout + r.stderr
    start = f" proxy start --port {port} --quiet"
    gemini = json.loads((home / ".gemini" / "settings.json").read_text())
    assert gemini["general"] == {"vimMode": True}
    assert [h["command"] for e in gemini["hooks"]["SessionStart"] for h in e["hooks"]][0].endswith(start)
    copilot = json.loads((home / ".copilot" / "hooks" / "sqz-proxy.json").read_text())
    assert copilot["version"] == 1 and copilot["hooks"]["sessionStart"][0]["bash"].endswith(start)
    codex = json.loads((home / ".codex" / "hooks.json").read_text())
    assert any(h["command"].endswith(start) for e in codex["hooks"]["SessionStart"] for h in e["hooks"])
    plugin = (home / ".config" / "opencode" / "plugins" / "sqz-proxy.js").read_text()
    argv = json.loads(plugin.split("const START = ", 1)[1].split(";\n", 1)[0])
    assert argv[-5:] == ["proxy", "start", "--port", str(port), "--quiet"]
    assert f"export COPILOT_PROVIDER_BASE_URL=http://127.0.0.1:{port}/openai/v1" in r.stdout

    # doctor: the variable in the shell it runs in points Gemini at a proxy that is down
    down = run(dict(env, GOOGLE_GEMINI_BASE_URL=f"http://127.0.0.1:{port}/gemini"), "doctor", "--only", "gemini-cli")
    assert f"gemini-cli sends its model calls to the sqz proxy at http://127.0.0.1:{port}, which is not running" \
        in down.stdout, down.stdout

    r = run(env, "uninstall", "--only", agents)
    assert r.returncode == 0, r.stdout + r.stderr
    assert not (home / ".copilot" / "hooks" / "sqz-proxy.json").exists()
    assert not (home / ".config" / "opencode" / "plugins" / "sqz-proxy.js").exists()
    assert (home / ".gemini" / "settings.json").read_text() == gemini_before
    if (home / ".codex" / "hooks.json").exists():
        assert "proxy start" not in (home / ".codex" / "hooks.json").read_text()
