"""The team store keeps no command line with a secret: withheld or masked, at least as the SQLite store does.

No server needed: this is the function every PostgreSQL write of a command goes through.
"""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "sqz_core" / "tests"))
from test_secrets import COMMANDS, SAMPLES  # noqa: E402  (documented-format samples, fake values)

from sqz_core.api import withhold_credentials as scrub_command  # noqa: E402 (what PgStore._command runs)


@pytest.mark.parametrize("command,secret,_scrubbed", COMMANDS)
def test_command_with_a_secret_never_kept(command, secret, _scrubbed):
    assert secret not in scrub_command(command)


@pytest.mark.parametrize("name,text,secret", SAMPLES)
def test_secret_shapes_on_a_command_line_never_kept(name, text, secret):
    command = "echo " + text.replace("\n", " ")
    assert secret not in scrub_command(command)


def test_ordinary_command_kept():
    assert scrub_command("git push origin main") == "git push origin main"
    assert scrub_command("pytest -q\x00 -x") == "pytest -q -x"
