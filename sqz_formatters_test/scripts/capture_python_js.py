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
+ vite 6, typescript, eslint 9, @vitest/coverage-v8, and the held-out suites' semver, lodash, ms,
dayjs; symlinked into the JS projects) and
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

from sqz_testing import redact_registries

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
    if not (NODE_MODULES / "node_modules" / "dayjs").exists():  # the held-out suites' libraries
        subprocess.run("npm install --save-dev semver lodash ms dayjs @vitest/coverage-v8@3", shell=True,
                       cwd=NODE_MODULES, check=True)
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
    if families & {"pytest", "unittest", "tox"} and os.environ.get("SQZ_CAPTURE_H2", "1") != "0":
        capture_python_h2(families)


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


# ---------------------------------------------------------------- held-out pass #2 (h2_*): more real suites

# Further third-party sdists that ship their tests, run in their own throw-away venv (pytest, xdist,
# hypothesis, tox, freezegun and pytest-cov: the suites' test dependencies); flags and failure shapes
# the fixtures above lack (--durations, -ra with a hundred skips, -l, --continue-on-collection-errors,
# doctest failures, a fixture failing at teardown, a stateful hypothesis run, unittest -f).
H2_ROOT = Path("/tmp/sqz-capture/pyh2")
H2_VENV = TOOLBOX / "venv-h2"
H2_SDISTS = {"inflection": "inflection==0.5.1", "pyrsistent": "pyrsistent==0.20.0",
             "humanize": "humanize==4.17.0", "dateutil": "python-dateutil==4.0.0", "six": "six==1.17.0"}

_H2_INFL_UNDERSCORE = ("inflection/__init__.py", "    word = re.sub(r\"([a-z\\d])([A-Z])\", r'\\1_\\2', word)\n",
                       "    word = re.sub(r\"([a-z\\d])([A-Z])\", r'\\1\\2', word)\n")
_H2_INFL_ORDINAL = ("inflection/__init__.py", "        return \"th\"\n", "        return \"nd\"\n")
_H2_INFL_LEAK = ("test_inflection.py", "        inflection.UNCOUNTABLES.remove(uncountable_word)\n", "        pass\n")
_H2_PVEC_DELETE = ("pyrsistent/_pvector.py", "        return _EMPTY_PVECTOR.extend(l)\n",
                   "        return _EMPTY_PVECTOR.extend(l[:-1] if len(l) > 3 else l)\n")
_H2_HUMANIZE_NDIGITS = ("src/humanize/number.py", "        result = f\"{value:,.{ndigits}f}\"\n",
                        "        result = f\"{value:,.{ndigits}g}\"\n")
_H2_DATEUTIL_WEEKS = ("src/dateutil/relativedelta.py", "            self.days = days + weeks * 7\n",
                      "            self.days = days + weeks * 6\n")
_H2_DATEUTIL_WEEKS_GET = ("src/dateutil/relativedelta.py", "        return int(self.days / 7.0)\n",
                          "        return int(self.days / self.hours)\n")
_H2_DATEUTIL = [_H2_DATEUTIL_WEEKS, _H2_DATEUTIL_WEEKS_GET]  # failures (weeks of 6 days) and errors (ZeroDivisionError)
_H2_SIX_B = ("six.py", "        return s.encode(\"latin-1\")\n", "        return s.encode(\"utf-8\")\n")

# a fixture added to the copy of inflection's suite (said in the sidecar): the rule tables must be the
# same after each test; with _H2_INFL_LEAK one test leaves a word behind, so its teardown errors
_H2_INFL_CONFTEST = '''import pytest

import inflection


@pytest.fixture(autouse=True)
def rules_unchanged():
    before = set(inflection.UNCOUNTABLES)
    yield
    assert set(inflection.UNCOUNTABLES) == before, "the test left words in inflection.UNCOUNTABLES"
'''


def h2_ensure() -> None:
    if not (H2_VENV / "bin" / "pytest").exists():
        subprocess.run([sys.executable, "-m", "venv", str(H2_VENV)], check=True)
        subprocess.run([str(H2_VENV / "bin" / "pip"), "install", "-q", "pytest==9.2.0", "pytest-xdist==3.8.0",
                        "hypothesis==6.170.17", "tox==4.67.15", "freezegun==1.5.5", "pytest-cov==7.1.0"],
                       check=True, stderr=subprocess.DEVNULL)
    sdist = H2_ROOT / "sdist"
    sdist.mkdir(parents=True, exist_ok=True)
    for spec in H2_SDISTS.values():
        name, ver = spec.split("==")
        if not any(p.name.lower().replace("_", "-").startswith(f"{name}-{ver}") for p in sdist.glob("*.tar.gz")):
            subprocess.run([str(H2_VENV / "bin" / "pip"), "download", "-q", "--no-binary", ":all:", "--no-deps",
                            "-d", str(sdist), spec], check=True, stderr=subprocess.DEVNULL)


def h2_project(key: str, flips=(), extra: dict | None = None) -> Path:
    """A fresh copy of sdist ``key`` under H2_ROOT with each (file, old, new) of ``flips`` applied once."""
    name, ver = H2_SDISTS[key].split("==")
    tarball = next(p for p in (H2_ROOT / "sdist").glob("*.tar.gz")
                   if p.name.lower().replace("_", "-").startswith(f"{name}-{ver}"))
    top = H2_ROOT / tarball.name[:-len(".tar.gz")]
    shutil.rmtree(top, ignore_errors=True)
    subprocess.run(["tar", "xzf", str(tarball), "-C", str(H2_ROOT)], check=True)
    for path, old, new in flips:
        src = (top / path).read_text()
        assert old in src, (key, path, old)
        (top / path).write_text(src.replace(old, new, 1))
    for rel, text in (extra or {}).items():
        (top / rel).write_text(text)
    return top


def h2_record(family: str, name: str, key: str, cmd: str, pv: str, flips=(), src_dir: str = "",
              notes: str = "", extra: dict | None = None) -> None:
    if ONLY and name not in ONLY:
        return
    top = h2_project(key, flips, extra)
    shutil.rmtree(H2_ROOT / "hypothesis-db", ignore_errors=True)
    what = f"held-out #2: {H2_SDISTS[key]} sdist's own tests"
    for path, old, new in flips:
        what += f"; red by changing one line (the first such) of {path}: {old.strip()!r} -> {new.strip()!r}"
    for rel in extra or {}:
        what += f"; {rel} added to the copy"
    env = env_path()
    env["PATH"] = os.pathsep.join([str(H2_VENV / "bin"), env["PATH"]])
    env["VIRTUAL_ENV"] = str(H2_VENV)
    env["PYTHONPATH"] = str(top / src_dir) if src_dir else str(top)
    env["HYPOTHESIS_STORAGE_DIRECTORY"] = str(H2_ROOT / "hypothesis-db")
    record(family, name, cmd, top, f"{pv}; {H2_SDISTS[key]}", notes="; ".join(x for x in (what, notes) if x),
           env=env)


