"""Tests of the git formatter pack on real captured git output (see scripts/capture_fixtures.py)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from sqz_core.request import FormatRequest
from sqz_testing import assert_snapshot, iter_fixtures, load_fixture, missing_facts
from sqz_formatters_git import git

HERE = Path(__file__).parent
FIXTURES = iter_fixtures(HERE / "fixtures")
NEAR_MISSES = iter_fixtures(HERE / "near_miss")


def fid(fx) -> str:
    return f"{fx.path.parent.name}/{fx.name}"


def run(fx, **overrides):
    return git.sqz_format(request=fx.request(**overrides))


def fixture(name: str):
    return load_fixture(HERE / "fixtures" / f"{name}.json")


# Outputs with nothing worth dropping (already one line per item, or only errors): the
# formatter answers None and the text goes on unchanged to the generic stages.
EXPECTED_NONE = {
    "log/oneline", "log/graph_oneline", "refs/stash_list", "refs/reflog", "refs/branch", "refs/branch_all",
    "refs/tag", "status/short", "status/short_branch", "status/porcelain_v1", "status/conflict_short",
    "ops/add_missing", "ops/checkout_blocked", "ops/checkout_new_branch", "ops/cherry_pick",
    "ops/commit", "ops/rebase_ok", "ops/reset_hard", "ops/reset_mixed", "ops/switch_main",
    "remote_ops/fetch_missing_remote", "remote_ops/pull_diverged", "remote_ops/push_tag_exists",
    "ops/held_apply_fail", "ops/held_rebase_todo_error",
    # held-out pass #2: one line per item already, or a layout the command line chose (--format, --word-diff)
    "diff/h2_cached_name_status", "diff/h2_word_diff", "log/h2_cherry_v", "log/h2_format_body",
    "log/h2_format_short_date", "log/h2_graph_oneline_all", "log/h2_range_diff", "log/h2_shortlog_n",
    "log/h2_shortlog_sne", "refs/h2_reflog_30", "refs/h2_worktree_list",
    "refs/h2_worktree_porcelain",
    # issue 25's word-rule captures: a reflog is one line per move already
    "refs/w25_reflog",
    # one path a line already: every path whole (issue 25) leaves nothing shorter in characters
    "log/held_sqz_show_oneline_name_only", "log/held_numstat",
}
# Lines that must always survive verbatim: failures, conflicts, rejections, hints (a hint only
# goes inside one of git's stock advice blocks, replaced by a marker line naming its commands).
MUST_SURVIVE = re.compile(r"^(?:fatal|error|hint|warning): |^CONFLICT |^ ! \[|^Aborting$|^Automatic merge failed"
                          r"|^Could not apply |^Your branch |^You have unmerged paths")


def test_fixtures_present():
    assert len(FIXTURES) >= 60
    assert len(NEAR_MISSES) >= 8
    assert {fx.path.parent.name for fx in FIXTURES} >= {"status", "diff", "log", "refs", "blame", "remote_ops", "ops"}


@pytest.mark.parametrize("fx", FIXTURES, ids=fid)
def test_facts_survive(fx):
    out = run(fx)
    if fid(fx) in EXPECTED_NONE:
        assert out is None
        return
    assert out is not None, "formatter did not recognise its own fixture"
    assert missing_facts(out, fx.facts) == []


@pytest.mark.parametrize("fx", [f for f in FIXTURES if f.dropped and fid(f) not in EXPECTED_NONE], ids=fid)
def test_dropped_is_dropped(fx):
    out = run(fx)
    kept = [d for d in fx.dropped if d in out]
    assert kept == []


@pytest.mark.parametrize("fx", FIXTURES, ids=fid)
def test_failure_lines_survive_verbatim(fx):
    out = run(fx)
    text = fx.request().text
    if out is None:
        return  # passed through unchanged
    from sqz_formatters_git._advice import stock_block

    lines = text.splitlines()
    advice = set()
    for i in range(len(lines)):
        advice.update(range(i, stock_block(lines, i)))
    # rebase's closing `Could not apply X` repeats `error: could not apply X`, which stays
    repeated = {"C" + x[len("error: c"):] for x in lines if x.startswith("error: could not apply ")}
    needed = [line for k, line in enumerate(lines)
              if MUST_SURVIVE.match(line) and k not in advice and line not in repeated]
    for line in needed:
        assert line in out.splitlines(), line
    if advice:
        assert any(x.startswith("[hints cut: ") for x in out.splitlines())


@pytest.mark.parametrize("fx", [f for f in FIXTURES if fid(f) not in EXPECTED_NONE], ids=fid)
def test_snapshot(fx):
    out = run(fx)
    assert_snapshot(out, HERE / "snapshots" / fx.path.parent.name / f"{fx.name}.expected")


@pytest.mark.parametrize("fx", FIXTURES, ids=fid)
def test_deterministic_and_shorter(fx):
    a, b = run(fx), run(fx)
    assert a == b
    if a is not None:
        assert len(a) < len(fx.request().text)


@pytest.mark.parametrize("name,min_saving", [
    ("blame/real_blame", 0.5), ("diff/real_lexer_u10", 0.25), ("log/default", 0.4), ("log/real_stat", 0.25),
    ("status/long_de", 0.5), ("status/porcelain_v2", 0.5), ("remote_ops/clone", 0.8), ("remote_ops/push", 0.7),
])
def test_big_fixtures_shrink(name, min_saving):
    fx = fixture(name)
    out = run(fx)
    text = fx.request().text
    assert len(out) <= (1 - min_saving) * len(text)


# --------------------------------------------------------------------------- diff exactness

def _patch_lines(text: str) -> list[str]:
    """The -/+ lines and hunk headers, without a file's ``---``/``+++`` header pair (a combined
    diff's pair is dropped where it repeats the ``diff --cc`` line)."""
    lines = text.splitlines()
    header = {k for k in range(len(lines) - 2)
              if lines[k].startswith("--- ") and lines[k + 1].startswith("+++ ") and lines[k + 2].startswith("@@")}
    header |= {k + 1 for k in header}
    # a new (deleted) file's lone `+++ b/P` (`--- a/P`) line after its mode line
    header |= {k for k in range(1, len(lines) - 1)
               if lines[k].startswith(("--- ", "+++ ")) and lines[k + 1].startswith("@@")
               and re.search(r"(?:^|; )(?:new|deleted) file mode \d{6}(?:;|$)", lines[k - 1])}
    # lines of a commit (a mail) before its patch starts are no change lines: git's `---`
    # between a message and its stat (`log -p --stat`, `format-patch`) is one
    before_patch = True
    for k, x in enumerate(lines):
        if re.match(r"^(?:commit [0-9a-f]{40}|From [0-9a-f]{40} |[0-9a-f]{12} )", x):
            before_patch = True
        elif x.startswith(("diff ", "--- ", "@@")):  # (the rendering may drop the `diff --git` line)
            before_patch = False
        if before_patch:
            header.add(k)
    return [x for k, x in enumerate(lines) if x.startswith(("+", "-", "@@")) and k not in header]


