"""Issue 29.1: no regular expression of any installed sqz distribution stalls on adversarial text.

Every pattern of every installed ``sqz_*`` package is searched: the module-level ones (``re.compile`` or
``lazy_pattern`` objects found on the imported modules) and every regex literal of every ``src`` tree of
the repository, found by walking the source: each call into ``re`` (``compile``, ``search``, ``match``,
``fullmatch``, ``findall``, ``finditer``, ``sub``, ``subn``, ``split``) or ``lazy``/``lazy_pattern``
whose pattern is a string literal or folds to one (concatenations, module-level string constants,
``re.escape`` of a literal, ``.pattern`` of a module-level pattern), inside functions and classes too.
A pattern built from run-time data (``re.escape`` of a phrase, a user's grep pattern) is not a literal
and is not searched. Each is (``finditer`` to the end, as ``sub`` and ``findall`` scan) over each seed of
``regex_corpus/seeds.json`` repeated to 10 KB and 100 KB, as one line and as lines. A linear
pattern takes milliseconds on 100 KB even on a loaded machine; one with adjacent or nested
unbounded repeats over overlapping classes takes minutes (``[a](b`` × 20,000 against
``\\[[^\\]\\n]+\\]\\([^)\\s]+[^)\\n]*\\)`` is cubic). The searches run in a worker process that reports
each one done; one that does not finish within HANG (a hang guard, 100× a slow machine's linear
time, not a speed claim) is recorded, the worker is killed and restarted after it.
"""

from __future__ import annotations

import ast
import importlib
import json
import os
import pkgutil
import re
import select
import subprocess
import sys
import textwrap

HERE = os.path.dirname(os.path.abspath(__file__))
SEEDS = os.path.join(HERE, "regex_corpus", "seeds.json")
SIZES = (10 * 1024, 100 * 1024)
HANG = 30.0  # seconds for one search of 100 KB: a hang detector

WORKER = textwrap.dedent('''
    import json, re, sys
    items = json.loads(sys.stdin.readline())
    texts = {}
    for i, (pattern, flags, anchored, seed, size, lines) in enumerate(items):
        key = (seed, size, lines)
        if key not in texts:
            unit = seed if not lines or seed.endswith("\\n") else seed + "\\n"
            texts[key] = (unit * (size // len(unit) + 1))[:size]
        rx = re.compile(pattern, flags)
        if anchored:  # used only with match/fullmatch: at the start (a short line's match is cheap)
            rx.match(texts[key])
        else:  # every match to the end, as sub and findall scan (subn loops in C)
            rx.subn("", texts[key])
        sys.stdout.write(f"{i}\\n")
        sys.stdout.flush()
''')


def _packages() -> list[str]:
    """Every importable top-level ``sqz_*`` package (editable installs included)."""
    return sorted({m.name for m in pkgutil.iter_modules() if m.name.startswith("sqz_")})


def _modules(package: str):
    try:
        pkg = importlib.import_module(package)
    except Exception:  # a distribution whose optional dependency is missing here: not importable, not run
        return
    yield pkg
    for info in pkgutil.walk_packages(getattr(pkg, "__path__", []), prefix=package + "."):
        if ".tests" in info.name or info.name.endswith(("__main__", ".conftest")):
            continue
        try:
            yield importlib.import_module(info.name)
        except Exception:
            continue


def _anchored_names(module) -> set[str]:
    """Names of the module's patterns that its own source only ever uses with ``match``/``fullmatch``
    (anchored at a position: searched over lines, not over every offset); a pattern used any other
    way, or not named in the source, is searched at every offset."""
    try:
        with open(module.__file__, encoding="utf-8") as fh:
            source = fh.read()
    except (OSError, TypeError):
        return set()
    return _anchored_in(source)


def _anchored_in(source: str) -> set[str]:
    """The names ``source`` only ever uses with ``.match``/``.fullmatch`` (see ``_anchored_names``)."""
    uses: dict[str, set[str]] = {}
    for m in re.finditer(r"\b([A-Za-z_]\w*)\b(?:(\.\w+)|(\s*=(?!=)))?", source):
        if not m.group(3):  # not its definition
            uses.setdefault(m.group(1), set()).add(m.group(2) or "")
    return {name for name, how in uses.items() if how and how <= {".match", ".fullmatch"}}