def capture_python_h2(families: set) -> None:
    h2_ensure()
    vb = H2_VENV / "bin"
    pyv = "Python " + run(f"{vb}/python -c 'import platform;print(platform.python_version())'", H2_ROOT)[0].decode().strip()
    pv = run(f"{vb}/pytest --version", H2_ROOT)[0].decode().strip().splitlines()[0] + "; " + pyv
    hv = pv + "; hypothesis " + run(f"{vb}/python -c 'import hypothesis;print(hypothesis.__version__)'", H2_ROOT)[0].decode().strip()
    if "pytest" in families:
        h2_record("pytest", "h2_inflection_tb_short_durations", "inflection",
                  "pytest --tb=short --durations=10 test_inflection.py", pv, flips=[_H2_INFL_UNDERSCORE])
        h2_record("pytest", "h2_inflection_tb_no_ra", "inflection", "pytest --tb=no -ra test_inflection.py", pv,
                  flips=[_H2_INFL_UNDERSCORE])
        h2_record("pytest", "h2_inflection_doctest_modules", "inflection",
                  "pytest --doctest-modules inflection", pv, flips=[_H2_INFL_UNDERSCORE])
        h2_record("pytest", "h2_inflection_teardown_error", "inflection", "pytest -q test_inflection.py", pv,
                  flips=[_H2_INFL_LEAK], extra={"conftest.py": _H2_INFL_CONFTEST},
                  notes="the conftest.py fixture checks the rule tables after each test; the changed test line "
                        "no longer removes the word it added")
        h2_record("pytest", "h2_inflection_report_all_param", "inflection",
                  "pytest -rA -k 'ordinal or dasherize' test_inflection.py", pv, flips=[_H2_INFL_ORDINAL],
                  notes="-rA: a PASSED line per parametrized case")
        h2_record("pytest", "h2_pyrsistent_ra_skips", "pyrsistent", "pytest -ra tests", pv,
                  notes="unmodified: a hundred tests skipped (no C extension built), each listed by -ra")
        h2_record("pytest", "h2_pyrsistent_hypothesis_stateful", "pyrsistent",
                  "pytest tests/hypothesis_vector_test.py", hv, flips=[_H2_PVEC_DELETE],
                  notes="a hypothesis state machine: several distinct falsifying examples in an exception group")
        h2_record("pytest", "h2_pyrsistent_doctest_native", "pyrsistent",
                  "pytest --doctest-modules --tb=native pyrsistent/_pvector.py", pv, flips=[_H2_PVEC_DELETE])
        h2_record("pytest", "h2_humanize_fixture_missing", "humanize", "pytest -ra -p no:randomly tests", pv,
                  src_dir="src", notes="unmodified; pytest-benchmark not installed: its fixture is not found")
        h2_record("pytest", "h2_humanize_green_verbose", "humanize", "pytest -v tests/test_number.py", pv,
                  src_dir="src", notes="unmodified: hundreds of PASSED lines")
        h2_record("pytest", "h2_humanize_red_quiet_params", "humanize", "pytest -q tests/test_number.py", pv,
                  src_dir="src", flips=[_H2_HUMANIZE_NDIGITS])
        h2_record("pytest", "h2_dateutil_exitfirst_dots", "dateutil",
                  "pytest -x --ignore=tests/test_tzfile.py --ignore=tests/test_zoneinfo.py tests", pv,
                  src_dir="src", flips=_H2_DATEUTIL,
                  notes="-x after many passing modules; two modules ignored (they need attrs)")
        h2_record("pytest", "h2_dateutil_unmodified_tz_exitfirst", "dateutil",
                  "pytest -x --ignore=tests/test_tzfile.py --ignore=tests/test_zoneinfo.py tests", pv, src_dir="src",
                  notes="unmodified: this machine's tz data makes one test fail; -x after 2000 passing tests")
        h2_record("pytest", "h2_dateutil_showlocals", "dateutil", "pytest -l tests/test_relativedelta.py", pv,
                  src_dir="src", flips=_H2_DATEUTIL, notes="-l: local variables under each frame")
        h2_record("pytest", "h2_dateutil_collect_continue", "dateutil",
                  "pytest --continue-on-collection-errors tests/test_easter.py tests/test_tzfile.py "
                  "tests/test_utils.py tests/test_zoneinfo.py", pv, src_dir="src",
                  notes="unmodified; attrs is not installed: two modules fail to import, the others run")
        h2_record("pytest", "h2_six_vv_tb_native", "six", "pytest -vv --tb=native test_six.py", pv, flips=[_H2_SIX_B])
    if "unittest" in families:
        h2_record("unittest", "h2_dateutil_verbose", "dateutil",
                  "python -m unittest -v tests.test_relativedelta tests.test_easter tests.test_tz", pyv, src_dir="src",
                  flips=_H2_DATEUTIL)
        h2_record("unittest", "h2_dateutil_failfast", "dateutil", "python -m unittest -f tests.test_relativedelta",
                  pyv, src_dir="src", flips=_H2_DATEUTIL)
        h2_record("unittest", "h2_dateutil_discover_rrule", "dateutil",
                  "python -m unittest discover -s tests -t . -p 'test_r*.py'", pyv, src_dir="src",
                  flips=_H2_DATEUTIL)
    if "tox" in families:
        tv_out = run(f"{vb}/tox --version", H2_ROOT)[0].decode()
        tv = "tox " + next((line.split()[0] for line in tv_out.splitlines() if re.match(r"\d+\.\d+", line)),
                           "(version not printed)") + "; " + pyv
        h2_record("tox", "h2_humanize_red_cov", "humanize", "tox -e py311 -- -p no:randomly tests/test_number.py",
                  tv, flips=[_H2_HUMANIZE_NDIGITS],
                  notes="the project's tox.ini: compile-translations pre-command, pytest with three coverage reports")


def _fresh_pip_venv(name: str):
    """A new folder ``ROOT/name`` with a fresh venv in it: ``(folder, env with the venv first on PATH,
    pip's version line)``."""
    d = ROOT / name
    shutil.rmtree(d, ignore_errors=True)
    d.mkdir(parents=True)
    subprocess.run([sys.executable, "-m", "venv", str(d / "venv")], check=True)
    env = env_path()
    env["PATH"] = str(d / "venv" / "bin") + os.pathsep + env["PATH"]
    env["VIRTUAL_ENV"] = str(d / "venv")
    return d, env, run("pip --version", d, env)[0].decode().split(" from ")[0]


def capture_pip() -> None:
    pipdir, env, pv = _fresh_pip_venv("pip")
    record("pip", "install_fresh", "pip install requests", pipdir, pv, env=env)
    record("pip", "install_already", "pip install requests", pipdir, pv, env=env)
    record("pip", "install_no_version", "pip install 'requests==0.0.999'", pipdir, pv, env=env)
    record("pip", "download", "pip download -d dl six", pipdir, pv, env=env)
    # verbose installs (-v): pip's build subprocesses print their own logs; --no-cache-dir so a re-capture
    # downloads and builds again instead of printing "Using cached"
    record("pip", "install_v_sdist",
           "pip install -v --no-cache-dir --no-binary itsdangerous click==8.1.7 itsdangerous==2.2.0", pipdir, pv,
           env=env, notes="held-out: itsdangerous built from its sdist (build isolation installs flit_core)")
    record("pip", "install_v_no_version", "pip install -v --no-cache-dir requests==0.0.999", pipdir, pv,
           env=env, notes="held-out: a version that does not exist (exit 1)")
    uv = run("uv --version", pipdir, env)[0].decode().strip()
    run("uv venv -q uvenv", pipdir, env)
    uenv = dict(env)
    uenv["VIRTUAL_ENV"] = str(pipdir / "uvenv")
    record("pip", "uv_install", "uv pip install requests", pipdir, uv, env=uenv)
    record("pip", "uv_install_error", "uv pip install 'requests==0.0.999'", pipdir, uv, env=uenv)
    capture_pip_heldout()


