#!/usr/bin/env python3
"""Re-capture the Python and JavaScript fixtures of sqz-formatters-test.

Builds small throw-away projects under /tmp/sqz-capture/ (fixed paths, so the
captured text is stable), with induced failures (a failing assert, an exception,
an import/collection error, a fixture error, warnings, type and lint errors) plus
an all-green variant, runs the real tools and writes
``tests/fixtures/<family>/NAME.txt`` (bytes as printed, stdout+stderr merged) and
updates ``NAME.json`` (command, produced_by, exit_code; hand-picked ``facts``,
``dropped`` and ``notes`` are kept).

Tools: a throw-away venv /tmp/sqz-pyjs-tools/venv (pytest, pytest-xdist, tox,
nox, ruff, mypy, uv) and npm packages in /tmp/sqz-pyjs-tools/js (jest, vitest 3
+ vite 6, typescript, eslint 9; symlinked into the JS project) and
/tmp/sqz-pyjs-tools/pm (pnpm, yarn, bun). They are created when missing.

Held-out fixtures (``ho_*``, families pytest/unittest/tox) run the real test suites of pinned
third-party sdists (attrs, boltons, cachetools, idna, more-itertools, packaging, simplejson,
toolz) in /tmp/sqz-pyjs-tools/venv-heldout; a red run flips one line of the library (recorded in
the sidecar) or lacks a test dependency. ``SQZ_CAPTURE_HELDOUT=0`` skips them.

Registry host names and index paths are replaced by ``pkgs.example.org``.

Usage: [SQZ_CAPTURE_ONLY=name,...] python scripts/capture_python_js.py [family ...]
(``SQZ_CAPTURE_ONLY`` re-captures just the named fixtures of those families.)
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from sqz_core.testing import redact_registries

from _capture_common import FIXTURES, run_merged, write_fixture, write_tree

ROOT = Path("/tmp/sqz-capture/pyjs")         # the throw-away projects (stable paths in the output)
TOOLBOX = Path("/tmp/sqz-pyjs-tools")        # installed tools, kept between captures
VENV = TOOLBOX / "venv"
JS = ROOT / "jsproj"
NODE_MODULES = TOOLBOX / "js"
TOOLS = TOOLBOX / "pm"

# Package-index hosts and this machine's index paths are replaced generically (no host is named
# here): every URL host in package-manager output, and every /opt/<index> path.
_URL_HOST = re.compile(r"https?://[A-Za-z0-9.-]+")
_INDEX_PATH = re.compile(r"(file://)?/opt/[A-Za-z0-9_.-]+")
_PACKAGE_MANAGERS = frozenset({"pip", "npm"})
ONLY = set(filter(None, os.environ.get("SQZ_CAPTURE_ONLY", "").split(",")))


def scrub(data: bytes, family: str) -> bytes:
    """Replace registry hosts and this machine's index paths with the neutral ``pkgs.example.org``."""
    text = data.decode("utf-8", "surrogateescape")
    if family in _PACKAGE_MANAGERS:
        text = _URL_HOST.sub("https://pkgs.example.org", text)
    text = _INDEX_PATH.sub(lambda m: (m.group(1) or "") + "/pkgs.example.org", text)
    return redact_registries(text).encode("utf-8", "surrogateescape")


def env_path() -> dict:
    env = dict(os.environ)
    env["PATH"] = os.pathsep.join([str(VENV / "bin"), str(NODE_MODULES / "node_modules" / ".bin"),
                                   str(TOOLS / "node_modules" / ".bin"), env["PATH"]])
    env["VIRTUAL_ENV"] = str(VENV)
    for k in ("CI", "FORCE_COLOR", "NO_COLOR", "PYTEST_ADDOPTS"):
        env.pop(k, None)
    env["COLUMNS"] = "100"
    return env


def run(cmd: str, cwd: Path, env: dict | None = None) -> tuple[bytes, int]:
    return run_merged(cmd, cwd, env or env_path(), 600)


def version(cmd: str) -> str:
    out, _ = run(cmd, ROOT)
    return out.decode().strip().splitlines()[0]


def record(family: str, name: str, cmd: str, cwd: Path, produced_by: str, notes: str = "",
           shown: str | None = None, env: dict | None = None) -> None:
    """Run ``cmd`` in ``cwd`` and store the fixture ``family/name`` (sidecar facts are kept)."""
    if ONLY and name not in ONLY:
        return
    out, rc = run(cmd, cwd, env)
    out = scrub(out, family)
    side = FIXTURES / family / f"{name}.json"
    meta = json.loads(side.read_text()) if side.exists() else {"facts": [], "dropped": []}
    meta["command"] = shown or cmd
    meta["produced_by"] = produced_by
    meta["exit_code"] = rc
    base_note = f"captured in {cwd} by scripts/capture_python_js.py; stdout+stderr merged"
    if b"pkgs.example.org" in out:
        base_note += "; registry hosts and index paths replaced by pkgs.example.org"
    meta["notes"] = base_note + (f"; {notes}" if notes else "")
    ordered = {k: meta[k] for k in ("command", "produced_by", "exit_code", "facts", "dropped", "notes") if k in meta}
    write_fixture(family, name, out, ordered)
    print(f"{family}/{name}: exit {rc}, {len(out)} bytes")


