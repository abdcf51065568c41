"""Every item keeps its owner: a path its status, a commit its day and author, a tag its message.

The facts in the sidecars are picked from the raw text, so they cannot follow a formatter that
restates a thing in other words (git's long status sections become ``staged:``/``modified:``,
``Sat Mar 2 07:37:00 2024 +0000`` becomes a ``Sat Mar 2 2024 +0000:`` day line over ``07:37:00``). These tests parse the raw
text on their own and read the rendering back, item by item: what a reader would conclude from
the rendering must be what the raw said. Generated inputs (hypothesis) add names with ``, ``,
`` -> ``, spaces and status-looking words.
"""

from __future__ import annotations

import re
from datetime import datetime
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sqz_core.request import FormatRequest
from sqz_testing import load_fixture
from sqz_formatters_git import git
from sqz_formatters_git.git_status import format_status

HERE = Path(__file__).parent


def _fixture(name: str):
    return load_fixture(HERE / "fixtures" / f"{name}.json")


def _run(text: str, command: str):
    return git.sqz_format(request=FormatRequest(text, command, exit_code=0))


def _status(text: str, command: str):
    """The status module's rendering itself (the entry point also drops one that is not shorter)."""
    return format_status(FormatRequest(text, command, exit_code=0))


# --- status: read the rendering back into (group, code, path) ------------------------------------

def _unquote(name: str) -> str:
    if len(name) >= 2 and name[0] == name[-1] == '"':
        return re.sub(r"\\(.)", r"\1", name[1:-1])
    return name


def _split_rename(path: str) -> list[str]:
    """``old -> new`` with either side possibly quoted → [old, new]; a plain path → [path]."""
    m = re.fullmatch(r'("(?:[^"\\]|\\.)*"|[^"]*?) -> ("(?:[^"\\]|\\.)*"|[^"]*)', path)
    if m and (m.group(1).startswith('"') or m.group(2).startswith('"') or path.count(" -> ") == 1):
        return [_unquote(m.group(1)), _unquote(m.group(2))]
    return [_unquote(path)]


_ITEM = re.compile(r'"(?:[^"\\]|\\.)*"|[^ "]+')


def _status_words():
    """Section headers (any covered locale, as printed) → group, and entry labels → code, from the
    status module's tables of git's own catalogues."""
    from sqz_formatters_git.git_status import _table
    from sqz_formatters_git.git_status_l10n import MESSAGES

    sections, labels = {}, {}
    for locale in MESSAGES:
        t = _table(locale)
        sections.update(t["sections"])
        labels.update(dict(t["labels"]))
    return sections, labels


def _read_status(out: str) -> list[tuple]:
    """(group, code, path) of every entry of a rendering: a group's header line (git's own section
    header or ``staged``/``modified``/…, with its count from 4 entries on), then one-space-indented
    lines ``LEAD item item`` (the lead a code, git's label, or nothing for untracked/ignored; items
    apart by a space, a name with a blank in double quotes; a rename ``old -> new`` alone on its line)."""
    sections, labels = _status_words()
    entries, group, count, seen = [], None, None, 0

    def close():
        if count is not None:
            assert count == seen, (group, count, seen)

    for line in out.splitlines():
        if not line.startswith(" "):
            m = re.match(r"^(.*?)(?: \((\d+)\))?(\s*:)$", line)
            header = m and (m.group(1) + m.group(3))
            name = (m.group(1) if m and m.group(1) in ("conflicts", "staged", "modified", "untracked", "ignored")
                    else sections.get(header) if m else None)
            if name is not None:
                close()
                group, count, seen = name, (int(m.group(2)) if m.group(2) else None), 0
            continue
        if group is None:
            continue  # a line of git's own before the groups (a rebase's `   pick …` todo line)
        assert not line.startswith("  "), line
        body = line[1:]
        code = None
        if group not in ("untracked", "ignored"):
            long_label = max((x for x in labels if body.startswith(x + " ")), key=len, default=None)
            if long_label is not None:
                code, body = labels[long_label], body[len(long_label) + 1:]
            else:
                code, _, body = body.partition(" ")
        stripped = re.sub(r'"(?:[^"\\]|\\.)*"', "", body)
        if " -> " in stripped:  # a rename (or an ambiguous arrow git wrote): one item
            parts = _split_rename(body)
            items = [tuple(parts) if len(parts) == 2 else parts[0]]
        else:
            items = [_unquote(x) for x in _ITEM.findall(body)]
            assert " ".join(_ITEM.findall(body)) == body, line
        seen += len(items)
        entries += [(group, code, item) for item in items]
    close()
    return sorted(entries, key=repr)