def capture_pip_heldout() -> None:
    """Held-out pip/uv outputs: a large install, an unsatisfiable pin, a downgrade that breaks an installed
    package's requirement, and the uv equivalents."""
    d, env, pv = _fresh_pip_venv("pipho")
    record("pip", "install_many", "pip install sphinx", d, pv, env=env, notes="held-out: about 25 packages")
    record("pip", "install_conflict", "pip install 'requests==2.31.0' 'urllib3<1.21'", d, pv, env=env,
           notes="held-out: no urllib3 satisfies both")
    record("pip", "install_breaks_dependent", "pip install 'docutils==0.17.1'", d, pv, env=env,
           notes="held-out: downgrades a package sphinx requires")
    uv = run("uv --version", d, env)[0].decode().strip()
    run("uv venv -q uvenv", d, env)
    uenv = dict(env)
    uenv["VIRTUAL_ENV"] = str(d / "uvenv")
    record("pip", "uv_install_many", "uv pip install sphinx", d, uv, env=uenv, notes="held-out")
    record("pip", "uv_install_conflict", "uv pip install 'requests==2.31.0' 'urllib3<1.21'", d, uv, env=uenv,
           notes="held-out: no urllib3 satisfies both")
    proj = d / "uvproj"
    penv = dict(env)
    penv.pop("VIRTUAL_ENV", None)
    run("uv init -q --lib --name uvproj uvproj", d, penv)
    record("pip", "uv_add", "uv add requests rich", proj, uv, env=penv,
           notes="held-out: a new uv project's first add (creates its venv)")
    record("pip", "uv_remove", "uv remove rich", proj, uv, env=penv, notes="held-out")
    record("pip", "uv_add_conflict", "uv add 'requests==2.31.0' 'urllib3<1.21'", proj, uv, env=penv,
           notes="held-out: no urllib3 satisfies both")
    sync = d / "uvsync"   # a locked project whose venv does not exist yet
    run("uv init -q --lib --name uvsync uvsync", d, penv)
    run("uv add -q --no-sync requests rich", sync, penv)
    record("pip", "uv_sync", "uv sync", sync, uv, env=penv,
           notes="held-out: first sync of a locked project (creates its venv)")


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


# ---------------------------------------------------------------- held-out JS suites (larger, real libraries)
# Multi-file suites over real packages (semver, lodash, ms, dayjs): hundreds of passing tests around a few
# failures of every kind jest/vitest/node report: assertion diffs, thrown errors with deep stacks, snapshot
# mismatches and unwritten snapshots (--ci), async timeouts, rejected promises, console output, a suite that
# fails to load, hook failures; plus green runs with coverage tables.

JBIG = {
    "jbig/src/version.js": '''const semver = require("semver");

function pickLatest(versions, range) {
  return semver.maxSatisfying(versions, range);
}

function bumpAll(versions, kind) {
  return versions.map((v) => semver.inc(v, kind));
}

function parseStrict(v) {
  const parsed = semver.parse(v);
  if (!parsed) {
    throw new TypeError(`invalid version: ${JSON.stringify(v)}`);
  }
  return parsed;
}

module.exports = { pickLatest, bumpAll, parseStrict };
''',
    "jbig/src/report.js": '''const _ = require("lodash");
const ms = require("ms");

function summarize(rows) {
  const byTeam = _.groupBy(rows, "team");
  return _.mapValues(byTeam, (items) => ({
    count: items.length,
    total: _.sumBy(items, "ms"),
    slowest: _.maxBy(items, "ms").name,
  }));
}

function humanize(rows) {
  return rows.map((r) => `${r.name}: ${ms(r.ms, { long: true })}`);
}

function loadConfig(text) {
  const cfg = JSON.parse(text);
  return validate(cfg);
}

function validate(cfg) {
  if (!cfg.retries) {
    throw new Error(`config.retries must be a positive number, got ${cfg.retries}`);
  }
  return cfg;
}

module.exports = { summarize, humanize, loadConfig };
''',
    "jbig/src/clock.js": '''const dayjs = require("dayjs");

function addBusinessDays(iso, n) {
  let d = dayjs(iso);
  let left = n;
  while (left > 0) {
    d = d.add(1, "day");
    if (d.day() !== 0 && d.day() !== 6) left -= 1;
  }
  return d.format("YYYY-MM-DD");
}

function waitFor(msDelay) {
  return new Promise((resolve) => setTimeout(resolve, msDelay));
}

async function fetchStatus(service) {
  await waitFor(5);
  if (service === "billing") {
    throw new Error(`service ${service} unavailable (503)`);
  }
  return { service, status: "up" };
}

module.exports = { addBusinessDays, waitFor, fetchStatus };
''',
    "jbig/version.test.js": '''const semver = require("semver");
const { pickLatest, bumpAll, parseStrict } = require("./src/version");

const pairs = [];
for (let major = 0; major < 6; major++) {
  for (let minor = 0; minor < 10; minor++) {
    pairs.push([`${major}.${minor}.0`, `${major}.${minor}.1`]);
  }
}

describe("semver ordering", () => {
  test.each(pairs)("%s < %s", (a, b) => {
    expect(semver.lt(a, b)).toBe(true);
  });

  test("prerelease sorts before release", () => {
    expect(semver.sort(["1.0.0", "1.0.0-rc.1", "1.0.0-beta.2"])).toEqual(["1.0.0-rc.1", "1.0.0-beta.2", "1.0.0"]);
  });
});

describe("ranges", () => {
  test.each([
    ["^1.2.0", "1.9.9"],
    ["~1.2.0", "1.2.9"],
    [">=2.0.0 <3.0.0", "2.5.0"],
    ["1.x", "1.9.9"],
  ])("pickLatest(%s) is %s", (range, want) => {
    expect(pickLatest(["1.2.0", "1.2.9", "1.9.9", "2.5.0", "3.0.0"], range)).toBe(want);
  });

  test("caret on zero major is narrow", () => {
    expect(pickLatest(["0.2.0", "0.2.5", "0.3.0"], "^0.2.0")).toBe("0.3.0");
  });
});

describe("bumping", () => {
  test("minor bump resets patch", () => {
    expect(bumpAll(["1.2.3", "2.0.9"], "minor")).toEqual(["1.3.0", "2.1.0"]);
  });
  test("parseStrict rejects garbage", () => {
    expect(parseStrict("1.2.3").major).toBe(1);
    parseStrict("v1..2");
  });
});
''',
    "jbig/report.test.js": '''const { summarize, humanize, loadConfig } = require("./src/report");

const rows = [];
const teams = ["core", "web", "data", "infra"];
for (let i = 0; i < 80; i++) {
  rows.push({ name: `job-${i}`, team: teams[i % 4], ms: (i + 1) * 1500 });
}

describe("summarize", () => {
  test.each(teams)("team %s has 20 jobs", (team) => {
    expect(summarize(rows)[team].count).toBe(20);
  });

  test("totals per team", () => {
    expect(summarize(rows)).toEqual({
      core: { count: 20, total: 1185000, slowest: "job-76" },
      web: { count: 20, total: 1215000, slowest: "job-77" },
      data: { count: 20, total: 1245000, slowest: "job-78" },
      infra: { count: 20, total: 1275000, slowest: "job-79" },
    });
  });
});

describe("humanize", () => {
  test.each(rows.slice(0, 40).map((r) => [r.name, r.ms]))("%s renders", (name, msValue) => {
    expect(humanize([{ name, ms: msValue }])[0]).toMatch(/^job-\\d+: \\d+ (second|minute)s?$/);
  });

  test("long durations", () => {
    expect(humanize([{ name: "nightly", ms: 5400000 }])).toEqual(["nightly: 1.5 hours"]);
  });
});

describe("loadConfig", () => {
  test("rejects zero retries", () => {
    expect(() => loadConfig('{"retries": 0}')).toThrow("config.retries must be a positive number, got 0");
  });
  test("reads the config file", () => {
    const cfg = loadConfig('{"retries": 0, "timeout": 30}');
    expect(cfg.timeout).toBe(30);
  });
});
''',
    "jbig/clock.test.js": '''const { addBusinessDays, waitFor, fetchStatus } = require("./src/clock");

describe("business days", () => {
  const starts = [];
  for (let day = 1; day <= 28; day++) {
    starts.push(`2024-02-${String(day).padStart(2, "0")}`);
  }
  test.each(starts)("from %s adds 0 days", (start) => {
    expect(addBusinessDays(start, 0)).toBe(start);
  });
  test("friday plus one is monday", () => {
    expect(addBusinessDays("2024-03-01", 1)).toBe("2024-03-04");
  });
  test("spans the leap day", () => {
    expect(addBusinessDays("2024-02-28", 2)).toBe("2024-02-29");
  });
});

describe("services", () => {
  test("api is up", async () => {
    await expect(fetchStatus("api")).resolves.toEqual({ service: "api", status: "up" });
  });
  test("billing is up", async () => {
    const st = await fetchStatus("billing");
    expect(st.status).toBe("up");
  });
  test("slow health check", async () => {
    await waitFor(400);
  }, 150);
});
''',
    "jbig/snap.test.js": '''const { summarize } = require("./src/report");

const rows = [
  { name: "lint", team: "web", ms: 1200 },
  { name: "unit", team: "web", ms: 5400 },
  { name: "e2e", team: "qa", ms: 98000 },
];

test("summary snapshot", () => {
  expect(summarize(rows)).toMatchSnapshot();
});

test("inline summary", () => {
  expect(summarize(rows.slice(0, 2))).toMatchInlineSnapshot(`
{
  "web": {
    "count": 2,
    "slowest": "lint",
    "total": 6600,
  },
}
`);
});

test("new snapshot in CI", () => {
  expect(rows.map((r) => r.name)).toMatchSnapshot("job names");
});
''',
    "jbig/__snapshots__/snap.test.js.snap": '''// Jest Snapshot v1, https://jestjs.io/docs/snapshot-testing

exports[`summary snapshot 1`] = `
{
  "qa": {
    "count": 1,
    "slowest": "e2e",
    "total": 98000,
  },
  "web": {
    "count": 2,
    "slowest": "unit",
    "total": 6000,
  },
}
`;
''',
    "jbig/logging.test.js": '''const _ = require("lodash");

describe("chunking", () => {
  test.each(_.range(1, 31))("chunk size %i covers everything", (size) => {
    const items = _.range(100);
    expect(_.flatten(_.chunk(items, size))).toEqual(items);
  });
  test("prints progress", () => {
    console.log("processed 100 items in", 3, "batches");
    console.warn("batch 2 retried after timeout");
    expect(_.chunk(_.range(7), 3)).toHaveLength(3);
  });
});
''',
    "jbig/broken.test.js": '''const { summarize } = require("./src/report");
const { renderTable } = require("./src/table");

test("renders", () => {
  expect(renderTable(summarize([]))).toBe("");
});
''',
}

