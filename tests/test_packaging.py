"""Every distribution is versioned and packaged on its own: version, CHANGELOG, license, classifiers,
``py.typed``, a compatible range of each sqz distribution it needs; its wheel and sdist build and pass
``twine check``."""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DISTS = sorted(p.parent for p in [*ROOT.glob("sqz_*/pyproject.toml"), *ROOT.glob("sqz_integrations/*/pyproject.toml"),
                                  *ROOT.glob("sqz_stores/*/pyproject.toml")])
CORE_VERSION = re.search(r'VERSION = "([^"]+)"', (ROOT / "sqz_core/src/sqz_core/_version.py").read_text()).group(1)
SQZ_DEP = re.compile(r"^(sqz-[a-z-]+)(\[[^\]]*\])?(.*)$")


def meta(dist: Path) -> dict:
    return tomllib.loads((dist / "pyproject.toml").read_text())["project"]


def version(dist: Path) -> str:
    return re.search(r'VERSION = "([^"]+)"', next(dist.glob("src/*/_version.py")).read_text()).group(1)


@pytest.mark.parametrize("dist", DISTS, ids=lambda d: d.name)
def test_metadata_a_user_and_an_index_need(dist):
    m = meta(dist)
    assert m["license"] == "MIT" and m["license-files"] == ["LICENSE"] and (dist / "LICENSE").read_text().startswith(
        "MIT License")
    assert "Typing :: Typed" in m["classifiers"] and any(c.startswith("Development Status") for c in m["classifiers"])
    assert not any(c.startswith("License ::") for c in m["classifiers"])  # PEP 639: the SPDX expression says it
    pkg = next(dist.glob("src/*/_version.py")).parent
    assert (pkg / "py.typed").exists()
    changelog = (dist / "CHANGELOG.md").read_text()
    assert f"## {version(dist)}" in changelog, f"{dist.name}: CHANGELOG.md has no entry for {version(dist)}"


@pytest.mark.parametrize("dist", DISTS, ids=lambda d: d.name)
def test_each_sqz_dependency_is_a_compatible_range_of_this_minor(dist):
    major_minor = ".".join(CORE_VERSION.split(".")[:2])
    nxt = f"{major_minor.split('.')[0]}.{int(major_minor.split('.')[1]) + 1}"
    deps = list(meta(dist).get("dependencies", []))
    for extra in meta(dist).get("optional-dependencies", {}).values():
        deps += extra
    for dep in deps:
        m = SQZ_DEP.match(dep.replace(" ", ""))
        if m:
            assert m.group(3) == f">={major_minor},<{nxt}", f"{dist.name}: {dep} (want >={major_minor},<{nxt})"
    assert version(dist).startswith(major_minor + "."), f"{dist.name} {version(dist)} is not a {major_minor}.x"


def test_every_wheel_and_sdist_builds_and_passes_twine_check(tmp_path):
    """``python -m build`` (no isolation: hatchling from the dev requirements) for each, then ``twine check``."""
    out = tmp_path / "dist"
    for dist in DISTS:
        r = subprocess.run([sys.executable, "-m", "build", "--no-isolation", "--sdist", "--wheel", "--outdir",
                            str(out / dist.name), str(dist)], capture_output=True, text=True, timeout=600)
        assert r.returncode == 0, f"{dist.name}: {r.stdout[-1500:]}{r.stderr[-1500:]}"
        built = sorted((out / dist.name).iterdir(), key=lambda p: p.suffix)  # .gz (sdist), .whl
        check = subprocess.run([sys.executable, "-m", "twine", "check", "--strict", *map(str, built)],
                               capture_output=True, text=True, timeout=300)
        assert check.returncode == 0, f"{dist.name}: {check.stdout}{check.stderr}"
        import zipfile

        with zipfile.ZipFile(built[1]) as whl:
            names = whl.namelist()
        assert any(n.endswith("/py.typed") for n in names) and any(n.endswith("licenses/LICENSE") for n in names), names


def test_the_readme_install_builds_every_distribution_sqz_all_names():
    """README: ``bash scripts/build_wheels.sh dist && pip install --find-links dist sqz-all``. The script
    builds the wheels of exactly the workspace's distributions, and every sqz distribution sqz-all (and
    its extras) depends on is one of them, so that pip finds each in ``dist``."""
    readme = (ROOT / "README.md").read_text()
    assert "bash scripts/build_wheels.sh dist && pip install --find-links dist sqz-all" in readme
    listed = subprocess.run(["git", "ls-files", "*/pyproject.toml"], cwd=ROOT, capture_output=True, text=True,
                            check=True).stdout.split()
    built = {(ROOT / p).parent for p in listed if not p.startswith(("examples/", "benchmarks/"))}
    assert built == set(DISTS)
    names = {meta(d)["name"] for d in DISTS}
    all_meta = meta(ROOT / "sqz_all")
    wanted = [*all_meta["dependencies"], *(d for extra in all_meta["optional-dependencies"].values() for d in extra)]
    sqz_wanted = {SQZ_DEP.match(d).group(1) for d in wanted if d.startswith("sqz-")}
    assert sqz_wanted and sqz_wanted <= names
    assert sqz_wanted | {"sqz-all"} == names  # nothing of the workspace is left out of the one-command install
