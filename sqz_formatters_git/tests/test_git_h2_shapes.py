"""Held-out pass #2 shapes on real captures (scripts/capture_fixtures.py ``h2``): porcelain blame,
``diff --stat -p``, ``git grep``, ``git ls-files``, and what the patch renderings keep and drop."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from sqz_core.request import FormatRequest
from sqz_testing import load_fixture, missing_facts
from sqz_formatters_git import git

HERE = Path(__file__).parent


def fixture(name: str):
    return load_fixture(HERE / "fixtures" / f"{name}.json")


def run(fx, command: str | None = None, text: str | None = None):
    req = fx.request()
    return git.sqz_format(request=FormatRequest(req.text if text is None else text, command or fx.command))


# --------------------------------------------------------------------------- blame --porcelain

_HEAD = re.compile(r"^([0-9a-f]{40}) (\d+) (\d+)")


def _porcelain_rows(text: str) -> list[tuple[str, str, str, str]]:
    """(commit, original line, final line, text) of each line of a real porcelain capture."""
    rows = []
    head = None
    for line in text.split("\n"):
        m = _HEAD.match(line)
        if m:
            head = m.groups()
        elif head is not None and (line.startswith("\t") or line == ""):
            rows.append((*head, line[1:]))
            head = None
    return rows


@pytest.mark.parametrize("name", ["blame/porcelain", "blame/h2_blame_porcelain", "blame/h2_blame_line_porcelain"])
def test_git_h2_porcelain_blame_every_line_under_its_commit(name):
    fx = fixture(name)
    raw = fx.request().text
    out = run(fx)
    assert out is not None and missing_facts(out, fx.facts) == []
    rows = _porcelain_rows(raw)
    assert rows
    # read the rendering back: a line not starting with a space names a commit (its full id where it
    # first appears, 12 digits after), a nested ` N) text` / ` N:M) text` line belongs to it
    ids = {sha[:12]: sha for sha, *_ in rows}
    back = []
    commit = None
    for line in out.splitlines():
        if not line.startswith(" "):
            word = line.split(" ", 1)[0]
            if re.fullmatch(r"[0-9a-f]{40}|[0-9a-f]{12}", word):
                commit = ids[word[:12]]
            continue
        m = re.match(r"^ (\d+)(?::(\d+))?\)(?: (.*))?$", line)
        assert m, line
        final, orig, text = m.group(1), m.group(2) or m.group(1), m.group(3) or ""
        back.append((commit, orig, final, text))
    assert back == rows
    # each commit's full id and summary once; its committer lines went (all equal to the author's here)
    heads = [x.split(" ", 1)[0] for x in out.splitlines() if not x.startswith((" ", "summary ", "previous ",
                                                                             "filename ", "boundary"))]
    assert [h for h in heads if len(h) == 40] == list(dict.fromkeys(sha for sha, *_ in rows))
    summaries = [x for x in raw.splitlines() if x.startswith("summary ")]
    assert all(out.count(s) == 1 for s in dict.fromkeys(summaries))
    for key in ("committer-mail ", "committer-time ", "author-mail ", "author-tz "):
        assert key not in out
    assert "committer same" in out


def test_git_h2_line_porcelain_says_each_commit_once():
    fx = fixture("blame/h2_blame_line_porcelain")
    raw, out = fx.request().text, run(fx)
    assert raw.count("\nsummary ") > 30  # --line-porcelain repeats them on every line
    assert out.count("summary ") == len({x for x in raw.splitlines() if x.startswith("summary ")})
    assert len(out) < 0.3 * len(raw)


def test_git_h2_porcelain_refused_when_not_that_shape():
    fx = fixture("blame/h2_blame_porcelain")
    raw = fx.request().text
    lines = raw.split("\n")
    assert run(fx, command="git blame --incremental x.py") is None
    cut = "\n".join(lines[:11]) + "\n"  # the first header block without its line
    assert run(fx, text=cut) is None
    odd = raw.replace("\nsummary ", "\nsubject ", 1)  # a key git never prints
    assert run(fx, text=odd) is None
    assert run(fx, text=raw.replace("\t", "    ", 1)) is None  # a line that lost its tab


# --------------------------------------------------------------------------- diff --stat -p

def test_git_h2_stat_then_patch():
    fx = fixture("diff/h2_range_stat_patch")
    raw, out = fx.request().text, run(fx)
    assert out is not None and missing_facts(out, fx.facts) == []
    summary = next(x for x in raw.splitlines() if "files changed" in x)
    head, _, patch = out.partition("\n\n")
    assert summary in head.splitlines()
    assert patch.startswith("diff --git a/")  # the first file's diff --git line stays (issue 25), its index line goes
    assert "\nindex " not in out
    assert [x for x in out.splitlines() if x.startswith("diff --git ")] == [
        x for x in raw.splitlines() if x.startswith("diff --git ")]
    # the stat alone, the patch alone, and a stat not followed by a patch
    assert run(fx, text=raw.split("\n\n", 1)[0] + "\n") is not None
    assert run(fx, text=raw.replace("\n\ndiff --git", "\n\nnot a diff", 1)) is None


# --------------------------------------------------------------------------- patches: what goes, what stays

def test_git_h2_patch_headers_dropped_informative_lines_kept():
    fx = fixture("diff/h2_cached_mixed")
    raw, out = fx.request().text, run(fx)
    assert out is not None and missing_facts(out, fx.facts) == []
    assert "\nindex " not in "\n" + out
    informative = [x for x in raw.splitlines() if re.match(
        r"^(?:new file mode|deleted file mode|old mode|new mode|similarity index|rename from|rename to|Binary files)", x)]
    assert len(informative) >= 8
    for x in informative:
        assert x in out
    # issue 25: every file's `diff --git` line stays, in git's order
    kept = [x for x in out.splitlines() if x.startswith("diff --git")]
    assert kept == [x for x in raw.splitlines() if x.startswith("diff --git")] and len(kept) >= 7


@pytest.mark.parametrize("name", ["diff/h2_function_context", "diff/h2_u10_core", "diff/h2_multi_default",
                                  "diff/h2_show_merge_cc", "diff/h2_cached_mixed"])
def test_git_h2_folded_context_is_counted_exactly(name):
    fx = fixture(name)
    raw, out = fx.request().text, run(fx)
    assert out is not None and missing_facts(out, fx.facts) == []

    def context(text: str, width: int) -> int:
        n = 0
        inside = False
        for line in text.splitlines():
            if line.startswith("@@"):
                inside = True
                width = len(line) - len(line.lstrip("@")) - 1
            elif line.startswith(("diff ", "commit ", "--- ")):
                inside = False
            elif inside and (line == "" or (len(line) >= width and line[:width].strip() == "")):
                n += 1
        return n

    width = 2 if "--cc" in fx.command else 1
    hidden = sum(int(m.group(1)) for m in re.finditer(r"^\[(\d+) unchanged\]$", out, re.M))
    assert context(raw, width) - context(out, width) == hidden
    if name in ("diff/h2_function_context", "diff/h2_u10_core"):
        assert hidden > 0.6 * context(raw, width)  # -W and -U10 are mostly context


# --------------------------------------------------------------------------- git grep / git ls-files

def test_git_h2_grep_every_match_kept():
    fx = fixture("repo/h2_grep_n")
    raw, out = fx.request().text, run(fx)
    assert out is not None and missing_facts(out, fx.facts) == []
    for line in raw.splitlines():
        path, num, text = line.split(":", 2)
        assert path in out and f"{num}: {text.strip()}" in out
    for cmd in ("git grep -n -p 'def format_'", "git grep -W -n 'def format_'", "git grep --heading -n x",
                "git grep -n -C2 x", "git grep -o x", "git grep --column -n x"):
        assert run(fx, command=cmd) is None, cmd


def test_git_h2_ls_files_every_path_reads_back():
    fx = fixture("repo/h2_ls_files")
    raw, out = fx.request().text, run(fx)
    assert out is not None and missing_facts(out, fx.facts) == []
    back = set()
    for line in out.splitlines():
        d, sep, names = line.partition("/: ")
        if sep:
            back.update(f"{d}/{n}" for n in names.split(" "))
        else:
            back.add(line)
    assert back == set(raw.splitlines())
    for cmd in ("git ls-files -s", "git ls-files --stage", "git ls-files -z", "git ls-files --format=%(path)",
                "git ls-files -t"):
        assert run(fx, command=cmd) is None, cmd
    assert run(fx, text='"a\\tb.txt"\n' + raw) is None  # a name git quoted


# --------------------------------------------------------------------------- remote show

def test_git_h2_remote_show_branches_grouped_by_state():
    fx = fixture("refs/h2_remote_show")
    raw, out = fx.request().text, run(fx)
    assert out is not None and missing_facts(out, fx.facts) == []
    entries = [tuple(x.split(None, 1)) for x in raw.splitlines() if re.match(r"^    \S+ +tracked$", x)]
    assert len(entries) > 30
    back = [(name, state) for x in out.splitlines() if re.match(r"^    [^:]+: ", x)
            for state, names in [x.strip().split(": ", 1)] for name in names.split(" ")]
    assert back == entries
    # every other line kept, its alignment padding cut
    rest = [re.sub(r"(?<=\S) +", " ", x) if x.startswith("    ") else x
            for x in raw.splitlines() if not re.match(r"^    \S+ +tracked$", x)]
    assert [x for x in out.splitlines() if not re.match(r"^    [^:]+: ", x)] == rest
    assert run(fx, text=raw.replace("  HEAD branch: main", "  Unknown thing: main")) is None
    assert run(fx, command="git remote show --verbose origin") is None
