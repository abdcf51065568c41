"""The hot path stays import-light: no typer, pydantic, jsonschema, ruamel.yaml, pluggy, tokenizer
or entry-point scan on a warm `sqz compress` call (DESIGN.md §2)."""

import json
import os
import subprocess
import sys
import textwrap

BANNED = ("typer", "click", "rich", "pydantic", "jsonschema", "ruamel", "tiktoken", "pluggy",
          "importlib.metadata", "sqz_core.cli")

PROBE = textwrap.dedent('''
    import io, json, sys
    sys.stdin = io.TextIOWrapper(io.BytesIO(sys.argv[1].encode() * 40))
    sys.argv = ["sqz", "compress", "--cmd", sys.argv[2]]
    out = sys.stdout
    sys.stdout = io.TextIOWrapper(io.BytesIO())
    from sqz_core.__main__ import main
    status = main()
    out.write(json.dumps({"status": status, "modules": sorted(sys.modules)}))
''')


def probe(command: str, text: str) -> dict:
    r = subprocess.run([sys.executable, "-c", PROBE, text, command], capture_output=True, check=True,
                       env=dict(os.environ, SQZ_QUIET="1"))
    return json.loads(r.stdout)


def test_warm_compress_imports_nothing_heavy():
    probe("git status", "a line of output\n")  # first call may build the plugin index
    for command in ("git status", "pytest -q", "cargo test", "unknown-tool --flag"):
        mods = probe(command, "a line of output that repeats\n")["modules"]
        heavy = [m for m in mods if any(m == b or m.startswith(b + ".") for b in BANNED)]
        assert heavy == [], f"{command}: hot path imported {heavy}"


def test_version_fast_path_imports_only_the_package():
    r = subprocess.run([sys.executable, "-c", "import sys\nfrom sqz_core import hot\nhot.main(['--version'])\n"
                        "print(sorted(m for m in sys.modules if m.startswith('sqz_core')), file=sys.stderr)"],
                       capture_output=True, check=True)
    assert b"sqz_core.store" not in r.stderr and b"sqz_core.pipeline" not in r.stderr


CLIENT_PROBE = textwrap.dedent('''
    import io, sys
    sys.stdin = io.TextIOWrapper(io.BytesIO(sys.argv[1].encode() * 40))
    sys.argv = ["sqz", "compress", "--cmd", sys.argv[2]]
    sys.stdout = io.TextIOWrapper(io.BytesIO())
    from sqz_core.__main__ import main
    status = main()
    sys.stderr.write(repr((status, sorted(sys.modules))))
''')


def test_daemon_client_imports_no_pipeline_store_regex_or_json():
    """Through a running daemon, a call imports only the client: no pipeline, store, sqlite3 or json."""
    import ast
    import shutil
    import tempfile

    tmp = tempfile.mkdtemp(prefix="sqzh-", dir="/tmp")  # short: Unix socket paths are limited
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SQZ_", "XDG_"))}
    env.update(SQZ_CACHE_DIR=os.path.join(tmp, "c"), SQZ_DB_PATH=os.path.join(tmp, "db"),
               XDG_RUNTIME_DIR=os.path.join(tmp, "r"))
    sqz = [sys.executable, "-m", "sqz_core"]
    try:
        subprocess.run(sqz + ["daemon", "start"], env=env, capture_output=True, check=True, timeout=20)
        for command in ("git status", "pytest -q", "unknown-tool --flag"):
            r = subprocess.run([sys.executable, "-c", CLIENT_PROBE, "a line of output that repeats\n", command],
                               capture_output=True, check=True, env=env, timeout=20)
            status, mods = ast.literal_eval(r.stderr.decode().splitlines()[-1])
            assert status == 0
            extra = BANNED + ("sqz_core.pipeline", "sqz_core.store", "sqz_core.plugins", "sqlite3", "json", "socket")
            heavy = [m for m in mods if any(m == b or m.startswith(b + ".") for b in extra)]
            assert heavy == [], f"{command}: daemon client imported {heavy}"
            assert "_socket" in mods  # it did go through the daemon
        status = subprocess.run(sqz + ["daemon", "status"], env=env, capture_output=True, timeout=20)
        assert b"served 3" in status.stdout
    finally:
        subprocess.run(sqz + ["daemon", "stop"], env=env, capture_output=True, timeout=20)
        shutil.rmtree(tmp, ignore_errors=True)


# what a compress call may import at most (counted on the three shapes below: 26 of the core, 31-40 of
# sqz with the packs, 107-116 in all; plus a margin of a few): a new import on the hot path is a
# decision, made here, not an accident (sqz_core.config, +1: the config files' settings and rules, read
# from their compiled snapshot with a few stats; sqz_formatters_declarative, +1 of sqz: the declarative
# catch-all, one module that stats the spec folders and stops when there is none)
MAX_CORE_MODULES = 29
MAX_SQZ_MODULES = 45
MAX_MODULES = 125