_NAME = st.text(alphabet="ab M?,->._", min_size=1, max_size=12).filter(
    lambda s: s.strip() == s and s != "" and not s.startswith('"'))
_SHA = "0" * 40


def _v2_line(kind, xy, path, orig=None):
    if kind == "2":
        return f"2 {xy} N... 100644 100644 100644 {_SHA} {_SHA} R100 {path}\t{orig}"
    if kind == "u":
        return f"u {xy} N... 100644 100644 100644 100644 {_SHA} {_SHA} {_SHA} {path}"
    if kind == "?":
        return f"? {path}"
    return f"1 {xy} N... 100644 100644 100644 {_SHA} {_SHA} {path}"


_XY = ["M.", ".M", "MM", "A.", "AM", ".D", "D.", "T."]
_ENTRY = st.one_of(
    st.tuples(st.just("1"), st.sampled_from(_XY), _NAME, st.none()),
    st.tuples(st.just("2"), st.sampled_from(["R.", "RM"]), _NAME, _NAME),
    st.tuples(st.just("u"), st.sampled_from(["UU", "AA", "DU"]), _NAME, st.none()),
    st.tuples(st.just("?"), st.just("??"), _NAME, st.none()),
)


def _expected_v2(entries) -> list[tuple]:
    out = []
    for kind, xy, path, orig in entries:
        name = (orig, path) if kind == "2" else path
        if kind == "?":
            out.append(("untracked", None, path))
        elif kind == "u":
            out.append(("conflicts", xy, path))
        else:
            if xy[0] != ".":
                out.append(("staged", xy[0], name))
            if xy[1] != ".":
                out.append(("modified", xy[1], name))
    return sorted(out, key=repr)


@settings(max_examples=300, deadline=None)
@given(st.lists(_ENTRY, min_size=1, max_size=8))
def test_porcelain_v2_every_path_reads_back_with_its_status(entries):
    text = "# branch.head main\n" + "\n".join(_v2_line(*e) for e in entries) + "\n"
    out = _status(text, "git status --porcelain=v2 --branch")
    assert out is not None  # well-formed v2 lines are always recognised
    assert "# branch.head main" in out
    assert _read_status(out) == _expected_v2(entries)


_LONG_LABEL = {"M": "modified:   ", "A": "new file:   ", "D": "deleted:    ", "T": "typechange: "}


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["staged", "modified", "untracked"]), st.sampled_from("MADT"),
                          st.text(alphabet="ab M?,->._", min_size=1, max_size=12).filter(lambda s: s.strip() != "")),
                min_size=1, max_size=8))
def test_long_status_every_path_reads_back_with_its_status(entries):
    sections = {"staged": ("Changes to be committed:", ['  (use "git restore --staged <file>..." to unstage)']),
                "modified": ("Changes not staged for commit:",
                             ['  (use "git add <file>..." to update what will be committed)']),
                "untracked": ("Untracked files:",
                              ['  (use "git add <file>..." to include in what will be committed)'])}
    lines = ["On branch main", ""]
    expected = []
    for name, (header, hints) in sections.items():
        mine = [(code, path) for group, code, path in entries if group == name]
        if not mine:
            continue
        lines += [header] + hints
        for code, path in mine:
            if name == "untracked":
                lines.append(f"\t{path}")
                expected.append(("untracked", None, path))
            else:
                lines.append(f"\t{_LONG_LABEL[code]}{path}")
                expected.append((name, code, path))
        lines.append("")
    out = _status("\n".join(lines) + "\n", "git status")
    assert out is not None
    assert out.splitlines()[0] == "On branch main"
    assert _read_status(out) == sorted(expected, key=repr)


