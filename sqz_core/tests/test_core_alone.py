"""sqz with only sqz-core installed, no formatter pack: it still cleans terminal noise, folds
repeats, dedups and gates.

The environment is a real one, made here: a venv without system site-packages holding sqz-core
(this source tree, on a ``.pth`` line as its editable install has it, with its own dist-info) and
every distribution sqz-core requires, linked from this interpreter's site-packages by their
installed file lists. That is what ``pip install sqz-core`` puts in a venv; none of the
workspace's packs is there, so entry-point discovery finds no ``sqz.formatters`` plugin and no
pack module can be imported (checked below), and nothing is fetched from the network.
(``SQZ_LOAD_PLUGINS`` would only hide packs that are still installed and importable.)
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import venv
from importlib import metadata
from pathlib import Path

import pytest

import sqz_core
from sqz_core.exitmarker import new_nonce
from sqz_core.pipeline import compress
from sqz_core.plugins import load_index
from sqz_core.store import Store
from sqz_testing import load_fixture

ROOT = Path(__file__).resolve().parents[2]
FIX = {  # real captures (their sidecars name the program and its version)
    "ansi": ROOT / "sqz_formatters_test/tests/fixtures/pytest/red_color.json",
    "redraws": ROOT / "sqz_formatters_git/tests/fixtures/remote_ops/clone.json",
    "lines": ROOT / "sqz_formatters_generic/tests/fixtures/kinds/log/http_server_access.json",
    "blocks": ROOT / "sqz_formatters_test/tests/fixtures/pytest/ho_boltons_report_all.json",
    "json": ROOT / "sqz_formatters_generic/tests/fixtures/kinds/json/pip_inspect.json",
}


def _requirements(dist: metadata.Distribution) -> list[str]:
    """Names of the distributions ``dist`` requires (extras left out)."""
    out = []
    for req in dist.requires or []:
        if "extra ==" in req.replace('"', "").replace("'", ""):
            continue
        m = re.match(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)", req)
        if m:
            out.append(m.group(1))
    return out


def _closure(name: str) -> dict[str, metadata.Distribution]:
    """``name`` and everything it requires, as installed here (a marker-excluded one is not)."""
    found: dict[str, metadata.Distribution] = {}
    todo = [name]
    while todo:
        want = todo.pop()
        key = re.sub(r"[-_.]+", "-", want).lower()
        if key in found:
            continue
        try:
            dist = metadata.distribution(want)
        except metadata.PackageNotFoundError:
            continue  # an environment marker left it out of this interpreter's install too
        found[key] = dist
        todo.extend(_requirements(dist))
    return found


@pytest.fixture(scope="module")
def core_only(tmp_path_factory) -> Path:
    """The python of a venv with sqz-core and its dependencies only."""
    home = tmp_path_factory.mktemp("core-only")
    env_dir = home / "venv"
    venv.EnvBuilder(with_pip=False, symlinks=True).create(env_dir)
    py = env_dir / "bin" / "python"
    site = Path(subprocess.run([str(py), "-I", "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                               capture_output=True, text=True, check=True).stdout.strip())
    dists = _closure("sqz-core")
    core = dists.pop("sqz-core")
    for dist in dists.values():
        for f in dist.files or []:
            top = f.parts[0]
            if top == ".." or (site / top).exists() or top.endswith(".pth"):
                continue
            (site / top).symlink_to(dist.locate_file(top))
    info = site / f"sqz_core-{core.version}.dist-info"
    info.mkdir()
    for name in ("METADATA", "entry_points.txt"):
        text = core.read_text(name)
        if text is not None:
            (info / name).write_text(text)
    (site / "sqz_core.pth").write_text(str(Path(sqz_core.__file__).resolve().parents[1]) + "\n")
    return py


def _env(tmp_path: Path) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SQZ_", "PYTHON"))}
    env.update(SQZ_DB_PATH=str(tmp_path / "db.sqlite"), SQZ_CACHE_DIR=str(tmp_path / "cache"), SQZ_QUIET="1",
               SQZ_SESSION="core-alone", SQZ_TIME_BUDGET_MS="0", SQZ_BIN="sqz", HOME=str(tmp_path))
    return env


def _sqz(py: Path, tmp_path: Path, fx) -> bytes:
    r = subprocess.run([str(py), "-I", "-m", "sqz_core", "compress", "--cmd", fx.command], input=fx.raw,
                       capture_output=True, env=_env(tmp_path), check=True)
    return r.stdout


def _in_process(fx, tmp_path: Path, index: dict) -> bytes:
    """The same call in this process (every pack installed), with ``index`` as the plugin index."""
    store = Store.open(str(tmp_path / "here.sqlite"))
    try:
        return compress(fx.raw, command=fx.command, store=store, session="here", index=index,
                        exit_nonce=new_nonce()).output
    finally:
        store.close()


def test_the_environment_has_no_pack(core_only, tmp_path):
    probe = ("import importlib.util, json; from sqz_core import plugins; "
             "idx = plugins.load_index(refresh=True); "
             "print(json.dumps({'plugins': [r['name'] for r in idx['plugins']], "
             "'packs': [m for m in ('sqz_formatters_generic', 'sqz_formatters_git', 'sqz_formatters_test', "
             "'sqz_formatters_cloud') if importlib.util.find_spec(m)]}))")
    r = subprocess.run([str(core_only), "-I", "-c", probe], capture_output=True, text=True, env=_env(tmp_path),
                       check=True)
    assert json.loads(r.stdout) == {"plugins": [], "packs": []}
    # while here every pack is installed, the generic one among them
    assert "generic" in {rec["name"] for rec in load_index()["plugins"]}


@pytest.mark.parametrize("what", ["ansi", "redraws", "lines", "blocks"])
def test_the_core_alone_cleans_and_folds(core_only, tmp_path, what):
    fx = load_fixture(FIX[what])
    out = _sqz(core_only, tmp_path, fx)
    text = out.decode("utf-8")
    assert len(out) < len(fx.raw)
    assert "\x1b" not in text and "\r" not in text
    if what == "ansi":
        assert "\x1b[" in fx.text
    if what == "redraws":
        assert "\r" in fx.text
        assert "remote: Counting objects: 100% (17/17), done." in text and "Counting objects:  52%" not in text
    if what == "lines":
        assert re.search(r" \[×\d+\]$", text, re.M)  # the core's own fold of identical lines
    if what == "blocks":
        assert re.search(r"^\[the \d+ lines above repeat ×\d+ in all\]$", text, re.M)
    # the same as the pipeline here with no plugin at all: only the core's stages did it
    assert out == _in_process(fx, tmp_path, {"plugins": []})
    # every change to the bytes is recoverable (issue 29.6): escape sequences and redraws dropped need
    # the stored original, which the last line names and ``sqz expand`` prints byte for byte; counted
    # folds alone are undone by the output itself
    last = text.rstrip("\n").rsplit("\n", 1)[-1]
    named = re.fullmatch(r"\[sqz expand (n[0-9]{15,})\]", last)
    if what in ("ansi", "redraws"):
        assert named is not None, last
        r = subprocess.run([str(core_only), "-I", "-m", "sqz_core", "expand", named.group(1)], capture_output=True,
                           env=_env(tmp_path), check=True)
        assert r.stdout == fx.raw
    else:
        assert named is None and "[sqz expand" not in text
        assert _unfold(text) == fx.text


def _unfold(text: str) -> str:
    """A folded output read back: the abbreviation legend, then counted blocks, then counted lines."""
    from sqz_core.abbrev import expand_abbreviations

    blocks: list[str] = []
    for line in expand_abbreviations(text).split("\n"):
        m = re.fullmatch(r"\[the (\d+) lines above repeat ×(\d+) in all\]", line)
        if m:
            blocks.extend(blocks[-int(m.group(1)):] * (int(m.group(2)) - 1))
        else:
            blocks.append(line)
    lines: list[str] = []
    for line in blocks:
        m = re.fullmatch(r"(.*) \[×(\d+)\]", line)
        lines.extend([m.group(1)] * int(m.group(2)) if m else [line])
    return "\n".join(lines)


def test_the_core_alone_dedups_and_expands(core_only, tmp_path):
    fx = load_fixture(FIX["ansi"])
    first = _sqz(core_only, tmp_path, fx)
    again = _sqz(core_only, tmp_path, fx).decode("utf-8")
    assert again.startswith("§ref:") and len(again) < len(first)
    ref = again.split()[0]
    r = subprocess.run([str(core_only), "-I", "-m", "sqz_core", "expand", ref], capture_output=True,
                       env=_env(tmp_path), check=True)
    assert r.stdout == fx.raw


def test_the_core_alone_gates_what_it_cannot_shorten(core_only, tmp_path):
    """JSON is the generic pack's kind: without it the core's stages save nothing and the
    original goes out byte for byte; with every pack installed the same call is shortened."""
    fx = load_fixture(FIX["json"])
    assert _sqz(core_only, tmp_path, fx) == fx.raw
    assert len(_in_process(fx, tmp_path, load_index())) < len(fx.raw)



def test_the_core_alone_says_once_that_config_files_need_sqz_config(core_only, tmp_path):
    """Parsing and validating config files is sqz-config's: with the core alone a project's ``.sqz.yaml``
    (and ``[tool.sqz]``) is not read. The call that first meets the file says so in one stderr line naming
    the file and the distribution, with the wrapped command's output and status intact and no traceback;
    the calls after it are silent until the file changes."""
    project = tmp_path / "proj"
    (project / ".git").mkdir(parents=True)
    rule = project / ".sqz.yaml"
    rule.write_text("rules:\n  - program: sh\n    passthrough: true\n", encoding="utf-8")
    env = _env(tmp_path)
    env.pop("SQZ_QUIET")  # the notice is not the stats line: quiet or not, it is said (here the stats line too)
    env["XDG_CONFIG_HOME"] = str(tmp_path / "xdg")

    def run() -> subprocess.CompletedProcess:
        return subprocess.run([str(core_only), "-I", "-m", "sqz_core", "run", "--", "sh", "-c",
                               "echo out; echo err >&2; exit 7"], capture_output=True, cwd=project, env=env)

    notice = (f"sqz: config {rule} not read: config files need the sqz-config distribution "
              "(pip install sqz-config); using defaults")
    first = run()
    assert first.returncode == 7 and first.stdout == b"out\nerr\n"
    lines = first.stderr.decode().splitlines()
    assert lines.count(notice) == 1 and "Traceback" not in first.stderr.decode(), lines
    assert [line for line in lines if line.startswith("sqz: config")] == [notice]
    second = run()
    assert second.returncode == 7 and second.stdout == b"out\nerr\n"
    assert notice not in second.stderr.decode() and "Traceback" not in second.stderr.decode()
    rule.write_text("rules:\n  - program: make\n    passthrough: true\n", encoding="utf-8")  # changed: said again
    third = run()
    assert third.returncode == 7 and notice in third.stderr.decode().splitlines()
