"""Issue 25's word rule on git listings: every word of git's header lines (ids, names, e-mails, each
word of a date, git's own field names) stays somewhere in the compact rendering."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from sqz_core import FormatRequest
from sqz_formatters_git import git
from sqz_formatters_git.git_log import split_date
from sqz_testing import fact_words, iter_fixtures, load_fixture, missing_facts_by_words

FIXTURES = Path(__file__).parent / "fixtures"
WORDS = [fx for fx in iter_fixtures(FIXTURES) if fx.name.startswith("w25_")]


def _out(fx):
    return git.sqz_format(request=fx.request())


def test_the_word_rule_captures_are_there():
    assert {f"{fx.path.parent.name}/{fx.name}" for fx in WORDS} >= {
        "log/w25_sqz_log_40", "log/w25_sqz_log_p_6", "log/w25_sqz_log_stat_15", "diff/w25_sqz_show_stat",
        "diff/w25_sqz_diff_stat_60", "blame/w25_sqz_blame_git_log", "refs/w25_branch_a_vv", "refs/w25_reflog"}


@pytest.mark.parametrize("fx", [f for f in WORDS if f.name != "w25_reflog"], ids=lambda f: f.name)
def test_every_fact_keeps_its_words_and_the_rendering_is_shorter(fx):
    out = _out(fx)
    assert out is not None and len(out) < len(fx.request().text)
    assert missing_facts_by_words(out, fx.facts) == []


@pytest.mark.parametrize("name", ["log/w25_sqz_log_40", "log/w25_sqz_log_p_6", "log/w25_sqz_log_stat_15",
                                  "diff/w25_sqz_show_stat"])
def test_every_word_of_every_header_line_stays(name):
    """Not only the facts picked: each word of every ``commit``/``Author:``/``Date:``/``Merge:`` line."""
    fx = load_fixture(FIXTURES / f"{name}.txt")
    raw = fx.request().text
    out = _out(fx)
    headers = [x for x in raw.splitlines() if re.match(r"^(?:commit [0-9a-f]{40}|(?:Author|Date|Merge):\s)", x)]
    assert headers
    assert missing_facts_by_words(out, headers) == []
    assert out.splitlines()[-1] == "[commit hash, Author, Date]"
    assert not any(x.startswith(("Author:", "Date:", "commit ")) for x in out.splitlines())


def test_a_day_line_says_the_day_in_gits_words_and_each_commit_its_time():
    fx = load_fixture(FIXTURES / "log/w25_sqz_log_40.txt")
    raw = fx.request().text
    out = _out(fx).splitlines()
    dates = re.findall(r"^commit ([0-9a-f]{12}).*?\n(?:.*\n)*?Date:\s+(.+)$", raw, re.M)
    assert len(dates) == 40
    for sha, date in dates:
        day, time = split_date(date)
        at = next(k for k, x in enumerate(out) if x.startswith(sha))
        assert out[at].startswith(f"{sha} {time} ")
        above = [x for x in out[:at] if x.endswith(":") and re.match(r"^[A-Z][a-z]{2} ", x)]
        assert above[-1] == f"{day}:"


@pytest.mark.parametrize("value,expected", [
    ("Sat Mar 2 06:30:00 2024 +0000", ("Sat Mar 2 2024 +0000", "06:30:00")),
    ("2024-03-02 06:30:00 +0000", ("2024-03-02 +0000", "06:30:00")),      # --date=iso
    ("Sat, 2 Mar 2024 06:30:00 +0000", ("Sat, 2 Mar 2024 +0000", "06:30:00")),  # --date=rfc
    ("Sat Mar 2 06:30 2024", ("Sat Mar 2 2024", "06:30")),
])
def test_split_date_keeps_every_word(value, expected):
    assert split_date(value) == expected
    day, time = expected
    assert sorted(fact_words(value)) == sorted(fact_words(day) + fact_words(time))


@pytest.mark.parametrize("value", ["3 days ago", "2024-03-02", "2024-03-02T06:30:00+00:00", "1709361000 +0000",
                                   "Sat Mar 2 06:30:00 2024 +0000 (12:00 local)"])
def test_split_date_leaves_other_forms_whole(value):
    assert split_date(value) is None


def test_a_fuller_commit_date_of_its_own_is_kept():
    fx = load_fixture(FIXTURES / "log/fuller.txt")
    raw = fx.request().text.replace("CommitDate: Sat Mar 2 06:30:00 2024 +0000",
                                    "CommitDate: Sun Mar 3 09:15:00 2024 +0000", 1)
    assert raw != fx.request().text
    out = git.sqz_format(request=FormatRequest(raw, fx.command, exit_code=0))
    assert "[committed Sun Mar 3 09:15:00 2024 +0000]" in out
    assert out.splitlines()[-1] == "[commit hash, Author, AuthorDate, Commit, CommitDate]"


def test_long_status_keeps_every_word_of_its_entries_and_headers():
    fx = load_fixture(FIXTURES / "status/long_en.txt")
    raw = fx.request().text
    out = _out(fx)
    # every entry line (label and whole path) and every section header, by issue 25's word rule
    entries = [x.strip() for x in raw.splitlines() if x.startswith("\t") or x.endswith(":")]
    assert len(entries) == 10 and missing_facts_by_words(out, entries) == []
    assert not any(x.startswith("[") for x in out.splitlines())  # no legend: git's labels are on the page
    # each label said once for the entries it covers
    assert sum(x.count("modified:") for x in out.splitlines()) == 2  # once per section
    # in every locale, git's own words
    de_fx = load_fixture(FIXTURES / "status/long_de.txt")
    de_raw = de_fx.request().text
    de = [x.strip() for x in de_raw.splitlines() if x.startswith("\t") or x.endswith(":")]
    assert missing_facts_by_words(_out(de_fx), de) == []