_DIR_NAME = st.text(alphabet="ab ,:->.", min_size=1, max_size=6).filter(lambda s: s.strip() == s and s != "")
_DIR_PATH = st.lists(st.sampled_from(["src", "src/a b", "docs", "t,x"]), max_size=1).map(lambda d: d[0] + "/" if d else "")


@settings(max_examples=500, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["staged", "modified", "untracked"]), st.sampled_from("MADT"),
                          st.tuples(_DIR_PATH, _DIR_NAME).map("".join)), min_size=4, max_size=14))
def test_long_status_grouped_by_directory_reads_back(entries):
    """Many entries sharing directories: each group written one (code, directory) a line."""
    sections = {"staged": "Changes to be committed:", "modified": "Changes not staged for commit:",
                "untracked": "Untracked files:"}
    lines, expected = ["On branch main", ""], []
    for name, header in sections.items():
        mine = [(code, path) for group, code, path in entries if group == name]
        if mine:
            lines.append(header)
            for code, path in mine:
                lines.append(f"\t{path}" if name == "untracked" else f"\t{_LONG_LABEL[code]}{path}")
                expected.append((name, None if name == "untracked" else code, path))
            lines.append("")
    out = _status("\n".join(lines) + "\n", "git status")
    assert out is not None
    assert _read_status(out) == sorted(expected, key=repr)


def test_a_name_reading_as_an_arrow_next_to_another_is_not_grouped():
    text = ("On branch main\nChanges not staged for commit:\n\tmodified:   src/x\n\tmodified:   src/w w\n"
            "\tmodified:   src/-> k\n\tmodified:   src/z ->\n\tdeleted:    t,x/q\n\n")
    out = _status(text, "git status").splitlines()
    # every path whole (issue 25's word rule), a blank or an arrow in a name quoted as git's short status does
    assert out[1:] == ["Changes not staged for commit (5):", ' modified: src/x "src/w w" "src/-> k" "src/z ->"',
                       " deleted: t,x/q"]


def test_upgrade_status_reads_back_every_path_by_directory():
    """Click 8.1.3 over 8.0.0: the raw long format parsed here, against the grouped rendering."""
    label = {"modified:": "M", "new file:": "A", "deleted:": "D"}
    for name in ("held_upgrade", "held_upgrade_short"):
        fx = _fixture(f"status/{name}")
        text = fx.request().text
        expected, section = [], None
        if name == "held_upgrade":
            for line in text.splitlines():
                headers = {"Changes to be committed:": "staged", "Changes not staged for commit:": "modified",
                           "Untracked files:": "untracked"}
                if line in headers:
                    section = headers[line]
                elif line.startswith("\t") and section == "untracked":
                    expected.append(("untracked", None, line[1:]))
                elif line.startswith("\t"):
                    word, _, path = line[1:].partition(":")
                    expected.append((section, label[word + ":"], path.strip()))
        else:
            for line in text.splitlines():
                xy, path = line[:2], line[3:]
                if xy == "??":
                    expected.append(("untracked", None, path))
                    continue
                if xy[0] != " ":
                    expected.append(("staged", xy[0], path))
                if xy[1] != " ":
                    expected.append(("modified", xy[1], path))
        out = git.sqz_format(request=fx.request())
        assert ("Changes to be committed (30):" if name == "held_upgrade" else "staged (30):") in out.splitlines()
        assert len(expected) == 40 and _read_status(out) == sorted(expected, key=repr), name