JGREEN_COV = {
    "jcov/src/version.js": JBIG["jbig/src/version.js"],
    "jcov/src/report.js": JBIG["jbig/src/report.js"],
    "jcov/src/clock.js": JBIG["jbig/src/clock.js"],
    "jcov/version.test.js": '''const semver = require("semver");
const { pickLatest, bumpAll } = require("./src/version");

describe("semver", () => {
  test.each([["1.0.0", "1.0.1"], ["1.2.0", "1.10.0"], ["0.9.9", "1.0.0"]])("%s < %s", (a, b) => {
    expect(semver.lt(a, b)).toBe(true);
  });
  test("pickLatest", () => { expect(pickLatest(["1.0.0", "1.4.0", "2.0.0"], "^1.0.0")).toBe("1.4.0"); });
  test("bumpAll", () => { expect(bumpAll(["1.0.0"], "major")).toEqual(["2.0.0"]); });
});
''',
    "jcov/report.test.js": '''const { summarize, humanize } = require("./src/report");

test.each(["a", "b", "c", "d", "e", "f"])("team %s summarised", (team) => {
  const s = summarize([{ name: "x", team, ms: 10 }, { name: "y", team, ms: 30 }]);
  expect(s[team]).toEqual({ count: 2, total: 40, slowest: "y" });
});
test("humanize", () => { expect(humanize([{ name: "n", ms: 60000 }])).toEqual(["n: 1 minute"]); });
''',
    "jcov/clock.test.js": '''const { addBusinessDays } = require("./src/clock");

test.each([["2024-03-01", 1, "2024-03-04"], ["2024-03-04", 5, "2024-03-11"]])("%s + %i = %s", (a, n, want) => {
  expect(addBusinessDays(a, n)).toBe(want);
});
''',
}