def ensure_tools(families: set) -> None:
    if not (VENV / "bin" / "pytest").exists():
        subprocess.run([sys.executable, "-m", "venv", str(VENV)], check=True)
        subprocess.run([str(VENV / "bin" / "pip"), "install", "-q", "pytest", "pytest-xdist", "tox", "nox",
                        "ruff", "mypy", "uv"], check=True, stderr=subprocess.DEVNULL)
    if not families & {"npm", "node", "jest", "vitest", "tsc", "eslint"}:
        return
    if not (NODE_MODULES / "node_modules" / ".bin" / "jest").exists():
        NODE_MODULES.mkdir(parents=True, exist_ok=True)
        subprocess.run("npm init -y >/dev/null && npm install --save-dev jest vitest@3 vite@6 typescript "
                       "eslint@9 @eslint/js@9", shell=True, cwd=NODE_MODULES, check=True)
    if not (TOOLS / "node_modules" / ".bin" / "pnpm").exists():
        subprocess.run(["npm", "install", "--prefix", str(TOOLS), "pnpm", "yarn", "bun"], check=True)


# ---------------------------------------------------------------- Python projects

PY_RED = {
    "red/test_math.py": '''import warnings

import pytest


def add(a, b):
    return a + b


@pytest.mark.parametrize("n", range(120))
def test_add_many(n):
    assert add(n, 1) == n + 1


def test_add_wrong():
    assert add(2, 2) == 5, "two plus two"


def test_dict_diff():
    assert {"a": 1, "b": 2} == {"a": 1, "b": 3}


def load_config(value):
    if value == "x":
        raise ValueError(f"bad config value: {value!r}")
    return value


def test_exception():
    load_config("x")


@pytest.fixture
def broken_db():
    raise RuntimeError("cannot connect to db")


def test_uses_fixture(broken_db):
    assert broken_db


@pytest.mark.parametrize("i", range(12))
def test_old_api(i):
    warnings.warn("old_api() is deprecated, use new_api()", DeprecationWarning)
    assert i >= 0


def test_user_warning():
    warnings.warn("cache directory missing, using /tmp", UserWarning)


@pytest.mark.skip(reason="needs network")
def test_network():
    pass


@pytest.mark.xfail(reason="known bug #12")
def test_known_bug():
    assert 1 == 2
''',
    "red/test_legacy.py": '''import warnings


def legacy_call(name):
    warnings.warn(f"legacy_call({name!r}) is deprecated; use modern_call()", DeprecationWarning, stacklevel=2)
    return name


def test_legacy_a():
    assert legacy_call("a") == "a"


def test_legacy_b():
    assert legacy_call("b") == "b"


def test_legacy_c():
    assert legacy_call("c") == "c"


def test_legacy_d():
    assert legacy_call("d") == "d"


def test_legacy_e():
    assert legacy_call("e") == "e"


def test_pending():
    warnings.warn("format v1 will be removed", PendingDeprecationWarning)


def test_runtime_warning():
    warnings.warn("overflow encountered in scale()", RuntimeWarning)
''',
    "red/test_strings.py": '''import pytest


@pytest.mark.parametrize("word", ["alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta",
                                  "iota", "kappa", "lambda", "mu", "nu", "xi", "omicron", "pi"])
def test_upper(word):
    assert word.upper().lower() == word


def test_split():
    assert "a,b,c".split(",") == ["a", "b", "c", "d"]
''',
}

PY_GREEN = {
    "green/test_ok.py": '''import pytest


@pytest.mark.parametrize("n", range(60))
def test_square(n):
    assert n * n >= 0


def test_join():
    assert "-".join("abc") == "a-b-c"
''',
    "green/test_more.py": '''def test_one():
    assert 1


def test_two():
    assert [1, 2] == [1, 2]
''',
}

PY_COLLECT = {
    "collect/test_ok.py": '''import pytest


@pytest.mark.parametrize("n", range(10))
def test_fine(n):
    assert n >= 0
''',
    "collect/test_broken_import.py": '''from mypkg.missing import helper


def test_helper():
    assert helper() == 1
''',
    "collect/test_syntax.py": '''def test_bad(:
    pass
''',
}

UT_RED = {
    "ut_red/__init__.py": "",
    "ut_red/test_calc.py": '''import unittest


def divide(a, b):
    return a / b


class TestCalc(unittest.TestCase):
    def test_add(self):
        self.assertEqual(1 + 1, 2)

    def test_sub(self):
        self.assertEqual(3 - 1, 2)

    def test_mul(self):
        self.assertEqual(2 * 3, 7)

    def test_divide_zero(self):
        self.assertEqual(divide(1, 0), 0)

    @unittest.skip("not ready")
    def test_pow(self):
        pass


class TestStrings(unittest.TestCase):
    def test_upper(self):
        for w in ["a", "b", "c"]:
            with self.subTest(w=w):
                self.assertEqual(w.upper(), "A")

    def test_lower(self):
        self.assertEqual("A".lower(), "a")
''',
    "ut_red/test_many.py": '''import unittest


class TestMany(unittest.TestCase):
    pass


for _i in range(30):
    setattr(TestMany, f"test_case_{_i:02d}", lambda self, i=_i: self.assertTrue(i >= 0))
''',
}

