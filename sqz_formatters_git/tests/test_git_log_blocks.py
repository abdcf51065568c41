"""``git log`` is read commit block by commit block (``git_log._commit_blocks``: offsets found in the
text, each block split on its own, never one list of every line): the blocks are the lines
``str.splitlines`` gives, whatever the line breaks, and a listing cut inside its last commit is
refused before the commits above it are rendered. Real captures (``fixtures/log``)."""

from __future__ import annotations

import re
from pathlib import Path

from sqz_testing import load_fixture
from sqz_formatters_git.git_log import _commit_blocks, format_commits

HERE = Path(__file__).resolve().parent
SHAS = re.compile(r"^commit ([0-9a-f]{40})", re.M)


def _log(name: str = "w25_sqz_log_stat_15") -> str:
    return load_fixture(HERE / "fixtures" / "log" / f"{name}.json").raw.decode("utf-8")


def test_every_commit_is_a_block_and_every_one_is_rendered():
    text = _log()
    shas = SHAS.findall(text)
    spans = _commit_blocks(text)
    assert len(shas) == 15 and len(spans) == 15
    assert [text[s:e].split("\n", 1)[0] for s, e in spans] == [f"commit {sha}" for sha in shas]
    assert spans[0][0] == 0 and spans[-1][1] == len(text)
    out = format_commits(text)
    assert out is not None and len(out) < len(text)
    assert all(sha[:12] in out for sha in shas)
    assert out.endswith("[commit hash, Author, Date]\n")


def test_line_breaks_are_those_of_splitlines():
    text = _log()
    want = format_commits(text)
    assert format_commits(text.replace("\n", "\r\n")) == want       # CRLF: one break, same listing
    # a commit line after a form feed or a lone CR starts a block too, as splitlines cuts it there
    for brk in ("\x0c", "\r", "\u2028"):
        glued = text.replace("\ncommit ", brk + "commit ", 1)
        assert len(_commit_blocks(glued)) == 15
        assert format_commits(glued) == format_commits("\n".join(glued.splitlines()) + "\n")
    # "commit <sha>" inside a line (a message quoting one) is not a block
    quoted = text.replace("\n\n    ", "\n\n    see commit " + SHAS.findall(text)[3] + "\n    ", 1)
    assert len(_commit_blocks(quoted)) == 15


def test_a_listing_cut_inside_its_last_commit_is_refused():
    text = _log()
    last_stat = text.rindex("files changed")  # the last commit's stat summary line
    cut = text[: text.rindex("\n", 0, last_stat) + 1]  # `| head`: its stat lines without the summary
    assert cut.count("\ncommit ") == 14
    assert format_commits(cut) is None
    # cut at a commit boundary instead: the 14 whole commits are rendered
    whole = text[: text.rindex("\ncommit ") + 1]
    out = format_commits(whole)
    assert out is not None and all(sha[:12] in out for sha in SHAS.findall(whole))
    assert len(SHAS.findall(whole)) == 14
