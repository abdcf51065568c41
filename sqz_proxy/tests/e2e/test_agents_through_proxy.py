"""Real agent CLIs talking to their scripted model through `sqz proxy` (no sqz hooks installed).

The upstream is the e2e harness's scripted model on 127.0.0.1 (Claude Code's ``claude_scripted_model``,
the Gemini CLI test's ``ScriptedGemini``); the agents are the pinned CLIs ``scripts/install_test_deps.sh``
installs (without them these tests fail and say so). The proxy runs in this process and keeps each
body as the agent sent it, so every assertion compares what the agent sent with what the model received.
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from sqz_core.api import count_tokens
from sqz_testing import fact_kept
from sqz_proxy import wire
from sqz_proxy.testing import running_proxy

ROOT = Path(__file__).resolve().parents[3]
CLAUDE = ROOT / ".cache/agents/claude/node_modules/.bin/claude"
GEMINI = ROOT / "sqz_integrations/gemini_cli/.test_agent/node_modules/.bin/gemini"
FAILING = '''import pytest


def add(a, b):
    return a + b


@pytest.mark.parametrize("a,b,want", [(i, i, 2 * i + (1 if i % 7 == 3 else 0)) for i in range(40)])
def test_add(a, b, want):
    assert add(a, b) == want
'''
FAILED_IDS = [f"test_calc.py::test_add[{i}-{i}-{2 * i + 1}]" for i in range(40) if i % 7 == 3]


def _load(name: str, path: Path):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.path.insert(0, str(path.parent))
    try:
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(path.parent))
    return module


def report(agent: str, raw: list[str], got: list[str]) -> None:
    """With ``SQZ_PROXY_E2E_REPORT=FILE`` (``benchmarks/proxy_agents.py``): one JSON line of this run's
    tool-result tokens (cl100k) as the agent sent them and as the model received them."""
    path = os.environ.get("SQZ_PROXY_E2E_REPORT")
    if not path:
        return
    row = {"agent": agent, "results": len(raw), "tokens_sent": sum(count_tokens(t)[0] for t in raw),
           "tokens_received": sum(count_tokens(t)[0] for t in got),
           "per_result": [[count_tokens(a)[0], count_tokens(b)[0]] for a, b in zip(raw, got)]}
    with open(path, "a", encoding="utf-8") as fh:
        fh.write(json.dumps(row) + "\n")


def require(binary: Path) -> str:
    if not os.access(binary, os.X_OK):
        pytest.fail(f"{binary} is not installed: run `bash scripts/install_test_deps.sh` first")
    return str(binary)


class Recording:
    """The proxy's rewrite step, keeping every body as the agent sent it."""

    def __init__(self, proxy):
        self.sent: list[tuple[str, dict]] = []
        inner = proxy._rewrite

        def rewrite(fmt, body, agent, stats):
            try:
                self.sent.append((fmt, json.loads(body)))
            except ValueError:
                pass
            return inner(fmt, body, agent, stats)

        proxy._rewrite = rewrite


def repo_with_failing_tests(root: Path) -> Path:
    repo = root / "repo"
    (repo / "src").mkdir(parents=True)
    (repo / "test_calc.py").write_text(FAILING)
    (repo / "src" / "notes.py").write_text("".join(f"def note_{i}(text):\n    return text.count({i!r})\n\n"
                                                 for i in range(60)))
    env = dict(os.environ, GIT_AUTHOR_NAME="Ada", GIT_AUTHOR_EMAIL="ada@example.org", GIT_COMMITTER_NAME="Ada",
               GIT_COMMITTER_EMAIL="ada@example.org")
    for args in (["init", "-q"], ["add", "."], ["commit", "-qm", "calc: add() and its tests"]):
        subprocess.run(["git", "-c", "init.defaultBranch=main", *args], cwd=repo, env=env, check=True)
    return repo