def installed_patterns() -> dict[tuple[str, int, bool], str]:
    """(pattern, flags, anchored) -> the first ``module:NAME`` that defines it, over every installed
    sqz package; ``anchored`` when the module only uses it with match/fullmatch."""
    found: dict[tuple[str, int, bool], str] = {}
    for package in _packages():
        for module in _modules(package):
            anchored = _anchored_names(module)
            for name, value in list(vars(module).items()):
                if isinstance(value, re.Pattern) and isinstance(value.pattern, str):
                    key = (value.pattern, value.flags & ~re.UNICODE)
                elif type(value).__name__ == "LazyPattern" and isinstance(value.__dict__.get("_source"), tuple):
                    pattern, flags = value.__dict__["_source"]
                    if not isinstance(pattern, str):
                        continue
                    key = (pattern, int(flags))
                else:
                    continue
                found.setdefault((*key, name in anchored), f"{module.__name__}:{name}")
    return found


def every_pattern() -> dict[tuple[str, int, bool], str]:
    """The installed module-level patterns and the literals of the src trees, each once (a pattern
    searched at every offset covers its anchored use)."""
    found = installed_patterns()
    for key, where in source_patterns()[0].items():
        found.setdefault(key, where)
    return {k: v for k, v in found.items() if not (k[2] and (k[0], k[1], False) in found)}


ROOT = os.path.dirname(HERE)
_RE_CALLS = {"compile": 1, "search": 2, "match": 2, "fullmatch": 2, "findall": 2, "finditer": 2, "sub": 4,
             "subn": 4, "split": 3}  # the function -> the position of its ``flags`` argument
_ANCHORED_CALLS = {"match", "fullmatch"}


def src_files() -> list[str]:
    """Every Python file of every distribution's ``src`` tree (tests folders left out)."""
    import glob

    found = []
    for src in sorted(glob.glob(os.path.join(ROOT, "*", "src")) + glob.glob(os.path.join(ROOT, "*", "*", "src"))):
        for dirpath, dirnames, filenames in os.walk(src):
            dirnames[:] = sorted(d for d in dirnames if d not in ("tests", "__pycache__"))
            found += [os.path.join(dirpath, f) for f in sorted(filenames) if f.endswith(".py")]
    return found


class _Folder:
    """Folds an expression to a string (or a flags int) when only literals and module constants make it."""

    def __init__(self, tree, re_names: set[str], re_imported: dict[str, str]) -> None:
        self.re_names, self.re_imported = re_names, re_imported
        self.consts: dict[str, object] = {}
        self.patterns: dict[str, tuple[str, int]] = {}
        for node in tree.body:  # module-level ``NAME = <literal>`` and ``NAME = re.compile(<literal>)``
            if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
                value = self.fold(node.value)
                if value is not None:
                    self.consts[node.targets[0].id] = value

    def is_re(self, node) -> bool:
        return isinstance(node, ast.Name) and node.id in self.re_names

    def fold(self, node):
        if isinstance(node, ast.Constant) and isinstance(node.value, (str, int)) and not isinstance(node.value, bool):
            return node.value
        if isinstance(node, ast.Name):
            return self.consts.get(node.id)
        if isinstance(node, ast.BinOp):
            left, right = self.fold(node.left), self.fold(node.right)
            if left is None or right is None or type(left) is not type(right):
                return None
            if isinstance(node.op, ast.Add) and isinstance(left, str):
                return left + right
            if isinstance(node.op, ast.BitOr) and isinstance(left, int):
                return left | right
            return None
        if isinstance(node, ast.Attribute):
            if self.is_re(node.value) and node.attr.isupper():
                return int(getattr(re, node.attr, 0)) or None
            if node.attr == "pattern" and isinstance(node.value, ast.Name):
                found = self.patterns.get(node.value.id)
                return found[0] if found else None
            return None
        if isinstance(node, ast.Call) and not node.keywords:
            f = node.func
            if isinstance(f, ast.Attribute) and self.is_re(f.value) and f.attr == "escape" and len(node.args) == 1:
                text = self.fold(node.args[0])
                return re.escape(text) if isinstance(text, str) else None
            if isinstance(f, ast.Attribute) and f.attr == "join" and len(node.args) == 1:
                sep, items = self.fold(f.value), node.args[0]
                if isinstance(sep, str) and isinstance(items, (ast.Tuple, ast.List)):
                    parts = [self.fold(e) for e in items.elts]
                    if all(isinstance(x, str) for x in parts):
                        return sep.join(parts)
            return None
        return None


def _regex_call(node, folder: _Folder, lazy_names: set[str]) -> str | None:
    """The ``re`` function (``compile`` for lazy patterns) a call is, or None."""
    f = node.func
    if isinstance(f, ast.Attribute) and folder.is_re(f.value) and f.attr in _RE_CALLS:
        return f.attr
    if isinstance(f, ast.Name) and f.id in folder.re_imported:
        return folder.re_imported[f.id]
    if isinstance(f, ast.Name) and f.id in lazy_names or isinstance(f, ast.Attribute) and f.attr == "lazy_pattern":
        return "compile"
    return None