UT_GREEN = {
    "ut_green/__init__.py": "",
    "ut_green/test_ok.py": '''import unittest


class TestOk(unittest.TestCase):
    pass


for _i in range(25):
    setattr(TestOk, f"test_ok_{_i:02d}", lambda self, i=_i: self.assertEqual(i, i))
''',
}

UT_IMPORT = {
    "ut_import/__init__.py": "",
    "ut_import/test_imp.py": "import not_installed_module\n\n\ndef test_x():\n    pass\n",
}

TOX_INI = '''[tox]
env_list = green, red
skip_missing_interpreters = true

[testenv]
deps = pytest
commands =
    green: pytest -q green
    red: pytest -q red/test_strings.py
'''

NOXFILE = '''import nox


@nox.session
def green(session):
    session.install("pytest")
    session.run("pytest", "-q", "green")


@nox.session
def red(session):
    session.install("pytest")
    session.run("pytest", "-q", "red/test_strings.py")
'''

RUFF_SRC = {
    "lint/app.py": '''import os
import sys
import json


def main(argv):
    unused = 42
    if argv == None:
        return 1
    try:
        run(argv)
    except:
        pass
    print(f"done")
    return 0


def run(argv):
    l = [x for x in argv]
    return l
''',
    "lint/util.py": '''from typing import *


def helper(a, b={}):
    return undefined_name + a
''',
    "lint/clean.py": "def ok():\n    return 1\n",
}

MYPY_SRC = {
    "typed/app.py": '''from typing import Optional

import requests_not_there


def greet(name: str) -> str:
    return "hello " + name


def count(items: list[int]) -> int:
    return sum(items)


greet(42)
count(["a", "b"])
x: int = "three"


def maybe(v: Optional[str]) -> int:
    return len(v)


class Box:
    def get(self) -> int:
        return self.value
''',
    "typed/util.py": '''def add(a: int, b: int) -> int:
    return a + b


add(1, "2")
result: str = add(1, 2)
''',
    "typed_green/ok.py": '''def add(a: int, b: int) -> int:
    return a + b


print(add(1, 2))
''',
}


# A worker's tests: the code under test logs each caught exception with its traceback (captured
# stderr), and the tests then fail on the same error, so tracebacks sit inside pytest's report.
PY_TB = {
    "tb/worker.py": '''import json
import logging

log = logging.getLogger("worker")


def parse(body):
    return json.loads(body)["payload"]


def handle(body):
    try:
        return parse(body)
    except KeyError:
        log.exception("job failed, will retry")
        raise


def size(header):
    return int(header)
''',
    "tb/test_worker.py": '''import logging
import sys

import pytest

from worker import handle, size

logging.basicConfig(stream=sys.stderr, level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")


@pytest.mark.parametrize("n", range(40))
def test_handle_ok(n):
    assert handle('{"payload": %d}' % n) == n


@pytest.mark.parametrize("attempt", [1, 2, 3])
def test_handle_missing_payload(attempt):
    assert handle('{"id": 7}') == 7


def test_size():
    assert size("12kb") == 12
''',
}