def test_claude_code_through_the_proxy_failing_run_compressed_exit_line_kept_reread_deduped(tmp_path):
    claude = require(CLAUDE)
    harness = _load("claude_scripted_model_for_proxy", ROOT / "sqz_integrations/claude_code/tests/e2e/"
                                                             "claude_scripted_model.py")
    home = tmp_path / "home"
    home.mkdir()
    repo = repo_with_failing_tests(tmp_path)
    pytest_cmd = f"{sys.executable} -m pytest -p no:cacheprovider test_calc.py"
    (repo / ".claude").mkdir()
    (repo / ".claude" / "settings.local.json").write_text(json.dumps(
        {"permissions": {"allow": [f"Bash({sys.executable} -m pytest:*)", "Bash(git log:*)"]}}))
    steps = [("tool", "Bash", {"command": pytest_cmd, "description": "Run the tests"}),
             ("tool", "Read", {"file_path": str(repo / "src" / "notes.py")}),
             ("tool", "Bash", {"command": "git log --stat -n 3", "description": "History"}),
             ("tool", "Read", {"file_path": str(repo / "src" / "notes.py")})]

    def script(messages):
        n = len(harness.tool_results(messages))
        return steps[n] if n < len(steps) else ("text", "done")

    env = {k: v for k, v in os.environ.items() if not k.startswith(("ANTHROPIC_", "CLAUDE", "SQZ_"))}
    env.update(HOME=str(home), SQZ_DB_PATH=os.environ["SQZ_DB_PATH"], SQZ_CACHE_DIR=os.environ["SQZ_CACHE_DIR"],
               ANTHROPIC_API_KEY="sk-ant-test-dummy", CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC="1",
               DISABLE_AUTOUPDATER="1", DISABLE_TELEMETRY="1", DISABLE_ERROR_REPORTING="1")
    with harness.ScriptedModel(script) as model, running_proxy(model.url) as proxy:
        rec = Recording(proxy)
        env["ANTHROPIC_BASE_URL"] = f"http://127.0.0.1:{proxy.port}"
        r = subprocess.run([claude, "-p", "Fix the failing tests."], cwd=repo, env=env, capture_output=True,
                           text=True, timeout=300, stdin=subprocess.DEVNULL)
    assert model.errors == [] and r.returncode == 0, (model.errors, r.stdout, r.stderr)
    assert r.stdout.strip() == "done"
    received = model.requests[-1]
    sent = next(b for fmt, b in reversed(rec.sent) if fmt == wire.ANTHROPIC and b.get("tools"))
    assert len(sent["messages"]) == len(received["messages"])
    got = [harness.result_text(b) for b in harness.tool_results(received["messages"])]
    raw = [harness.result_text(b) for b in harness.tool_results(sent["messages"])]
    assert len(got) == len(raw) == 4
    report("claude-code", raw, got)

    # the failing run (Claude Code's PostToolUseFailure case): compressed, every failure and its exit line kept
    failed = harness.tool_results(received["messages"])[0]
    assert failed.get("is_error") is True and raw[0].startswith("Exit code 1\n"), raw[0][:200]
    assert got[0].startswith("Exit code 1\n")
    assert count_tokens(got[0])[0] < 0.8 * count_tokens(raw[0])[0], (got[0], raw[0])
    for test_id in FAILED_IDS:
        assert fact_kept(got[0], f"FAILED {test_id}"), (test_id, got[0])
    assert "6 failed, 34 passed" in got[0] and "6 failed, 34 passed" in raw[0]
    # a first read is file content: never changed
    assert got[1] == raw[1] and "def note_59(text):" in got[1]
    assert "Ada" in got[2] and "calc: add() and its tests" in got[2] and "test_calc.py" in got[2]
    # the re-read: one line naming the earlier read still in the request
    first_read_id = harness.tool_results(received["messages"])[1]["tool_use_id"]
    assert raw[3] == raw[1]  # Claude Code sends the whole file again (2.1.332)
    assert got[3].startswith("§ref:") and first_read_id in got[3] and got[3].count("\n") == 1, got[3]

    # nothing but tool-result text changed, in this request and in every earlier one
    def masked(body):
        body = json.loads(json.dumps(body))
        for s in wire.slots(wire.ANTHROPIC, body):
            s.set("")
        return body

    assert masked(received) == masked(sent)
    # prompt caching: each main-loop request starts with the previous one's messages, as the model got them
    for before, after in zip(model.requests, model.requests[1:]):
        assert after["messages"][:len(before["messages"]) - 1] == before["messages"][:-1]


