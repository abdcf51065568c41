"""Issue 28.3: ``--json`` on every verb that prints a result, with the shapes docs/json.md documents.

Each documented command runs as a user would (``python -m sqz_core …`` in a private HOME, store,
cache and runtime directory); its stdout must be one JSON document of the documented shape with
the documented keys. Every verb ``sqz`` mounts (the ``sqz.commands`` verbs of the installed
distributions included) must take ``--json`` or be one docs/json.md names as printing no result.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "json.md"
ROW = re.compile(r"^\| `sqz ([^`]+)` \| (object|array)[^|]* \| (.+) \|$")


def documented() -> dict[str, tuple[str, list[str]]]:
    """``"stats --json"`` -> (``object``|``array``, keys) for each row of docs/json.md's table."""
    rows = {}
    for line in DOC.read_text(encoding="utf-8").splitlines():
        m = ROW.match(line)
        if m:
            rows[m.group(1)] = (m.group(2), re.findall(r"`([a-z_]+)`", m.group(3)))
    return rows


def no_result_verbs() -> set[str]:
    text = DOC.read_text(encoding="utf-8")
    tail = text[text.index("Verbs that print no result"):]
    return set(re.findall(r"`([a-z]+(?: [a-z]+)?)`", tail))


def _leaves(command, prefix=()):
    if hasattr(command, "commands"):  # a group (typer's own click or click itself)
        for name, sub in sorted(command.commands.items()):
            yield from _leaves(sub, prefix + (name,))
    else:
        yield " ".join(prefix), command


def test_every_mounted_verb_takes_json_or_prints_no_result():
    import typer

    from sqz_core import cli

    cli.mount_commands(["--help"])  # every installed distribution's verbs, as `sqz --help` lists them
    tree = typer.main.get_command(cli.app)
    exempt = no_result_verbs()
    missing, verbs = [], []
    for name, command in _leaves(tree):
        verbs.append(name)
        takes_json = any("--json" in getattr(p, "opts", ()) for p in command.params)
        if not takes_json and name not in exempt:
            missing.append(name)
    assert missing == [], f"verbs printing a result without --json (or list them in {DOC.name}): {missing}"
    # the verbs of sqz's own distributions are all here (none is a stub of a missing one)
    for verb in ("stats", "doctor", "init", "uninstall", "daemon status", "pin add", "budget list", "proxy status"):
        assert verb in verbs, verb


def test_the_documented_commands_are_real_verbs():
    import typer

    from sqz_core import cli

    cli.mount_commands(["--help"])
    verbs = {name for name, _ in _leaves(typer.main.get_command(cli.app))}
    rows = documented()
    assert len(rows) >= 20
    for command in rows:
        words = [w for w in command.split() if re.fullmatch(r"[a-z]+", w)]
        assert " ".join(words[:2]) in verbs or words[0] in verbs, command


@pytest.fixture(scope="module")
def env(tmp_path_factory):
    root = tmp_path_factory.mktemp("json")
    run_dir = root / "run"
    run_dir.mkdir(mode=0o700)
    e = {k: v for k, v in os.environ.items() if not k.startswith("SQZ_") and not k.startswith("XDG_")}
    e.update(HOME=str(root / "home"), SQZ_DB_PATH=str(root / "sqz.db"), SQZ_CACHE_DIR=str(root / "cache"),
             XDG_RUNTIME_DIR=str(run_dir), XDG_CONFIG_HOME=str(root / "config"), XDG_DATA_HOME=str(root / "data"),
             SQZ_QUIET="1", SQZ_SESSION="json-test", SQZ_TIME_BUDGET_MS="0", SQZ_DAEMON_IDLE="1")
    os.makedirs(e["HOME"])
    return e


def sqz(env, *args, data: bytes = b"", ok=(0,)) -> object:
    r = subprocess.run([sys.executable, "-m", "sqz_core", *args], input=data, capture_output=True, env=env,
                       timeout=120, cwd=env["HOME"])
    assert r.returncode in ok, (args, r.returncode, r.stderr.decode()[-2000:])
    return json.loads(r.stdout)  # the JSON document alone (leading/trailing whitespace aside)


def check(rows, key: str, value) -> None:
    shape, keys = rows[key]
    if shape == "array":
        assert isinstance(value, list), (key, value)
        items = value
    else:
        assert isinstance(value, dict), (key, value)
        items = [value]
    for item in items:
        assert set(keys) <= set(item), (key, sorted(item))


