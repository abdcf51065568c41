"""sqz_agents.api: every public name resolves, lazily, and the integrations (MCP server included) use no
other module of sqz-core or sqz-agents."""

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_every_public_name_resolves():
    import sqz_agents.api as api

    assert api.__all__ == sorted(set(api.__all__) - {"API_VERSION"}) + ["API_VERSION"]
    for name in api.__all__:
        assert getattr(api, name) is not None, name


def test_importing_the_api_loads_nothing_else():
    code = "import sys, sqz_agents.api; print(sorted(m for m in sys.modules if m.startswith('sqz')))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "['sqz_agents', 'sqz_agents.api']"


def test_integrations_import_only_the_two_apis():
    bad = []
    for path in sorted(ROOT.glob("sqz_integrations/*/src/**/*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            names = [node.module] if isinstance(node, ast.ImportFrom) and node.level == 0 else (
                [a.name for a in node.names] if isinstance(node, ast.Import) else [])
            for name in names:
                if name and name.split(".")[0] in ("sqz_core", "sqz_agents") and name not in ("sqz_core.api",
                                                                                              "sqz_agents.api"):
                    bad.append(f"{path.relative_to(ROOT)}: {name}")
    assert bad == []


def test_the_distributions_split_from_the_core_import_only_its_api():
    bad = []
    for dist in ("sqz_agents", "sqz_insights", "sqz_daemon"):
        for path in sorted((ROOT / dist / "src").glob("**/*.py")):
            for node in ast.walk(ast.parse(path.read_text())):
                names = [node.module] if isinstance(node, ast.ImportFrom) and node.level == 0 else (
                    [a.name for a in node.names] if isinstance(node, ast.Import) else [])
                if isinstance(node, ast.ImportFrom) and node.module == "sqz_core":
                    names = [f"sqz_core.{a.name}" for a in node.names]  # ``from sqz_core import api``
                bad += [f"{path.relative_to(ROOT)}: {n}" for n in names
                        if n and n.split(".")[0] == "sqz_core" and n != "sqz_core.api"]
    assert bad == []
