"""Agents prefix commands with set-up steps (``cd /repo && pytest``): the output is still the tool's,
and it gets the tool's formatter, exactly as without the prefix."""

import json
from pathlib import Path

import pytest

from sqz_core.pipeline import compress
from sqz_core.request import FormatRequest
from sqz_core.store import Store

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("command, argv", [
    ("cd /repo && git status -sb", ("git", "status", "-sb")),
    ('cd "/my repo" && cd sub && pytest -q', ("pytest", "-q")),
    ("source .venv/bin/activate && python -m pytest -x", ("pytest", "-x")),
    (". venv/bin/activate && cargo test", ("cargo", "test")),
    ("export CI=1; npm test", ("npm", "test")),
    ("pushd src; make", ("make",)),
    # not set-up steps, or nothing after them: judged by the first command as before
    ("cd", ("cd",)),
    ("cd x &&", ("cd", "x")),
    ("cd $HOME && ls", ("cd", "$HOME")),      # a variable: the shell's business, not ours
    ("cd x || exit 1; pytest", ("cd", "x")),
    ("git status && cat f", ("git", "status")),
])
def test_leading_setup_steps_are_skipped(command, argv):
    assert FormatRequest("", command).argv == argv


def test_a_file_read_after_cd_is_file_content():
    assert FormatRequest("", "cd /repo && cat conf.py").is_file_content()
    assert FormatRequest("", "cd /repo; head -n 40 src/app.py").is_file_content()
    assert not FormatRequest("", "cd /repo && git diff").is_file_content()


@pytest.mark.parametrize("fixture", [
    "sqz_formatters_test/tests/fixtures/pytest/red_default",
    "sqz_formatters_git/tests/fixtures/status/long_en",
])
def test_prefixed_command_gets_the_same_rendering(fixture, tmp_path):
    meta = json.loads((ROOT / f"{fixture}.json").read_text())
    raw = (ROOT / f"{fixture}.txt").read_bytes()
    outs = []
    for i, command in enumerate((meta["command"], f"cd /work/repo && {meta['command']}")):
        store = Store.open(str(tmp_path / f"{i}.db"))
        res = compress(raw, command=command, store=store, session="s")
        outs.append((res.outcome, res.plugin, res.output))
        store.close()
    assert outs[0][0] == "compressed" and outs[0][1] is not None
    assert outs[0] == outs[1]