VBIG = {
    "vbig/src/cart.mjs": '''import _ from "lodash";

export function total(lines) {
  return _.round(_.sumBy(lines, (l) => l.qty * l.price), 2);
}

export function applyCoupon(sum, coupon) {
  if (!coupon.code.startsWith("SAVE")) {
    throw new RangeError(`unknown coupon ${coupon.code}`);
  }
  return _.round(sum * (1 - coupon.pct / 100), 2);
}

export function byCategory(lines) {
  return _.mapValues(_.groupBy(lines, "cat"), (ls) => ls.map((l) => l.sku).sort());
}
''',
    "vbig/src/inventory.mjs": '''export async function reserve(store, sku, qty) {
  await new Promise((r) => setTimeout(r, 2));
  const have = store.get(sku) ?? 0;
  if (have < qty) {
    throw new Error(`insufficient stock for ${sku}: have ${have}, need ${qty}`);
  }
  store.set(sku, have - qty);
  return store.get(sku);
}

export function slowSync(msDelay) {
  return new Promise((r) => setTimeout(r, msDelay));
}
''',
    "vbig/cart.test.mjs": '''import { describe, test, expect } from "vitest";
import { total, applyCoupon, byCategory } from "./src/cart.mjs";

const lines = Array.from({ length: 60 }, (_, i) => ({ sku: `SKU-${i}`, qty: (i % 3) + 1, price: 2.5, cat: ["food", "toys", "books"][i % 3] }));

describe("total", () => {
  test.each(lines.map((l, i) => [i, l]))("line %i totals qty*price", (_, line) => {
    expect(total([line])).toBe(line.qty * 2.5);
  });
  test("whole cart", () => {
    expect(total(lines)).toBe(300);
  });
});

describe("coupons", () => {
  test.each([10, 20, 25, 50])("SAVE%i", (pct) => {
    expect(applyCoupon(100, { code: `SAVE${pct}`, pct })).toBe(100 - pct);
  });
  test("rejects unknown codes", () => {
    expect(applyCoupon(100, { code: "FREE", pct: 100 })).toBe(0);
  });
  test("rounds to cents", () => {
    expect(applyCoupon(19.99, { code: "SAVE15", pct: 15 })).toBeCloseTo(16.99, 2);
  });
});

describe("byCategory", () => {
  test("groups skus", () => {
    const got = byCategory(lines.slice(0, 6));
    expect(got).toEqual({ food: ["SKU-0", "SKU-3"], toys: ["SKU-1", "SKU-4"], books: ["SKU-2", "SKU-6"] });
  });
});
''',
    "vbig/inventory.test.mjs": '''import { describe, test, expect, beforeAll } from "vitest";
import { reserve, slowSync } from "./src/inventory.mjs";

describe("reserve", () => {
  const store = new Map(Array.from({ length: 40 }, (_, i) => [`SKU-${i}`, 10]));
  test.each(Array.from({ length: 40 }, (_, i) => `SKU-${i}`))("reserves one %s", async (sku) => {
    await expect(reserve(store, sku, 1)).resolves.toBe(9);
  });
  test("overbooking fails", async () => {
    await reserve(store, "SKU-1", 50);
  });
  test("warehouse sync finishes", async () => {
    await slowSync(500);
  }, 100);
});

describe("with a broken fixture", () => {
  beforeAll(() => {
    throw new Error("could not open inventory.db: permission denied");
  });
  test("counts stock", () => {
    expect(1).toBe(1);
  });
  test("lists skus", () => {
    expect([]).toEqual([]);
  });
});
''',
    "vbig/snap.test.mjs": '''import { test, expect } from "vitest";
import { byCategory } from "./src/cart.mjs";

const lines = [
  { sku: "A-1", cat: "food" }, { sku: "B-2", cat: "toys" }, { sku: "C-3", cat: "food" },
];

test("category snapshot", () => {
  expect(byCategory(lines)).toMatchSnapshot();
});

test("inline categories", () => {
  expect(byCategory(lines.slice(1))).toMatchInlineSnapshot(`
    {
      "food": [
        "C-3",
      ],
      "toys": [
        "B-2",
        "A-1",
      ],
    }
  `);
});
''',
    "vbig/__snapshots__/snap.test.mjs.snap": '''// Vitest Snapshot v1, https://vitest.dev/guide/snapshot.html

exports[`category snapshot 1`] = `
{
  "food": [
    "A-1",
    "C-3",
  ],
  "toys": [
    "B-9",
  ],
}
`;
''',
    "vbig/log.test.mjs": '''import { test, expect } from "vitest";
import _ from "lodash";

test.each(_.range(0, 50))("uniq keeps %i", (n) => {
  expect(_.uniq([n, n, n])).toEqual([n]);
});

test("reports progress", () => {
  console.log("indexed 50 documents");
  console.error("shard 3 slow: 812ms");
  expect(_.uniq([1, 1])).toHaveLength(1);
});

test("late rejection", async () => {
  setTimeout(() => { Promise.reject(new Error("late webhook failure: ECONNRESET")); }, 1);
  await new Promise((r) => setTimeout(r, 20));
});
''',
    "vbig/broken.test.mjs": '''import { test, expect } from "vitest";
import { renderTable } from "./src/table.mjs";

test("renders", () => {
  expect(renderTable([])).toBe("");
});
''',
}

VCOV = {
    "vcov/src/cart.mjs": VBIG["vbig/src/cart.mjs"],
    "vcov/src/inventory.mjs": VBIG["vbig/src/inventory.mjs"],
    "vcov/cart.test.mjs": '''import { test, expect } from "vitest";
import { total, applyCoupon } from "./src/cart.mjs";

test.each([1, 2, 3, 4, 5, 6, 7, 8])("qty %i", (q) => { expect(total([{ qty: q, price: 2 }])).toBe(q * 2); });
test("coupon", () => { expect(applyCoupon(50, { code: "SAVE10", pct: 10 })).toBe(45); });
''',
    "vcov/inventory.test.mjs": '''import { test, expect } from "vitest";
import { reserve } from "./src/inventory.mjs";

test("reserve", async () => { await expect(reserve(new Map([["a", 2]]), "a", 1)).resolves.toBe(1); });
''',
}

NBIG = {
    "nbig/lib/queue.mjs": '''export class Queue {
  constructor(limit) { this.limit = limit; this.items = []; }
  push(x) {
    if (this.items.length >= this.limit) throw new RangeError(`queue full (limit ${this.limit})`);
    this.items.push(x);
    return this.items.length;
  }
  drain() { const out = this.items; this.items = []; return out; }
}

export async function retry(fn, times) {
  let last;
  for (let i = 0; i < times; i++) {
    try { return await fn(i); } catch (e) { last = e; }
  }
  throw new Error(`gave up after ${times} attempts: ${last.message}`);
}
''',
    "nbig/queue.test.mjs": '''import { describe, it, before } from "node:test";
import assert from "node:assert/strict";
import { Queue, retry } from "./lib/queue.mjs";

describe("Queue", () => {
  for (let n = 1; n <= 60; n++) {
    it(`accepts ${n} items under a limit of ${n}`, () => {
      const q = new Queue(n);
      for (let i = 0; i < n; i++) q.push(i);
      assert.equal(q.drain().length, n);
    });
  }
  it("rejects past the limit", () => {
    const q = new Queue(2);
    q.push(1); q.push(2);
    assert.throws(() => q.push(3), { message: "queue full (limit 3)" });
  });
  it("drains in order", () => {
    const q = new Queue(5);
    [5, 3, 1].forEach((x) => q.push(x));
    assert.deepEqual(q.drain(), [1, 3, 5]);
  });
});

describe("retry", () => {
  it("succeeds on the third try", async () => {
    const got = await retry(async (i) => { if (i < 2) throw new Error("flaky"); return i; }, 3);
    assert.equal(got, 2);
  });
  it("gives up", async () => {
    await retry(async () => { throw new Error("ECONNREFUSED 127.0.0.1:5432"); }, 2);
  });
  it("slow retry", { timeout: 100 }, async () => {
    await new Promise((r) => setTimeout(r, 400));
  });
});
''',
    "nbig/parse.test.mjs": '''import { describe, it, before } from "node:test";
import assert from "node:assert/strict";

const samples = Array.from({ length: 80 }, (_, i) => [`{"id":${i},"ok":true}`, i]);

describe("JSON round trip", () => {
  for (const [text, id] of samples) {
    it(`parses record ${id}`, () => {
      assert.equal(JSON.parse(text).id, id);
    });
  }
  it("parses a truncated record", () => {
    JSON.parse('{"id": 81, "ok": tr');
  });
});

describe("with a failing setup", () => {
  before(() => { throw new Error("fixture server did not start on port 9999"); });
  it("reads from the server", () => { assert.ok(true); });
});
''',
}

NCOV = {
    "ncov/lib/queue.mjs": NBIG["nbig/lib/queue.mjs"],
    "ncov/queue.test.mjs": '''import { test } from "node:test";
import assert from "node:assert/strict";
import { Queue } from "./lib/queue.mjs";

for (let n = 1; n <= 12; n++) {
  test(`queue of ${n}`, () => {
    const q = new Queue(n);
    for (let i = 0; i < n; i++) q.push(i);
    assert.equal(q.drain().length, n);
  });
}
''',
}