def test_each_documented_command_prints_its_shape(env, tmp_path):
    rows = documented()
    seen = set()

    def run(key, *args, data=b"", ok=(0,)):
        value = sqz(env, *args, data=data, ok=ok)
        check(rows, key, value)
        seen.add(key)
        return value

    log = subprocess.run(["git", "-C", str(ROOT), "log", "--stat", "-n", "12"], capture_output=True,
                         check=True).stdout  # a real output to compress, so stats and recall have a row
    subprocess.run([sys.executable, "-m", "sqz_core", "compress", "--cmd", "git log --stat -n 12"], input=log,
                   env=env, capture_output=True, check=True, timeout=120)
    word = re.search(rb"[A-Za-z]{6,}", log).group().decode()

    run("plugins --json", "plugins", "--json", ok=(0, 1))
    assert run("recall QUERY --json", "recall", word, "--json")  # at least the output compressed above
    assert run("sessions --json", "sessions", "--json")[0]["session"] == "json-test"
    stats = run("stats --json", "stats", "--json")
    assert stats["total"]["calls"] == 1
    run("gain --json", "gain", "--json")
    version = run("version --json", "version", "--json")
    assert "sqz-core" in version["distributions"]

    doc = tmp_path / "CONVENTIONS.md"
    doc.write_bytes((ROOT / "CONTRIBUTING.md").read_bytes())  # a real project document
    pinned = run("pin add FILE --json", "pin", "add", str(doc), "--json")
    assert pinned["bytes"] == doc.stat().st_size and pinned["ref"] == f"§ref:{pinned['id']}§"
    assert pinned["hash"].startswith(pinned["id"])
    listed = run("pin list --json", "pin", "list", "--json")
    assert [p["hash"] for p in listed] == [pinned["hash"]]
    removed = run("pin remove REF --json", "pin", "remove", pinned["id"], "--json")
    assert removed["unpinned"] is True and removed["hash"] == pinned["hash"]
    assert sqz(env, "pin", "list", "--json") == []

    report = run("report --html FILE --json", "report", "--html", str(tmp_path / "r.html"), "--json", ok=(0, 1))
    assert report["path"] == str(tmp_path / "r.html") and report["bytes"] == (tmp_path / "r.html").stat().st_size
    assert report["calls"] == 1

    assert run("budget set TOKENS --agent A --json", "budget", "set", "5000", "--agent", "codex", "--json")[
        "tokens"] == 5000
    assert run("budget list --json", "budget", "list", "--json")["budgets"] == {"codex": 5000}
    assert run("budget remove --agent A --json", "budget", "remove", "--agent", "codex", "--json")["removed"]

    run("init --dry-run --json", "init", "--dry-run", "--json", ok=(0, 1))
    changes = run("uninstall --dry-run --json", "uninstall", "--dry-run", "--json")
    assert changes["dry_run"] is True and all(c["action"] == "nothing" for c in changes["changes"])
    run("doctor --json", "doctor", "--json", ok=(0, 1, 2))

    assert run("daemon status --json", "daemon", "status", "--json", ok=(1,))["state"] == "not-running"
    started = run("daemon start --json", "daemon", "start", "--json")
    try:
        status = run("daemon status --json", "daemon", "status", "--json")
        assert status["running"] is True and status["state"] == "running"
        assert isinstance(status["pid"], int) and status["served"] >= 0
    finally:
        stopped = run("daemon stop --json", "daemon", "stop", "--json")
    assert started["ok"] and stopped["ok"] and "stopped" in stopped["messages"][-1]

    assert run("proxy status --json", "proxy", "status", "--json", ok=(1,))["running"] is False
    assert run("proxy stop --json", "proxy", "stop", "--json")["was_running"] is False

    shown = run("config show --json", "config", "show", "--json")
    assert isinstance(shown["settings"], dict)
    written = run("config set KEY VALUE --json", "config", "set", "ref_ttl_secs", "900", "--json")
    assert written["value"] == 900 and os.path.isfile(written["path"])
    assert written["path"].startswith(env["XDG_CONFIG_HOME"])
    assert run("config unset KEY --json", "config", "unset", "ref_ttl_secs", "--json") == {
        "key": "ref_ttl_secs", "path": written["path"], "removed": True}

    compacted = run("compact --json", "compact", "--json")
    assert compacted == {"session": "json-test", "forgotten": 1}
    deleted = run("reset --yes --json", "reset", "--yes", "--json")
    assert deleted["scope"] == "all" and deleted["deleted"]["calls"] == 1

    assert seen == set(rows), sorted(set(rows) - seen)


def test_a_reset_answered_no_prints_null_and_the_question_goes_to_stderr(env):
    r = subprocess.run([sys.executable, "-m", "sqz_core", "reset", "--json"], input=b"n\n", capture_output=True,
                       env=env, timeout=120)
    assert r.returncode == 1
    assert json.loads(r.stdout) == {"scope": "all", "deleted": None}
    assert b"Delete everything" in r.stderr and b"Delete" not in r.stdout