def capture_python(families: set) -> None:
    py = ROOT / "py"
    write_tree(py, {**PY_RED, **PY_GREEN, **PY_COLLECT, **UT_RED, **UT_GREEN, **UT_IMPORT, **PY_TB,
                    "tox.ini": TOX_INI, "noxfile.py": NOXFILE, **RUFF_SRC, **MYPY_SRC})
    pv = version("pytest --version") + "; Python " + version("python -c 'import platform;print(platform.python_version())'")
    if "pytest" in families:
        record("pytest", "green_default", "pytest green", py, pv)
        record("pytest", "green_quiet", "pytest -q green", py, pv)
        record("pytest", "red_default", "pytest red", py, pv)
        record("pytest", "red_verbose", "pytest -v red", py, pv)
        record("pytest", "red_quiet", "pytest -q red", py, pv)
        record("pytest", "red_exitfirst", "pytest -x red", py, pv)
        record("pytest", "red_tb_short", "pytest --tb=short red", py, pv)
        record("pytest", "red_tb_long", "pytest --tb=long red/test_strings.py", py, pv)
        record("pytest", "red_tb_line", "pytest --tb=line red", py, pv)
        record("pytest", "red_tb_no", "pytest --tb=no red", py, pv)
        record("pytest", "red_report_all", "pytest -rA red/test_strings.py", py, pv)
        record("pytest", "red_xdist", "pytest -n 2 red", py, pv + "; pytest-xdist " + version(
            "python -c 'import xdist;print(xdist.__version__)'"))
        record("pytest", "green_xdist", "pytest -n 2 green", py, pv + "; pytest-xdist " + version(
            "python -c 'import xdist;print(xdist.__version__)'"))
        record("pytest", "red_color", "pytest --color=yes red/test_strings.py", py, pv,
               notes="forced colour: raw ANSI escapes kept")
        record("pytest", "collect_error", "pytest collect", py, pv)
        record("pytest", "python_m_pytest_green", "python -m pytest -q green/test_more.py", py, pv)
        record("pytest", "no_tests", "pytest -k nomatch green", py, pv)
        record("pytest", "red_logged_traceback", "pytest tb", py, pv,
               notes="the code under test logs each caught exception with logging.exception: tracebacks in "
                     "the captured stderr of failing tests")
        record("pytest", "red_tb_native", "pytest --tb=native tb", py, pv,
               notes="--tb=native: each failure is a Python traceback")
    if "unittest" in families:
        record("unittest", "red_default", "python -m unittest discover -s ut_red -t .", py, pv.split("; ")[1])
        record("unittest", "red_verbose", "python -m unittest discover -v -s ut_red -t .", py, pv.split("; ")[1])
        record("unittest", "green_default", "python -m unittest discover -s ut_green -t .", py, pv.split("; ")[1])
        record("unittest", "import_error", "python -m unittest discover -s ut_import -t .", py, pv.split("; ")[1])
    if "tox" in families:
        # `tox --version` may print a "ROOT: …" notice first: take the line that is "X.Y.Z from …"
        tv_out, _ = run("tox --version", ROOT)
        tv = "tox " + next((line.split()[0] for line in tv_out.decode().splitlines()
                            if re.match(r"\d+\.\d+", line)), "(version not printed)")
        shutil.rmtree(py / ".tox", ignore_errors=True)
        record("tox", "red_envs", "tox", py, tv)
        record("tox", "green_env", "tox -e green", py, tv)
        nv = "nox " + version("nox --version")
        shutil.rmtree(py / ".nox", ignore_errors=True)
        record("tox", "nox_red", "nox", py, nv)
    if "ruff" in families:
        rv = version("ruff --version")
        record("ruff", "check_errors", "ruff check lint", py, rv)
        record("ruff", "check_concise", "ruff check --output-format=concise lint", py, rv)
        record("ruff", "check_clean", "ruff check lint/clean.py", py, rv)
        record("ruff", "check_select_all", "ruff check --select ALL lint", py, rv)
    if "mypy" in families:
        mv = version("mypy --version")
        shutil.rmtree(py / ".mypy_cache", ignore_errors=True)
        record("mypy", "errors", "mypy typed", py, mv)
        record("mypy", "errors_pretty", "mypy --pretty typed", py, mv)
        record("mypy", "clean", "mypy typed_green", py, mv)
    if "pip" in families:
        capture_pip()
    if families & {"pytest", "unittest", "tox"} and os.environ.get("SQZ_CAPTURE_HELDOUT", "1") != "0":
        capture_python_heldout(families)


# ---------------------------------------------------------------- held-out: real third-party test suites

# Real projects' own test suites (sdists that ship tests), run in a separate throw-away venv; a red run
# comes from flipping ONE line of the library's source (recorded in the sidecar's notes) or from a test
# dependency left uninstalled. The sdists are pinned so a re-capture sees the same tests.
HO_ROOT = Path("/tmp/sqz-capture/pyho")
HO_VENV = TOOLBOX / "venv-heldout"
HO_SDISTS = {"attrs": "attrs==26.1.0", "boltons": "boltons==26.2.0", "cachetools": "cachetools==8.0.2",
             "idna": "idna==3.20", "more_itertools": "more-itertools==11.2.1", "packaging": "packaging==26.4",
             "simplejson": "simplejson==4.3.0", "toolz": "toolz==1.2.0"}


def ho_ensure() -> None:
    """The held-out venv (pytest, pytest-xdist, hypothesis, tox) and the unpacked sdists."""
    if not (HO_VENV / "bin" / "pytest").exists():
        subprocess.run([sys.executable, "-m", "venv", str(HO_VENV)], check=True)
        subprocess.run([str(HO_VENV / "bin" / "pip"), "install", "-q", "pytest==9.2.0", "pytest-xdist==3.8.0",
                        "hypothesis==6.170.17", "tox==4.67.15"], check=True, stderr=subprocess.DEVNULL)
    sdist = HO_ROOT / "sdist"
    sdist.mkdir(parents=True, exist_ok=True)
    for spec in HO_SDISTS.values():
        name, ver = spec.split("==")
        if not any(sdist.glob(f"{name.replace('-', '_')}-{ver}.tar.gz")) and not any(sdist.glob(f"{name}-{ver}.tar.gz")):
            subprocess.run([str(HO_VENV / "bin" / "pip"), "download", "-q", "--no-binary", ":all:", "--no-deps",
                            "-d", str(sdist), spec], check=True, stderr=subprocess.DEVNULL)


def ho_project(key: str, flip: tuple[str, str, str] | None = None) -> Path:
    """A fresh copy of project ``key`` under HO_ROOT (its sdist's top directory), with ``flip`` =
    (file, old line text, new line text) applied to the first line that reads ``old``."""
    name, ver = HO_SDISTS[key].split("==")
    tarball = next(p for p in (HO_ROOT / "sdist").glob("*.tar.gz")
                   if p.name.lower().replace("_", "-").startswith(f"{name.lower()}-{ver}"))
    top = HO_ROOT / tarball.name[:-len(".tar.gz")]
    shutil.rmtree(top, ignore_errors=True)
    subprocess.run(["tar", "xzf", str(tarball), "-C", str(HO_ROOT)], check=True)
    if flip:
        path, old, new = flip
        src = (top / path).read_text()
        assert old in src, (key, path, old)
        (top / path).write_text(src.replace(old, new, 1))
    return top


