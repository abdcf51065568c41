"""``sqz init`` over what the previous sqz (2f2c607) wrote: upgraded in place, never duplicated.

The fixtures (``fixtures/upgrade/<agent>-<scope>.json``, captured by ``fixtures/upgrade/capture.py``
running the old ``run_init``) hold the user's own files, every file after the old init and the
old install manifest. For every integration and scope:

* ``sqz doctor`` calls the installation stale and names ``sqz init`` as the fix;
* ``sqz init`` then leaves exactly what a fresh install makes of the user's own files (one entry
  per hook, the current shape and path, nothing of the old sqz left), and a second init changes nothing;
* ``sqz uninstall`` gives back the user's files byte for byte.
"""

import json
import os

import pytest

from sqz_core import setup_cmds
from sqz_core.testing_integrations import SQZ_BIN, SQZ_MCP_BIN

FIXTURES = os.path.join(os.path.dirname(__file__), "fixtures", "upgrade")
CASES = sorted(f[:-5] for f in os.listdir(FIXTURES) if f.endswith(".json"))
OLD_SQZ = "/opt/old sqz/bin/sqz"


@pytest.fixture(scope="module")
def integrations():
    return setup_cmds.discover_integrations()


class Site:
    """A HOME, a project and sqz's data folder below ``root``."""

    def __init__(self, root, monkeypatch) -> None:
        self.home, self.project, self.data = (str(root / n) for n in ("home", "project", "data"))
        for d in (self.home, self.project, self.data):
            os.makedirs(d)
        self.mp = monkeypatch

    def use(self) -> None:
        self.mp.setenv("HOME", self.home)
        self.mp.setenv("SQZ_DB_PATH", os.path.join(self.data, "sqz.db"))

    def local(self, text: str) -> str:
        return text.replace("@HOME@", self.home).replace("@PROJECT@", self.project)

    def generic(self, text: str) -> str:
        return text.replace(os.path.realpath(self.project), "@PROJECT@").replace(self.home, "@HOME@").replace(
            self.project, "@PROJECT@")

    def write(self, files: dict[str, str]) -> None:
        for key, text in files.items():
            where, rel = key.split(":", 1)
            p = os.path.join(self.home if where == "H" else self.project, rel)
            os.makedirs(os.path.dirname(p), exist_ok=True)
            with open(p, "w", encoding="utf-8", newline="") as fh:
                fh.write(self.local(text))

    def tree(self) -> dict[str, str]:
        out = {}
        for tag, root in (("H", self.home), ("P", self.project)):
            for d, _, names in os.walk(root):
                for n in names:
                    with open(os.path.join(d, n), encoding="utf-8", newline="") as fh:
                        out[f"{tag}:{os.path.relpath(os.path.join(d, n), root)}"] = self.generic(fh.read())
        return out

    def ctx(self, scope: str) -> dict:
        self.use()
        ctx = setup_cmds.make_ctx(home=self.home, project=self.project, scope=scope)
        ctx.update(force=True, versions={"claude-code": None})
        return ctx


def _run(fn, names, ctx) -> tuple[int, list[str]]:
    lines: list[str] = []
    return fn(names, ctx, echo=lines.append), lines


@pytest.fixture(autouse=True)
def _sqz_paths(monkeypatch):
    monkeypatch.setenv("SQZ_BIN", SQZ_BIN)
    monkeypatch.setenv("SQZ_MCP_BIN", SQZ_MCP_BIN)
    for var in ("XDG_DATA_HOME", "XDG_CACHE_HOME", "SQZ_CACHE_DIR", "CODEX_HOME"):
        monkeypatch.delenv(var, raising=False)


@pytest.mark.parametrize("case", CASES)
def test_init_upgrades_what_the_previous_sqz_wrote(case, integrations, tmp_path, monkeypatch):
    with open(os.path.join(FIXTURES, case + ".json"), encoding="utf-8") as fh:
        rec = json.load(fh)
    names = {rec["agent"]: integrations[rec["agent"]]}

    fresh = Site(tmp_path / "fresh", monkeypatch)
    fresh.write(rec["user"])
    assert _run(setup_cmds.run_init, names, fresh.ctx(rec["scope"]))[0] == 0
    expected = fresh.tree()

    site = Site(tmp_path / "upgraded", monkeypatch)
    site.write(rec["old"])
    with open(os.path.join(site.data, "integrations-manifest.json"), "w", encoding="utf-8") as fh:
        fh.write(site.local(json.dumps(rec["manifest"])))
    assert site.tree() == {k: site.generic(site.local(v)) for k, v in rec["old"].items()}
    ctx = site.ctx(rec["scope"])

    status = setup_cmds.agent_status(rec["agent"], names[rec["agent"]], ctx)
    assert status["configured"] == "stale", status
    assert all(f"sqz init --only {rec['agent']}` upgrades it" in p for p in status["problems"]), status

    code, lines = _run(setup_cmds.run_init, names, ctx)
    assert code == 0, lines
    assert any("upgraded" in line for line in lines), lines
    assert site.tree() == expected
    assert not any(OLD_SQZ in text for text in site.tree().values())
    assert setup_cmds.agent_status(rec["agent"], names[rec["agent"]], ctx)["configured"] == "yes"
    assert _run(setup_cmds.run_init, names, ctx) == (0, [f"{rec['agent']}: already configured"])

    code, lines = _run(setup_cmds.run_uninstall, names, ctx)
    assert code == 0, lines
    assert site.tree() == {k: site.generic(v) for k, v in rec["user"].items()}


def _value(key: str, text: str, emptied: bool = False):
    """A JSON file's value (layout aside); other files as they stand. ``emptied``: without the manifest
    an array left empty by removing sqz's only element stays (it might be the user's): drop empty hook lists."""
    from sqz_core.configfiles import parse_jsonc, to_python

    if not key.endswith(".json"):
        return text
    value = to_python(parse_jsonc(text))
    if emptied and isinstance(value.get("hooks"), dict):
        value["hooks"] = {k: v for k, v in value["hooks"].items() if v != []}
    return value


@pytest.mark.parametrize("case", CASES)
def test_upgrade_without_the_old_manifest(case, integrations, tmp_path, monkeypatch):
    """The manifest lost (another data folder): sqz's old entries are still found and replaced, once;
    the result holds what a fresh install holds (JSON layout aside), the user's entries included."""
    with open(os.path.join(FIXTURES, case + ".json"), encoding="utf-8") as fh:
        rec = json.load(fh)
    names = {rec["agent"]: integrations[rec["agent"]]}
    fresh = Site(tmp_path / "fresh", monkeypatch)
    fresh.write(rec["user"])
    assert _run(setup_cmds.run_init, names, fresh.ctx(rec["scope"]))[0] == 0
    expected = {k: _value(k, v) for k, v in fresh.tree().items()}

    site = Site(tmp_path / "upgraded", monkeypatch)
    site.write(rec["old"])
    ctx = site.ctx(rec["scope"])
    code, lines = _run(setup_cmds.run_init, names, ctx)
    assert code == 0, lines
    assert {k: _value(k, v, emptied=True) for k, v in site.tree().items()} == expected
    assert _run(setup_cmds.run_init, names, ctx) == (0, [f"{rec['agent']}: already configured"])
