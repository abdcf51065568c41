"""Cross-cutting checks: every distribution is real and registered, every plugin validates against the specs."""

import inspect
import json
import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DISTS = sorted(p.parent for p in ROOT.glob("sqz_*/pyproject.toml")) + sorted(
    p.parent for p in ROOT.glob("sqz_integrations/*/pyproject.toml")) + sorted(
    p.parent for p in ROOT.glob("sqz_stores/*/pyproject.toml"))


def test_the_workspace_has_the_design_card_layout():
    names = {d.name for d in DISTS}
    assert {"sqz_core", "sqz_formatters_git", "sqz_formatters_test", "sqz_formatters_cloud"} <= names
    assert any(d.parent.name == "sqz_integrations" for d in DISTS)


@pytest.mark.parametrize("dist", DISTS, ids=lambda d: d.name)
def test_each_distribution_has_its_own_metadata_readme_and_tests(dist):
    meta = tomllib.loads((dist / "pyproject.toml").read_text())["project"]
    assert meta["name"] != "sqz", "the PyPI name 'sqz' belongs to another project"
    assert meta["name"].startswith("sqz-")
    assert (dist / "README.md").read_text().strip()
    assert list((dist / "tests").glob("test_*.py")), f"{dist.name} has no tests"
    version_file = next(dist.glob("src/*/_version.py"))
    assert 'VERSION = "' in version_file.read_text()
    if meta["name"] not in ("sqz-core", "sqz-all"):  # sqz-all holds no code: its dependencies are the point
        groups = meta.get("entry-points", {})
        assert {"sqz.formatters", "sqz.integrations", "sqz.stores", "sqz.commands", "pytest11"} & set(groups) or meta.get("scripts")


def test_every_installed_formatter_loads_and_validates_against_the_specs():
    out = subprocess.run([sys.executable, "-m", "sqz_core", "plugins", "--refresh", "--json"], capture_output=True,
                         check=False)
    data = json.loads(out.stdout)
    assert data["problems"] == []
    assert data["plugins"], "no formatter plugins are installed"
    for rec in data["plugins"]:
        assert rec["error"] is None, rec
        assert rec["commands"], f"{rec['name']} claims no command"
        assert "sqz_format" in rec["hooks"] or "sqz_detect" in rec["hooks"]
    declared = set()
    for dist in [*DISTS, *(p.parent for p in ROOT.glob("examples/*/pyproject.toml"))]:  # the example pack too
        meta = tomllib.loads((dist / "pyproject.toml").read_text())["project"]
        declared |= set(meta.get("entry-points", {}).get("sqz.formatters", {}))
    assert declared == {r["name"] for r in data["plugins"]}


def test_every_hook_spec_documents_its_return_contract():
    from sqz_core import hookspecs

    specs = [f for name, f in inspect.getmembers(hookspecs, inspect.isfunction) if name.startswith("sqz_")]
    assert {f.__name__ for f in specs} == {"sqz_detect", "sqz_format", "sqz_classify_safety", "sqz_dedup"}
    for f in specs:
        doc = inspect.getdoc(f)
        assert doc and ("Return" in doc or "return" in doc), f.__name__


def test_quickstart_run_command_on_a_real_git_history(tmp_path):
    env = dict(os.environ, GIT_AUTHOR_NAME="Dev", GIT_AUTHOR_EMAIL="dev@example.org", GIT_COMMITTER_NAME="Dev",
               GIT_COMMITTER_EMAIL="dev@example.org", GIT_AUTHOR_DATE="2026-01-01T00:00:00Z",
               GIT_COMMITTER_DATE="2026-01-01T00:00:00Z")
    subprocess.run(["git", "init", "-q", "-b", "main", str(tmp_path)], check=True, env=env)
    for i in range(12):
        (tmp_path / f"module_{i}.py").write_text(f"VALUE = {i}\n" * (i + 1))
        subprocess.run(["git", "-C", str(tmp_path), "add", "."], check=True, env=env)
        subprocess.run(["git", "-C", str(tmp_path), "commit", "-q", "-m", f"Add module {i}"], check=True, env=env)
    direct = subprocess.run(["git", "log", "--stat", "-n", "15"], cwd=tmp_path, capture_output=True, check=True, env=env)
    r = subprocess.run([sys.executable, "-m", "sqz_core", "run", "--", "git", "log", "--stat", "-n", "15"],
                       cwd=tmp_path, capture_output=True, check=False, env=env)
    assert r.returncode == 0
    assert len(r.stdout) <= len(direct.stdout)
    for i in range(12):
        assert f"Add module {i}".encode() in r.stdout


def test_no_two_test_modules_share_a_name():
    """pytest imports test modules by basename (no packages): two `test_x.py` in one run fail collection."""
    seen: dict[str, list[str]] = {}
    for p in ROOT.glob("**/test_*.py"):
        rel = p.relative_to(ROOT)
        if any(part.startswith(".") or part in ("node_modules", "site-packages") for part in rel.parts):
            continue
        seen.setdefault(p.name, []).append(str(rel))
    assert {name: paths for name, paths in seen.items() if len(paths) > 1} == {}