def test_gemini_cli_through_the_proxy_reread_deduplicated_shell_compressed(tmp_path):
    gemini = require(GEMINI)
    harness = _load("gemini_e2e_harness_for_proxy", ROOT / "sqz_integrations/gemini_cli/tests/test_gemini_cli_e2e.py")
    root = tmp_path
    work = root / "work"
    work.mkdir()
    repo = repo_with_failing_tests(work)
    env = harness.setup_agent(root, sqz=False)
    env = {k: v for k, v in env.items() if not k.startswith("SQZ_")}
    settings = json.loads((root / "home" / ".gemini" / "settings.json").read_text())
    settings["tools"]["allowed"] = ["run_shell_command(git log)", f"run_shell_command({sys.executable} -m pytest)"]
    (root / "home" / ".gemini" / "settings.json").write_text(json.dumps(settings))
    pytest_cmd = f"{sys.executable} -m pytest -p no:cacheprovider test_calc.py"

    def script(contents):
        done = sum(1 for c in contents if c.get("role") == "model")
        if done == 0:
            return [{"functionCall": {"name": "run_shell_command", "args": {
                "command": pytest_cmd, "description": "tests", "dir_path": "repo"}}}]
        if done in (1, 2):
            return [{"functionCall": {"name": "read_file", "args": {"file_path": "repo/src/notes.py"}}}]
        return [{"text": "done"}]

    server = harness.ScriptedGemini(script)
    try:
        with running_proxy(server.url) as proxy:
            rec = Recording(proxy)
            gemini_env = dict(env, SQZ_DB_PATH=os.environ["SQZ_DB_PATH"])

            class Via:  # run_gemini reads .url: the proxy's Gemini prefix
                url = f"http://127.0.0.1:{proxy.port}/gemini"

            r = harness.run_gemini(root, gemini_env, Via, "Run the tests and read the notes.", work)
    finally:
        server.close()
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]
    received = server.requests[-1]["body"]
    sent = next(b for fmt, b in reversed(rec.sent) if fmt == wire.GEMINI and len(b.get("contents", [])) >= 6)
    got = [harness.response_text(f) for f in harness.function_responses(received["contents"])]
    raw = [harness.response_text(f) for f in harness.function_responses(sent["contents"])]
    report("gemini-cli", raw, got)
    assert [f["name"] for f in harness.function_responses(received["contents"])] == \
        ["run_shell_command", "read_file", "read_file"]
    # the failing run: shorter, every failure kept, Gemini's own frame (exit code line) kept
    assert count_tokens(got[0])[0] < count_tokens(raw[0])[0], (got[0], raw[0])
    for test_id in FAILED_IDS:
        assert fact_kept(got[0], f"FAILED {test_id}"), (test_id, got[0])
    # Gemini CLI 0.61 frames it as <untrusted_context>, Output: …, Exit Code: 1, Process Group PGID: N
    assert raw[0].startswith("<untrusted_context>\nOutput: ") and got[0].startswith("<untrusted_context>\nOutput: ")
    frame = raw[0].splitlines()[-3:]
    assert frame[0] == "Exit Code: 1" and frame[2] == "</untrusted_context>", frame
    assert got[0].splitlines()[-3:] == frame, got[0][-300:]
    assert "6 failed, 34 passed" in got[0]
    # the re-read (which no Gemini hook can replace): a one-line ref to the first read
    assert raw[2] == raw[1] and got[1] == raw[1]
    assert got[2].startswith("§ref:") and got[2].count("\n") == 1, got[2]
    assert count_tokens(got[2])[0] < count_tokens(raw[2])[0] / 5