def test_status_fixtures_read_back_with_their_status():
    """The demo repository's state, as read from the raw captures (see the sidecars)."""
    state = [("staged", "R", ("docs/usage.md", "docs/USAGE.md")), ("staged", "M", "src/app.py"),
             ("staged", "A", "src/new_module.py"), ("modified", "M", "src/util.py"),
             ("modified", "D", "tests/test_app.py"), ("untracked", None, "build/"), ("untracked", None, "notes.txt")]
    for name in ("long_en", "long_color", "long_de", "long_es", "long_fr", "long_it", "long_pt_PT", "porcelain_v2"):
        fx = _fixture(f"status/{name}")
        assert _read_status(git.sqz_format(request=fx.request())) == sorted(state, key=repr), name
    conflict = sorted([("conflicts", "UU", "README.md"), ("conflicts", "UU", "src/util.py"),
                       ("staged", "A", "feature.txt")], key=repr)
    for name in ("conflict_en", "conflict_de", "conflict_porcelain_v2", "rebase_conflict_en"):
        fx = _fixture(f"status/{name}")
        assert _read_status(git.sqz_format(request=fx.request())) == conflict, name
    fx = _fixture("status/untracked_only")
    assert _read_status(git.sqz_format(request=fx.request())) == sorted(state[:5], key=repr)


def test_a_name_with_a_comma_or_an_arrow_is_quoted_not_split():
    text = ("On branch main\nChanges not staged for commit:\n"
            '  (use "git add <file>..." to update what will be committed)\n'
            "\tmodified:   a, M b.py\n\tdeleted:    x -> y.py\n\tmodified:   plain.py\n")
    out = _run(text, "git status")
    assert out.splitlines()[2:] == [' modified: "a, M b.py" plain.py', ' deleted: "x -> y.py"']


# --- log / show: each commit under its own day, with its author ------------------------------------

_LOGS = ["log/default", "log/color", "log/stat", "log/patch", "log/real_stat", "log/stat_spaces",
         "log/sqz_repo_stat", "log/fuller", "log/graph", "diff/show", "diff/show_stat",
         # held-out shapes: file listings, -p --stat, --summary, merges, a tag
         "log/held_name_status", "log/held_numstat", "log/held_name_only", "log/held_shortstat",
         "log/held_sqz_name_status", "log/held_first_parent_name_status", "log/held_patch_with_stat",
         "log/held_stat_summary", "log/held_stat_all", "log/held_graph_all", "log/held_show_merge",
         "log/held_show_tag"]


def _raw_commits(text: str) -> list[tuple[str, str, str, str]]:
    """(sha12, author name, (date, day, time), subject, <e-mail>) of every commit, from git's own header
    lines: the date as git printed it, and its day and time of day (``Sat Mar 2 2024 +0000``, ``06:30:00``)."""
    commits, cur, width = [], None, 0
    for line in text.splitlines():
        m = re.match(r"^([*|\\/ ]*)commit ([0-9a-f]{40})", line)
        if m:
            width = len(m.group(1))
            cur = {"sha": m.group(2)[:12]}
            commits.append(cur)
            continue
        if cur is None:
            continue
        body = line[width:]
        a = re.match(r"^Author:\s+(.*?) (<[^<>]*>)$", body)
        d = re.match(r"^(?:Author)?Date:\s+(.*)$", body)
        if a:
            cur["author"], cur["email"] = a.group(1), a.group(2)
        elif d and "day" not in cur:
            when = datetime.strptime(d.group(1), "%a %b %d %H:%M:%S %Y %z")
            cur["day"] = (d.group(1), f"{when:%a %b} {when.day} {when:%Y %z}", f"{when:%H:%M:%S}")
        elif "subject" not in cur and "day" in cur and re.match(r"^    \S", body):
            cur["subject"] = body.strip()
    return [(c["sha"], c["author"], c["day"], c.get("subject", ""), c["email"]) for c in commits]