@pytest.mark.parametrize("fx", [f for f in FIXTURES if fid(f) not in EXPECTED_NONE
                                and any(x.startswith("@@") for x in f.request().text.splitlines())], ids=fid)
def test_every_change_line_and_hunk_header_kept_in_order(fx):
    out = run(fx)
    assert out is not None
    assert _patch_lines(out) == _patch_lines(fx.request().text)


def test_context_folding_keeps_only_the_line_that_opens_a_changes_block():
    # -U3 on a file with blank lines between functions: the runs are blank lines plus one
    # code line each, too short to fold
    assert " unchanged]" not in run(fixture("diff/worktree"))
    # issue 25: a run of context folds whole, but for the line just above a change that opens the
    # change's block (less indented than it): a big patch paid its recovery line with it
    long = run(fixture("diff/worktree_u12")).splitlines()
    j = long.index("+    return x * 20")
    assert long[j - 3:j + 5] == ["[11 unchanged]", " def f20(x):", "-    return x + 20", "+    return x * 20",
                                 "[18 unchanged]", "-def f25(x):", "+def f25(x, y=0):",  # nothing opens `def f25`
                                 "[12 unchanged]"]  # after the last change: nothing kept
    i = long.index("-    return x + 2")
    assert long[i - 3:i] == ["@@ -1,22 +1,22 @@", "[8 unchanged]", " def f2(x):"]  # its block's opener stays
    real = run(fixture("diff/real_lexer")).splitlines()
    assert sum(1 for x in real if re.fullmatch(r"\[\d+ unchanged\]", x)) >= 5


def test_fold_counts_add_up_to_the_hunk_header():
    """Kept context + folded counts + -/+ lines = both sides of every hunk header, exactly."""
    for name in ("diff/real_lexer", "diff/real_lexer_u10", "diff/worktree_u12", "diff/cached", "log/patch"):
        out = run(fixture(name)).splitlines()
        for a, head in enumerate(out):
            m = re.match(r"@@ -\d+(?:,(\d+))? \+\d+(?:,(\d+))? @@", head)
            if not m:
                continue
            old, new = int(m.group(1) or 1), int(m.group(2) or 1)
            k = a + 1
            while old > 0 or new > 0:
                x = out[k]
                f = re.fullmatch(r"\[(\d+) unchanged\]", x)
                n = int(f.group(1)) if f else 1
                if f or x == "" or x.startswith(" "):
                    old, new = old - n, new - n
                elif x.startswith("-"):
                    old -= 1
                elif x.startswith("+"):
                    new -= 1
                k += 1
            assert (old, new) == (0, 0), (name, head)
            from sqz_formatters_git.git_diff import _EXTENDED

            assert (k == len(out) or out[k].startswith(("@@", "--- ", "diff ", "\\"))
                    or all(_EXTENDED.match(x) for x in out[k].split("; "))
                    or re.match(r"^(?:[0-9a-f]{12} |\[commit hash[],])", out[k]) or re.match(_DAY_LINE, out[k])), (name, head, out[k])