def _only_matched(tree, parents) -> set[str]:
    """Names (``X`` or ``obj.X``) read only as ``X.match``/``X.fullmatch`` in ``tree``."""
    uses: dict[str, set[bool]] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) or isinstance(node, ast.Attribute):
            if not isinstance(node.ctx, ast.Load):
                continue
            name = node.id if isinstance(node, ast.Name) else node.attr
            up = parents.get(node)
            uses.setdefault(name, set()).add(isinstance(up, ast.Attribute) and up.attr in _ANCHORED_CALLS)
    return {name for name, how in uses.items() if how == {True}}


def source_patterns(paths: list[str] | None = None) -> tuple[dict[tuple[str, int, bool], str], list[str]]:
    """(pattern, flags, anchored) -> ``path:line`` of every regex literal in the src trees (or ``paths``),
    and the ``path:line`` of each regex call whose pattern is built at run time (not searched)."""
    found: dict[tuple[str, int, bool], str] = {}
    dynamic: list[str] = []
    for path in src_files() if paths is None else paths:
        with open(path, encoding="utf-8") as fh:
            source = fh.read()
        tree = ast.parse(source, path)
        re_names, re_imported, lazy_names = set(), {}, set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                re_names.update(a.asname or "re" for a in node.names if a.name == "re")
            elif isinstance(node, ast.ImportFrom):
                for a in node.names:
                    if node.module == "re" and a.name in _RE_CALLS:
                        re_imported[a.asname or a.name] = a.name
                    elif (node.module or "").endswith("lazyre") and a.name == "lazy" or a.name == "lazy_pattern":
                        lazy_names.add(a.asname or a.name)
        folder = _Folder(tree, re_names, re_imported)
        parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
        anchored_names = _only_matched(tree, parents)
        rel = os.path.relpath(path, ROOT)
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            how = _regex_call(node, folder, lazy_names)
            if how is None:
                continue
            kw = {k.arg: k.value for k in node.keywords}
            arg = node.args[0] if node.args else kw.get("pattern")
            pattern = folder.fold(arg) if arg is not None else None
            if not isinstance(pattern, str):
                if not (isinstance(arg, ast.Constant) and isinstance(arg.value, bytes)):
                    dynamic.append(f"{rel}:{node.lineno}")
                continue
            at = _RE_CALLS[how]
            flags_node = node.args[at] if len(node.args) > at else kw.get("flags")
            flags = folder.fold(flags_node) if flags_node is not None else 0
            if not isinstance(flags, int):
                dynamic.append(f"{rel}:{node.lineno}")
                continue
            anchored = how in _ANCHORED_CALLS
            if how == "compile":  # anchored when only ever used with match/fullmatch
                up = parents.get(node)
                if isinstance(up, ast.Attribute):  # ``re.compile(p).match(...)``
                    anchored = up.attr in _ANCHORED_CALLS
                elif isinstance(up, (ast.Assign, ast.AnnAssign)):
                    targets = up.targets if isinstance(up, ast.Assign) else [up.target]
                    names = [t.id if isinstance(t, ast.Name) else t.attr for t in targets
                             if isinstance(t, (ast.Name, ast.Attribute))]
                    anchored = bool(names) and all(n in anchored_names for n in names)
            found.setdefault((pattern, flags & ~re.UNICODE, anchored), f"{rel}:{node.lineno}")
            if how == "compile" and isinstance(parents.get(node), ast.Assign) and parents[node] in tree.body:
                for t in parents[node].targets:
                    if isinstance(t, ast.Name):
                        folder.patterns[t.id] = (pattern, flags)
    return found, dynamic


def _seeds() -> dict[str, str]:
    with open(SEEDS, encoding="utf-8") as fh:
        return {k: v for k, v in json.load(fh).items() if not k.startswith("_")}


