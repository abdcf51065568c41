"""Issue 25.5: a link to this sqz in ``~/.local/bin`` or ``~/bin`` (when PATH names one) makes every
hint a bare ``sqz expand ID`` — 11 cl100k tokens where a venv path made it 20 or more. PATH and shell
profiles are never edited; another ``sqz`` on PATH is never shadowed.
"""

import os
import subprocess
import sys

import pytest

from sqz_core import runnable
from sqz_core.tokens import count

SCRIPT = "#!{python}\nimport sys\nfrom sqz_core.__main__ import main\nsys.exit(main())\n"


@pytest.fixture()
def venv_script(tmp_path, monkeypatch):
    """An ``sqz`` console script of this interpreter in a venv-like folder, as the running sqz."""
    folder = tmp_path / "proj" / ".venv" / "bin"
    folder.mkdir(parents=True)
    script = folder / "sqz"
    script.write_text(SCRIPT.format(python=sys.executable))
    script.chmod(0o755)
    monkeypatch.setattr(sys, "argv", [str(script), "compress"])
    monkeypatch.delenv("SQZ_BIN", raising=False)
    runnable._cache.clear()
    yield str(script)
    runnable._cache.clear()


def _home(tmp_path):
    home = tmp_path / "home"
    (home / ".local" / "bin").mkdir(parents=True)
    return home


def test_a_user_bin_on_path_gets_the_link_and_hints_turn_bare(tmp_path, venv_script, monkeypatch):
    home = _home(tmp_path)
    path = f"{home / '.local' / 'bin'}:/usr/bin:/bin"
    monkeypatch.setenv("PATH", path)
    assert runnable.sqz_command() == venv_script  # before: the absolute path
    link, why = runnable.link_plan(str(home))
    assert link == str(home / ".local" / "bin" / "sqz") and venv_script in why
    assert runnable.make_link(link) == venv_script
    assert os.readlink(link) == venv_script
    assert runnable.sqz_command() == "sqz"
    assert count(runnable.recovery_text("n069437780506671") + "\n")[0] == 11
    assert runnable.link_plan(str(home)) == (None, f"sqz on PATH is this sqz already ({link})")


def test_end_to_end_the_hint_printed_through_the_link_runs(tmp_path, venv_script):
    """sqz started by its absolute path (as hooks start it); the agent's shell has ~/.local/bin on PATH."""
    home = _home(tmp_path)
    path = f"{home / '.local' / 'bin'}:/usr/bin:/bin"
    link, _ = runnable.link_plan(str(home), path)
    runnable.make_link(link)
    env = {k: v for k, v in os.environ.items() if not k.startswith("SQZ_")}
    env.update(PATH=path, HOME=str(home), SQZ_DB_PATH=str(tmp_path / "db.sqlite"), SQZ_DAEMON="0", SQZ_SESSION="l")
    listing = subprocess.run(["ls", "-la", "/usr/lib"], capture_output=True, check=True).stdout
    r = subprocess.run([venv_script, "compress", "--cmd", "ls -la /usr/lib"], input=listing, env=env,
                       capture_output=True, check=True)
    found = runnable.find_recovery(r.stdout.decode())
    assert found is not None and found[0] == "sqz" and found[1].startswith("n"), r.stdout[-300:]
    ran = subprocess.run(["sh", "-c", f"sqz expand {found[1]}"], env=env, capture_output=True)
    assert ran.returncode == 0 and ran.stdout == listing


def test_no_user_bin_on_path_links_nothing_and_says_what_to_add(tmp_path, venv_script):
    home = _home(tmp_path)
    link, why = runnable.link_plan(str(home), "/usr/bin:/bin")
    assert link is None and "~/.local/bin" in why and os.path.dirname(venv_script) in why
    assert not os.listdir(home / ".local" / "bin")


def test_bin_when_only_it_is_on_path(tmp_path, venv_script):
    home = _home(tmp_path)
    link, _ = runnable.link_plan(str(home), f"/usr/bin:{home / 'bin'}")
    assert link == str(home / "bin" / "sqz")


def test_another_sqz_on_path_is_never_shadowed(tmp_path, venv_script):
    home = _home(tmp_path)
    other = tmp_path / "other"
    other.mkdir()
    (other / "sqz").write_text("#!/bin/sh\necho unrelated\n")
    (other / "sqz").chmod(0o755)
    for path in (f"{other}:{home / '.local' / 'bin'}", f"{home / '.local' / 'bin'}:{other}"):
        link, why = runnable.link_plan(str(home), path)
        assert link is None and str(other / "sqz") in why, path


def test_a_file_in_the_links_place_is_left_alone(tmp_path, venv_script):
    home = _home(tmp_path)
    (home / ".local" / "bin" / "sqz").write_text("notes, not executable\n")
    link, why = runnable.link_plan(str(home), str(home / ".local" / "bin"))
    assert link is None and "left alone" in why
    assert (home / ".local" / "bin" / "sqz").read_text() == "notes, not executable\n"


def test_a_link_to_an_older_sqz_is_repointed(tmp_path, venv_script):
    home = _home(tmp_path)
    old = tmp_path / "old-venv" / "sqz"
    old.parent.mkdir()
    old.write_text(SCRIPT.format(python="/nonexistent/python"))
    old.chmod(0o755)
    link_path = home / ".local" / "bin" / "sqz"
    os.symlink(old, link_path)
    link, _ = runnable.link_plan(str(home), str(home / ".local" / "bin"))
    assert link == str(link_path)
    runnable.make_link(link)
    assert os.readlink(link_path) == venv_script


def test_sqz_bin_set_means_no_link(tmp_path, venv_script, monkeypatch):
    monkeypatch.setenv("SQZ_BIN", "/opt/sqz")
    home = _home(tmp_path)
    assert runnable.link_plan(str(home), str(home / ".local" / "bin"))[0] is None
