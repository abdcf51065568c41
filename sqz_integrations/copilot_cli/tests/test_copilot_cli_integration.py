"""copilot_cli: hook contract and init/uninstall round trip on a seeded home."""

import json

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
    assert doc["version"] == 1 and doc["hooks"]["preToolUse"][0]["bash"] == "'/opt/sqz tools/sqz' hook copilot-cli"
    assert doc["hooks"]["PreCompact"][0]["bash"].endswith("hook precompact")
