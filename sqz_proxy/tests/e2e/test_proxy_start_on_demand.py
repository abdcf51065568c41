"""Start on demand, with the real CLIs: after ``sqz init --proxy`` a session finds the proxy running although
nobody started it (issue 26.6). The proxy is down before the run; the agent's own start hook (Gemini CLI
``SessionStart``, Copilot CLI ``sessionStart``, OpenCode's plugin) starts it; the agent's model calls then go
through it to the scripted model on 127.0.0.1 (its upstream, set by ``SQZ_PROXY_<P>_URL`` in the agent's
environment, so nothing leaves the machine). Each test stops the proxy the hook started.
"""

from __future__ import annotations

import importlib.util
import json
import os
import socket
import subprocess
import sys
from pathlib import Path

from sqz_agents.testing import make_repo, sqz_shim
from sqz_proxy.control import health

ROOT = Path(__file__).resolve().parents[3]


def _load(name: str, path: Path):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.path.insert(0, str(path.parent))
    try:
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(path.parent))
    return module


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def init_proxy(shim: Path, env: dict, agent: str, cwd: Path) -> subprocess.CompletedProcess:
    r = subprocess.run([str(shim), "init", "--only", agent, "--proxy", "--yes"], env=dict(env, SQZ_BIN=str(shim)),
                       cwd=cwd, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stdout + r.stderr
    return r


def stop(shim: Path, env: dict) -> str:
    r = subprocess.run([str(shim), "proxy", "stop"], env=env, capture_output=True, text=True, timeout=60)
    return r.stdout


def test_gemini_cli_session_start_hook_starts_the_proxy_its_calls_then_go_through(tmp_path):
    harness = _load("gemini_e2e_harness_for_start", ROOT / "sqz_integrations/gemini_cli/tests/test_gemini_cli_e2e.py")
    harness.require_gemini()
    work = tmp_path / "work"
    work.mkdir()
    make_repo(work)
    env = harness.setup_agent(tmp_path, sqz=False)
    shim = sqz_shim(tmp_path)
    port = free_port()
    env["SQZ_PROXY_PORT"] = str(port)
    init_proxy(shim, env, "gemini-cli", work)

    def script(contents):
        done = sum(1 for c in contents if c.get("role") == "model")
        if done == 0:
            return [{"functionCall": {"name": "run_shell_command", "args": {
                "command": "git log --stat -n 5", "description": "history", "dir_path": "repo"}}}]
        return [{"text": "done"}]

    server = harness.ScriptedGemini(script)
    assert health("127.0.0.1", port, timeout=1.0) is None  # down before the session

    class Via:  # the exported GOOGLE_GEMINI_BASE_URL init printed
        url = f"http://127.0.0.1:{port}/gemini"

    try:
        r = harness.run_gemini(tmp_path, dict(env, SQZ_PROXY_GEMINI_URL=server.url), Via, "Show the history.", work)
        running = health("127.0.0.1", port, timeout=60.0)  # a bound on a hang, not a speed check
    finally:
        server.close()
        stopped = stop(shim, env)
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]
    assert running is not None and "stopped (pid" in stopped, stopped
    main = [q for q in server.requests if "streamGenerateContent" in q["path"]]
    assert len(main) >= 2  # both turns reached the model, through the proxy the hook started
    results = harness.function_responses(main[-1]["body"]["contents"])
    assert "pkg0: add mod6 with 46 functions" in harness.response_text(results[0])


