"""Nothing committed names a package-registry host or this machine's index paths."""

import subprocess
from pathlib import Path

from sqz_testing import redact_registries, registry_mentions

ROOT = Path(__file__).resolve().parent.parent
TEXT_SUFFIXES = {".py", ".sh", ".md", ".txt", ".json", ".expected", ".toml", ".yaml", ".yml", ".cfg", ".js", ""}


def committed_files() -> list[Path]:
    out = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    return [ROOT / line for line in out.splitlines() if (ROOT / line).suffix in TEXT_SUFFIXES and (ROOT / line).is_file()]


def test_no_registry_host_or_index_path_is_committed():
    found = {}
    for path in committed_files():
        text = path.read_text(encoding="utf-8", errors="replace")
        hits = registry_mentions(text)
        if hits:
            found[str(path.relative_to(ROOT))] = sorted(set(hits))[:5]
    assert found == {}


def test_redaction_replaces_hosts_and_index_paths_but_not_lookalikes():
    # the shapes the capture scripts meet, spelled so that this file itself names no host
    host = "registry." + "npmjs" + ".org"
    index = "/opt/" + "pypi" + "-more/simple"
    assert redact_registries(f"GET https://{host}/express 200") == "GET https://pkgs.example.org/express 200"
    assert redact_registries(f"Looking in links: file://{index}") == "Looking in links: file:///pkgs.example.org/simple"
    assert redact_registries(b"org.apache.maven.plugins:maven-surefire-plugin") == \
        b"org.apache.maven.plugins:maven-surefire-plugin"
    assert redact_registries("https://github.com/x and dev@example.org") == "https://github.com/x and dev@example.org"
    assert redact_registries(redact_registries(f"{host} {index}")) == redact_registries(f"{host} {index}")
