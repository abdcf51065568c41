"""Control sequences are removed whole: a cursor save/restore (``tput sc``/``tput rc``: ESC 7, ESC 8) leaves
no stray ``78``, a charset switch (ESC ( B) no ``(B``; the text around them is kept."""

import os
import shutil
import subprocess

from sqz_core.cleanup import strip_ansi, strip_escapes


def tput(*caps: str) -> str:
    """What the real ``tput`` prints for each capability (xterm's terminfo)."""
    tput = shutil.which("tput")
    assert tput, "tput (ncurses-bin) is part of the base system here"
    env = dict(os.environ, TERM="xterm")
    return "".join(subprocess.run([tput, cap], capture_output=True, text=True, env=env, check=True).stdout
                   for cap in caps)


def test_cursor_save_and_restore_go_whole():
    sc, rc = tput("sc"), tput("rc")
    assert sc == "\x1b7" and rc == "\x1b8"
    line = f"Downloading{sc} 42%{rc} 43%{rc} done\n"
    assert strip_ansi(line) == "Downloading 42% 43% done\n"
    assert strip_escapes(line) == "Downloading 42% 43% done\n"


def test_other_escape_shapes_go_whole_and_text_stays():
    text = "a\x1b(Bb\x1b)0c\x1b=d\x1b>e\x1bcf\x1bMg\x1b[1;31mh\x1b[0m\x1b]0;title\x07i"
    assert strip_ansi(text) == "abcdefghi"


def test_a_long_run_of_escapes_is_linear_and_complete():
    text = ("\x1b7x" * 50_000) + "\x1b"
    assert strip_ansi(text) == "x" * 50_000