def test_copilot_cli_session_start_hook_starts_the_proxy_its_calls_then_go_through(tmp_path):
    harness = _load("copilot_e2e_harness_for_start", ROOT / "sqz_integrations/copilot_cli/tests/"
                                                           "test_copilot_cli_e2e.py")
    harness.require_copilot()
    (tmp_path / "work").mkdir()
    repo = make_repo(tmp_path / "work")
    env = harness.setup_agent(tmp_path, sqz=False)
    shim = sqz_shim(tmp_path)
    port = free_port()
    env["SQZ_PROXY_PORT"] = str(port)
    r = init_proxy(shim, env, "copilot-cli", repo)
    assert f"export COPILOT_PROVIDER_BASE_URL=http://127.0.0.1:{port}/openai/v1" in r.stdout

    def script(messages):
        if not any(m.get("role") == "assistant" for m in messages):
            return ("tool", "bash", {"command": "git log --stat -n 5", "description": "history"})
        return ("text", "done")

    server = harness.ScriptedOpenAI(script)
    assert health("127.0.0.1", port, timeout=1.0) is None

    class Via:
        url = f"http://127.0.0.1:{port}/openai/v1"

    try:
        r = harness.run_copilot(dict(env, SQZ_PROXY_OPENAI_URL=server.url.rsplit("/v1", 1)[0]), Via,
                                "Show the history.", repo)
        running = health("127.0.0.1", port, timeout=60.0)  # a bound on a hang, not a speed check
    finally:
        server.close()
        stopped = stop(shim, env)
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]
    assert running is not None and "stopped (pid" in stopped, stopped
    bodies = [q["body"] for q in server.requests if q["body"] and q["body"].get("messages")]
    assert bodies and "pkg0: add mod6 with 46 functions" in harness.tool_messages(bodies[-1]["messages"])[0]


def test_opencode_plugin_starts_the_proxy_its_calls_then_go_through(tmp_path):
    harness = _load("opencode_e2e_harness_for_start", ROOT / "sqz_integrations/opencode/tests/test_opencode_e2e.py")
    harness.opencode_bin()
    env = harness.make_env(tmp_path)
    repo = Path(harness.make_repo(tmp_path, env))
    shim = sqz_shim(tmp_path)
    port = free_port()
    env.update(SQZ_PROXY_PORT=str(port), SQZ_DB_PATH=str(tmp_path / "sqz.db"), SQZ_CACHE_DIR=str(tmp_path / "cache"))
    init_proxy(shim, env, "opencode", repo)
    assert (tmp_path / "home" / ".config" / "opencode" / "plugins" / "sqz-proxy.js").is_file()

    def step(messages):
        if not harness.tool_results(messages):
            return ("tool", "bash", {"command": "git log --stat -n 5", "description": "history"})
        return ("text", "Done.")

    with harness.ScriptedModel(step) as model:
        # the user's own provider, pointed at the proxy as init points the built-in ones
        harness.write_config(str(repo), f"http://127.0.0.1:{port}/openai/v1", str(shim))
        assert health("127.0.0.1", port, timeout=1.0) is None
        try:
            r = harness.run_opencode(str(repo), dict(env, SQZ_PROXY_OPENAI_URL=model.base_url.rsplit("/v1", 1)[0]))
            running = health("127.0.0.1", port, timeout=60.0)  # a bound on a hang, not a speed check
        finally:
            stopped = stop(shim, env)
        main = [q for q in model.requests if q.get("tools")]
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]
    assert running is not None and "stopped (pid" in stopped, stopped
    assert main and "Add the zeta parser module" in harness.tool_results(main[-1]["messages"])[0]


