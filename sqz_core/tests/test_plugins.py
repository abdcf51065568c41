"""Discovery through real entry points: a throw-away site directory with dist-info metadata.

Each test builds distributions on disk (``*.dist-info`` with ``entry_points.txt``)
and runs the real ``sqz`` command with that directory on ``PYTHONPATH``, so
``importlib.metadata`` finds them exactly as it finds installed packages.
"""

import json
import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

PLUGIN_SOURCES = {
    "fakeplug": '''
        from sqz_core import hookimpl
        commands = ("fake",)

        @hookimpl
        def sqz_format(request):
            if request.subcommand() != "status":
                return None
            return "FAKE STATUS: " + str(len(request.lines)) + " lines\\n"
    ''',
    "fakefirst": '''
        from sqz_core import hookimpl
        commands = ("fake",)

        @hookimpl(tryfirst=True)
        def sqz_format(request):
            return "FIRST\\n" if request.subcommand() == "first" else None
    ''',
    "fakelast": '''
        from sqz_core import hookimpl
        commands = ("fake", "other")

        @hookimpl(trylast=True)
        def sqz_format(request):
            return None
    ''',
    "brokenplug": '''
        raise ImportError("this plugin is broken on purpose")
    ''',
}


def add_dist(site: Path, module: str, entry: str, version: str = "1.0") -> None:
    (site / module).mkdir(parents=True, exist_ok=True)
    (site / module / "__init__.py").write_text(textwrap.dedent(PLUGIN_SOURCES[module]))
    info = site / f"sqz_formatters_{module}-{version}.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: sqz-formatters-{module}\nVersion: {version}\n")
    (info / "entry_points.txt").write_text(f"[sqz.formatters]\n{entry} = {module}\n")


@pytest.fixture
def site(tmp_path):
    site = tmp_path / "site"
    site.mkdir()
    add_dist(site, "fakeplug", "fake")
    add_dist(site, "fakefirst", "fakefirst")
    add_dist(site, "fakelast", "fakelast")
    add_dist(site, "brokenplug", "broken")
    return site


def sqz(site: Path, *args: str, stdin: bytes = b"", env: dict | None = None):
    # no time budget: the call that rebuilds the plugin index may take seconds on a loaded box
    full = dict(os.environ, PYTHONPATH=str(site), SQZ_QUIET="1", SQZ_NO_DEDUP="1", SQZ_TIME_BUDGET_MS="0")
    full.update(env or {})
    return subprocess.run([sys.executable, "-m", "sqz_core", *args], input=stdin, capture_output=True,
                          env=full, check=False)


STATUS_TEXT = b"".join(b"line %d of a long status listing\n" % i for i in range(60))


def test_plugins_lists_name_distribution_version_and_commands(site):
    r = sqz(site, "plugins", "--json")
    data = json.loads(r.stdout)
    by_name = {p["name"]: p for p in data["plugins"]}
    assert by_name["fake"]["dist"] == "sqz-formatters-fakeplug"
    assert by_name["fake"]["version"] == "1.0"
    assert by_name["fake"]["commands"] == ["fake"]
    assert "sqz_format" in by_name["fake"]["hooks"]
    assert "ImportError" in by_name["broken"]["error"]
    assert "broken" not in data["active"]
    text = sqz(site, "plugins").stdout.decode()
    assert "fake " in text and "sqz-formatters-fakeplug 1.0" in text and "commands: fake" in text


def test_formatter_is_used_for_the_program_it_claims(site):
    r = sqz(site, "compress", "--cmd", "fake status", stdin=STATUS_TEXT)
    assert r.returncode == 0
    assert r.stdout.startswith(b"FAKE STATUS: 60 lines\n")
    assert b"sqz expand" in r.stdout  # lossy: the recovery line is there
    other = sqz(site, "compress", "--cmd", "unrelated status", stdin=STATUS_TEXT)
    assert b"FAKE" not in other.stdout


def test_tryfirst_answers_before_the_others(site):
    assert sqz(site, "compress", "--cmd", "fake first", stdin=STATUS_TEXT).stdout.startswith(b"FIRST\n")


def test_disable_and_allow_lists(site):
    blocked = sqz(site, "compress", "--cmd", "fake status", stdin=STATUS_TEXT, env={"SQZ_DISABLE_PLUGINS": "fake"})
    assert b"FAKE" not in blocked.stdout
    allowed_other = sqz(site, "compress", "--cmd", "fake status", stdin=STATUS_TEXT,
                        env={"SQZ_LOAD_PLUGINS": "fakefirst"})
    assert b"FAKE" not in allowed_other.stdout
    allowed = sqz(site, "compress", "--cmd", "fake status", stdin=STATUS_TEXT, env={"SQZ_LOAD_PLUGINS": "fake,x"})
    assert allowed.stdout.startswith(b"FAKE STATUS")