def test_diff_headers_shortened_but_special_headers_kept():
    out = run(fixture("diff/cached"))
    assert not re.search(r"^index ", out, re.M)
    lines = out.splitlines()
    # issue 25: every file's `diff --git` line stays (a plain modification's, a rename's, a binary file's)
    assert "diff --git a/src/app.py b/src/app.py" in lines
    assert "diff --git a/docs/usage.md b/docs/USAGE.md" in lines
    assert "diff --git a/logo.png b/logo.png" in lines
    # mode-only change: its lines stay as git printed them
    assert lines[:3] == ["diff --git a/README.md b/README.md", "old mode 100644", "new mode 100755"]
    # a rename's and a binary file's header lines stay under their `diff --git` line, one a line
    at = lines.index("diff --git a/docs/usage.md b/docs/USAGE.md")
    assert lines[at + 1:at + 4] == ["similarity index 100%", "rename from docs/usage.md", "rename to docs/USAGE.md"]
    at = lines.index("diff --git a/logo.png b/logo.png")
    assert lines[at + 1:at + 3] == ["new file mode 100644", "Binary files /dev/null and b/logo.png differ"]
    assert "deleted file mode 100644" in lines
    # the mode line says which side is /dev/null: the new file's `--- /dev/null`, the deleted one's `+++ /dev/null` go
    k = lines.index("deleted file mode 100644")
    assert lines[k + 1:k + 3] == ["--- a/tests/test_app.py", "@@ -1,5 +0,0 @@"]
    k = lines.index("diff --git a/src/extra.py b/src/extra.py") + 1
    assert lines[k] == "new file mode 100644"
    assert lines[k + 1:k + 3] == ["+++ b/src/extra.py", "@@ -0,0 +1 @@"]
    assert "--- /dev/null" not in lines and "+++ /dev/null" not in lines

def test_combined_diff_keeps_its_diff_cc_line_and_file_pair():
    out = run(fixture("diff/conflict_cc")).splitlines()
    assert out.count("diff --cc README.md") == 1 and out.count("diff --cc src/util.py") == 1
    assert out[1:3] == ["--- a/README.md", "+++ b/README.md"]  # how the pipeline knows a diff
    assert not any(x.startswith("index ") for x in out)


_PATCH_FIXTURES = [fid(f) for f in FIXTURES if any(x.startswith("@@") for x in f.request().text.splitlines())]


@pytest.mark.parametrize("name", _PATCH_FIXTURES)
def test_pipeline_serves_a_patch_as_the_formatter_wrote_it(name, tmp_path):
    """The generic stages after the formatter must see a diff and leave its whitespace and lines alone."""
    from sqz_core.pipeline import compress
    from sqz_core.plugins import load_index
    from sqz_core.store import Store

    fx = fixture(name)
    store = Store.open(str(tmp_path / "db.sqlite"))
    try:
        res = compress(fx.raw, command=fx.command, store=store, session="t", index=load_index())
    finally:
        store.close()
    if res.plugin != "git":  # not worth its recovery line: the patch goes through untouched
        assert res.output.decode() == fx.request().text
        return
    served = [x for x in res.output.decode().splitlines() if not x.startswith("[sqz")]
    assert served == run(fx).splitlines()


# --------------------------------------------------------------------------- status specifics

@pytest.mark.parametrize("loc", ["de", "fr", "es", "it", "pt_PT"])
def test_localized_long_status_groups_match_english(loc):
    en = run(fixture("status/long_en")).splitlines()
    other = run(fixture(f"status/long_{loc}")).splitlines()
    # the same entries in the same groups, under git's headers and labels in the user's language
    assert len(other) == len(en)
    assert [x.rsplit(": ", 1)[-1] for x in other if x.startswith(" ")] == [
        x.rsplit(": ", 1)[-1] for x in en if x.startswith(" ")]
    assert other[:2] != en[:2] and other[2] != en[2]


def test_status_groups_and_counts():
    out = run(fixture("status/long_en")).splitlines()
    # git's section headers and labels, each said once; every path whole (issue 25's word rule)
    assert out[2:] == ["Changes to be committed:", " renamed: docs/usage.md -> docs/USAGE.md", " modified: src/app.py",
                       " new file: src/new_module.py", "Changes not staged for commit:", " modified: src/util.py",
                       " deleted: tests/test_app.py", "Untracked files:", " build/ notes.txt"]
    assert not any("(use " in x for x in out)
    # a count is printed from COUNT_FROM entries on
    from sqz_formatters_git.git_status import COUNT_FROM, format_short

    many = "".join(f"?? f{i}.txt\n" for i in range(COUNT_FROM)) + " M a.py\n"
    assert format_short(many).splitlines() == [
        "modified:", " M a.py", f"untracked ({COUNT_FROM}):", " " + " ".join(f"f{i}.txt" for i in range(COUNT_FROM))]