def test_codex_through_the_proxy_failing_run_compressed_and_re_read_deduplicated(tmp_path):
    harness = _load("codex_e2e_harness_for_proxy", ROOT / "sqz_integrations/codex/tests/test_codex_e2e.py")
    harness.codex_bin()
    env = harness.make_env(tmp_path)
    repo = Path(harness.make_repo(tmp_path, env))
    (repo / "test_calc.py").write_text(FAILING)
    pytest_cmd = f"{sys.executable} -m pytest -p no:cacheprovider test_calc.py"
    import re

    def step(request):
        results = harness.tool_outputs(request)
        if not results:
            harness.shell_call(request, pytest_cmd)  # checks the shell tool's name
            return ("tool", "exec_command", {"cmd": pytest_cmd, "yield_time_ms": 30000})
        running = re.search(r"Process running with session ID (\d+)", results[-1])
        if running:  # a loaded machine: wait for the run to end, as an agent does
            return ("tool", "write_stdin", {"session_id": int(running.group(1)), "chars": "",
                                            "yield_time_ms": 30000})
        reads = sum(1 for r in results if "alpha_rule" in r or "§ref:" in r)
        if reads < 2:
            return harness.shell_call(request, "cat alpha.py")
        return ("text", "Done.")

    with harness.ScriptedModel(step) as model, running_proxy(model.base_url.rsplit("/v1", 1)[0]) as proxy:
        rec = Recording(proxy)
        harness.write_config(env, f"http://127.0.0.1:{proxy.port}/openai/v1")
        with open(os.path.join(env["CODEX_HOME"], "rules", "default.rules"), "a", encoding="utf-8") as f:
            f.write(f'prefix_rule(pattern=["{sys.executable}", "-m", "pytest"], decision="allow")\n')
        r = harness.run_codex(str(repo), env)
        assert r.returncode == 0, r.stderr[-3000:]
        received = model.requests[-1]
    sent = next(b for fmt, b in reversed(rec.sent) if fmt == wire.OPENAI_RESPONSES)
    got, raw = harness.tool_outputs(received), harness.tool_outputs(sent)
    assert len(got) == len(raw) and len(got) >= 3, (raw, r.stderr[-3000:])
    report("codex", raw, got)
    ended = next(i for i, t in enumerate(raw) if "Process exited with code 1" in t)  # the pytest run's end
    got, raw = [got[ended], got[-2], got[-1]], [raw[ended], raw[-2], raw[-1]]
    # the failing run: Codex's own status lines first, kept; the output compressed, every failure kept
    head = raw[0].split("Output:\n", 1)[0] + "Output:\n"
    assert "Process exited with code 1" in head and got[0].startswith(head), (raw[0][:300], got[0][:300])
    assert count_tokens(got[0])[0] < 0.8 * count_tokens(raw[0])[0], (got[0], raw[0])
    for test_id in FAILED_IDS:
        assert fact_kept(got[0], f"FAILED {test_id}"), (test_id, got[0])
    assert "6 failed, 34 passed" in got[0]
    # `cat` twice: file content, kept whole the first time, a one-line ref the second
    assert "def alpha_rule_39(text):" in got[1] and got[1] == raw[1]
    assert raw[2].split("Output:\n", 1)[1] == raw[1].split("Output:\n", 1)[1]
    body2 = got[2].split("Output:\n", 1)[1]
    assert body2.startswith("§ref:") and body2.count("\n") == 1 and "def alpha_rule_39" not in got[2], got[2]


