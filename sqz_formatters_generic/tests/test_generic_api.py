"""``sqz_formatters_generic.api``: the only module of this pack other distributions import."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

import sqz_formatters_generic.api as api

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("name", api.__all__)
def test_every_public_name_resolves_to_the_kinds_object(name):
    import importlib

    module, attr = api._NAMES[name]
    owner = importlib.import_module("sqz_formatters_generic.kinds" + (f".{module}" if module else ""))
    assert getattr(api, name) is getattr(owner, attr)


def test_an_unknown_name_is_an_attribute_error():
    with pytest.raises(AttributeError, match="no attribute 'parse_table'"):
        api.parse_table  # noqa: B018 - private: not in the API


def test_importing_the_api_loads_no_kind_module():
    code = ("import sys; import sqz_formatters_generic.api; "
            "print([m for m in sys.modules if m.startswith('sqz_formatters_generic.kinds')])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_other_packs_import_the_api_only_and_declare_the_dependency():
    users = 0
    for src in sorted(ROOT.glob("sqz_*/src")) + sorted(ROOT.glob("sqz_integrations/*/src")):
        dist = src.parent
        if dist.name == "sqz_formatters_generic":
            continue
        imports = set()
        for path in src.rglob("*.py"):
            imports |= set(re.findall(r"^\s*(?:from|import) (sqz_formatters_generic[\w.]*)", path.read_text(), re.M))
        assert imports <= {"sqz_formatters_generic.api"}, (dist.name, imports)
        if imports:
            users += 1
            assert '"sqz-formatters-generic' in (dist / "pyproject.toml").read_text(), dist.name
    assert users >= 2  # the git and cloud packs