def ho_env(pythonpath: str = "") -> dict:
    env = env_path()
    env["PATH"] = os.pathsep.join([str(HO_VENV / "bin"), env["PATH"]])
    env["VIRTUAL_ENV"] = str(HO_VENV)
    if pythonpath:
        env["PYTHONPATH"] = pythonpath
    env["HYPOTHESIS_STORAGE_DIRECTORY"] = str(HO_ROOT / "hypothesis-db")  # emptied before each run
    return env


def ho_record(family: str, name: str, key: str, cmd: str, pv: str, flip=None, src_dir: str = "",
              notes: str = "") -> None:
    """Capture ``cmd`` run in a fresh copy of project ``key`` (with ``flip`` applied)."""
    if ONLY and name not in ONLY:
        return
    top = ho_project(key, flip)
    shutil.rmtree(HO_ROOT / "hypothesis-db", ignore_errors=True)
    what = f"{HO_SDISTS[key]} sdist's own tests"
    if flip:
        what += f"; red by flipping one line (the first such) of {flip[0]}: {flip[1].strip()!r} -> {flip[2].strip()!r}"
    record(family, name, cmd, top, f"{pv}; {HO_SDISTS[key]}",
           notes="; ".join(x for x in (what, notes) if x),
           env=ho_env(str(top / src_dir) if src_dir else str(top)))


_HO_TOOLZ_FREQ = ("toolz/itertoolz.py", "        d[item] += 1\n", "        d[item] += 2\n")
_HO_TOOLZ_INTERLEAVE = ("toolz/itertoolz.py", "                yield next(itr)\n", "                yield next(itr) * 2\n")
_HO_ATTRS_ATOMIC = ("src/attr/_funcs.py", "                rv[a.name] = v\n", "                rv[a.name] = [v]\n")
_HO_CACHE_SIZE = ("src/cachetools/__init__.py", "                self.__currsize += 1\n",
                  "                self.__currsize += 2\n")
_HO_BOLTONS_FIRST = ("boltons/iterutils.py", "    return next(filter(key, iterable), default)\n",
                     "    return next(filter(key, iterable), None)\n")
_HO_SIMPLEJSON_SEP = ("simplejson/encoder.py", "    item_separator = ', '\n", "    item_separator = ',  '\n")
_HO_PACKAGING_NAME = ("src/packaging/utils.py", "    name = canonicalize_name(name_part)\n", "    name = name_part\n")
_HO_MI_PERMS = ("more_itertools/more.py", "            yield tuple(head)\n", "            yield tuple(head[::-1])\n")


