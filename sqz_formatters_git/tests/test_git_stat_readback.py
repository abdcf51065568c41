"""`--stat` renderings read back file by file, each with its change count, under its own commit.

This reads the whole rendering back: every (path, count) of every commit, and nothing else, in the
commit git listed it under (each path whole, issue 25's word rule).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from sqz_core.request import FormatRequest
from sqz_testing import load_fixture
from sqz_formatters_git import git

HERE = Path(__file__).parent
_RAW_STAT = re.compile(r"^ (.+?)\s+\|\s+(Bin .*|\d+)(?: [+-]*)?$")
_SUMMARY = re.compile(r"^ \d+ files? changed")
_MODES = re.compile(r"^ (?:create mode|delete mode|rename|copy|mode change) ")
_BIN = re.compile(r"^(.*?) (Bin \d+ -> \d+ bytes)$")


def _raw(text: str) -> list[list[tuple[str, str]]]:
    commits: list[list] = [[]]
    for line in text.splitlines():
        if line.startswith("commit ") or re.match(r"^[0-9a-f]{7,} ", line):
            commits.append([])
            continue
        m = _RAW_STAT.match(line)
        if m:
            commits[-1].append((m.group(1).rstrip(), m.group(2).rstrip()))
    return [c for c in commits if c]


_ITEM = re.compile(r'"(?:[^"\\]|\\.)*"|[^ "]+')


def _unquote(name: str) -> str:
    if len(name) >= 2 and name[0] == name[-1] == '"':
        return re.sub(r"\\(.)", r"\1", name[1:-1])
    return name


def read_stat_line(body: str) -> list[tuple[str, str]]:
    """(path, count) pairs of one rendered stat line (without its indent): ``a.py 3 "b c.py" 4``, or
    one rename / binary entry as git wrote it (``docs/{a => b} 0``, ``logo.png Bin 0 -> 9 bytes``)."""
    bare = re.sub(r'"(?:[^"\\]|\\.)*"', "", body)
    if "=>" in bare or " Bin " in f" {bare}":
        if " Bin " in body:
            name, _, count = body.partition(" Bin ")
            return [(name, "Bin " + count)]
        name, _, count = body.rpartition(" ")
        return [(name, count)]
    words = _ITEM.findall(body)
    assert " ".join(words) == body and len(words) % 2 == 0, body
    return [(_unquote(words[k]), words[k + 1]) for k in range(0, len(words), 2)]


def _rendered(out: str) -> list[list[tuple[str, str]]]:
    commits: list[list] = [[]]
    for line in out.splitlines():
        if not line.startswith(" "):
            commits.append([])
            continue
        if line.startswith("  ") or _SUMMARY.match(line) or _MODES.match(line):
            continue
        commits[-1].extend(read_stat_line(line[1:]))
    return [c for c in commits if c]


_STAT_FIXTURES = ["log/held_stat_all", "log/held_oneline_stat", "log/held_sqz_oneline_stat",
                  "log/held_show_oneline_stat", "diff/held_stat_major",
                  "log/held_show_merge", "log/held_show_tag", "log/held_stat_summary"]


@pytest.mark.parametrize("name", _STAT_FIXTURES)
def test_stat_fixtures_read_back_file_by_file_with_counts_under_their_commit(name):
    fx = load_fixture(HERE / "fixtures" / f"{name}.json")
    text = fx.request().text
    out = git.sqz_format(request=FormatRequest(text, fx.command, exit_code=0))
    assert out is not None
    raw = _raw(text)
    assert sum(map(len, raw)) >= 15
    assert [sorted(c) for c in _rendered(out)] == [sorted(c) for c in raw]
    # every commit's summary line is kept as git printed it
    assert [l for l in text.splitlines() if _SUMMARY.match(l)] == [l for l in out.splitlines() if _SUMMARY.match(l)]
    # and --summary's create/delete/rename lines, each as git printed it
    assert [l for l in text.splitlines() if _MODES.match(l)] == [l for l in out.splitlines() if _MODES.match(l)]