def test_untracked_not_listed_keeps_its_words_without_the_hint():
    out = run(fixture("status/untracked_only")).splitlines()
    assert "Untracked files not listed" in out
    assert not any("use -u option" in x for x in out)
    assert out[4:7] == [" renamed: docs/usage.md -> docs/USAGE.md", " modified: src/app.py", " new file: src/new_module.py"]


def test_clean_status_says_clean_in_gits_words():
    assert run(fixture("status/clean")).splitlines()[-1] == "nothing to commit, working tree clean"


def test_conflicts_listed_first_with_codes():
    out = run(fixture("status/conflict_en")).splitlines()
    assert "You have unmerged paths." in out
    assert out[3:6] == ["Unmerged paths:", " both modified: README.md", " both modified: src/util.py"]


# --------------------------------------------------------------------------- near misses

@pytest.mark.parametrize("fx", NEAR_MISSES, ids=fid)
def test_real_near_misses_are_refused(fx):
    assert run(fx) is None


def _req(text: str, command: str, exit_code: int | None = 0) -> FormatRequest:
    return FormatRequest(text, command, exit_code=exit_code)


def test_unknown_section_header_refused():
    text = fixture("status/long_en").request().text.replace("Untracked files:", "Files of mystery:")
    assert git.sqz_format(request=_req(text, "git status")) is None


def test_locale_mixture_refused():
    de = fixture("status/long_de").request().text.splitlines()
    en = fixture("status/long_en").request().text.splitlines()
    mixed = "\n".join(de[:6] + en[6:]) + "\n"  # German head, English sections: no single locale fits
    assert git.sqz_format(request=_req(mixed, "git status")) is None


def test_status_text_under_other_verbs_refused():
    text = fixture("status/long_en").request().text
    for cmd in ("git log", "git diff", "git blame x", "git branch", "hg status", "svn status"):
        assert git.sqz_format(request=_req(text, cmd)) is None, cmd


def test_porcelain_text_as_long_status_refused():
    text = fixture("status/porcelain_v1").request().text
    assert git.sqz_format(request=_req(text, "git status")) is None


def test_unknown_status_option_refused():
    text = fixture("status/long_en").request().text
    assert git.sqz_format(request=_req(text, "git status --column")) is None


def test_truncated_diff_refused():
    lines = fixture("diff/worktree").request().text.splitlines()
    cut = "\n".join(lines[:8]) + "\n"  # ends in the middle of a hunk
    assert git.sqz_format(request=_req(cut, "git diff")) is None


def test_gnu_diff_output_under_git_diff_refused():
    text = "--- a.txt\t2024-03-01 10:00:00.000000000 +0000\n+++ b.txt\t2024-03-01 10:00:00.000000000 +0000\n@@ -1 +1 @@\n-a\n+b\n"
    assert git.sqz_format(request=_req(text, "git diff")) is None


def test_custom_log_format_refused_even_if_it_looks_default():
    text = fixture("log/default").request().text
    assert git.sqz_format(request=_req(text, "git log --format=medium")) is not None
    assert git.sqz_format(request=_req(text, "git log --pretty=format:%H")) is None
    assert git.sqz_format(request=_req(text, "git log --raw")) is None
    assert git.sqz_format(request=_req(text, "git log --name-status -p")) is None


