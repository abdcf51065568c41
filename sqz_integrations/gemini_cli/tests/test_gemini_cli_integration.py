"""gemini_cli: hook contract and init/uninstall round trip on a seeded home."""

import json
import os
import subprocess
import sys
import tomllib

import pytest

from sqz_agents.testing import round_trip
from sqz_agents.testing import home  # noqa: F401  (a pytest fixture)
from sqz_integration_gemini_cli import integration


def test_before_tool_rewrites_shell_command(home):
    data = {"session_id": "g-1", "transcript_path": "/t.json", "cwd": "/p", "hook_event_name": "BeforeTool",
            "timestamp": "2025-12-01T10:30:00Z", "tool_name": "run_shell_command",
            "tool_input": {"command": "du /nope", "description": "sizes"}}
    out = json.loads(integration.hook(json.dumps(data).encode(), []))["hookSpecificOutput"]
    assert out["hookEventName"] == "BeforeTool" and "decision" not in out
    new = out["tool_input"]["command"]
    assert "--session g-1" in new
    r = subprocess.run(["bash", "-c", new.replace("'/opt/sqz tools/sqz'", sys.executable + " -m sqz_core")],
                       capture_output=True, text=True, env=dict(os.environ, SQZ_DB_PATH=str(home / "db")))
    assert r.returncode == 1 and "No such file or directory" in r.stdout
    data["tool_input"]["command"] = "vim notes"
    assert integration.hook(json.dumps(data).encode(), []) is None
    data["tool_name"] = "read_file"
    assert integration.hook(json.dumps(data).encode(), []) is None


def test_no_after_tool_hook_installed_and_post_answers_nothing(home):
    """Gemini 0.61.0 never reads hookSpecificOutput.tool_output: a dedup there would be a silent no-op."""
    ctx = {"home": str(home), "project": str(home / "proj"), "scope": "user", "sqz": "/opt/sqz"}
    events = {a["path"][1] for a in integration.actions(ctx) if "path" in a}
    assert events == {"BeforeTool", "PreCompress"}
    content = "".join(f"line {i}: some file content that repeats across reads\n" for i in range(300))
    data = {"session_id": "g-2", "hook_event_name": "AfterTool", "tool_name": "read_file",
            "tool_input": {"file_path": "/p/a.txt"}, "tool_response": {"llmContent": content, "returnDisplay": ""}}
    for _ in range(2):  # an AfterTool entry left by an older sqz: nothing, even on the repeated read
        assert integration.hook(json.dumps(data).encode(), ["--post"]) is None
        assert integration.hook(json.dumps(data).encode(), []) is None


def test_round_trip_keeps_seeded_settings(home):
    seed = '{\n  // my gemini settings\n  "theme": "GitHub",\n  "hooks": {"BeforeTool": [{"matcher": "write_file", "hooks": [{"type": "command", "command": "audit.sh"}]}]},\n  "mcpServers": {"docs": {"command": "docs"}}\n}\n'
    after = round_trip(integration, home, {".gemini/settings.json": seed})
    text = after[".gemini/settings.json"].decode()
    assert "// my gemini settings" in text and "'/opt/sqz tools/sqz' hook gemini-cli" in text and "PreCompress" in text
    assert "AfterTool" not in text and "--post" not in text


def test_before_tool_passes_every_original_argument(home):
    """Gemini replaces the arguments with hookSpecificOutput.tool_input: dir_path and the rest must survive."""
    (home / ".gemini").mkdir()
    (home / ".gemini" / "settings.json").write_text('{"tools": {"allowed": ["run_shell_command(git log)"]}}')
    original = {"command": "git log --stat -n 5", "description": "recent commits", "dir_path": "sub/pkg",
                "is_background": False}
    data = {"session_id": "g-3", "cwd": "/p", "hook_event_name": "BeforeTool", "tool_name": "run_shell_command",
            "tool_input": dict(original)}
    tool_input = json.loads(integration.hook(json.dumps(data).encode(), []))["hookSpecificOutput"]["tool_input"]
    assert set(tool_input) == set(original)
    assert {k: v for k, v in tool_input.items() if k != "command"} == {k: v for k, v in original.items()
                                                                       if k != "command"}
    assert tool_input["command"] != original["command"] and "git log --stat -n 5" in tool_input["command"]