def test_claude_code_session_start_hook_starts_the_proxy_its_calls_then_go_through(tmp_path):
    harness = _load("claude_scripted_model_for_start", ROOT / "sqz_integrations/claude_code/tests/e2e/"
                                                              "claude_scripted_model.py")
    claude = ROOT / ".cache/agents/claude/node_modules/.bin/claude"
    assert os.access(claude, os.X_OK), f"{claude} is not installed: run `bash scripts/install_test_deps.sh` first"
    home = tmp_path / "home"
    home.mkdir()
    (tmp_path / "work").mkdir()
    repo = make_repo(tmp_path / "work")
    shim = sqz_shim(tmp_path)
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("ANTHROPIC_", "CLAUDE", "SQZ_"))}
    env.update(HOME=str(home), SQZ_DB_PATH=str(tmp_path / "sqz.db"), SQZ_CACHE_DIR=str(tmp_path / "cache"),
               SQZ_PROXY_PORT=str(port), ANTHROPIC_API_KEY="sk-ant-test-dummy",
               CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC="1", DISABLE_AUTOUPDATER="1", DISABLE_TELEMETRY="1",
               DISABLE_ERROR_REPORTING="1")
    init_proxy(shim, env, "claude-code", repo)
    settings = json.loads((home / ".claude" / "settings.json").read_text())
    assert settings["env"]["ANTHROPIC_BASE_URL"] == f"http://127.0.0.1:{port}"  # what init wrote, nothing else

    def script(messages):
        if not harness.tool_results(messages):
            return ("tool", "Read", {"file_path": str(repo / "notes.txt")})
        return ("text", "done")

    with harness.ScriptedModel(script) as model:
        assert health("127.0.0.1", port, timeout=1.0) is None
        try:
            r = subprocess.run([str(claude), "-p", "Read the notes."], cwd=repo,
                               env=dict(env, SQZ_PROXY_ANTHROPIC_URL=model.url), capture_output=True, text=True,
                               timeout=300, stdin=subprocess.DEVNULL)
            running = health("127.0.0.1", port, timeout=60.0)  # a bound on a hang, not a speed check
        finally:
            stopped = stop(shim, env)
    assert r.returncode == 0 and r.stdout.strip() == "done", (r.stdout[-2000:], r.stderr[-2000:])
    assert running is not None and "stopped (pid" in stopped, stopped
    got = [harness.result_text(b) for b in harness.tool_results(model.requests[-1]["messages"])]
    assert "note 119: the release checklist item number 119 is done" in got[0]


def test_codex_session_start_hook_starts_the_proxy_for_the_sqz_proxy_profile(tmp_path):
    harness = _load("codex_e2e_harness_for_start", ROOT / "sqz_integrations/codex/tests/test_codex_e2e.py")
    codex = harness.codex_bin()
    env = harness.make_env(tmp_path)
    repo = harness.make_repo(tmp_path, env)
    shim = sqz_shim(tmp_path)
    port = free_port()
    env.update(SQZ_PROXY_PORT=str(port), SQZ_DB_PATH=str(tmp_path / "sqz.db"), SQZ_CACHE_DIR=str(tmp_path / "cache"),
               OPENAI_API_KEY="sk-test-dummy")

    def step(request):
        if not harness.tool_outputs(request):
            return harness.shell_call(request, "git log --stat -n 5")
        return ("text", "Done.")

    with harness.ScriptedModel(step) as model:
        harness.write_config(env, model.base_url)  # the user's own default provider: not the proxy
        init_proxy(shim, env, "codex", Path(repo))
        hooks = json.loads((Path(env["CODEX_HOME"]) / "hooks.json").read_text())
        assert any("proxy start" in h["command"] for e in hooks["hooks"]["SessionStart"] for h in e["hooks"])
        assert health("127.0.0.1", port, timeout=1.0) is None
        try:
            # --dangerously-bypass-hook-trust stands for the user's one-time trust of the hooks in /hooks
            r = subprocess.run([codex, "exec", "--profile", "sqz-proxy", "--dangerously-bypass-hook-trust",
                                "Show me the history."], cwd=repo,
                               env=dict(env, SQZ_PROXY_OPENAI_URL=model.base_url.rsplit("/v1", 1)[0]),
                               capture_output=True, text=True, timeout=300, stdin=subprocess.DEVNULL)
            running = health("127.0.0.1", port, timeout=60.0)  # a bound on a hang, not a speed check
        finally:
            stopped = stop(shim, env)
        requests = list(model.requests)
    assert r.returncode == 0, r.stderr[-3000:]
    assert running is not None and "stopped (pid" in stopped, stopped
    got = harness.tool_outputs(requests[-1])
    assert got and "Add the zeta parser module" in got[0], got