def test_log_writes_a_shared_day_once_before_its_commits():
    # issue 25: every word of git's date stays; a day shared by two commits or more is written once
    # (weekday, month, day, year, zone, as git printed them) and each commit line says its time of day
    out = run(fixture("log/default")).splitlines()
    assert out[:2] == ["Sat Mar 2 2024 +0000:", "8f5a7297ad2e 07:37:00 Dev Example <dev@example.org>: Merge branch 'feature'"]
    assert ("Fri Mar 1 2024 +0000:" in out
            and out.index("Fri Mar 1 2024 +0000:") == out.index("5bb0186c4078 08:56:00 Dev Example: Document usage") - 1)
    assert sum(bool(re.match(_DAY_LINE, x)) for x in out) == 2
    assert "Date:" not in "\n".join(out) and not any(re.match(r"^[0-9a-f]{12} (?:Sat|Fri) ", x) for x in out)
    assert out[-1] == "[commit hash, Author, Date]"  # git's header words, once
    # every commit on a day of its own: the whole date stays in each header, no day lines
    patch = run(fixture("log/patch")).splitlines()
    assert "b876d415e538 Sat Mar 2 06:30:00 2024 +0000 Dev Example <dev@example.org>: Main: use XDG home" in patch  # first: with the e-mail
    assert "5bb0186c4078 Fri Mar 1 08:56:00 2024 +0000 Dev Example: Document usage" in patch
    assert not any(re.match(_DAY_LINE, x) for x in patch)
    # a graph keeps the date in each header (a day line would cut the topology)
    graph = run(fixture("log/graph")).splitlines()
    assert ("| * 6177b031ac05 (feature) Sat Mar 2 03:09:00 2024 +0000 Bob Example <bob@example.org>: "
            "Feature: rename home variable") in graph
    # a date in another form (--date=relative etc.) stays where it is
    text = fixture("log/default").request().text.replace("Date:   Sat Mar 2 06:30:00 2024 +0000", "Date:   3 days ago")
    out = git.sqz_format(request=_req(text, "git log")).splitlines()
    assert "b876d415e538 3 days ago Dev Example: Main: use XDG home" in out and "Sat Mar 2 2024 +0000:" not in out


_DAY_LINE = r"^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) [A-Z][a-z]{2} \d{1,2} \d{4} [+-]\d{4}:$"


def test_log_text_with_extra_line_refused():
    text = fixture("log/default").request().text.replace("Date:   ", "Signed: x\nDate:   ", 1)
    assert git.sqz_format(request=_req(text, "git log")) is None


def test_blame_truncated_line_refused():
    text = fixture("blame/util").request().text
    cut = text[: text.index("\n", 100) + 20]
    assert git.sqz_format(request=_req(cut, "git blame src/util.py")) is None


def test_blame_names_a_returning_commit_by_hash_alone():
    out = run(fixture("blame/util")).splitlines()
    headers = [x for x in out if not re.match(r"^ \d+\)", x)]
    assert headers == ["^0850198 (Dev Example 2024-03-01 04:28:00 +0000)",
                       "99d72f33 (Alice Example 2024-03-01 06:42:00 +0000)", "^0850198",
                       "6177b031 (Bob Example 2024-03-02 03:09:00 +0000)", "99d72f33"]
    assert " 1) import os" in out and " 10)     return sys.argv[0]" in out  # numbers unpadded, text exact
    assert sum(1 for x in out if re.match(r"^ \d+\)", x)) == 10


def test_blame_every_line_sits_under_its_commit():
    """Each raw line's commit is the header its rendered line is nested under (one space in)."""
    for name in ("blame/util", "blame/real_blame"):
        fx = fixture(name)
        raw = {}
        for line in fx.request().text.splitlines():
            m = re.match(r"^(\^?[0-9a-f]+) \(.*? +(\d+)\)", line)
            raw[m.group(2)] = m.group(1)
        owner, seen = None, {}
        for line in run(fx).splitlines():
            m = re.match(r"^ (\d+)\)", line)
            if m:
                seen[m.group(1)] = owner
            else:
                owner = line.split()[0]
        assert seen == raw


def test_tag_n_tags_sharing_a_message_share_a_line():
    fx = fixture("refs/tag_n")
    out = run(fx).splitlines()
    assert "v0.0.4, v0.1.0, v0.1.4, v0.2.4: Document usage" in out
    assert "v0.1.1: Release 0.1.1" in out
    assert len(out) == 5
    raw_tags = [x.split()[0] for x in fx.request().text.splitlines()]
    assert sorted(t for x in out for t in x.split(": ", 1)[0].split(", ")) == sorted(raw_tags)
    # a multi-line annotation keeps the one-tag-per-line form
    text = "v1.0            First line\n    second line\nv1.1            First line\n"
    assert git.sqz_format(request=_req(text, "git tag -n2")) == "v1.0: First line\n  second line\nv1.1: First line\n"


def test_remote_with_unknown_line_refused():
    text = fixture("refs/remote_v").request().text + "garbage line\n"
    assert git.sqz_format(request=_req(text, "git remote -v")) is None


def test_branch_creation_is_not_a_listing():
    text = fixture("refs/branch_vv").request().text
    assert git.sqz_format(request=_req(text, "git branch -vv")) is not None
    assert git.sqz_format(request=_req(text, "git branch newname")) is None


def test_other_program_and_file_reads_refused():
    text = fixture("status/long_en").request().text
    assert git.sqz_format(request=_req(text, "cat status.txt")) is None
    assert git.sqz_format(request=FormatRequest(text, "git status", tool="read_file")) is None


def test_commit_with_nothing_to_commit_uses_status():
    out = run(fixture("ops/commit_nothing"))
    assert out.splitlines()[-1] == "nothing to commit, working tree clean"


def test_progress_dropped_and_counted():
    out = run(fixture("remote_ops/push"))
    assert "Writing objects" not in out and "Counting objects" not in out
    assert re.search(r"\[\d+ progress lines dropped\]", out)


