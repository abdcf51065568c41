"""`sqz` mounts the verbs of other distributions from the `sqz.commands` entry points; without them,
`sqz --help` still works and each missing verb names the distribution that brings it."""

import os
import subprocess
import sys
import textwrap

import pytest

# Runs sqz as if no distribution declared `sqz.commands` (only sqz-core installed), and records
# whether any entry-point group was read.
WITHOUT_COMMANDS = textwrap.dedent('''
    import importlib.metadata as md, json, sys
    real, asked = md.entry_points, []
    def entry_points(**kw):
        asked.append(kw.get("group"))
        if kw.get("group") == "sqz.commands":
            return md.EntryPoints(())
        return real(**kw)
    md.entry_points = entry_points
    from sqz_core.__main__ import main
    status = main(sys.argv[1:])
    sys.stderr.write("\\nasked=" + json.dumps(asked) + "\\n")
    sys.exit(status)
''')


def run(args, script=None, stdin=b""):
    code = [sys.executable, "-c", script, *args] if script else [sys.executable, "-m", "sqz_core", *args]
    return subprocess.run(code, input=stdin, capture_output=True, check=False, env=dict(os.environ, COLUMNS="200"),
                          timeout=120)


def test_help_without_the_other_distributions_lists_their_verbs_and_where_they_come_from():
    r = run(["--help"], WITHOUT_COMMANDS)
    assert r.returncode == 0, r.stderr
    out = r.stdout.decode()
    for verb in ("compress", "run", "expand", "hook", "plugins", "init", "uninstall", "doctor", "discover", "stats",
                 "gain", "report", "budget", "reset", "daemon", "config", "compact", "pin", "recall", "sessions"):
        assert verb in out, verb
    assert "sqz-agents" in out and "sqz-insights" in out and "sqz-daemon" in out
    assert "sqz-config" in out and "sqz-memory" in out


@pytest.mark.parametrize("args, dist", [
    (["init", "--dry-run"], "sqz-agents"), (["doctor", "--help"], "sqz-agents"), (["discover"], "sqz-agents"),
    (["stats", "--json"], "sqz-insights"), (["budget", "set", "--agent", "x", "5"], "sqz-insights"),
    (["report", "--html", "r.html"], "sqz-insights"), (["reset", "--yes"], "sqz-insights"),
    (["daemon", "status"], "sqz-daemon"),
    (["config", "show"], "sqz-config"), (["pin", "list"], "sqz-memory"), (["recall", "x"], "sqz-memory"),
    (["compact", "--json"], "sqz-memory"), (["sessions"], "sqz-memory"),
])
def test_a_missing_verb_says_which_distribution_brings_it(args, dist):
    r = run(args, WITHOUT_COMMANDS)
    assert r.returncode == 1, (args, r.stderr)
    first = r.stderr.decode().splitlines()[0]
    assert first == f"sqz {args[0]}: this verb comes with the {dist} distribution, which is not installed (pip install {dist})"
    assert b"Traceback" not in r.stderr


def test_core_verbs_work_without_them_and_never_scan_for_commands():
    r = run(["compress", "--cmd", "echo hi"], WITHOUT_COMMANDS, stdin=b"hi\n")
    assert r.returncode == 0 and r.stdout == b"hi\n", r.stderr
    assert '"sqz.commands"' not in r.stderr.decode()  # (the first call builds the plugin index: other groups)
    r = run(["compress", "--cmd", "echo hi"], WITHOUT_COMMANDS, stdin=b"hi\n")
    assert r.returncode == 0 and r.stderr.decode().rstrip().endswith("asked=[]")  # warm: no entry point read at all
    r = run(["version"], WITHOUT_COMMANDS)
    assert r.returncode == 0 and r.stdout.startswith(b"sqz ")
    assert '"sqz.commands"' not in r.stderr.decode()


def test_installed_verbs_are_mounted_from_their_entry_points():
    from importlib.metadata import entry_points

    declared = {ep.name: ep.value for ep in entry_points(group="sqz.commands")}
    assert declared["init"] == "sqz_agents.commands:init" and declared["budget"] == "sqz_insights.commands:budget"
    r = run(["doctor", "--help"])
    assert r.returncode == 0 and "--purge-secrets" in r.stdout.decode()
    r = run(["budget", "--help"])
    assert r.returncode == 0 and all(sub in r.stdout.decode() for sub in ("set", "remove", "list"))
    r = run(["--help"])
    assert "not available" not in r.stdout.decode()