def test_version_imports_no_regex_or_openssl():
    r = subprocess.run([sys.executable, "-c", "import sys\nsys.argv = ['sqz', '--version']\n"
                        "from sqz_core.__main__ import main\nmain()\nprint(sorted(sys.modules), file=sys.stderr)"],
                       capture_output=True, check=True)
    mods = eval(r.stderr.decode().strip().splitlines()[-1])
    assert "re" not in mods and "hashlib" not in mods and "sqz_core.pipeline" not in mods, mods


def test_compress_imports_only_what_it_uses():
    probe("git status", "a line of output\n")  # first call may build the plugin index
    for command in ("git log --stat", "pytest -v", "grep -rn needle ."):
        mods = probe(command, "a line of output that repeats\n")["modules"]
        assert "hashlib" not in mods, command  # digests through the C sha256, without OpenSSL's set-up
        core = [m for m in mods if m.startswith("sqz_core")]
        assert len(core) <= MAX_CORE_MODULES, (command, core)
        sqz = [m for m in mods if m.startswith("sqz")]
        assert len(sqz) <= MAX_SQZ_MODULES, (command, sqz)
        assert len(mods) <= MAX_MODULES, (command, len(mods))


# issue 23: a `git status` the git pack renders imports fewer sqz modules than the 33 of before the redesign
MAX_SQZ_MODULES_GIT_STATUS = 32
GIT_STATUS = os.path.join(os.path.dirname(__file__), "..", "..", "sqz_formatters_git", "tests", "fixtures",
                          "status", "conflict_en.txt")
STATUS_PROBE = textwrap.dedent('''
    import io, json, sys
    sys.stdin = io.TextIOWrapper(io.BytesIO(open(sys.argv[1], "rb").read()))
    sys.argv = ["sqz", "compress", "--cmd", "git status"]
    out = sys.stdout
    sys.stdout = io.TextIOWrapper(io.BytesIO())
    from sqz_core.__main__ import main
    status = main()
    out.write(json.dumps({"status": status, "out": sys.stdout.buffer.getvalue().decode(), "modules": sorted(sys.modules)}))
''')


def test_git_status_imports_the_git_pack_and_not_the_catch_alls(tmp_path):
    """The git pack answers first, so the generic pack (the catch-alls after it) is never imported, nor
    the budget module without a budget; the expand verb's module neither (the recovery id is the gate's)."""
    for i in range(2):  # the first call may build the plugin index
        env = dict(os.environ, SQZ_QUIET="1", SQZ_DAEMON="0", SQZ_DB_PATH=str(tmp_path / f"db{i}.sqlite"),
                   SQZ_CACHE_DIR=str(tmp_path / "cache"))
        r = subprocess.run([sys.executable, "-c", STATUS_PROBE, GIT_STATUS], capture_output=True, check=True,
                           env=env)
        got = json.loads(r.stdout)
    mods = got["modules"]
    assert got["status"] == 0 and "sqz expand" in got["out"]  # compressed by the git pack, recoverable
    assert "sqz_formatters_git.git_status" in mods
    assert not [m for m in mods if m.startswith("sqz_formatters_generic")], mods
    assert not [m for m in mods if m.startswith("sqz_insights")] and "sqz_core.expand" not in mods, mods
    sqz = [m for m in mods if m.startswith("sqz")]
    assert len(sqz) <= MAX_SQZ_MODULES_GIT_STATUS, (len(sqz), sqz)


def test_a_warm_call_with_config_files_reads_their_snapshot_only(tmp_path):
    """With a user file and a project's pyproject [tool.sqz], the first call parses them (ruamel, tomllib,
    jsonschema) and compiles a snapshot; a warm call only stats the files and reads that JSON, and the
    settings still take effect (quiet: no stats line)."""
    (tmp_path / "xdg" / "sqz").mkdir(parents=True)
    (tmp_path / "xdg" / "sqz" / "config.yaml").write_text("quiet: true\nrules:\n  - program: kubectl\n    cache: false\n")
    project = tmp_path / "proj"
    (project / ".git").mkdir(parents=True)
    (project / "pyproject.toml").write_text('[tool.sqz]\ntime_budget_ms = 1500\n')
    env = {k: v for k, v in os.environ.items() if not k.startswith("SQZ_")}
    env.update(XDG_CONFIG_HOME=str(tmp_path / "xdg"), SQZ_CACHE_DIR=str(tmp_path / "cache"),
               SQZ_DB_PATH=str(tmp_path / "db"), SQZ_DAEMON="0")
    calls = []
    for _ in range(3):
        r = subprocess.run([sys.executable, "-c", PROBE, "a line of output that repeats\n", "kubectl get pods"],
                           capture_output=True, check=True, cwd=project, env=env)
        calls.append(json.loads(r.stdout)["modules"])
        assert r.stderr == b""  # quiet: true, from the user's file
    assert "sqz_config.files" in calls[0] and "tomllib" in calls[0]  # the first call parsed the files
    for mods in calls[1:]:
        heavy = [m for m in mods if any(m == b or m.startswith(b + ".") for b in BANNED + ("tomllib",))]
        assert heavy == [] and "sqz_config.files" not in mods and "sqz_core.config" in mods