def test_errors_kept_when_transfer_fails():
    fx = fixture("remote_ops/pull_conflict")
    out = run(fx)
    for line in fx.request().text.splitlines():
        if line == "Auto-merging src/util.py":
            assert line not in out.splitlines()  # the CONFLICT line names the same path
        elif not re.match(r"^(?:remote: )?(?:Enumerating|Counting|Compressing|Total|Unpacking)", line):
            assert line in out.splitlines(), line


# --------------------------------------------------------------------------- diffstat grouping

_RAW_STAT = re.compile(r"^ (\S.*?)\s+\|\s+(\d+|Bin(?: \d+ -> \d+ bytes)?)(?: [+-]+)?$")
STAT_FIXTURES = ["diff/stat", "diff/cached_stat", "diff/real_stat", "diff/show_stat", "log/stat", "log/real_stat",
                 "log/sqz_repo_stat", "log/stat_spaces"]


@pytest.mark.parametrize("name", STAT_FIXTURES)
def test_every_stat_path_and_count_stays_on_the_page(name):
    """Each file line of the raw diffstat: its whole path and count on one output line (`` a.py 3 b.py 1``,
    a path with a blank quoted), bar graph gone."""
    from sqz_formatters_git._common import quote_item

    fx = fixture(name)
    out = run(fx).splitlines()
    raw = [m.groups() for m in map(_RAW_STAT.match, fx.request().text.splitlines()) if m]
    assert raw
    for path, count in raw:
        item = path if "=>" in path or not count.isdigit() else quote_item(path)
        assert any(re.search(rf"(?:^| ){re.escape(item)} {re.escape(count)}(?: |$)", x) for x in out), path
    assert not any(re.search(r"\| +\d+ [+-]+$", x) for x in out)  # the +/- bar graph is dropped
    summaries = [x for x in fx.request().text.splitlines() if re.match(r"^ \d+ files? changed", x)]
    assert [x for x in out if re.match(r"^ \d+ files? changed", x)] == summaries


def test_every_stat_path_stays_whole_with_its_count():
    out = run(fixture("log/real_stat")).splitlines()
    # issue 25's word rule: a path is one word (grouped under its directory it was lost)
    assert sum(1 for x in out if x.startswith(" pygments/__init__.py ")) == 2  # one per commit
    assert " pygments/formatters/html.py 202 pygments/formatters/terminal.py 2" in out
    assert not any(x.startswith(" pygments/: ") for x in out)


def test_stat_lines_keep_git_path_forms():
    from sqz_formatters_git._common import stat_lines

    # one directory a line, a name with a blank quoted; a binary file alone, as git wrote it
    assert stat_lines([("a/x y.txt", "3"), ("a/logo.png", "Bin 0 -> 12 bytes"), ("a/z.py", "4")]) == [
        ' "a/x y.txt" 3 a/z.py 4', " a/logo.png Bin 0 -> 12 bytes"]
    # renames and paths git cut to `.../name`, as git wrote them, in git's order
    assert stat_lines([("README.md", "1"), ("docs/{a.md => b.md}", "0"), ('"d/caf\\303\\251.md"', "1"),
                       (".../a.py", "1")]) == [" README.md 1 .../a.py 1", " docs/{a.md => b.md} 0",
                                              ' "d/caf\\303\\251.md" 1']


# --------------------------------------------------------------------------- stock advice

def test_stock_conflict_advice_becomes_one_line_with_its_commands():
    out = run(fixture("ops/rebase_conflict")).splitlines()
    assert not any(x.startswith("hint: ") for x in out)
    assert "[hints cut: git rebase --continue; git rebase --skip; git rebase --abort]" in out
    assert not any("git add/rm" in x for x in out)  # the template command goes with its hint
    assert "error: could not apply b7861da... Feature: rename home variable" in out
    # the closing line said it again, in the same words
    assert "Could not apply b7861da... Feature: rename home variable" not in out
    assert "CONFLICT (content): Merge conflict in src/util.py" in out
    assert "Auto-merging src/util.py" not in out  # the CONFLICT line names it


def test_unknown_hints_and_clean_auto_merges_are_kept():
    text = ("Auto-merging src/a.py\nAuto-merging src/b.py\nCONFLICT (content): Merge conflict in src/b.py\n"
            "hint: Waiting for your editor to close the file...\nhint: something only this repo says\n"
            "Automatic merge failed; fix conflicts and then commit the result.\n")
    out = git.sqz_format(request=_req(text, "git merge topic", exit_code=1))
    assert out is not None
    lines = out.splitlines()
    assert "Auto-merging src/a.py" in lines and "Auto-merging src/b.py" not in lines
    assert "hint: Waiting for your editor to close the file..." in lines
    assert "hint: something only this repo says" in lines