def capture_python_heldout(families: set) -> None:
    """Held-out fixtures: real suites of third-party projects (shapes the hand-made projects lack)."""
    ho_ensure()
    HO_ROOT.mkdir(parents=True, exist_ok=True)
    vb = HO_VENV / "bin"
    pyv = "Python " + run(f"{vb}/python -c 'import platform;print(platform.python_version())'", HO_ROOT)[0].decode().strip()
    pv = run(f"{vb}/pytest --version", HO_ROOT)[0].decode().strip().splitlines()[0] + "; " + pyv
    xv = pv + "; pytest-xdist " + run(f"{vb}/python -c 'import xdist;print(xdist.__version__)'", HO_ROOT)[0].decode().strip()
    hv = pv + "; hypothesis " + run(f"{vb}/python -c 'import hypothesis;print(hypothesis.__version__)'", HO_ROOT)[0].decode().strip()
    if "pytest" in families:
        ho_record("pytest", "ho_idna_green_quiet", "idna", "pytest -q tests", pv,
                  notes="6k+ tests: many lines of progress dots")
        ho_record("pytest", "ho_more_itertools_green_default", "more_itertools", "pytest tests", pv,
                  notes="unittest-style suite (TestCase classes, subTest)")
        ho_record("pytest", "ho_attrs_red_default", "attrs", "pytest tests", hv, src_dir="src",
                  notes="unmodified: one test fails on this Python")
        ho_record("pytest", "ho_attrs_red_hypothesis", "attrs", "pytest tests/test_funcs.py", hv,
                  flip=_HO_ATTRS_ATOMIC, src_dir="src")
        ho_record("pytest", "ho_attrs_red_exitfirst_verbose", "attrs", "pytest -x -v tests/test_funcs.py", hv,
                  flip=_HO_ATTRS_ATOMIC, src_dir="src")
        ho_record("pytest", "ho_packaging_collect_missing_dep", "packaging", "pytest tests", pv, src_dir="src",
                  notes="the test dependency 'pretend' is not installed: collection errors")
        ho_record("pytest", "ho_packaging_red_unicode_ids", "packaging", "pytest -v tests/test_utils.py", pv,
                  src_dir="src", flip=_HO_PACKAGING_NAME,
                  notes="parametrized ids with dots, brackets and non-ASCII (pytest escapes them)")
        ho_record("pytest", "ho_toolz_red_vv", "toolz", "pytest -vv toolz/tests/test_itertoolz.py", pv,
                  flip=_HO_TOOLZ_FREQ)
        ho_record("pytest", "ho_toolz_red_doctest_tb_short", "toolz", "pytest --doctest-modules --tb=short toolz",
                  pv, flip=_HO_TOOLZ_INTERLEAVE)
        ho_record("pytest", "ho_toolz_red_xdist_verbose", "toolz", "pytest -v -n 2 toolz/tests/test_itertoolz.py",
                  xv, flip=_HO_TOOLZ_INTERLEAVE, notes="xdist -v: a line per test started, then its outcome")
        ho_record("pytest", "ho_cachetools_red_tb_line", "cachetools", "pytest --tb=line tests", pv,
                  flip=_HO_CACHE_SIZE, src_dir="src")
        ho_record("pytest", "ho_cachetools_red_quiet", "cachetools", "pytest -q tests/test_lru.py tests/test_fifo.py", pv,
                  flip=_HO_CACHE_SIZE, src_dir="src")
        ho_record("pytest", "ho_boltons_red_xdist", "boltons", "pytest -n 2 tests", xv, flip=_HO_BOLTONS_FIRST)
        ho_record("pytest", "ho_boltons_warnings_always", "boltons", "pytest -q -W always tests", pv,
                  notes="-W always: every warning shown (ResourceWarnings with pytest's hints)")
        ho_record("pytest", "ho_boltons_report_all", "boltons", "pytest -rA tests/test_cacheutils.py", pv,
                  notes="-rA: captured stdout of passing tests")
        ho_record("pytest", "ho_simplejson_red_tb_native", "simplejson", "pytest --tb=native simplejson/tests",
                  pv, flip=_HO_SIMPLEJSON_SEP)
        ho_record("pytest", "ho_simplejson_green_verbose", "simplejson", "pytest -v simplejson/tests", pv,
                  notes="-v of an unmodified suite: many tests SKIPPED with a reason")
        ho_record("pytest", "ho_more_itertools_red_tb_long", "more_itertools",
                  "pytest --tb=long tests/test_more.py", pv, flip=_HO_MI_PERMS)
    if "tox" in families:
        tv_out = run(f"{vb}/tox --version", HO_ROOT)[0].decode()  # may print a "ROOT: …" notice first
        tv = "tox " + next((line.split()[0] for line in tv_out.splitlines() if re.match(r"\d+\.\d+", line)),
                           "(version not printed)") + "; " + pyv
        ho_record("tox", "ho_cachetools_green_cov", "cachetools", "tox -e py", tv,
                  notes="the project's tox.ini: pytest with pytest-cov (a coverage table)")
        ho_record("tox", "ho_cachetools_red_cov", "cachetools", "tox -e py -- tests/test_lru.py", tv,
                  flip=_HO_CACHE_SIZE, notes="the project's tox.ini: pytest with pytest-cov (a coverage table)")
        ho_record("tox", "ho_more_itertools_red_unittest", "more_itertools", "tox -e py311 -- tests.test_more", tv,
                  flip=_HO_MI_PERMS, notes="the project's tox.ini runs python -m unittest -v")
    if "unittest" in families:
        ho_record("unittest", "ho_more_itertools_red_subtests", "more_itertools",
                  "python -m unittest discover -s tests -t .", pyv, flip=_HO_MI_PERMS)
        ho_record("unittest", "ho_simplejson_red_verbose", "simplejson",
                  "python -m unittest discover -v -s simplejson/tests -t .", pyv, flip=_HO_SIMPLEJSON_SEP)
        ho_record("unittest", "ho_idna_green_dots", "idna", "python -m unittest discover -s tests -t .", pyv,
                  notes="6k+ tests: one long line of progress dots")
        ho_record("unittest", "ho_packaging_import_errors", "packaging",
                  "python -m unittest discover -s tests -t .", pyv, src_dir="src",
                  notes="the test dependency 'pretend' is not installed: modules fail to import")


def capture_pip() -> None:
    pipdir = ROOT / "pip"
    shutil.rmtree(pipdir, ignore_errors=True)
    pipdir.mkdir(parents=True)
    subprocess.run([sys.executable, "-m", "venv", str(pipdir / "venv")], check=True)
    env = env_path()
    env["PATH"] = str(pipdir / "venv" / "bin") + os.pathsep + env["PATH"]
    env["VIRTUAL_ENV"] = str(pipdir / "venv")
    pv = run("pip --version", pipdir, env)[0].decode().split(" from ")[0]
    record("pip", "install_fresh", "pip install requests", pipdir, pv, env=env)
    record("pip", "install_already", "pip install requests", pipdir, pv, env=env)
    record("pip", "install_no_version", "pip install 'requests==0.0.999'", pipdir, pv, env=env)
    record("pip", "download", "pip download -d dl six", pipdir, pv, env=env)
    uv = run("uv --version", pipdir, env)[0].decode().strip()
    run("uv venv -q uvenv", pipdir, env)
    uenv = dict(env)
    uenv["VIRTUAL_ENV"] = str(pipdir / "uvenv")
    record("pip", "uv_install", "uv pip install requests", pipdir, uv, env=uenv)
    record("pip", "uv_install_error", "uv pip install 'requests==0.0.999'", pipdir, uv, env=uenv)


# ---------------------------------------------------------------- JavaScript projects

