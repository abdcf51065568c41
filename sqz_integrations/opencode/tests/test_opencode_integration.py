"""opencode: hook contract (output compressed after the command ran, never rewritten) and init/uninstall round trip."""

import json
import subprocess

from sqz_core.runnable import find_recovery
from sqz_agents.testing import round_trip, real_git_log
from sqz_agents.testing import home  # noqa: F401  (a pytest fixture)
from sqz_integration_opencode import integration

SQZ = ["/opt/sqz tools/sqz"]


def post(payload: dict):
    out = integration.hook(json.dumps(payload).encode(), ["--post"])
    return None if out is None else json.loads(out)["output"]


def git_log(repo) -> str:
    return real_git_log(repo)


def test_bash_output_compressed_after_the_run_with_a_runnable_hint(home):
    repo = home / "repo"
    repo.mkdir()
    text = git_log(repo)
    payload = {"tool": "bash", "sessionID": "o-1", "command": "git log --stat -n 5", "exit": 0, "output": text,
               "sqz": SQZ}
    out = post(payload)
    assert out is not None and len(out) < len(text)
    for i in range(1, 6):
        assert f"Add module mod{i}" in out and f"mod{i}.py" in out
    assert find_recovery(out)[0] == "'/opt/sqz tools/sqz'" and out.endswith("]\n")  # the last line
    # the same output again in this session: a ref, whose hint also names the absolute sqz
    again = post(payload)
    assert again.startswith("§ref:") and "'/opt/sqz tools/sqz' expand" in again


def test_commands_are_never_rewritten(home):
    before = {"tool": "bash", "sessionID": "o-1", "args": {"command": "git log --stat -n 5"}}
    assert integration.hook(json.dumps(before).encode(), []) is None


def test_sqz_own_commands_pass_through(home):
    text = "".join(f"line {i} of an original output\n" for i in range(300))
    for cmd in ("sqz expand 0123456789abcdef", "/opt/x/sqz expand 0123456789abcdef",
                "'/opt/sqz tools/sqz' expand 0123456789abcdef", "python3 -m sqz_core expand 0123456789abcdef",
                "cd sub && sqz stats"):
        payload = {"tool": "bash", "sessionID": "o-2", "command": cmd, "exit": 0, "output": text, "sqz": SQZ}
        assert post(payload) is None, cmd
        assert post(payload) is None, cmd  # never deduplicated either
    assert integration.runs_sqz("git log", SQZ) is False


def test_read_dedup(home):
    text = "".join(f"const value{i} = compute({i});\n" for i in range(300))
    read = {"tool": "read", "sessionID": "o-1", "output": text, "sqz": SQZ}
    assert post(read) is None
    second = post(read)
    assert second.startswith("§ref:") and "'/opt/sqz tools/sqz' expand" in second


def test_bad_payloads_leave_output_alone(home):
    for payload in ({"tool": "bash", "sessionID": "o-3", "command": "ls", "output": ""},
                    {"tool": "bash", "command": 3, "output": "x"}, {"tool": "edit", "output": "x" * 5000}, [1, 2]):
        assert integration.hook(json.dumps(payload).encode(), ["--post"]) is None


def test_round_trip_generated_plugin(home):
    after = round_trip(integration, home, {".config/opencode/opencode.jsonc": '{\n  // mine\n  "mcp": {}\n}\n'})
    src = after[".config/opencode/plugins/sqz.js"].decode()
    assert '["/opt/sqz tools/sqz"]' in src and "tool.execute.after" in src and "session.compacted" in src
    assert "tool.execute.before" not in src and "output.args" not in src


def test_opencode_timeout_note_kept_verbatim(home):
    repo = home / "repo"
    repo.mkdir()
    note = ("\n\n<shell_metadata>\nshell tool terminated command after exceeding timeout 120000 ms. If this command is"
            " expected to take longer and is not waiting for interactive input, retry with a larger timeout value in"
            " milliseconds.\n</shell_metadata>")
    text = git_log(repo) + note  # the shape OpenCode 1.18.33 gives a timed-out command (exit: null)
    out = post({"tool": "bash", "sessionID": "o-4", "command": "git log --stat -n 5", "exit": None, "output": text,
                "sqz": SQZ})
    assert out is not None and len(out) < len(text) and out.endswith(note.lstrip("\n"))
    assert "Add module mod5" in out and out.count("<shell_metadata>") == 1
