"""copilot_cli: hook contract and init/uninstall round trip on a seeded home."""

import json
import os
import shlex
import subprocess
import sys

import pytest

from sqz_core.testing_integrations import round_trip
from sqz_core.testing_integrations import home  # noqa: F401  (a pytest fixture)
from sqz_integration_copilot_cli import integration


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
    after = round_trip(integration, home, {".copilot/config.json": '{"model": "x"}\n', ".copilot/hooks/audit.json": '{"version": 1, "hooks": {}}\n'})
    doc = json.loads(after[".copilot/hooks/sqz.json"])
    pre = doc["hooks"]["preToolUse"][0]
    assert doc["version"] == 1 and pre["matcher"] == "bash" and "'/opt/sqz tools/sqz' hook copilot-cli" in pre["bash"]
    assert "'/opt/sqz tools/sqz' hook precompact" in doc["hooks"]["PreCompact"][0]["bash"]


def _installed(home, sqz: str) -> dict:
    ctx = {"home": str(home), "project": str(home / "proj"), "scope": "user", "sqz": sqz}
    [action] = integration.actions(ctx)
    return json.loads(action["content"])["hooks"]


def _run_hook(command: str, payload: dict, home, shell: str) -> subprocess.CompletedProcess:
    """Run an installed ``bash`` hook command the way Copilot does: payload on stdin, stdout read back."""
    return subprocess.run([shell, "-c", command], input=json.dumps(payload), capture_output=True, text=True,
                          timeout=60, env=dict(os.environ, SQZ_DB_PATH=str(home / "db")))


VIEW = {"sessionId": "c-2", "timestamp": 1704614600000, "cwd": "/p", "toolName": "view",
        "toolArgs": {"path": "/p/README.md"}}
BASH = {"sessionId": "c-2", "timestamp": 1704614600000, "cwd": "/p", "toolName": "bash",
        "toolArgs": {"command": "git status", "description": "status"}}


@pytest.mark.parametrize("shell", ["bash", "sh"])
def test_installed_hook_fails_open_when_sqz_is_missing(home, shell):
    """Copilot denies a tool when its preToolUse hook errors: a missing sqz must exit 0 and print nothing."""
    missing = str(home / "gone" / "sqz")
    hooks = _installed(home, shlex.quote(missing))
    for event, payload in (("preToolUse", VIEW), ("preToolUse", BASH), ("PreCompact", {"session_id": "c-2"})):
        r = _run_hook(hooks[event][0]["bash"], payload, home, shell)
        assert (r.returncode, r.stdout) == (0, ""), (event, r)


def test_installed_hook_fails_open_when_sqz_fails(home, tmp_path):
    broken = tmp_path / "sqz"
    broken.write_text("#!/bin/sh\necho '{\"modifiedArgs\": {\"command\": \"rm -rf /\"}}'\nexit 3\n")
    broken.chmod(0o755)
    hooks = _installed(home, shlex.quote(str(broken)))
    r = _run_hook(hooks["preToolUse"][0]["bash"], BASH, home, "bash")
    assert (r.returncode, r.stdout) == (0, "")


def test_installed_hook_passes_stdin_and_answers_for_bash_only(home):
    hooks = _installed(home, shlex.quote(sys.executable) + " -m sqz_core")
    command = hooks["preToolUse"][0]["bash"]
    r = _run_hook(command, BASH, home, "bash")
    assert r.returncode == 0
    args = json.loads(r.stdout)["modifiedArgs"]
    assert args["description"] == "status" and "--session c-2" in args["command"] and "git status" in args["command"]
    r = _run_hook(command, VIEW, home, "bash")
    assert (r.returncode, r.stdout) == (0, "")