def _huge_suite(folder: str, esm: bool) -> dict[str, str]:
    """Six test files of 150 parametrised cases each over lodash, one failing case in three of them."""
    head = ('import { describe, test, expect } from "vitest";\nimport _ from "lodash";\n' if esm
            else 'const _ = require("lodash");\n')
    ext = "test.mjs" if esm else "test.js"
    files = {}
    for n, (fn, expr, want, bad) in enumerate([
            ("camelCase", "_.camelCase(`foo bar ${i}`)", "`fooBar${i}`", None),
            ("kebabCase", "_.kebabCase(`Foo Bar ${i}`)", "`foo-bar-${i}`", 77),
            ("padStart", "_.padStart(String(i), 4, '0')", "String(i).padStart(4, '0')", None),
            ("clamp", "_.clamp(i, 10, 100)", "Math.min(100, Math.max(10, i))", 3),
            ("sum", "_.sum([i, i, i])", "3 * i", None),
            ("words", "_.words(`alpha beta ${i}`).length", "3", 149)]):
        expected = want if bad is None else f"(i === {bad} ? null : {want})"
        files[f"{folder}/{fn}.{ext}"] = head + (
            f'describe("{fn}", () => {{\n'
            f'  test.each(Array.from({{ length: 150 }}, (_v, i) => i))("{fn} case %i", (i) => {{\n'
            f'    expect({expr}).toEqual({expected});\n'
            f'  }});\n}});\n')
    return files


JHUGE = _huge_suite("jhuge", esm=False)
VHUGE = _huge_suite("vhuge", esm=True)

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
    capture_js_heldout(families, node)
    if os.environ.get("SQZ_CAPTURE_H2", "1") != "0":
        capture_js_h2(families, node)
    if "npm" in families:
        capture_npm(node)
        capture_npm_heldout(node)


def capture_js_heldout(families: set, node: str) -> None:
    """The held-out suites (JBIG, VBIG, NBIG and their green coverage variants) in /tmp/sqz-capture/pyjs/jsbig."""
    big = ROOT / "jsbig"
    shutil.rmtree(big, ignore_errors=True)
    big.mkdir(parents=True)
    (big / "node_modules").symlink_to(NODE_MODULES / "node_modules")
    (big / "package.json").write_text('{"name": "jsbig", "version": "1.0.0", "private": true, '
                                      '"scripts": {"test": "jest --ci jbig"}}\n')
    (big / "vitest.config.mjs").write_text(
        'export default { test: { coverage: { provider: "v8", reporter: ["text"], include: ["vcov/src/**"] } } };\n')
    for rel, body in {**JBIG, **JGREEN_COV, **VBIG, **VCOV, **NBIG, **NCOV, **JHUGE, **VHUGE}.items():
        p = big / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(body)
    def pkg_version(m: str) -> str:  # read in the project, whose node_modules has the package
        return f"{m} " + run(f"node -p 'require(\"{m}/package.json\").version'", big)[0].decode().strip()

    libs = "; ".join(pkg_version(m) for m in ("semver", "lodash", "ms", "dayjs"))
    if "jest" in families:
        jv = "jest " + version("jest --version") + "; " + node + "; " + libs
        record("jest", "big_red_ci", "jest --ci jbig", big, jv,
               notes="held-out: 8 files over semver/lodash/ms/dayjs; snapshot mismatch, unwritten snapshot (--ci), "
                     "timeout, rejected promise, console output, a suite that fails to load")
        record("jest", "big_red_verbose", "jest --ci --verbose jbig", big, jv, notes="held-out: as big_red_ci, --verbose")
        record("jest", "green_coverage", "jest --coverage jcov", big, jv, notes="held-out: green run with a coverage table")
        record("jest", "huge_verbose", "jest --verbose jhuge", big, jv,
               notes="held-out: 900 parametrised tests over lodash in 6 files, 3 failing, every test listed")
    if "vitest" in families:
        vv = version("vitest --version") + "; " + node + "; " + libs
        record("vitest", "big_red_run", "vitest run vbig", big, vv,
               notes="held-out: snapshot mismatch, timeout, beforeAll failure, unhandled rejection, console output, "
                     "a file that fails to import")
        record("vitest", "green_coverage", "vitest run --coverage vcov", big,
               vv + "; " + pkg_version("@vitest/coverage-v8"),
               notes="held-out: green run with a v8 coverage table")
        record("vitest", "huge_verbose", "vitest run --reporter=verbose vhuge", big, vv,
               notes="held-out: 900 parametrised tests over lodash in 6 files, 3 failing, every test listed")
    if "node" in families:
        record("node", "big_red_spec", "node --test --test-reporter=spec nbig/", big, node,
               notes="held-out: 140 passing tests around a deep-equal diff, a thrown error, a timeout, a hook failure")
        record("node", "big_red_tap", "node --test nbig/", big, node,
               notes="held-out: as big_red_spec with the default (TAP) reporter, not a TTY")
        record("node", "green_coverage_tap", "node --test --experimental-test-coverage ncov/", big, node,
               notes="held-out: green run with node's experimental coverage report (TAP)")


# ---------------------------------------------------------------- held-out pass #2 (h2_*): JS suites
# Suites over js-yaml, json5, semver, dayjs and lodash (installed above): several files failing at once
# (diffs, wrong throws, rejected promises, assertion counts, nested describes with long names), snapshots
# that jest/vitest wrote themselves on a first run and that a changed serializer then breaks (one left
# obsolete), and the reporters the fixtures above lack (vitest dot, node dot, jest --bail --silent).

_H2_CFG_LIB = '''function loadConfig(text, kind) {
  if (kind === "yaml") return yaml.load(text);
  if (kind === "json5") return JSON5.parse(text);
  throw new Error(`unknown config kind: ${kind}`);
}

function dumpConfig(obj) {
  return yaml.dump(obj, { indent: INDENT, sortKeys: true });
}

function newestCompatible(versions, range) {
  return semver.maxSatisfying(versions, range);
}

function releaseWindow(start, days) {
  const d = dayjs(start);
  return [d.format("YYYY-MM-DD"), d.add(days, "day").format("YYYY-MM-DD")];
}

async function fetchManifest(name) {
  await new Promise((r) => setTimeout(r, 5));
  if (!name.startsWith("@")) throw new Error(`manifest not found for package ${name}`);
  return { name, versions: ["1.0.0", "1.2.0", "2.0.0-beta.1"] };
}
'''


def _h2_cfg_module(esm: bool, indent: int) -> str:
    if esm:
        head = ('import yaml from "js-yaml";\nimport JSON5 from "json5";\nimport semver from "semver";\n'
                'import dayjs from "dayjs";\n')
        tail = "\nexport { loadConfig, dumpConfig, newestCompatible, releaseWindow, fetchManifest };\n"
    else:
        head = ('const yaml = require("js-yaml");\nconst JSON5 = require("json5");\nconst semver = require("semver");\n'
                'const dayjs = require("dayjs");\n')
        tail = "\nmodule.exports = { loadConfig, dumpConfig, newestCompatible, releaseWindow, fetchManifest };\n"
    return head + f"const INDENT = {indent};\n\n" + _H2_CFG_LIB + tail


