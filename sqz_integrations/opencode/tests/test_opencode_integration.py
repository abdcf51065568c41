"""opencode: hook contract and init/uninstall round trip on a seeded home."""

import json

from sqz_core.testing_integrations import round_trip
from sqz_core.testing_integrations import home  # noqa: F401  (a pytest fixture)
from sqz_integration_opencode import integration


def test_bash_rewrite_and_read_dedup(home):
    out = json.loads(integration.hook(json.dumps({"tool": "bash", "sessionID": "o-1", "args": {"command": "ls"}}).encode(), []))
    assert out["command"].startswith("{ ( ls\n)") and "--session o-1" in out["command"]
    assert integration.hook(json.dumps({"tool": "bash", "sessionID": "o-1", "args": {"command": "htop"}}).encode(), []) is None
    text = "".join(f"const value{i} = compute({i});\n" for i in range(300))
    post = {"tool": "read", "sessionID": "o-1", "output": text}
    assert integration.hook(json.dumps(post).encode(), ["--post"]) is None
    assert "§ref:" in json.loads(integration.hook(json.dumps(post).encode(), ["--post"]))["output"]


def test_round_trip_generated_plugin(home):
    after = round_trip(integration, home, {".config/opencode/opencode.jsonc": '{\n  // mine\n  "mcp": {}\n}\n'})
    src = after[".config/opencode/plugins/sqz.js"].decode()
    assert '["/opt/sqz tools/sqz"]' in src and "tool.execute.before" in src and "session.compacted" in src
