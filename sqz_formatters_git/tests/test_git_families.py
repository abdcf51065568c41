"""Issue 25's git drops on real history: ``git log -p`` / ``git show`` keep every ``diff --git`` header,
every author's e-mail and every hunk's location, and still drop ``index`` lines and git's date layout."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from sqz_core import FormatRequest
from sqz_formatters_git import git
from sqz_testing import load_fixture, missing_facts_by_words

FIXTURES = Path(__file__).parent / "fixtures"


def _run(name: str):
    family, stem = name.split("/")
    fx = load_fixture(FIXTURES / family / f"{stem}.txt")
    return fx, git.sqz_format(request=FormatRequest(fx.text, fx.command, exit_code=0))


@pytest.mark.parametrize("name", ["log/fam_sqz_log_p_3", "diff/fam_sqz_show_8893473"])
def test_patch_headers_emails_and_hunks_survive(name):
    fx, out = _run(name)
    assert out is not None and len(out) < len(fx.text)
    lines = out.splitlines()
    raw = fx.text.splitlines()
    headers = [x for x in raw if x.startswith("diff --git ")]
    assert headers and [x for x in lines if x.startswith("diff --git ")] == headers
    hunks = [x for x in raw if x.startswith("@@ ")]
    assert hunks and [x for x in lines if x.startswith("@@ ")] == hunks
    emails = {m.group(1) for m in re.finditer(r"^Author: .*?(<[^<>]+>)$", fx.text, re.M)}
    assert emails and all(e in out for e in emails)
    # each e-mail is written once, with the first commit of its author
    assert all(out.count(e) == 1 for e in emails)
    # every fact also holds by issue 25's word rule
    assert missing_facts_by_words(out, fx.facts) == []
    # what goes: blob ids and git's own header words
    assert not any(x.startswith("index ") for x in lines)
    assert not any(x.startswith(("Author:", "Date:")) for x in lines)