def test_policy_file_and_fail_open_hooks(home, tmp_path):
    """init writes sqz's own policy rules (for this sqz only) and hook commands that never block a tool."""
    ctx = {"home": str(home), "project": str(home / "proj"), "scope": "user", "sqz": "/opt/sqz"}
    acts = integration.actions(ctx)
    policy = [a for a in acts if a["type"] == "owned_file"]
    assert [a["file"] for a in policy] == [str(home / ".gemini" / "policies" / "sqz.toml")]
    text = policy[0]["content"]
    rules = tomllib.loads(text)["rule"]
    assert len(rules) == 5 and {r["decision"] for r in rules} == {"allow"}
    assert {r["toolName"] for r in rules} == {"run_shell_command"}
    assert [r.get("allowRedirection", False) for r in rules] == [True, False, False, False, False]  # the wrapper only
    assert r"\/opt\/sqz compress" in rules[2]["commandRegex"] and r"\/opt\/sqz expand" in rules[3]["commandRegex"]
    assert rules[4]["commandRegex"].endswith(')sqz expand(?: |")')  # the bare form hints print when on PATH
    assert all("(?:" not in r["commandRegex"].replace("(?: |", "") for r in rules)  # Gemini drops "(…)?" (ReDoS)
    hook = [a for a in acts if a.get("path") == ["hooks", "BeforeTool"]][0]["item"]["hooks"][0]["command"]
    missing = hook.replace("/opt/sqz", str(tmp_path / "gone" / "sqz"))
    r = subprocess.run(["bash", "-c", missing], input=b"{}", capture_output=True)
    assert r.returncode == 0 and r.stdout == b""


def test_commands_whose_policy_sqz_cannot_keep_stay_unwrapped(home):
    """Redirections and what Gemini's heuristics call dangerous are left to Gemini as they are."""
    for command in ("git log > log.txt", "pytest 2>&1", "rm -rf build", "sudo ls /root", "find . -delete",
                    "ln -s a b", "rg --pre cat x"):
        assert not integration.policy_neutral(command), command
        data = {"session_id": "g-4", "hook_event_name": "BeforeTool", "tool_name": "run_shell_command",
                "tool_input": {"command": command}}
        assert integration.hook(json.dumps(data).encode(), []) is None, command
    for command in ("git log --stat -n 5", "ls -la src", "git diff | head -50", "FOO=1 pytest -q"):
        assert integration.policy_neutral(command), command


def _before(command: str, cwd: str = "/p") -> bytes | None:
    data = {"session_id": "g-5", "cwd": cwd, "hook_event_name": "BeforeTool", "tool_name": "run_shell_command",
            "tool_input": {"command": command}}
    return integration.hook(json.dumps(data).encode(), [])


def test_known_safe_commands_wrapped_only_under_a_users_allow_rule(home):
    """Gemini runs git log/ls/cat unasked by a heuristic it skips for a wrapped command's parts:
    without an allow rule of the user's they stay as they are; other commands are wrapped."""
    assert _before("git log --stat -n 5") is None and _before("ls -la src") is None
    assert _before("pytest -q") is not None  # asks with or without sqz
    settings = home / ".gemini" / "settings.json"
    settings.parent.mkdir()
    settings.write_text('{\n  // mine\n  "tools": {"allowed": ["run_shell_command(git log)", "read_file"]}\n}\n')
    assert _before("git log --stat -n 5") is not None
    assert _before("git status") is None and _before("ls -la src") is None
    (home / ".gemini" / "policies").mkdir()
    (home / ".gemini" / "policies" / "mine.toml").write_text(
        '[[rule]]\ntoolName = "run_shell_command"\ncommandPrefix = ["ls", "cat"]\ndecision = "allow"\npriority = 10\n'
        '[[rule]]\ntoolName = "run_shell_command"\ncommandRegex = "grep -n .*"\ndecision = "allow"\npriority = 10\n'
        '[[rule]]\ntoolName = "run_shell_command"\ncommandPrefix = "wc"\ndecision = "deny"\npriority = 10\n')
    assert _before("ls -la src") is not None and _before("grep -n x a.txt") is not None
    assert _before("wc -l a.txt") is None and _before("ls") is not None  # a deny rule is no allow
    project = home / "proj"
    (project / ".gemini").mkdir(parents=True)
    (project / ".gemini" / "settings.json").write_text('{"tools": {"allowed": ["run_shell_command(head)"]}}')
    assert _before("head -5 a.txt") is None and _before("head -5 a.txt", cwd=str(project)) is not None


@pytest.mark.parametrize("command,rewritten", [
    ("mkdir -p build", False), ("touch notes.txt", False), ("echo done", False), ("cd src && pwd", False),
    ("git add -A", False), ("git commit -m 'Fix the parser'", False), ("git checkout -b topic", False),
    ("wc -l src/app.py", False), ("mv a.txt b.txt", False), ("sed -i 's/ + 1//' calc.py", False),
    ("sed --in-place=.bak -e 's/a/b/' f.txt", False), ("sed -n '1,80p' src/app.py", True),
    ("pytest -q", True), ("git log --stat -n 5", True), ("git add -A && git status", True),
    ("du -sh *", True), ("python manage.py test", True), ("npm install", True),
])
def test_commands_that_print_a_line_or_nothing_are_not_worth_geminis_notice(home, command, rewritten):
    """Each rewritten call carries Gemini's 14-token notice: a command printing next to nothing is left alone."""
    assert integration.worth_a_notice(command) is rewritten
    data = {"session_id": "g-1", "cwd": "/p", "hook_event_name": "BeforeTool", "tool_name": "run_shell_command",
            "tool_input": {"command": command}}
    answer = integration.hook(json.dumps(data).encode(), [])
    if not rewritten:
        assert answer is None
