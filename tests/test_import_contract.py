"""The layering, checked on the source: distributions meet only at their ``api`` modules, and no
distribution's modules import each other in a circle.

* A distribution's code (``src/``) imports another distribution's package only as ``<pkg>.api`` (or the
  bare package, for its ``__version__``): never a private module or name. Tests may reach further.
* No circle of module-level imports inside a distribution, and none closed by imports inside functions
  (kept there to keep the hot path light) either: ``LAZY_CIRCLES`` (the allowed exceptions) is empty,
  and a new circle fails.
"""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = {p.parent.name: p.parent for p in ROOT.glob("**/src/*/__init__.py")
            if not {".venv", "node_modules", ".cache", ".test-agents"} & set(p.parts)}

# circles closed only by function-level imports, as they stand (each may shrink or go, never grow)
LAZY_CIRCLES: list[set[str]] = []


def modules():
    for pkg, folder in PACKAGES.items():
        for f in folder.rglob("*.py"):
            parts = f.relative_to(folder.parent).with_suffix("").parts
            name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
            yield pkg, name, f


def imports(name: str, path: Path, top_level_only: bool):
    """(imported module or module.name, line) of a module's imports outside ``if TYPE_CHECKING:``."""
    tree = ast.parse(path.read_text("utf-8"))
    skip = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            skip |= {id(n) for n in ast.walk(node)}
    nodes = tree.body if top_level_only else ast.walk(tree)
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    for node in nodes:
        if id(node) in skip:
            continue
        if isinstance(node, ast.Import):
            for a in node.names:
                yield a.name, node.lineno
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - (node.level - 1)]
                mod = ".".join(base + ([node.module] if node.module else []))
            else:
                mod = node.module or ""
            yield mod, node.lineno
            for a in node.names:
                yield f"{mod}.{a.name}", node.lineno


def test_distributions_meet_only_at_their_api_modules():
    bad = []
    for pkg, name, path in modules():
        for target, line in imports(name, path, top_level_only=False):
            top = target.split(".")[0]
            if top in PACKAGES and top != pkg and target != top and not (
                    target == f"{top}.api" or target.startswith(f"{top}.api.")):
                bad.append(f"{path.relative_to(ROOT)}:{line}: {target}")
    assert bad == [], "private or non-api imports across distributions:\n" + "\n".join(sorted(set(bad)))


def _circles(top_level_only: bool) -> list[set[str]]:
    names = {name for _, name, _ in modules()}
    graph: dict[str, set[str]] = defaultdict(set)
    for pkg, name, path in modules():
        for target, _ in imports(name, path, top_level_only):
            if target in names and target != name and target.split(".")[0] == pkg:
                graph[name].add(target)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    found: list[set[str]] = []
    counter = [0]

    def visit(v: str) -> None:  # Tarjan's strongly connected components
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = set()
            while True:
                w = stack.pop()
                on.discard(w)
                comp.add(w)
                if w == v:
                    break
            if len(comp) > 1:
                found.append(comp)

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_no_module_level_import_circle_in_any_distribution():
    assert _circles(top_level_only=True) == []


def test_function_level_circles_are_only_the_listed_ones():
    for circle in _circles(top_level_only=False):
        assert any(circle <= known for known in LAZY_CIRCLES), f"a new import circle: {sorted(circle)}"


def test_the_checker_sees_a_private_import(tmp_path):
    """The rule is not vacuous: a private cross-distribution import in a module is reported."""
    f = tmp_path / "mod.py"
    f.write_text("def f():\n    from sqz_core.pipeline import compress\n")
    targets = [t for t, _ in imports("pack.mod", f, top_level_only=False)]
    assert "sqz_core.pipeline" in targets and "sqz_core.pipeline.compress" in targets