def _h2_multi(folder: str, esm: bool) -> dict[str, str]:
    """Four test files over the config module: three with failures of different kinds, one green."""
    if esm:
        imp = ('import { describe, test, expect } from "vitest";\n'
               'import { loadConfig, dumpConfig, newestCompatible, releaseWindow, fetchManifest } '
               'from "./src/config.mjs";\nimport _ from "lodash";\n')
        ext = "test.mjs"
    else:
        imp = ('const { loadConfig, dumpConfig, newestCompatible, releaseWindow, fetchManifest } = '
               'require("./src/config.js");\nconst _ = require("lodash");\n')
        ext = "test.js"
    return {
        f"{folder}/src/config.{'mjs' if esm else 'js'}": _h2_cfg_module(esm, 2),
        f"{folder}/parse.{ext}": imp + '''
describe("loadConfig", () => {
  describe("yaml documents with anchors and merge keys from the deployment manifests", () => {
    test.each(_.range(25))("service %i keeps its port", (i) => {
      expect(loadConfig(`service:\\n  port: ${8000 + i}`, "yaml").service.port).toBe(8000 + i);
    });
    test("merge keys override the base anchor", () => {
      const doc = loadConfig("base: &b {replicas: 2, image: api}\\nprod:\\n  <<: *b\\n  replicas: 5\\n", "yaml");
      expect(doc.prod).toStrictEqual({ replicas: 5, image: "api", region: "eu-west-1" });
    });
  });
  describe("json5 documents", () => {
    test("comments and trailing commas", () => {
      expect(loadConfig("{a: 1, // c\\n b: [1, 2,],}", "json5")).toEqual({ a: 1, b: [1, 2] });
    });
    test("rejects an unknown kind with a helpful message", () => {
      expect(() => loadConfig("a = 1", "toml")).toThrow("unsupported config format: toml");
    });
    test("bad json5 reports the line and column", () => {
      expect(() => loadConfig("{a: 1,\\n b: ]}", "json5")).toThrow(/at 3:1/);
    });
  });
});
''',
        f"{folder}/versions.{ext}": imp + '''
describe("newestCompatible", () => {
  const versions = _.range(40).map((i) => `1.${i}.0`);
  test.each(_.range(30))("caret range ^1.%i.0 picks the newest 1.x", (i) => {
    expect(newestCompatible(versions, `^1.${i}.0`)).toBe("1.39.0");
  });
  test("prereleases are excluded unless asked for", () => {
    expect(newestCompatible(["1.0.0", "1.1.0-rc.1"], "^1.0.0")).toBe("1.1.0-rc.1");
  });
  test("release window spans the given days", () => {
    expect(releaseWindow("2024-02-27", 3)).toEqual(["2024-02-27", "2024-03-02"]);
  });
});
''',
        f"{folder}/manifest.{ext}": imp + '''
describe("fetchManifest", () => {
  test("scoped packages resolve", async () => {
    await expect(fetchManifest("@acme/ui")).resolves.toMatchObject({ name: "@acme/ui" });
  });
  test("unscoped packages resolve too", async () => {
    const m = await fetchManifest("left-pad");
    expect(m.versions).toContain("1.2.0");
  });
  test("every version is valid semver", async () => {
    expect.assertions(4);
    const m = await fetchManifest("@acme/ui");
    for (const v of m.versions) expect(v).toMatch(/^\\d+\\.\\d+\\.\\d+/);
  });
});
''',
        f"{folder}/dump.{ext}": imp + '''
describe("dumpConfig", () => {
  test.each(_.range(20))("round-trips document %i", (i) => {
    const doc = { id: i, tags: ["a", "b"], nested: { on: true } };
    expect(loadConfig(dumpConfig(doc), "yaml")).toEqual(doc);
  });
});
''',
    }


def _h2_snap(folder: str, esm: bool, first: bool) -> dict[str, str]:
    """Snapshot tests over the config module's YAML dump: the first run writes the snapshots (indent 2);
    the second run dumps with indent 4 (two snapshots mismatch) and no longer has one test (obsolete)."""
    if esm:
        imp = ('import { describe, test, expect } from "vitest";\nimport { dumpConfig } from "./src/config.mjs";\n')
        ext, mod = "test.mjs", "mjs"
    else:
        imp = 'const { dumpConfig } = require("./src/config.js");\n'
        ext, mod = "test.js", "js"
    gone = ('  test("legacy flat layout", () => {\n'
            '    expect(dumpConfig({ name: "legacy", port: 80 })).toMatchSnapshot();\n  });\n') if first else ""
    return {
        f"{folder}/src/config.{mod}": _h2_cfg_module(esm, 2 if first else 4),
        f"{folder}/dump.snap.{ext}": imp + '''
describe("dumpConfig snapshots", () => {
  test("service with nested resources", () => {
    expect(dumpConfig({ service: { name: "api", resources: { cpu: "500m", memory: "256Mi" } } })).toMatchSnapshot();
  });
  test("list of hosts", () => {
    expect(dumpConfig({ hosts: [{ name: "a", port: 1 }, { name: "b", port: 2 }] })).toMatchSnapshot();
  });
  test("flat scalars", () => {
    expect(dumpConfig({ debug: false, level: "info", retries: 3 })).toMatchSnapshot();
  });
''' + gone + '''});
''',
    }


_H2_NODE = {
    "nh2/src/config.mjs": _h2_cfg_module(True, 2),
    "nh2/parse.test.mjs": '''import { describe, test, before } from "node:test";
import assert from "node:assert/strict";
import _ from "lodash";
import { loadConfig, newestCompatible } from "./src/config.mjs";

describe("loadConfig", () => {
  describe("yaml documents from the deployment manifests", () => {
    for (const i of _.range(25)) {
      test(`service ${i} keeps its port`, () => {
        assert.equal(loadConfig(`service:\\n  port: ${8000 + i}`, "yaml").service.port, 8000 + i);
      });
    }
    test("merge keys override the base anchor", () => {
      const doc = loadConfig("base: &b {replicas: 2, image: api}\\nprod:\\n  <<: *b\\n  replicas: 5\\n", "yaml");
      assert.deepStrictEqual(doc.prod, { replicas: 5, image: "api", region: "eu-west-1" });
    });
  });
  test("rejects an unknown kind with a helpful message", () => {
    assert.throws(() => loadConfig("a = 1", "toml"), { message: "unsupported config format: toml" });
  });
});

describe("newestCompatible", () => {
  const versions = _.range(40).map((i) => `1.${i}.0`);
  for (const i of _.range(20)) {
    test(`caret range ^1.${i}.0`, () => { assert.equal(newestCompatible(versions, `^1.${i}.0`), "1.39.0"); });
  }
  test("prereleases are excluded unless asked for", () => {
    assert.equal(newestCompatible(["1.0.0", "1.1.0-rc.1"], "^1.0.0"), "1.1.0-rc.1");
  });
});
''',
    "nh2/manifest.test.mjs": '''import { describe, test, before } from "node:test";
import assert from "node:assert/strict";
import { fetchManifest, releaseWindow } from "./src/config.mjs";

describe("fetchManifest", () => {
  test("scoped packages resolve", async () => {
    assert.equal((await fetchManifest("@acme/ui")).name, "@acme/ui");
  });
  test("unscoped packages resolve too", async () => {
    const m = await fetchManifest("left-pad");
    assert.ok(m.versions.includes("1.2.0"));
  });
});

describe("with a registry snapshot", () => {
  let snapshot;
  before(async () => { snapshot = await fetchManifest("registry-snapshot"); });
  test("lists the ui package", () => { assert.ok(snapshot.versions.length > 0); });
  test("lists the cli package", () => { assert.ok(snapshot.versions.length > 0); });
});

test("release window spans the given days", () => {
  assert.deepEqual(releaseWindow("2024-02-27", 3), ["2024-02-27", "2024-03-02"]);
});
test("release window of zero days", () => {
  assert.deepEqual(releaseWindow("2024-02-27", 0), ["2024-02-27", "2024-02-27"]);
});
''',
}