@pytest.mark.parametrize("name", _LOGS)
def test_every_commit_keeps_its_day_and_author(name):
    fx = _fixture(name)
    raw = fx.request().text
    out = git.sqz_format(request=fx.request())
    if out is None:  # no shorter than git's own lines (log/held_numstat): the rendering itself is read
        from sqz_formatters_git.git_log import format_log

        out = format_log(fx.request())
    out = out.splitlines()
    commits = _raw_commits(raw)
    assert commits
    emails: dict = {}
    for sha, author, day, subject, email in commits:
        rows = [i for i, x in enumerate(out) if sha in x]
        assert len(rows) == 1, (sha, out)
        line = out[rows[0]]
        # issue 25: the e-mail comes with the name where that name was last written with another (or none)
        if emails.get(author) == email:
            assert f" {author}: " in line, line
        else:
            assert f" {author} {email}: " in line, line
            emails[author] = email
        assert subject in line, (subject, line)
        date, day, time = day
        if f" {date} " in line:  # issue 25: every word of git's date (weekday, time, zone), as printed
            continue
        # under a day line (every word of the day), the commit line says the time of day
        assert f"{sha} {time} " in line or f") {time} " in line, (sha, time, line)
        days = [x for x in out[:rows[0]] if re.fullmatch(_DAY_LINE, x)]
        assert days and days[-1] == f"{day}:", (sha, day, out)
    # a day line is never also written inline, and every commit line starts with its hash
    day_lines = [x for x in out if re.fullmatch(_DAY_LINE, x)]
    if day_lines:
        assert not any(re.search(r"^[0-9a-f]{12} (?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) ", x) for x in out)


_DAY_LINE = r"(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) [A-Z][a-z]{2} \d{1,2} \d{4} [+-]\d{4}:"


def test_a_subject_looking_like_a_day_line_stays_on_its_commit():
    raw = _fixture("log/default").request().text.replace(
        "    Main: use XDG home", "    2024-03-01:").replace("    Add argv0 helper", "    2024-03-02: x")
    out = _run(raw, "git log").splitlines()
    assert "b876d415e538 06:30:00 Dev Example: 2024-03-01:" in out
    assert "99d72f3387f9 06:42:00 Alice Example <alice@example.org>: 2024-03-02: x" in out  # her first commit: with her e-mail
    assert [x for x in out if re.fullmatch(_DAY_LINE, x)] == ["Sat Mar 2 2024 +0000:", "Fri Mar 1 2024 +0000:"]


# --- line breaks git never printed ---------------------------------------------------------------

@pytest.mark.parametrize("sep", ["\u2028", "\u2029", "\x85", "\x0b"])
def test_text_with_a_line_break_inside_a_line_is_refused(sep):
    """str.splitlines() would cut there: ``Release<LS>v9.9 Fake`` must not become a tag ``v9.9``."""
    text = f"v1.0            Release{sep}v9.9 Fake\nv1.1            Release 1.1\nv1.2            Release{sep}v9.9 Fake\n"
    assert _run(text, "git tag -n") is None
    blame = f"^0850198 (Dev Example   2024-03-01 04:28:00 +0000  1) a{sep}b\n" * 3
    assert _run(blame, "git blame f") is None


# --- diffstat: every path with its count, whatever the grouping ----------------------------------

def _read_stat(lines: list[str]) -> list[tuple[str, str]]:
    """(path, count) pairs back from diffstat lines (`` dir/a.py 3 dir/b.py 1``, a rename or binary file alone)."""
    from test_git_stat_readback import read_stat_line

    out = []
    for line in lines:
        assert line.startswith(" ")
        out += read_stat_line(line[1:])
    return out


_PART = st.text(alphabet="ab ,:.", min_size=1, max_size=5).filter(lambda s: s.strip() == s)
_STAT_PATH = st.lists(_PART, min_size=1, max_size=3).map("/".join)


@settings(max_examples=400, deadline=None)
@given(st.lists(st.tuples(_STAT_PATH, st.one_of(st.integers(0, 999).map(str),
                                                   st.just("Bin 0 -> 512 bytes"))), min_size=1, max_size=8,
                unique_by=lambda e: e[0]))