def test_stock_advice_with_other_wording_is_kept():
    """A block that starts like git's stock advice but says more (or another version's words) stays."""
    lines = fixture("ops/rebase_conflict").request().text.splitlines()
    k = next(i for i, x in enumerate(lines) if x.startswith("hint: To abort"))
    changed = lines[:k + 1] + ["hint: Disable this message with \"git config advice.mergeConflict false\""] + lines[k + 1:]
    out = git.sqz_format(request=_req("\n".join(changed) + "\n", "git rebase main", exit_code=1))
    assert out is not None  # still shorter: Auto-merging of a conflicted path goes
    assert "[hints cut" not in out
    assert all(x in out.splitlines() for x in changed if x.startswith("hint: "))


def test_rejected_push_keeps_ref_error_and_cause():
    out = run(fixture("remote_ops/push_rejected")).splitlines()
    assert " ! [rejected]        main -> main (fetch first)" in out
    assert "error: failed to push some refs to 'file:///tmp/sqz-capture/git/origin.git'" in out
    assert out[-1] == "[hints cut: git pull ...]"  # the `git push --help` pointer goes with its hint
    # the error line names the remote: its `To URL` header goes
    assert "To file:///tmp/sqz-capture/git/origin.git" not in out


def test_push_to_url_stays_when_the_error_names_another_or_several_pushed():
    from sqz_formatters_git.git_remote_ops import drop_repeated_remote

    err = "error: failed to push some refs to '/r/a.git'"
    assert drop_repeated_remote(["To /r/a.git", " ! [rejected] main -> main", err]) == [
        " ! [rejected] main -> main", err]
    assert drop_repeated_remote(["To /r/b.git", " ! [rejected] main -> main", err])[0] == "To /r/b.git"
    two = ["To /r/a.git", " ! [rejected] main -> main", "To /r/c.git", "   1..2  main -> main", err]
    assert drop_repeated_remote(two) == two


def test_could_not_apply_stays_unless_the_error_line_says_it():
    from sqz_formatters_git._advice import drop_repeated_could_not_apply

    assert drop_repeated_could_not_apply(["error: could not apply 1a2b... x", "Could not apply 1a2b... x"]) == [
        "error: could not apply 1a2b... x"]
    assert drop_repeated_could_not_apply(["error: could not apply 1a2b... x", "Could not apply 3c4d... y"]) == [
        "error: could not apply 1a2b... x", "Could not apply 3c4d... y"]
    assert drop_repeated_could_not_apply(["Could not apply 1a2b... x"]) == ["Could not apply 1a2b... x"]


# --------------------------------------------------------------------------- recovery through the pipeline

@pytest.mark.parametrize("name", ["log/sqz_repo_stat", "diff/real_lexer_u10", "ops/rebase_conflict",
                                  "remote_ops/push_rejected", "blame/real_blame"])
def test_lossy_git_results_expand_to_the_exact_bytes(name, tmp_path):
    from sqz_core.expand import resolve
    from sqz_core.pipeline import compress
    from sqz_core.plugins import load_index
    from sqz_core.store import Store

    fx = fixture(name)
    store = Store.open(str(tmp_path / "db.sqlite"))
    try:
        res = compress(fx.raw, command=fx.command, store=store, session="t", index=load_index())
        assert res.plugin == "git", (res.outcome, res.plugin)
        ref = re.search(r"sqz expand (n[0-9]{15,})", res.output.decode())
        assert ref, res.output[-300:]
        assert resolve(store, ref.group(1)) == fx.raw
    finally:
        store.close()


# --------------------------------------------------------------------------- format-patch

def test_format_patch_keeps_mail_header_and_every_change_drops_index_and_bar():
    fx = fixture("diff/held_format_patch")
    text = fx.request().text
    out = run(fx).splitlines()
    head = text.splitlines()[:text.splitlines().index("---") + 1]
    assert out[:len(head)] == head  # From <sha>, From:, Date:, Subject:, message, ---: verbatim
    assert " src/click/utils.py 102" in out and " 1 file changed, 73 insertions(+), 29 deletions(-)" in out
    assert not any(x.startswith("index ") or x.endswith("-------") for x in out)
    assert out[-2:] == ["-- ", "2.39.5"]
    assert _patch_lines("\n".join(out)) == _patch_lines(text)


@pytest.mark.parametrize("cut", ["no_stdout", "before_signature", "mid_hunk", "no_separator", "stat_line"])
def test_format_patch_damaged_or_other_shape_refused(cut):
    fx = fixture("diff/held_format_patch")
    text, command = fx.request().text, fx.command
    lines = text.splitlines()
    if cut == "no_stdout":
        command = command.replace("--stdout ", "")
    elif cut == "before_signature":
        lines = lines[:lines.index("-- ")]
    elif cut == "mid_hunk":
        lines = lines[:40]
    elif cut == "no_separator":
        lines.remove("---")
    else:
        lines[lines.index("---") + 1] = " src/click/utils.py | 102 +++++ garbled"
    assert git.sqz_format(request=_req("\n".join(lines) + "\n", command)) is None