def test_broken_plugin_is_reported_once_and_skipped(site):
    first = sqz(site, "compress", "--cmd", "fake status", stdin=STATUS_TEXT)
    assert first.returncode == 0 and first.stdout.startswith(b"FAKE STATUS")
    assert first.stderr.count(b"'broken'") == 1 and b"skipped" in first.stderr
    second = sqz(site, "compress", "--cmd", "fake status", stdin=STATUS_TEXT)
    assert b"broken" not in second.stderr  # the index remembers it: not reported again


def test_index_is_rebuilt_when_a_distribution_is_installed(site):
    assert sqz(site, "compress", "--cmd", "fake status", stdin=STATUS_TEXT).stdout.startswith(b"FAKE")
    index_files = list(Path(os.environ["SQZ_CACHE_DIR"]).glob("plugin-index-*.json"))
    assert len(index_files) == 1
    # install a new distribution claiming another program; no --refresh needed
    (site / "newplug").mkdir()
    (site / "newplug" / "__init__.py").write_text(
        "from sqz_core import hookimpl\ncommands = ('newtool',)\n\n@hookimpl\n"
        "def sqz_format(request):\n    return 'NEW\\n'\n")
    time.sleep(0.01)
    info = site / "sqz_formatters_newplug-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: sqz-formatters-newplug\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text("[sqz.formatters]\nnew = newplug\n")
    os.utime(site, None)
    assert sqz(site, "compress", "--cmd", "newtool x", stdin=STATUS_TEXT).stdout.startswith(b"NEW\n")


def test_two_source_trees_sharing_one_venv_keep_their_own_index(tmp_path):
    # two checkouts of one pack (worktrees) on PYTHONPATH with one venv and one cache: each
    # copy's commands answer for it, never the index built from the other copy
    trees = {}
    for name, claimed in (("one", "toolone"), ("two", "tooltwo")):
        site = tmp_path / name
        site.mkdir()
        (site / "twinplug").mkdir()
        (site / "twinplug" / "__init__.py").write_text(
            f"from sqz_core import hookimpl\ncommands = ({claimed!r},)\n\n@hookimpl\n"
            f"def sqz_format(request):\n    return {name.upper() + chr(10)!r}\n")
        info = site / "sqz_formatters_twinplug-1.0.dist-info"
        info.mkdir()
        (info / "METADATA").write_text("Metadata-Version: 2.1\nName: sqz-formatters-twinplug\nVersion: 1.0\n")
        (info / "entry_points.txt").write_text("[sqz.formatters]\ntwin = twinplug\n")
        trees[name] = site
    for _ in range(2):  # the second round reads the indexes the first one wrote
        assert sqz(trees["one"], "compress", "--cmd", "toolone x", stdin=STATUS_TEXT).stdout.startswith(b"ONE\n")
        assert sqz(trees["two"], "compress", "--cmd", "tooltwo x", stdin=STATUS_TEXT).stdout.startswith(b"TWO\n")
        other = sqz(trees["two"], "compress", "--cmd", "toolone x", stdin=STATUS_TEXT).stdout
        assert not other.startswith((b"ONE", b"TWO"))
    assert len(list(Path(os.environ["SQZ_CACHE_DIR"]).glob("plugin-index-*.json"))) == 2


def test_fast_dispatch_calls_hooks_in_pluggy_order(site):
    script = textwrap.dedent('''
        import json
        from sqz_core import plugins
        index = plugins.load_index()
        records = [plugins.builtin_record()] + plugins.for_program(index, "fake")
        fast = [i.plugin for i in plugins.implementations("sqz_format", records)]
        pm = plugins.plugin_manager(index)
        wanted = {r["name"] for r in records}
        slow = [pm.get_name(h.plugin) for h in reversed(pm.hook.sqz_format.get_hookimpls())]
        print(json.dumps([fast, [n for n in slow if n in wanted]]))
    ''')
    env = dict(os.environ, PYTHONPATH=str(site))
    r = subprocess.run([sys.executable, "-c", script], capture_output=True, env=env, check=True)
    fast, slow = json.loads(r.stdout)
    assert fast == slow
    # the content kinds' trylast catch-all is the generic pack's (the core has no sqz_format of its own); the
    # declarative pack's catch-all (the user's YAML specs) answers before it
    assert fast[0] == "fakefirst" and set(fast) == {"fakefirst", "fake", "fakelast", "declarative", "generic"}
    assert fast.index("declarative") < fast.index("generic")