def test_stat_lines_read_back_every_path_with_its_count(entries):
    from sqz_formatters_git._common import stat_lines

    assert sorted(_read_stat(stat_lines(entries))) == sorted(entries)


def test_stat_paths_stay_whole():
    from sqz_formatters_git._common import stat_lines

    out = stat_lines([("dir/a, b.py", "1"), ("dir/c.py", "1"), ("dir/d 2.py", "1"), ("a/: b", "2"), ("x/{p => q}", "0")])
    assert out == [' "dir/a, b.py" 1 dir/c.py 1 "dir/d 2.py" 1', ' "a/: b" 2', " x/{p => q} 0"]


def test_an_author_name_with_a_colon_is_quoted():
    raw = _fixture("log/default").request().text.replace("Author: Bob Example <", "Author: Bob: Smith <")
    out = _run(raw, "git log").splitlines()
    assert '6177b031ac05 03:09:00 "Bob: Smith" <bob@example.org>: Feature: rename home variable' in out


def test_a_rename_whose_name_holds_a_semicolon_keeps_its_lines_apart():
    text = ("diff --git a/x b b/p; rename to q\nsimilarity index 100%\nrename from x b\nrename to p; rename to q\n"
            "diff --git a/y b/z\nsimilarity index 100%\nrename from y\nrename to z\n")
    from sqz_formatters_git.git_diff import format_patch_lines

    # every file's `diff --git` line stays (issue 25), so no header is joined with "; " any more:
    # each line stays as git wrote it, in order (the entry point then drops a result not shorter)
    assert format_patch_lines(text.splitlines()) == text.splitlines()
    assert _run(text, "git diff HEAD") is None


_BARE = st.text(alphabet="ab,->?M._", min_size=1, max_size=10)  # git quotes a name with a space in this format
_SHORT_XY = ["M ", " M", "MM", "A ", "AM", " D", "D ", "R ", "RM", "UU", "AA", "??"]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(_SHORT_XY), _BARE, _BARE), min_size=1, max_size=8))
def test_short_status_every_path_reads_back_with_its_status(entries):
    lines, expected = ["## main...origin/main [ahead 1]"], []
    for xy, path, orig in entries:
        name = (orig, path) if xy[0] == "R" else path
        lines.append(f"{xy} {orig} -> {path}" if xy[0] == "R" else f"{xy} {path}")
        if xy == "??":
            expected.append(("untracked", None, path))
        elif xy in ("UU", "AA"):
            expected.append(("conflicts", xy, path))
        else:
            if xy[0] != " ":
                expected.append(("staged", xy[0], name))
            if xy[1] != " ":
                expected.append(("modified", xy[1], name))
    out = _status("\n".join(lines) + "\n", "git status -sb")
    assert out is not None
    assert out.splitlines()[0] == "## main...origin/main [ahead 1]"
    assert _read_status(out) == sorted(expected, key=repr)


def test_content_lines_that_look_like_headers_stay_content():
    """``+++ b/x``, ``--- a/x``, ``@@ … @@`` and ``diff --git`` as file text (real ``git diff`` output)."""
    text = ("diff --git a/tricky.txt b/tricky.txt\nindex 2904a03..13fb912 100644\n--- a/tricky.txt\n"
            "+++ b/tricky.txt\n@@ -1,6 +1,8 @@\n line1\n-+++ b/fake\n++++ b/fake2\n --- a/fake\n"
            "-@@ -1,2 +1,2 @@\n-diff --git a/x b/x\n+@@ -9,9 +9,9 @@ moved\n+diff --git a/y b/y\n ctx\n"
            "+++ plus\n+-- minus\n")
    out = _run(text, "git diff")
    assert out is not None
    hunk = text.split("@@ -1,6 +1,8 @@\n", 1)[1]
    assert out.endswith("@@ -1,6 +1,8 @@\n" + hunk)
    assert out.startswith("diff --git a/tricky.txt b/tricky.txt\n--- a/tricky.txt\n+++ b/tricky.txt\n")