def capture_js_h2(families: set, node: str) -> None:
    """Held-out pass #2 JS suites in /tmp/sqz-capture/pyjs/jsh2 (see the comment above _H2_CFG_LIB)."""
    h2 = ROOT / "jsh2"
    shutil.rmtree(h2, ignore_errors=True)
    h2.mkdir(parents=True)
    (h2 / "node_modules").symlink_to(NODE_MODULES / "node_modules")
    (h2 / "package.json").write_text('{"name": "jsh2", "version": "1.0.0", "private": true}\n')

    def pkg_version(m: str) -> str:
        return f"{m} " + run(f"node -p 'require(\"{m}/package.json\").version'", h2)[0].decode().strip()

    libs = "; ".join(pkg_version(m) for m in ("js-yaml", "json5", "semver", "dayjs", "lodash"))
    write_files = lambda files: [((h2 / rel).parent.mkdir(parents=True, exist_ok=True), (h2 / rel).write_text(body))
                                 for rel, body in files.items()]
    write_files({**_h2_multi("jh2", esm=False), **_h2_multi("vh2", esm=True), **_H2_NODE,
                 **_h2_snap("jh2snap", False, True), **_h2_snap("vh2snap", True, True)})
    snap_note = ("held-out #2: the snapshots were written by a first run of the same tool (YAML indent 2, one more "
                 "test); this run dumps with indent 4: two snapshots mismatch, one is obsolete")
    if "jest" in families:
        jv = "jest " + version("jest --version") + "; " + node + "; " + libs
        run("jest jh2snap", h2)                        # first run: jest writes the snapshots
        write_files(_h2_snap("jh2snap", False, False))
        record("jest", "h2_verbose_snapshots", "jest --ci --verbose jh2snap", h2, jv, notes=snap_note)
        record("jest", "h2_multi_file_red", "jest jh2/", h2, jv,
               notes="held-out #2: four files, three failing (a diff, a wrong throw, a rejected promise, "
                     "an assertion count, a date off by one)")
        record("jest", "h2_bail_silent", "jest --bail --silent jh2/", h2, jv, notes="held-out #2: --bail --silent")
    if "vitest" in families:
        vv = version("vitest --version") + "; " + node + "; " + libs
        run("vitest run vh2snap", h2)                  # first run: vitest writes the snapshots
        write_files(_h2_snap("vh2snap", True, False))
        record("vitest", "h2_verbose_snapshots", "vitest run --reporter=verbose vh2snap", h2, vv, notes=snap_note)
        record("vitest", "h2_multi_file_red", "vitest run vh2/", h2, vv,
               notes="held-out #2: four files, three failing (a diff, a wrong throw, a rejected promise, "
                     "an assertion count, a date off by one)")
        record("vitest", "h2_dot_reporter", "vitest run --reporter=dot vh2/", h2, vv,
               notes="held-out #2: the dot reporter")
    if "node" in families:
        record("node", "h2_spec_multi", "node --test --test-reporter=spec nh2/", h2, node + "; " + libs,
               notes="held-out #2: nested describes, a failing before hook, two files failing")
        record("node", "h2_tap_multi", "node --test nh2/", h2, node + "; " + libs,
               notes="held-out #2: as h2_spec_multi with the default (TAP) reporter, not a TTY")
        record("node", "h2_dot_multi", "node --test --test-reporter=dot nh2/", h2, node + "; " + libs,
               notes="held-out #2: the dot reporter")


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


def _pm_project(name: str, package_json: str) -> Path:
    d = ROOT / name
    shutil.rmtree(d, ignore_errors=True)
    d.mkdir(parents=True)
    (d / "package.json").write_text(package_json)
    return d


_MIGRATE = """const fs = require("fs");

function readMigrations(dir) {
  return fs.readdirSync(dir).filter((f) => f.endsWith(".sql"));
}

function main() {
  const files = readMigrations("./migrations");
  console.log(`applying ${files.length} migrations`);
}

main();
"""


def capture_npm_heldout(node: str) -> None:
    """Held-out package-manager outputs: a deprecation wall, audit/outdated/ls reports, an ERESOLVE peer
    conflict, npm ci without a lockfile, a crashing script, pnpm's peer-dependency report."""
    npmv = "npm " + version("npm --version") + "; " + node
    old = _pm_project("npmold", '{"name": "legacy-app", "version": "1.0.0", "private": true}\n')
    record("npm", "install_legacy_tree",
           "npm install request@2.88.2 gulp@3.9.1 babel-core@6.26.3 tslint@6.1.3 core-js@2.6.12 uuid@3.4.0",
           old, npmv, notes="held-out: old, deprecated packages (the registry mirror used here sends no deprecation "
                            "notices, so npm printed none); core-js's postinstall is held back by allowScripts")
    record("npm", "audit_endpoint_error", "npm audit", old, npmv,
           notes="held-out: the registry mirror used here has no audit endpoint")
    record("npm", "outdated_table", "npm outdated", old, npmv, notes="held-out")
    pkg = json.loads((old / "package.json").read_text())
    pkg.setdefault("dependencies", {})["uuid"] = "^9.0.0"
    (old / "package.json").write_text(json.dumps(pkg, indent=2) + "\n")
    record("npm", "ls_invalid", "npm ls", old, npmv,
           notes="held-out: package.json asks for uuid ^9 after uuid 3.4.0 was installed")
    peer = _pm_project("npmpeer", '{"name": "peer-app", "version": "1.0.0", "private": true}\n')
    record("npm", "install_eresolve_eslint", "npm install eslint@9 eslint-config-airbnb@19", peer, npmv,
           notes="held-out: eslint-config-airbnb 19 wants eslint ^7 or ^8")
    ci = _pm_project("npmci", '{"name": "ci-app", "version": "1.0.0", "private": true, '
                              '"dependencies": {"ms": "^2.1.0"}}\n')
    record("npm", "ci_no_lockfile", "npm ci", ci, npmv, notes="held-out: no package-lock.json")
    crash = _pm_project("npmcrash", '{"name": "crash-app", "version": "1.0.0", "private": true, '
                                    '"scripts": {"migrate": "node scripts/migrate.js"}}\n')
    (crash / "scripts").mkdir()
    (crash / "scripts" / "migrate.js").write_text(_MIGRATE)
    record("npm", "run_script_crash", "npm run migrate", crash, npmv,
           notes="held-out: the script throws ENOENT (no migrations folder)")
    record("npm", "test_jest_big", "npm test", ROOT / "jsbig", npmv + "; jest " + version("jest --version"),
           notes="held-out: npm test running the JBIG suite (jest --ci jbig)")
    big = ROOT / "jsbig"
    pnv = "pnpm " + version("pnpm --version") + "; " + node + "; jest " + version("jest --version")
    record("npm", "pnpm_test_jest_big", "pnpm test", big, pnv, notes="held-out: pnpm running the JBIG suite's test script")
    record("npm", "yarn_test_jest_big", "yarn test", big,
           "yarn " + version("yarn --version") + "; " + node + "; jest " + version("jest --version"),
           notes="held-out: yarn 1 running the JBIG suite's test script")
    record("npm", "pnpm_exec_vitest_big", "pnpm exec vitest run vbig", big,
           "pnpm " + version("pnpm --version") + "; " + node + "; " + version("vitest --version"),
           notes="held-out: pnpm exec (no script banner) running the VBIG suite")
    pp = _pm_project("pnpmpeer", '{"name": "peer-app", "version": "1.0.0", "private": true}\n')
    pv = "pnpm " + version("pnpm --version") + "; " + node
    record("npm", "pnpm_peer_issues", "pnpm add eslint@9 eslint-config-airbnb@19 eslint-plugin-import@2", pp, pv,
           notes="held-out: pnpm installs and reports the unmet peer dependencies")


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