JEST_RED = {
    "jtests/math.js": "function add(a, b) { return a + b; }\nfunction parse(s) { return JSON.parse(s); }\n"
                      "module.exports = { add, parse };\n",
    "jtests/math.test.js": '''const { add, parse } = require("./math");

describe("add", () => {
  test.each(Array.from({ length: 30 }, (_, i) => i))("adds %i", (n) => {
    expect(add(n, 1)).toBe(n + 1);
  });
  test("adds wrongly", () => {
    expect(add(2, 2)).toBe(5);
  });
  test("objects", () => {
    expect({ a: 1, b: [1, 2] }).toEqual({ a: 1, b: [1, 3] });
  });
});

describe("parse", () => {
  test("throws on bad json", () => {
    parse("{bad");
  });
  test.skip("later", () => {});
  test("parses", () => {
    expect(parse("[1]")).toEqual([1]);
  });
});
''',
    "jtests/broken.test.js": 'const missing = require("./does-not-exist");\ntest("x", () => expect(missing).toBeDefined());\n',
    "jtests/ok.test.js": 'test.each([1, 2, 3, 4, 5, 6, 7, 8])("ok %i", (n) => { expect(n).toBeGreaterThan(0); });\n',
}

JEST_GREEN = {
    "jgreen/ok.test.js": 'test.each(Array.from({ length: 40 }, (_, i) => i))("fine %i", (n) => { expect(n + 0).toBe(n); });\n',
    "jgreen/more.test.js": 'describe("more", () => { test("a", () => {}); test("b", () => {}); });\n',
}

VITEST_RED = {
    "vtests/math.js": "export function add(a, b) { return a + b; }\nexport function parse(s) { return JSON.parse(s); }\n",
    "vtests/math.test.js": '''import { describe, test, expect } from "vitest";
import { add, parse } from "./math.js";

describe("add", () => {
  test.each(Array.from({ length: 30 }, (_, i) => i))("adds %i", (n) => {
    expect(add(n, 1)).toBe(n + 1);
  });
  test("adds wrongly", () => {
    expect(add(2, 2)).toBe(5);
  });
  test("objects", () => {
    expect({ a: 1, b: [1, 2] }).toEqual({ a: 1, b: [1, 3] });
  });
});

describe("parse", () => {
  test("throws on bad json", () => {
    parse("{bad");
  });
  test.skip("later", () => {});
});
''',
    "vtests/broken.test.js": 'import { test } from "vitest";\nimport missing from "./does-not-exist.js";\ntest("x", () => missing);\n',
    "vtests/ok.test.js": 'import { test, expect } from "vitest";\ntest.each([1, 2, 3, 4, 5, 6])("ok %i", (n) => { expect(n).toBeGreaterThan(0); });\n',
}

VITEST_GREEN = {
    "vgreen/ok.test.js": 'import { test, expect } from "vitest";\n'
                         'test.each(Array.from({ length: 40 }, (_, i) => i))("fine %i", (n) => { expect(n).toBe(n); });\n',
    "vgreen/more.test.js": 'import { describe, test } from "vitest";\ndescribe("more", () => { test("a", () => {}); test("b", () => {}); });\n',
}

NODE_RED = {
    "ntests/math.test.mjs": '''import { test, describe } from "node:test";
import assert from "node:assert/strict";

describe("math", () => {
  for (let i = 0; i < 20; i++) {
    test(`adds ${i}`, () => { assert.equal(i + 1, 1 + i); });
  }
  test("adds wrongly", () => { assert.equal(2 + 2, 5); });
  test("deep", () => { assert.deepEqual({ a: 1, b: [1, 2] }, { a: 1, b: [1, 3] }); });
});

test("throws", () => { JSON.parse("{bad"); });
test("skipped", { skip: "not yet" }, () => {});
test("todo one", { todo: true }, () => {});
''',
}

NODE_GREEN = {
    "ngreen/ok.test.mjs": '''import { test } from "node:test";
import assert from "node:assert/strict";

for (let i = 0; i < 25; i++) {
  test(`fine ${i}`, () => { assert.ok(i >= 0); });
}
''',
}

TS_FILES = {
    "ts/tsconfig.json": '{\n  "compilerOptions": {"strict": true, "noEmit": true, "target": "ES2022", "module": "ES2022",'
                        ' "moduleResolution": "bundler"},\n  "include": ["src"]\n}\n',
    "ts/src/app.ts": '''import { helper } from "./util";
import missing from "./nope";

interface User { id: number; name: string }

function greet(u: User): string {
  return "hi " + u.nam;
}

const n: number = "five";
greet({ id: 1 });
helper(1, 2, 3);
export const total = [1, 2, 3].reduce((a, b) => a + b, "");
''',
    "ts/src/util.ts": "export function helper(a: number, b: number): number {\n  return a + b;\n}\n",
    "ts_green/tsconfig.json": '{\n  "compilerOptions": {"strict": true, "noEmit": true, "target": "ES2022"},\n  "include": ["src"]\n}\n',
    "ts_green/src/ok.ts": "export const x: number = 1;\n",
}

ESLINT_FILES = {
    "eslint.config.mjs": '''import js from "@eslint/js";

export default [
  js.configs.recommended,
  {
    files: ["lint/**/*.js", "lint_green/**/*.js"],
    languageOptions: { sourceType: "module", globals: { console: "readonly" } },
    rules: { "no-console": "warn", "prefer-const": "error", eqeqeq: "warn" },
  },
];
''',
    "lint/app.js": '''import fs from "fs";

let count = 0;
function main(argv) {
  const unused = 1;
  if (argv == null) {
    console.log("no args");
  }
  return undefinedThing + count;
}

export default main;
''',
    "lint/util.js": '''export function f(a, a2) {
  debugger;
  return a;
}
''',
    "lint_green/ok.js": "export const ok = () => 1;\n",
}


