import os
import subprocess
import sys

from sqz_integration_claude_code import integration


def test_detects_the_claude_folder(tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path / "empty-bin"))
    assert integration.detect(str(tmp_path))["detected"] is False
    (tmp_path / ".claude").mkdir()
    found = integration.detect(str(tmp_path))
    assert found["detected"] is True and found["config_dir"] == str(tmp_path / ".claude")


def test_config_paths_by_scope(tmp_path):
    paths = integration.config_paths(str(tmp_path / "home"), str(tmp_path / "proj"))
    assert paths["user"].endswith(os.path.join(".claude", "settings.json"))
    assert paths["local"] == str(tmp_path / "proj" / ".claude" / "settings.local.json")


def test_registered_in_the_integrations_group():
    out = subprocess.run([sys.executable, "-m", "sqz_core", "plugins"], capture_output=True, check=True).stdout
    assert b"claude-code" in out and b"sqz-integration-claude-code" in out
