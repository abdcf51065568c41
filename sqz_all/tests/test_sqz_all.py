"""sqz-all depends on every distribution of the workspace, each at the core's compatible range."""

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _names() -> set[str]:
    files = [*ROOT.glob("sqz_*/pyproject.toml"), *ROOT.glob("sqz_integrations/*/pyproject.toml"),
             *ROOT.glob("sqz_stores/*/pyproject.toml")]
    return {tomllib.loads(p.read_text())["project"]["name"] for p in files} - {"sqz-all"}


def test_sqz_all_installs_every_distribution():
    meta = tomllib.loads((ROOT / "sqz_all" / "pyproject.toml").read_text())["project"]
    deps = {d.split(">", 1)[0]: d for d in meta["dependencies"]}
    extras = {d.split(">", 1)[0]: d for ds in meta["optional-dependencies"].values() for d in ds}
    assert set(deps) | set(extras) == _names()
    assert set(extras) == {"sqz-store-postgresql", "sqz-testing"}  # a PostgreSQL driver, pytest: opt-in
    assert all(d.endswith(">=0.2,<0.3") for d in [*deps.values(), *extras.values()])


def test_sqz_all_is_installed_here_and_brings_the_sqz_command():
    import re
    from importlib.metadata import distribution

    dist = distribution("sqz-all")
    assert dist.version == "0.2.0"
    required = {re.split(r"[<>=!~;\[ ]", r, maxsplit=1)[0] for r in dist.requires or [] if "extra ==" not in r}
    assert required == _names() - {"sqz-store-postgresql", "sqz-testing"}