def test_opencode_through_the_proxy_failing_run_compressed_and_re_read_deduplicated(tmp_path):
    harness = _load("opencode_e2e_harness_for_proxy", ROOT / "sqz_integrations/opencode/tests/test_opencode_e2e.py")
    harness.opencode_bin()
    env = harness.make_env(tmp_path)
    repo = Path(harness.make_repo(tmp_path, env))
    (repo / "test_calc.py").write_text(FAILING)
    pytest_cmd = f"{sys.executable} -m pytest -p no:cacheprovider test_calc.py"
    alpha = str(repo / "alpha.py")

    def step(messages):
        results = harness.tool_results(messages)
        if len(results) == 0:
            return ("tool", "bash", {"command": pytest_cmd, "description": "Run the tests"})
        if len(results) in (1, 2):
            return ("tool", "read", {"filePath": alpha})
        return ("text", "Done.")

    with harness.ScriptedModel(step) as model, running_proxy(model.base_url.rsplit("/v1", 1)[0]) as proxy:
        rec = Recording(proxy)
        harness.write_config(str(repo), f"http://127.0.0.1:{proxy.port}/openai/v1", "sqz")
        cfg = json.loads((repo / "opencode.json").read_text())
        cfg["permission"]["bash"][f"{sys.executable} -m pytest*"] = "allow"
        (repo / "opencode.json").write_text(json.dumps(cfg))
        r = harness.run_opencode(str(repo), env)
        assert r.returncode == 0, r.stderr[-3000:]
        received = [q for q in model.requests if q.get("tools")][-1]
    sent = next(b for fmt, b in reversed(rec.sent) if fmt == wire.OPENAI_CHAT and b.get("tools"))
    got, raw = harness.tool_results(received["messages"]), harness.tool_results(sent["messages"])
    assert len(got) == len(raw) == 3, (raw, r.stderr[-3000:])
    report("opencode", raw, got)
    assert "6 failed, 34 passed" in raw[0], raw[0][-500:]
    assert count_tokens(got[0])[0] < 0.8 * count_tokens(raw[0])[0], (got[0], raw[0])
    for test_id in FAILED_IDS:
        assert fact_kept(got[0], f"FAILED {test_id}"), (test_id, got[0])
    assert "6 failed, 34 passed" in got[0]
    # OpenCode 1.18.33 sends the command's output alone (no exit line of its own to keep)
    assert raw[0].startswith("===") and raw[0].rstrip().endswith("=")
    assert "def alpha_rule_39(text):" in got[1] and got[1] == raw[1]
    assert raw[2] == raw[1] and got[2].startswith("§ref:") and got[2].count("\n") == 1, got[2]


def test_copilot_cli_through_the_proxy_failing_run_compressed_exit_line_kept_reread_deduplicated(tmp_path):
    harness = _load("copilot_e2e_harness_for_proxy", ROOT / "sqz_integrations/copilot_cli/tests/"
                                                            "test_copilot_cli_e2e.py")
    harness.require_copilot()
    (tmp_path / "work").mkdir()
    repo = repo_with_failing_tests(tmp_path / "work")
    env = harness.setup_agent(tmp_path, sqz=False)
    env["SQZ_DB_PATH"] = os.environ["SQZ_DB_PATH"]
    pytest_cmd = f"{sys.executable} -m pytest -p no:cacheprovider test_calc.py"
    notes = str(repo / "src" / "notes.py")

    def script(messages):
        done = sum(1 for m in messages if m.get("role") == "assistant")
        if done == 0:
            return ("tool", "bash", {"command": pytest_cmd, "description": "run the tests"})
        if done in (1, 2):
            return ("tool", "view", {"path": notes})
        return ("text", "done")

    server = harness.ScriptedOpenAI(script)
    try:
        with running_proxy(server.url.rsplit("/v1", 1)[0]) as proxy:
            rec = Recording(proxy)

            class Via:  # run_copilot reads .url: the proxy's OpenAI prefix
                url = f"http://127.0.0.1:{proxy.port}/openai/v1"

            r = harness.run_copilot(env, Via, "Run the tests, then read the notes.", repo,
                                    "--allow-all-tools", "--allow-all-paths")
    finally:
        server.close()
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-2000:]
    received = server.requests[-1]["body"]
    sent = next(b for fmt, b in reversed(rec.sent) if fmt == wire.OPENAI_CHAT and b.get("messages"))
    got, raw = harness.tool_messages(received["messages"]), harness.tool_messages(sent["messages"])
    assert len(got) == len(raw) == 3, (raw, r.stdout[-2000:])
    report("copilot-cli", raw, got)
    assert "6 failed, 34 passed" in raw[0], raw[0][-500:]
    # Copilot's own exit status line ends the result: kept
    assert raw[0].rstrip().endswith("exit code 1>"), raw[0][-200:]
    assert got[0].rstrip().endswith(raw[0].rstrip().rsplit("\n", 1)[1])
    assert count_tokens(got[0])[0] < 0.8 * count_tokens(raw[0])[0], (got[0], raw[0])
    for test_id in FAILED_IDS:
        assert fact_kept(got[0], f"FAILED {test_id}"), (test_id, got[0])
    assert "def note_59(text):" in got[1] and got[1] == raw[1]
    assert raw[2] == raw[1] and got[2].startswith("§ref:") and got[2].count("\n") == 1, got[2]
