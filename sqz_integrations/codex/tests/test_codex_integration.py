"""codex: the PostToolUse hook contract, and the init/uninstall round trip on a seeded home."""

import json
import subprocess

import pytest

from sqz_agents import setup_cmds
from sqz_agents.testing import round_trip, real_git_log
from sqz_agents.testing import home  # noqa: F401  (a pytest fixture)
from sqz_integration_codex import integration


@pytest.fixture(autouse=True)
def _no_codex_home(monkeypatch):
    monkeypatch.delenv("CODEX_HOME", raising=False)


def git_log(repo) -> str:
    return real_git_log(repo)


def transcript(path, call_id: str, exit_code: int | None) -> str:
    """A transcript tail in the shape Codex 0.171.0 writes (an ``item_completed`` line per finished command)."""
    item = {"type": "CommandExecution", "id": call_id, "status": "completed" if exit_code == 0 else "failed"}
    if exit_code is not None:
        item["exit_code"] = exit_code
    lines = [{"type": "session_meta", "payload": {"id": "s"}},
             {"type": "event_msg", "payload": {"type": "item_completed", "item": item}}]
    path.write_text("".join(json.dumps(x) + "\n" for x in lines))
    return str(path)


def payload(home, command: str, output: str, exit_code: int | None = 0, call_id: str = "call_1") -> bytes:
    return json.dumps({"session_id": "cx-1", "turn_id": "t", "cwd": str(home), "hook_event_name": "PostToolUse",
                       "tool_name": "Bash", "tool_input": {"command": command}, "tool_response": output,
                       "tool_use_id": call_id,
                       "transcript_path": transcript(home / f"rollout-{call_id}.jsonl", call_id, exit_code)}).encode()


def test_shell_output_replaced_with_the_exit_status(home):
    repo = home / "repo"
    repo.mkdir()
    text = git_log(repo)
    out = json.loads(integration.hook(payload(home, "git log --stat -n 5", text, 0), []))
    assert out["decision"] == "block" and set(out) == {"decision", "reason"}
    reason = out["reason"]
    assert reason.startswith("Process exited with code 0\nOutput:\n") and len(reason) < len(text)
    for i in range(1, 6):
        assert f"Add module mod{i}" in reason and f"mod{i}.py" in reason
    assert "'/opt/sqz tools/sqz' expand " in reason  # the hint names the sqz the hook runs
    failed = json.loads(integration.hook(payload(home, "git log --stat -n 5 && false", text, 1, "call_2"), []))
    assert failed["reason"].startswith("Process exited with code 1\n")


def test_unknown_exit_status_leaves_output_alone(home):
    text = "".join(f"line {i} of a long listing\n" for i in range(400))
    assert integration.hook(payload(home, "seq 400", text, None), []) is None
    data = json.loads(payload(home, "seq 400", text, 0))
    data["transcript_path"] = str(home / "missing.jsonl")
    assert integration.hook(json.dumps(data).encode(), []) is None


def test_sqz_commands_and_other_events_pass_through(home):
    text = "".join(f"line {i} of an original output\n" for i in range(400))
    for cmd in ("sqz expand 0123456789abcdef", "'/opt/sqz tools/sqz' expand 0123456789abcdef", "sqz stats"):
        assert integration.hook(payload(home, cmd, text), []) is None
    pre = json.loads(payload(home, "ls", text))
    pre["hook_event_name"] = "PreToolUse"
    assert integration.hook(json.dumps(pre).encode(), []) is None
    patch = json.loads(payload(home, "ls", text))
    patch["tool_name"] = "apply_patch"
    assert integration.hook(json.dumps(patch).encode(), []) is None


def test_round_trip_hooks_rule_and_mcp(home):
    seed = {".codex/config.toml": '# my codex config\nmodel = "o3"\n\n[mcp_servers.docs]\ncommand = "docs"  # keep\n',
            ".codex/hooks.json": '{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "notify"}]}]}}\n'}
    after = round_trip(integration, home, seed)
    toml = after[".codex/config.toml"].decode()
    assert toml.startswith(seed[".codex/config.toml"]) and '[mcp_servers.sqz]\ncommand = "/opt/sqz tools/sqz-mcp"' in toml
    hooks = json.loads(after[".codex/hooks.json"])
    assert hooks["hooks"]["Stop"][0]["hooks"][0]["command"] == "notify"
    assert hooks["hooks"]["PostToolUse"] == [{"matcher": "Bash", "hooks": [
        {"type": "command", "command": "'/opt/sqz tools/sqz' hook codex", "timeout": 10}]}]
    assert 'prefix_rule(pattern=["/opt/sqz tools/sqz", "expand"], decision="allow")' in after[".codex/rules/sqz.rules"].decode()
    assert ".codex/AGENTS.md" not in after


def test_invalid_toml_left_alone(home):
    (home / ".codex").mkdir()
    (home / ".codex" / "config.toml").write_text("model = = 1\n")
    ctx = setup_cmds.make_ctx(home=str(home))
    lines = []
    assert setup_cmds.run_init({"codex": integration}, dict(ctx, force=True), echo=lines.append) == 1
    assert (home / ".codex" / "config.toml").read_text() == "model = = 1\n" and "invalid TOML" in " ".join(lines)
