"""The README's commands and variables are real: every documented verb answers --help, every
documented variable is read somewhere in the code, and the quickstart uses the files it names."""

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text()


def test_every_documented_verb_exists():
    code = "\n".join(re.findall(r"```(?:bash)?\n(.*?)```", README, re.S))
    verbs = set(re.findall(r"(?:^|/|\| )sqz ([a-z]+)\b", code, re.M)) | set(re.findall(r"`sqz ([a-z]+)\b", README))
    assert {"compress", "run", "expand", "stats", "plugins", "recall", "pin", "compact"} <= verbs
    for verb in sorted(verbs):
        r = subprocess.run([sys.executable, "-m", "sqz_core", verb, "--help"], capture_output=True, check=False)
        assert r.returncode == 0, f"sqz {verb} --help: {r.stderr.decode()[-300:]}"


def test_every_documented_variable_is_read_by_the_code():
    names = set(re.findall(r"\b(SQZ_[A-Z_]+)\b", README))
    code = "\n".join(p.read_text() for p in ROOT.glob("sqz_*/src/**/*.py"))
    code += "\n".join(p.read_text() for p in ROOT.glob("sqz_*/*/src/**/*.py"))
    code += "\n".join(p.read_text() for p in [*ROOT.glob("sqz_*/**/tests/conftest.py"),
                                               *ROOT.glob("sqz_*/**/tests/*_testlib.py")])  # test settings
    missing = sorted(n for n in names if n not in code)
    assert missing == []


def test_quickstart_names_files_that_exist():
    block = README.split("## Quickstart", 1)[1].split("##", 1)[0]
    assert "bash scripts/bootstrap.sh && .venv/bin/sqz run -- git log" in block
    assert "bash scripts/test.sh" in block
    assert (ROOT / "scripts" / "bootstrap.sh").exists()
    test_sh = (ROOT / "scripts" / "test.sh").read_text()
    assert "bash scripts/bootstrap.sh" in test_sh and "bash scripts/install_test_deps.sh" in test_sh
    assert ".venv/bin/python -m pytest" in test_sh
    ci = (ROOT / ".ci" / "run").read_text()
    assert "bash scripts/test.sh" in ci


@pytest.mark.parametrize("dist", ["sqz_core", "sqz_agents", "sqz_insights", "sqz_daemon", "sqz_config", "sqz_memory"])
def test_the_readme_module_map_names_every_module(dist):
    """A distribution's README module map stays true: every module is in it, and it names no module that is gone."""
    text = (ROOT / dist / "README.md").read_text()
    src = ROOT / dist / "src" / dist
    modules = {p.name for p in src.glob("*.py") if p.name not in ("__init__.py", "_version.py")}
    named = set(re.findall(r"`([a-z_]+\.py)`", text.split("\n## ", 1)[0]))
    assert sorted(modules - named) == [] and sorted(named - modules) == []