# --------------------------------------------------------------------------- stash show, show of a tag

def test_stash_show_is_read_as_a_diff_other_stash_verbs_are_not():
    stat, patch = fixture("diff/held_stash_show"), fixture("diff/held_stash_show_p")
    assert run(stat).splitlines() == [" src/click/termui.py 2 src/click/utils.py 2",
                                      " 2 files changed, 2 insertions(+), 2 deletions(-)"]
    out = run(patch)
    assert _patch_lines(out) == _patch_lines(patch.request().text) and "index " not in out
    assert git.sqz_format(request=_req(patch.request().text, "git stash show -p stash@{0}")) == out
    for command in ("git stash list", "git stash push", "git stash show -u", "git stash show -p --stat", "git stash"):
        assert git.sqz_format(request=_req(patch.request().text, command)) is None, command


def test_show_of_an_annotated_tag_keeps_the_tag_block_and_compacts_its_commit():
    fx = fixture("log/held_show_tag")
    text = fx.request().text.splitlines()
    out = run(fx).splitlines()
    start = next(k for k, x in enumerate(text) if x.startswith("commit "))
    assert out[:start] == text[:start]  # tag, Tagger (with its email), Date, message: verbatim
    assert out[start] == "0ca26f201605 Thu Mar 14 00:24:00 2024 +0000 Dev Example <dev@example.org>: Release Click 8.1.7"
    # a tag whose header is not git's, or that points at no commit: refused
    no_tagger = "\n".join(text[:1] + text[2:]) + "\n"
    assert git.sqz_format(request=_req(no_tagger, fx.command)) is None
    blob_tag = "\n".join(text[:start]) + "\nsome blob text\n"
    assert git.sqz_format(request=_req(blob_tag, fx.command)) is None


# --------------------------------------------------------------------------- bisect

def test_bisect_keeps_its_own_lines_and_compacts_the_first_bad_commit():
    fx = fixture("ops/held_bisect_run")
    text = fx.request().text.splitlines()
    out = run(fx).splitlines()
    k = next(i for i, x in enumerate(text) if x.endswith(" is the first bad commit"))
    assert out[:k + 1] == text[:k + 1]  # running …, Bisecting: …, [sha] subject, <sha> is the first bad commit
    assert out[k + 1] == "9dffd9144dd3 Wed Mar 13 18:42:00 2024 +0000 Alice Example <alice@example.org>: Release Click 8.0.0"
    assert out[-1] == "bisect found first bad commit"
    assert not any(x.startswith(("Author:", "Date:")) for x in out)


@pytest.mark.parametrize("damage", ["still_bisecting", "other_sha", "no_commit_line", "cut_stat"])
def test_bisect_without_a_clean_first_bad_commit_is_refused(damage):
    fx = fixture("ops/held_bisect_run")
    lines = fx.request().text.splitlines()
    k = next(i for i, x in enumerate(lines) if x.endswith(" is the first bad commit"))
    if damage == "still_bisecting":
        lines = lines[:k]
    elif damage == "other_sha":
        lines[k] = "0" * 40 + " is the first bad commit"
    elif damage == "no_commit_line":
        del lines[k + 1]
    else:
        lines = [x for x in lines if " files changed, " not in x]
    assert git.sqz_format(request=_req("\n".join(lines) + "\n", fx.command)) is None


def test_am_resolution_lines_cut_only_in_gits_own_words():
    fx = fixture("ops/held_am_fail")
    text = fx.request().text
    out = run(fx).splitlines()
    assert "[hints cut: git am --continue; git am --skip; git am --abort]" in out
    assert not any(x.startswith(("When you have resolved", "If you prefer", "To restore")) for x in out)
    assert "hint: Use 'git am --show-current-patch=diff' to see the failed patch" in out  # a one-line hint stays
    reworded = text.replace("If you prefer to skip this patch", "If you want to skip this patch")
    assert git.sqz_format(request=_req(reworded, fx.command, 128)) is None
    cut = "\n".join(text.splitlines()[:-1]) + "\n"  # the block's last line missing
    assert git.sqz_format(request=_req(cut, fx.command, 128)) is None


def test_log_stat_summary_keeps_every_mode_and_rename_line_verbatim():
    fx = fixture("log/held_stat_summary")
    text = fx.request().text
    out = run(fx).splitlines()
    summary = [x for x in text.splitlines() if re.match(r"^ (create|delete|rename|mode change) ", x)]
    assert len(summary) >= 20 and [x for x in out if x in summary] == summary
    assert git.sqz_format(request=_req(text, "git log --summary -n 2")) is None  # no --stat: not this shape
