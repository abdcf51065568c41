"""Issue 14: every recovery hint names a command that runs in the agent's shell.

``sqz_core.runnable``: bare ``sqz`` when the ``sqz`` on PATH is this very program, else the
absolute path of the running sqz. Checked end to end: sqz started by absolute path (as a hook
or wrapper starts it), the hint it prints run by ``sh -c`` with the same PATH.
"""

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from sqz_core import runnable
from sqz_testing import nested_repeats, regex_patterns

SHIM = "#!{python}\nimport sys\nfrom sqz_core.__main__ import main\nsys.exit(main())\n"


def _shim(folder) -> str:
    """An ``sqz`` console script of this interpreter (what pip installs), with the test's PYTHONPATH."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "sqz"
    path.write_text(SHIM.format(python=sys.executable))
    path.chmod(0o755)
    return str(path)


def _env(tmp_path, path: str) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith("SQZ_")}
    env.update(PATH=path, SQZ_DB_PATH=str(tmp_path / "db.sqlite"), SQZ_DAEMON="0", SQZ_SESSION="hints")
    return env


LISTING = subprocess.run(["ls", "-la", "/usr/lib"], capture_output=True, check=True).stdout


def _recovery_command(stdout: bytes) -> str:
    """The command of the recovery line ``[<sqz> expand ID]``, which must be the last line."""
    lines = stdout.decode().splitlines()
    found = [x for x in lines if runnable.RECOVERY_LINE.match(x)]
    assert len(found) == 1 and lines[-1] == found[0], stdout[-500:]
    assert found[0].startswith("[") and found[0].endswith("]") and " expand " in found[0]
    return found[0][1:-1]


def test_off_path_the_hint_is_the_absolute_path_and_runs(tmp_path):
    sqz = _shim(tmp_path / "my tools" / "bin")  # a space: the path must come quoted
    env = _env(tmp_path, "/usr/bin:/bin")
    assert subprocess.run(["sh", "-c", "sqz --version"], env=env, capture_output=True).returncode == 127
    r = subprocess.run([sqz, "compress", "--cmd", "ls -la /usr/lib"], input=LISTING, env=env, capture_output=True)
    assert r.returncode == 0
    command = _recovery_command(r.stdout)
    assert command.startswith(shlex.quote(sqz) + " expand ")
    ran = subprocess.run(["sh", "-c", command], env=env, capture_output=True)  # the agent's shell
    assert ran.returncode == 0 and ran.stdout == LISTING


def test_on_path_the_hint_is_a_bare_sqz_that_runs(tmp_path):
    sqz = _shim(tmp_path / "bin")
    env = _env(tmp_path, f"{tmp_path / 'bin'}:/usr/bin:/bin")
    r = subprocess.run([sqz, "compress", "--cmd", "ls -la /usr/lib"], input=LISTING, env=env, capture_output=True)
    command = _recovery_command(r.stdout)
    assert command.startswith("sqz expand ")
    ran = subprocess.run(["sh", "-c", command], env=env, capture_output=True)
    assert ran.returncode == 0 and ran.stdout == LISTING


def test_a_different_sqz_on_path_is_not_named(tmp_path):
    """Another program called ``sqz`` first on PATH (an old install, an unrelated tool): the hint avoids it."""
    other = tmp_path / "other"
    other.mkdir()
    (other / "sqz").write_text("#!/bin/sh\necho 'not this sqz'\nexit 3\n")
    (other / "sqz").chmod(0o755)
    sqz = _shim(tmp_path / "bin")
    env = _env(tmp_path, f"{other}:{tmp_path / 'bin'}:/usr/bin:/bin")
    r = subprocess.run([sqz, "compress", "--cmd", "ls -la /usr/lib"], input=LISTING, env=env, capture_output=True)
    command = _recovery_command(r.stdout)
    assert command.startswith(shlex.quote(sqz) + " expand ")
    assert subprocess.run(["sh", "-c", command], env=env, capture_output=True).stdout == LISTING


def test_refs_name_the_runnable_command_too(tmp_path):
    sqz = _shim(tmp_path / "bin dir")
    env = _env(tmp_path, "/usr/bin:/bin")
    data = (Path(runnable.__file__).parent / "abbrev.py").read_bytes()  # a source file, read twice
    for _ in range(2):
        r = subprocess.run([sqz, "compress", "--tool", "Read", "--cmd", "cat abbrev.py"], input=data,
                           env=env, capture_output=True)
    out = r.stdout.decode()
    assert out.startswith("§ref:") and f"(`{shlex.quote(sqz)} expand` this ref prints it)" in out, out
    token = out.split()[0]
    for arg in (token, token.strip("§").removeprefix("ref:")):  # as pasted, unquoted: § is no shell syntax
        ran = subprocess.run(["sh", "-c", f"{shlex.quote(sqz)} expand {arg}"], env=env, capture_output=True)
        assert ran.returncode == 0 and ran.stdout == data


@pytest.fixture()
def fresh(monkeypatch):
    runnable._cache.clear()
    monkeypatch.delenv("SQZ_BIN", raising=False)
    yield
    runnable._cache.clear()


def test_sqz_bin_is_used_as_given(fresh, monkeypatch):
    monkeypatch.setenv("SQZ_BIN", "/opt/sqz tools/sqz")
    assert runnable.sqz_command() == "'/opt/sqz tools/sqz'"
    assert runnable.expand_hint("ab12") == "'/opt/sqz tools/sqz' expand ab12"


def test_python_m_without_a_script_names_the_interpreter(fresh, monkeypatch, tmp_path):
    """``python -m sqz_core`` from a source tree, no ``sqz`` script anywhere: ``'/abs/python' -m sqz_core``."""
    fake = tmp_path / "py env" / "python3"
    fake.parent.mkdir()
    fake.write_text("")
    monkeypatch.setattr(sys, "executable", str(fake))
    monkeypatch.setattr(sys, "argv", ["/src/sqz_core/__main__.py", "compress"])
    monkeypatch.setenv("PATH", "/usr/bin:/bin")
    assert runnable.sqz_command() == f"'{fake}' -m sqz_core"


def test_python_m_with_a_console_script_of_this_interpreter_on_path_is_bare(fresh, monkeypatch, tmp_path):
    fake = tmp_path / "env" / "python3"
    fake.parent.mkdir()
    fake.write_text("")
    bindir = tmp_path / "bin"
    bindir.mkdir()
    (bindir / "sqz").write_text(f"#!{fake}\nfrom sqz_core.__main__ import main\n")
    (bindir / "sqz").chmod(0o755)
    monkeypatch.setattr(sys, "executable", str(fake))
    monkeypatch.setattr(sys, "argv", ["/src/sqz_core/__main__.py", "compress"])
    monkeypatch.setenv("PATH", f"{bindir}:/usr/bin:/bin")
    assert runnable.sqz_command() == "sqz"


def test_quote_matches_shlex():
    for word in ("/usr/bin/sqz", "/opt/my tools/sqz", "/it's/sqz", "C:/x$y/sqz", ""):
        assert runnable.quote(word) == shlex.quote(word)


def test_through_the_daemon_the_callers_path_decides(tmp_path):
    """The warm daemon compresses with the caller's PATH: the hint is what the caller's shell can run."""
    import shutil
    import tempfile

    short = tempfile.mkdtemp(prefix="sqzr-", dir="/tmp")  # Unix socket paths are short
    venv_bin = os.path.dirname(sys.executable)
    env = _env(tmp_path, "/usr/bin:/bin")
    env.pop("SQZ_DAEMON")
    env["XDG_RUNTIME_DIR"] = short
    sqz = [sys.executable, "-m", "sqz_core"]
    try:
        subprocess.run(sqz + ["daemon", "start"], env=env, capture_output=True, check=True, timeout=30)
        hints = {}
        for name, path in (("off", "/usr/bin:/bin"), ("on", f"{venv_bin}:/usr/bin:/bin")):
            r = subprocess.run(sqz + ["compress", "--cmd", "ls -la /usr/lib", "--session", name], input=LISTING,
                               env=dict(env, PATH=path), capture_output=True, timeout=60)
            hints[name] = _recovery_command(r.stdout)
        status = subprocess.run(sqz + ["daemon", "status"], env=env, capture_output=True, timeout=30)
        assert b"served 2" in status.stdout, status  # both went through the daemon
        assert hints["on"].startswith("sqz expand ")
        assert hints["off"].startswith(shlex.quote(os.path.join(venv_bin, "sqz")) + " expand ")
    finally:
        subprocess.run(sqz + ["daemon", "stop"], env=env, capture_output=True, timeout=30)
        shutil.rmtree(short, ignore_errors=True)


@pytest.mark.parametrize("line, sqz, ref_id", [
    ("[sqz expand n012345678901234]", "sqz", "n012345678901234"),  # the decimal id (runnable.encode)
    ("[sqz expand n012345678901234567]", "sqz", "n012345678901234567"),  # longer after shared bits
    ("[/home/u/.venv/bin/sqz expand n012345678901234]", "/home/u/.venv/bin/sqz", "n012345678901234"),
    ("['/py env/python3' -m sqz_core expand n012345678901234]", "'/py env/python3' -m sqz_core", "n012345678901234"),
    ("[sqz expand 0123456789ab]", "sqz", "0123456789ab"),  # hex: sqz before the decimal id
    ("[sqz expand 0123456789abcde]", "sqz", "0123456789abcde"),  # more digits after a shared prefix
    ("[/home/u/.venv/bin/sqz expand 0123456789ab]", "/home/u/.venv/bin/sqz", "0123456789ab"),
    ("['/opt/sqz tools/sqz' expand 0123456789ab]", "'/opt/sqz tools/sqz'", "0123456789ab"),
    ("['/it'\"'\"'s/sqz' expand 0123456789ab]", "'/it'\"'\"'s/sqz'", "0123456789ab"),
    ("['/py env/python3' -m sqz_core expand 0123456789ab]", "'/py env/python3' -m sqz_core", "0123456789ab"),
    ("[/usr/bin/python3 -m sqz_core expand 0123456789ab]", "/usr/bin/python3 -m sqz_core", "0123456789ab"),
    ("[C:\\Tools\\sqz.exe expand 0123456789ab]", "C:\\Tools\\sqz.exe", "0123456789ab"),
    ("[sqz: full output: sqz expand 1f939f1edc17819a]", "sqz", "1f939f1edc17819a"),  # the older form
    ("[sqz: full output: '/opt/sqz tools/sqz' expand 1f939f1edc17819a]", "'/opt/sqz tools/sqz'", "1f939f1edc17819a"),
])
def test_the_recovery_line_parses_in_every_form(line, sqz, ref_id):
    m = runnable.RECOVERY_LINE.match(line)
    assert m and (m.group("sqz"), m.group("id")) == (sqz, ref_id)
    assert runnable.find_recovery(f"output\nmore\n{line}\n") == (sqz, ref_id)
    from sqz_core.expand import parse_ref

    assert parse_ref(line) == (ref_id, None)  # pasted whole to `sqz expand`, it still works


@pytest.mark.parametrize("text", [
    "[sqz expand 0123abcd]",                      # too few digits for an id sqz prints
    "[foo expand 0123456789ab]",                  # not sqz
    "see [sqz expand 0123456789ab]",              # not a line of its own
    "[sqz expand 0123456789ab] trailing",
    "[x\nsqz expand 0123456789ab]",               # never across lines
    "[sqz expand 0123456789AG]",
    "[sqz expand n01234567890123]",               # 14 digits: too few
    "[sqz expand N012345678901234]",              # sqz prints a lower-case n
    "[sqz expand n0123456789012x4]",
    "[sqz expand n٠١٢٣٤٥٦٧٨٩٠١٢٣٤]",               # digits, but not ASCII ones
])
def test_look_alikes_are_not_a_recovery_line(text):
    assert runnable.find_recovery(text) is None


def test_recovery_text_uses_the_runnable_words(fresh, monkeypatch):
    monkeypatch.setenv("SQZ_BIN", "/opt/sqz tools/sqz")
    line = runnable.recovery_text("0123456789ab")
    assert line == "['/opt/sqz tools/sqz' expand 0123456789ab]"
    assert runnable.find_recovery(line) == ("'/opt/sqz tools/sqz'", "0123456789ab")


def test_the_recovery_pattern_is_linear():
    """A long line that nearly matches (``[`` … many words ending near ``sqz``): no quadratic search.

    The search runs in the regex engine (C), which no count of Python lines sees, so the guard is
    the pattern's shape: no repeat inside a repeat (exponential backtracking), and anchored at line
    starts (``^`` with MULTILINE), so each line is tried from one place, not from every position
    (an unanchored ``[^]]*`` search is quadratic in a long line)."""
    pattern = runnable.RECOVERY_LINE.pattern
    assert nested_repeats(pattern) == [], pattern
    assert pattern.startswith("^") and runnable.RECOVERY_LINE.flags & re.MULTILINE, pattern
    assert regex_patterns(runnable) == {"RECOVERY_LINE": pattern}  # no other pattern to check
    text = ("[" + "sq " * 200_000 + "expand 0123\n") * 3  # (checked first: a bad shape would not end here)
    assert runnable.find_recovery(text) is None
