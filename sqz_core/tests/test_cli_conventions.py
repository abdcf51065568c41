"""CLI conventions a person expects (issue 28 item 3): a hint when `sqz compress` reads a terminal,
shell completion scripts. Real processes; the terminal is a real pseudo-terminal."""

import os
import pty
import subprocess
import sys

import pytest

SQZ = [sys.executable, "-m", "sqz_core"]


def test_compress_at_a_terminal_says_it_reads_stdin_then_still_reads():
    master, slave = pty.openpty()
    try:
        proc = subprocess.Popen(SQZ + ["compress", "--cmd", "echo hi"], stdin=slave, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE)
        os.close(slave)
        slave = None
        # what a person pastes, then Ctrl-D at the start of a line (end of input in canonical mode)
        os.write(master, b"pasted output line\n\x04")
        out, err = proc.communicate(timeout=120)
    finally:
        if slave is not None:
            os.close(slave)
        os.close(master)
    lines = err.decode().splitlines()
    hint = [ln for ln in lines if "reading the output to compress from stdin" in ln]
    assert len(hint) == 1, err
    assert 'CMD | sqz compress --cmd "CMD"' in hint[0]
    assert lines[0] == hint[0]  # before anything else: the person sees it while sqz waits
    assert b"pasted output line" in out
    assert proc.returncode == 0


def test_compress_from_a_pipe_prints_no_hint():
    r = subprocess.run(SQZ + ["compress", "--cmd", "echo hi"], input=b"piped line\n", capture_output=True,
                       timeout=120, check=False)
    assert r.returncode == 0
    assert b"piped line" in r.stdout
    assert b"reading the output to compress" not in r.stderr


def _sqz(*args, env=None):
    return subprocess.run(SQZ + list(args), capture_output=True, timeout=120, check=False,
                          env=dict(os.environ, **(env or {})), stdin=subprocess.DEVNULL)


@pytest.mark.parametrize("shell,marker", [("bash", "complete -o default -F _sqz_completion sqz"),
                                          ("zsh", "compdef _sqz_completion sqz"),
                                          ("fish", "complete --command sqz")])
def test_completion_prints_each_shells_script(shell, marker, tmp_path):
    r = _sqz("completion", shell, env={"HOME": str(tmp_path)})
    assert r.returncode == 0, r.stderr
    script = r.stdout.decode()
    assert marker in script and "_SQZ_COMPLETE=complete_" + shell in script
    assert list(tmp_path.iterdir()) == []  # printing writes no rc file


def test_completion_rejects_another_shell():
    r = _sqz("completion", "tcsh")
    assert r.returncode == 2 and b"bash, zsh, fish" in r.stderr


def test_bash_completion_script_completes_verbs_and_options_for_real():
    """The printed script, loaded into a real bash, asks the real `sqz` for completions."""
    script = _sqz("completion", "bash").stdout.decode()
    probe = (script + "\nCOMP_WORDS=(sqz comp); COMP_CWORD=1; _sqz_completion sqz; printf '%s\\n' \"${COMPREPLY[@]}\";"
             "echo ==; COMP_WORDS=(sqz doctor --); COMP_CWORD=2; _sqz_completion sqz; printf '%s\\n' \"${COMPREPLY[@]}\"")
    r = subprocess.run(["bash", "--norc", "--noprofile", "-c", probe], capture_output=True, timeout=120, check=False)
    verbs, _, options = r.stdout.decode().partition("==")
    assert {"compress", "completion", "compact"} <= set(verbs.split()), r
    assert "--json" in options.split() and "--purge-secrets" in options.split(), r


def test_completion_install_writes_the_script_and_the_rc_line(tmp_path):
    r = _sqz("completion", "bash", "--install", env={"HOME": str(tmp_path)})
    assert r.returncode == 0, r.stderr
    installed = tmp_path / ".bash_completions" / "sqz.sh"
    assert "_SQZ_COMPLETE=complete_bash" in installed.read_text()
    assert f"source '{installed}'" in (tmp_path / ".bashrc").read_text()
    assert str(installed).encode() in r.stderr


def test_zsh_and_fish_completion_requests_answer_from_the_real_sqz():
    """What the zsh and fish scripts ask at a Tab press (the env they set), answered by `sqz`."""
    zsh = _sqz(env={"_SQZ_COMPLETE": "complete_zsh", "_TYPER_COMPLETE_ARGS": "sqz comp"})
    assert zsh.returncode == 0 and b'"compress"' in zsh.stdout and b'"completion"' in zsh.stdout, zsh
    fish = _sqz(env={"_SQZ_COMPLETE": "complete_fish", "_TYPER_COMPLETE_ARGS": "sqz compress --no-",
                     "_TYPER_COMPLETE_FISH_ACTION": "get-args"})
    words = [line.split("\t")[0] for line in fish.stdout.decode().splitlines()]
    assert fish.returncode == 0 and {"--no-cache", "--no-abbrev"} <= set(words), fish