def slow_searches(patterns: dict[tuple[str, int, bool], str], seeds: dict[str, str]) -> list[str]:
    """Each (pattern, input) whose search did not end within HANG, described."""
    items = [(p, f, a, seed, size, lines) for (p, f, a) in patterns for seed in seeds.values()
             for size in SIZES for lines in ((False,) if a else (False, True))]
    slow: list[str] = []
    start = 0
    while start < len(items):
        proc = subprocess.Popen([sys.executable, "-c", WORKER], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        proc.stdin.write(json.dumps(items[start:]).encode() + b"\n")
        proc.stdin.close()
        done = start - 1
        buf = b""
        try:
            while True:
                ready, _, _ = select.select([proc.stdout], [], [], HANG)
                if not ready:  # the search after ``done`` hangs
                    p, f, a, seed, size, lines = items[done + 1]
                    name = next(k for k, v in seeds.items() if v == seed)
                    slow.append(f"{patterns[(p, f, a)]} {p!r} ({'match' if a else 'search'}) on {name!r} x "
                                f"{size // 1024} KB"
                                + (" (lines)" if lines else " (one line)"))
                    break
                chunk = os.read(proc.stdout.fileno(), 65536)
                if not chunk:
                    if proc.wait() != 0:
                        raise AssertionError(f"the worker failed after item {done}")
                    return slow
                buf += chunk
                *lines_done, buf = buf.split(b"\n")
                if lines_done:
                    done = start + int(lines_done[-1])
        finally:
            if proc.poll() is None:
                proc.kill()
            proc.wait()
            proc.stdout.close()
        start = done + 2
    return slow


def test_the_corpus_covers_the_shapes_of_issue_29():
    seeds = _seeds()
    for name in ("md_link_open", "open_brackets", "letters", "spaces", "passed_count", "near_identical_lines"):
        assert name in seeds
    assert len(set(seeds.values())) == len(seeds)  # no two names for one seed


def test_patterns_are_collected_from_every_installed_package():
    patterns = installed_patterns()
    where = {v.split(":")[0].split(".")[0] for v in patterns.values()}
    assert {"sqz_core", "sqz_formatters_git", "sqz_formatters_test", "sqz_formatters_cloud"} <= where
    assert any(v.endswith("markdown_doc:_LINK") for v in patterns.values())


SAMPLE = textwrap.dedent('''
    import re
    import re as _re
    from re import sub as resub
    from sqz_core.lazyre import lazy
    from sqz_core import api

    _WORD = r"\\w+"
    _TOP = re.compile(_WORD + r"=" + _WORD, re.I | re.M)
    _LIST = [re.compile(r"list-item \\d+"), lazy(r"lazy-in-list")]

    def f(text, phrase):
        re.search(r"in-function", text)
        _re.findall("alias-" + _WORD, text, flags=re.S)
        resub(r"imported-sub", "", text, 0, re.M)
        re.match(r"anchored-call", text)
        re.compile(r"compiled-then-matched").match(text)
        re.search(_TOP.pattern + "x", text)
        re.search(re.escape("a.b") + "|" .join(("c", "d")), text)
        re.search(re.escape(phrase), text)  # built at run time

    class C:
        def __init__(self):
            self._rx = api.lazy_pattern(r"in-method")
            self._only = re.compile(r"only-matched")

        def use(self, s):
            return self._rx.search(s), self._only.match(s)
''')


def test_the_source_walk_finds_every_literal_shape(tmp_path):
    """Calls into ``re`` and lazy patterns inside functions, methods, lists, through aliases, with
    literals folded from module constants; the one pattern built at run time is named apart."""
    path = tmp_path / "sample.py"
    path.write_text(SAMPLE, encoding="utf-8")
    found, dynamic = source_patterns([str(path)])
    assert set(found) == {
        (r"\w+=\w+", re.I | re.M, False),
        (r"list-item \d+", 0, False),
        ("lazy-in-list", 0, False),
        ("in-function", 0, False),
        (r"alias-\w+", re.S, False),
        ("imported-sub", re.M, False),
        ("anchored-call", 0, True),
        ("compiled-then-matched", 0, True),
        (r"\w+=\w+x", 0, False),
        (r"a\.bc|d", 0, False),
        ("in-method", 0, False),
        ("only-matched", 0, True),
    }
    assert [d.rsplit(":", 1)[1] for d in dynamic] == ["20"]


def test_inline_literals_are_collected_from_the_src_trees():
    """On the repository: patterns the module-level collection cannot see (in functions, methods,
    lists, tuples) are found with where they are written."""
    found, dynamic = source_patterns()
    where = {v.split("/")[0] for v in found.values()}
    assert {"sqz_core", "sqz_agents", "sqz_formatters_git", "sqz_formatters_test", "sqz_formatters_generic",
            "sqz_integrations", "sqz_proxy"} <= where
    installed = {(p, f) for p, f, _ in installed_patterns()}
    inline = {k for k in found if k[:2] not in installed}
    assert len(inline) >= 20, len(inline)
    assert len(dynamic) < len(found) // 10  # most patterns are literals


def test_every_collected_literal_compiles():
    bad = []
    for (pattern, flags, _anchored), where in source_patterns()[0].items():
        try:
            re.compile(pattern, flags)
        except re.error as exc:
            bad.append(f"{where}: {exc}")
    assert bad == []


def test_no_installed_pattern_hangs_on_adversarial_text():
    assert slow_searches(every_pattern(), _seeds()) == []