def capture_js(families: set) -> None:
    js = JS
    shutil.rmtree(js, ignore_errors=True)
    js.mkdir(parents=True)
    (js / "node_modules").symlink_to(NODE_MODULES / "node_modules")
    (js / "package.json").write_text((NODE_MODULES / "package.json").read_text())
    for rel, body in {**JEST_RED, **JEST_GREEN, **VITEST_RED, **VITEST_GREEN, **NODE_RED, **NODE_GREEN,
                      **TS_FILES, **ESLINT_FILES}.items():
        p = js / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(body)
    pkg = json.loads((js / "package.json").read_text())
    pkg["name"] = "sqzdemo"
    pkg["version"] = "1.0.0"
    pkg["scripts"] = {"test": "jest jtests", "test:green": "jest jgreen", "test:vitest": "vitest run vtests",
                      "test:node": "node --test ntests/", "build": "tsc -p ts", "lint": "eslint lint"}
    (js / "package.json").write_text(json.dumps(pkg, indent=2) + "\n")
    node = "node " + version("node --version")
    if "jest" in families:
        jv = "jest " + version("jest --version") + "; " + node
        record("jest", "red_default", "jest jtests", js, jv)
        record("jest", "red_verbose", "jest --verbose jtests", js, jv)
        record("jest", "green_default", "jest jgreen", js, jv)
        record("jest", "red_color", "jest --colors jtests/math.test.js", js, jv, notes="forced colour: raw ANSI kept")
    if "vitest" in families:
        vv = version("vitest --version") + "; " + node
        record("vitest", "red_run", "vitest run vtests", js, vv)
        record("vitest", "green_run", "vitest run vgreen", js, vv)
        record("vitest", "red_verbose", "vitest run --reporter=verbose vtests/math.test.js", js, vv)
    if "node" in families:
        record("node", "red_tap", "node --test ntests/", js, node, notes="not a TTY: node 20 defaults to the TAP reporter")
        record("node", "red_spec", "node --test --test-reporter=spec ntests/", js, node)
        record("node", "green_tap", "node --test ngreen/", js, node)
        record("node", "green_spec", "node --test --test-reporter=spec ngreen/", js, node)
    if "tsc" in families:
        tv = "tsc " + version("tsc --version")
        record("tsc", "errors", "tsc -p ts", js, tv)
        record("tsc", "errors_pretty", "tsc --pretty -p ts", js, tv)
        record("tsc", "clean", "tsc -p ts_green", js, tv)
    if "eslint" in families:
        ev = "eslint " + version("eslint --version")
        record("eslint", "errors", "eslint lint", js, ev)
        record("eslint", "clean", "eslint lint_green", js, ev)
        record("eslint", "errors_color", "eslint --color lint/util.js", js, ev, notes="forced colour: raw ANSI kept")
    if "npm" in families:
        capture_npm(node)


def capture_npm(node: str) -> None:
    js = JS
    npmv = "npm " + version("npm --version") + "; " + node
    record("npm", "test_jest", "npm test", js, npmv + "; jest " + version("jest --version"))
    record("npm", "test_green", "npm run test:green", js, npmv + "; jest " + version("jest --version"))
    record("npm", "test_vitest", "npm run test:vitest", js, npmv + "; " + version("vitest --version"))
    record("npm", "test_node", "npm run test:node", js, npmv)
    record("npm", "run_build_fail", "npm run build", js, npmv + "; tsc " + version("tsc --version"))
    record("npm", "run_missing", "npm run nosuchscript", js, npmv)
    inst = ROOT / "npminst"
    shutil.rmtree(inst, ignore_errors=True)
    inst.mkdir()
    (inst / "package.json").write_text('{"name": "inst", "version": "1.0.0", "private": true}\n')
    record("npm", "install_deprecated", "npm install request@2.88.2", inst, npmv,
           notes="the registry mirror used here sent no deprecation notices, so npm printed none")
    record("npm", "install_up_to_date", "npm install", inst, npmv)
    record("npm", "install_notarget", "npm install lodash@999.0.0", inst, npmv)
    for tool, args in (("pnpm", "add"), ("yarn", "add"), ("bun", "add")):
        d = ROOT / f"{tool}inst"
        shutil.rmtree(d, ignore_errors=True)
        d.mkdir()
        (d / "package.json").write_text('{"name": "inst", "version": "1.0.0", "private": true}\n')
        tv = f"{tool} " + version(f"{tool} --version") + "; " + node
        record("npm", f"{tool}_add", f"{tool} {args} express@4", d, tv)


def main(argv: list[str]) -> int:
    ROOT.mkdir(parents=True, exist_ok=True)
    families = set(argv) or {"pytest", "unittest", "tox", "pip", "ruff", "mypy",
                             "npm", "node", "jest", "vitest", "tsc", "eslint"}
    ensure_tools(families)
    capture_python(families)
    if families & {"npm", "node", "jest", "vitest", "tsc", "eslint"}:
        capture_js(families)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
