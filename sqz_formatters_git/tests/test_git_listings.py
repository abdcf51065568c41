"""File listings (``--name-status``, ``--name-only``, ``--numstat`` in ``log``/``show``/``diff``):
every file reads back from the rendering with its status or counts, under its own commit.

The reader below parses the rendering (`` M docs/a.rst docs/b.rst``, `` docs/a.rst 3 1``)
with no help from the formatter; the raw side is parsed from git's own lines. Real fixtures
(Click's release history, the sqz repository's history), hypothesis-generated names (spaces,
commas, colons, slashes) and damaged inputs (a damaged listing is refused or reads back as the
damaged text says, never as something else).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sqz_core.request import FormatRequest
from sqz_testing import load_fixture
from sqz_formatters_git import git
from sqz_formatters_git._common import compact_listing, group_paths
from sqz_formatters_git.git_log import format_log, format_show

HERE = Path(__file__).parent
_RAW = {
    "--name-status": re.compile(r"^([A-Z]\d*)\t([^\t]+(?:\t[^\t]+)?)$"),
    "--numstat": re.compile(r"^(\d+|-)\t(\d+|-)\t([^\t]+)$"),
}
_ARITY = {"--name-status": 1, "--name-only": 1, "--numstat": 3}


def _run(text: str, command: str):
    return git.sqz_format(request=FormatRequest(text, command, exit_code=0))


def _unquote(name: str) -> str:
    """A name in git's double quotes (git's own, or the rendering's for a name with a blank) read back."""
    if len(name) >= 2 and name[0] == name[-1] == '"':
        return re.sub(r"\\(.)", r"\1", name[1:-1])
    return name


def _raw_entry(line: str, kind: str) -> tuple[str, str, str]:
    if kind == "--name-status":
        m = _RAW[kind].match(line)
        return m.group(1), (m.group(2) if "\t" in m.group(2) else _unquote(m.group(2))), ""
    if kind == "--numstat":
        m = _RAW[kind].match(line)
        return "", m.group(3), f"{m.group(1)} {m.group(2)}"
    return "", _unquote(line), ""


_ITEM = re.compile(r'"(?:[^"\\]|\\.)*"|[^ "]+')


def _read_listing_line(line: str, kind: str) -> list[tuple[str, str, str]]:
    """The (lead, path, tail) entries one rendered line states: `` path 3 1`` (numstat), else
    `` LEAD item item`` with items apart by a space (a name with a blank in double quotes) or a
    rename `` R087 old<TAB>new`` alone."""
    assert line.startswith(" ") and not line.startswith("  "), line
    body = line[1:]
    if kind == "--numstat":
        rest, _, deleted = body.rpartition(" ")
        path, _, added = rest.rpartition(" ")
        return [("", path, f"{added} {deleted}")]
    lead = ""
    if kind == "--name-status":
        lead, _, body = body.partition(" ")
        if "\t" in body:
            return [(lead, body, "")]
    items = _ITEM.findall(body)
    assert " ".join(items) == body, line
    return [(lead, _unquote(x), "") for x in items]


def _read_rendering(out: str, kind: str) -> list[list[tuple[str, str, str]]]:
    """Per commit (each line not starting with a space opens one), the entries its listing states."""
    commits: list[list] = [[]]
    for line in out.splitlines():
        if not line.startswith(" "):
            commits.append([])
        elif not line.startswith("  "):
            commits[-1].extend(_read_listing_line(line, kind))
    return [c for c in commits if c]


def _read_raw(text: str, kind: str) -> list[list[tuple[str, str, str]]]:
    commits: list[list] = [[]]
    oneline = not text.startswith("commit ")
    for line in text.splitlines():
        if line.startswith("commit ") or (oneline and re.match(r"^[0-9a-f]{7,}(?: |$)", line)):
            commits.append([])
        elif line and not line.startswith(("Author:", "Date:", "Merge:", "    ")):
            commits[-1].append(_raw_entry(line, kind))
    return [c for c in commits if c]


_LISTING_FIXTURES = [
    ("log/held_name_status", "--name-status"), ("log/held_sqz_name_status", "--name-status"),
    ("diff/held_name_status_m", "--name-status"), ("log/held_numstat", "--numstat"),
    ("log/held_name_only", "--name-only"), ("log/held_first_parent_name_status", "--name-status"),
    ("log/held_oneline_name_status", "--name-status"), ("log/held_sqz_show_oneline_name_only", "--name-only"),
]


_PASSED_WHOLE = {"log/held_numstat", "log/held_sqz_show_oneline_name_only"}


@pytest.mark.parametrize("name,kind", _LISTING_FIXTURES)
def test_listing_fixtures_read_back_file_by_file_under_their_commit(name, kind):
    fx = load_fixture(HERE / "fixtures" / f"{name}.json")
    text = fx.request().text
    out = _run(text, fx.command)
    if name in _PASSED_WHOLE:
        # every path whole leaves these no shorter in characters than git's own lines: sent as printed
        assert out is None
        out = format_log(FormatRequest(text, fx.command, exit_code=0)) or format_show(
            FormatRequest(text, fx.command, exit_code=0))
    assert out is not None
    raw = _read_raw(text, kind)
    assert sum(map(len, raw)) >= 15
    assert [sorted(c) for c in _read_rendering(out, kind)] == [sorted(c) for c in raw]


def test_name_status_groups_by_status_and_directory_where_git_first_lists_them():
    lines = ["M\tREADME.rst", "M\tdocs/a.rst", "A\tdocs/new.rst", "M\tdocs/b.rst", "R087\tsrc/x.py\tsrc/y.py",
             "D\tsrc/old.py", "A\tdocs/more.rst"]
    # every path whole (issue 25's word rule), the status said once a (status, directory) line
    assert compact_listing(lines, "--name-status") == [
        " M README.rst", " M docs/a.rst docs/b.rst", " A docs/new.rst docs/more.rst", " R087 src/x.py\tsrc/y.py",
        " D src/old.py"]


def test_numstat_keeps_both_counts_and_binary_dashes():
    lines = ["3\t1\tdocs/a.rst", "-\t-\tdocs/logo.png", "10\t0\tsetup.py", "0\t0\tsrc/{a.py => b.py}"]
    assert compact_listing(lines, "--numstat") == [" docs/a.rst 3 1", " docs/logo.png - -", " setup.py 10 0",
                                                   " src/{a.py => b.py} 0 0"]


def test_names_with_blanks_go_in_double_quotes():
    assert group_paths([("", '"docs/user guide.md"'), ("", "docs/faq.md")]) == [' "docs/user guide.md" docs/faq.md']
    assert compact_listing(["docs/user guide.md", "docs/faq.md", "d/a, b.md"], "--name-only") == [
        ' "docs/user guide.md" docs/faq.md', ' "d/a, b.md"']
    assert compact_listing(["M\ta/: b", "M\tx", "M\tsrc/a->b"], "--name-status") == [' M "a/: b"', " M x", ' M "src/a->b"']


def test_patch_with_stat_drops_gits_separator_line_only():
    fx = load_fixture(HERE / "fixtures" / "log/held_patch_with_stat.json")
    text = fx.request().text
    out = _run(text, fx.command)
    assert "---" in text.splitlines() and "---" not in out.splitlines()
    assert " src/click/parser.py 10" in out.splitlines()
    assert " 1 file changed, 5 insertions(+), 5 deletions(-)" in out.splitlines()
    # a message line `---` (indented, as git prints message lines) is message, not a separator
    assert _run(text.replace("    Imported from the click-8.1.7 sdist.", "    ---", 1), fx.command) is not None


def test_log_name_status_drops_header_lines_keeps_message():
    fx = load_fixture(HERE / "fixtures" / "log/held_sqz_name_status.json")
    out = _run(fx.request().text, fx.command)
    assert "Author:" not in out and "Date:" not in out
    assert "d318a25e75ff 06:53:09 Seed 3a859d87 maintainers: tests: unique basenames" in out  # under its day line
    assert " R100 sqz_core/tests/kinds/test_attribution.py\tsqz_core/tests/kinds/test_listing_attribution.py" in out


@pytest.mark.parametrize("command", [
    "git log --name-status -p", "git log --name-only --stat", "git log --numstat --name-status",
    "git log --graph --name-status", "git log -m --name-status", "git show --cc --name-only",
    "git diff --name-status --stat", "git diff -z --name-only",
])
def test_listing_mixed_with_another_shape_is_refused(command):
    fx = load_fixture(HERE / "fixtures" / "log/held_name_status.json")
    assert _run(fx.request().text, command) is None


@pytest.mark.parametrize("name,kind", _LISTING_FIXTURES)
def test_listing_under_the_wrong_option_is_refused(name, kind):
    fx = load_fixture(HERE / "fixtures" / f"{name}.json")
    other = {"--name-status": "--numstat", "--numstat": "--name-status", "--name-only": "--numstat"}[kind]
    assert _run(fx.request().text, fx.command.replace(kind, other)) is None


# --- generated names ------------------------------------------------------------------------------

_PART = st.text(alphabet="ab ,:.", min_size=1, max_size=5).filter(lambda s: s.strip() == s)
_PATH = st.lists(_PART, min_size=1, max_size=3).map("/".join)
_COUNT = st.one_of(st.integers(0, 999).map(str), st.just("-"))


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["M", "A", "D", "T"]), _PATH), min_size=1, max_size=10,
                unique_by=lambda e: e[1]))
def test_generated_name_status_reads_back(entries):
    out = compact_listing([f"{s}\t{p}" for s, p in entries], "--name-status")
    got = [e for line in out for e in _read_listing_line(line, "--name-status")]
    assert sorted(got) == sorted((s, p, "") for s, p in entries)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(_COUNT, _COUNT, _PATH), min_size=1, max_size=10, unique_by=lambda e: e[2]))
def test_generated_numstat_reads_back(entries):
    out = compact_listing([f"{a}\t{d}\t{p}" for a, d, p in entries], "--numstat")
    got = [e for line in out for e in _read_listing_line(line, "--numstat")]
    assert sorted(got) == sorted(("", p, f"{a} {d}") for a, d, p in entries)


@settings(max_examples=300, deadline=None)
@given(st.lists(_PATH, min_size=1, max_size=10, unique=True))
def test_generated_name_only_reads_back(paths):
    out = compact_listing(paths, "--name-only")
    got = [e for line in out for e in _read_listing_line(line, "--name-only")]
    assert sorted(got) == sorted(("", p, "") for p in paths)


# --- damage: refused, or read back as the damaged text says ---------------------------------------

@settings(max_examples=200, deadline=None)
@given(st.data())
def test_damaged_log_listing_is_refused_or_reads_back_as_damaged(data):
    name, kind = data.draw(st.sampled_from(_LISTING_FIXTURES[:2] + _LISTING_FIXTURES[3:]))
    fx = load_fixture(HERE / "fixtures" / f"{name}.json")
    lines = fx.request().text.splitlines()
    listing = [k for k, x in enumerate(lines) if x and not x.startswith(("commit ", "Author:", "Date:", "Merge:", " "))]
    k = data.draw(st.sampled_from(listing))
    how = data.draw(st.sampled_from(["cut", "drop_char", "tab_to_space", "drop_line", "end_here"]))
    line = lines[k]
    if how == "cut":
        lines[k] = line[:data.draw(st.integers(0, max(0, len(line) - 1)))]
    elif how == "drop_char":
        i = data.draw(st.integers(0, len(line) - 1))
        lines[k] = line[:i] + line[i + 1:]
    elif how == "tab_to_space":
        lines[k] = line.replace("\t", " ", 1)
    elif how == "drop_line":
        del lines[k]
    else:
        lines = lines[:k + 1]
    text = "\n".join(lines) + "\n"
    out = _run(text, fx.command)
    if out is None:
        return
    try:
        raw = _read_raw(text, kind)
    except AttributeError:
        pytest.fail("a line git would not write was rendered")
    assert [sorted(c) for c in _read_rendering(out, kind)] == [sorted(c) for c in raw]


@pytest.mark.parametrize("bad", [
    "M docs/a.rst",            # space for a tab
    "R087\tsrc/x.py",          # a rename with one path
    "M\tsrc/x.py\tsrc/y.py",   # two paths without a rename
    "Q\tsrc/x.py",             # no such status
    "M\t",                     # no path
])
def test_name_status_line_git_never_writes_is_refused(bad):
    assert compact_listing(["M\tdocs/a.rst", bad, "M\tdocs/b.rst"], "--name-status") is None


@pytest.mark.parametrize("bad", ["3 1 docs/a.rst", "3\tdocs/a.rst", "x\t1\tdocs/a.rst", "3\t1\t"])
def test_numstat_line_git_never_writes_is_refused(bad):
    assert compact_listing(["3\t1\tdocs/b.rst", bad], "--numstat") is None


# --- --oneline with files -----------------------------------------------------------------------

@pytest.mark.parametrize("name", ["log/held_oneline_name_status", "log/held_oneline_stat", "log/held_sqz_oneline_stat"])
def test_oneline_commit_lines_stay_verbatim_and_in_order(name):
    fx = load_fixture(HERE / "fixtures" / f"{name}.json")
    text = fx.request().text
    out = _run(text, fx.command)
    if out is None:  # (the entry point drops a rendering that is not shorter)
        from sqz_formatters_git.git_log import format_oneline_files

        out = format_oneline_files(text, "--stat")
    heads = [x for x in text.splitlines() if re.match(r"^[0-9a-f]{7} ", x)]
    assert len(heads) >= 3
    assert [x for x in out.splitlines() if not x.startswith(" ")] == heads


@pytest.mark.parametrize("command", [
    "git log --oneline --stat -p", "git log --oneline --graph --stat", "git log --oneline --name-only",
    "git log --oneline --stat --name-status", "git log --oneline --format=%h --stat",
])
def test_oneline_with_another_shape_is_refused(command):
    fx = load_fixture(HERE / "fixtures" / "log/held_oneline_stat.json")
    assert _run(fx.request().text, command) is None


def test_oneline_with_a_line_of_neither_kind_is_refused():
    fx = load_fixture(HERE / "fixtures" / "log/held_oneline_name_status.json")
    lines = fx.request().text.splitlines()
    assert _run("\n".join(lines) + "\n", fx.command) is not None
    for bad in ("Merge: 1234567 89abcde", "", "M docs/x.rst", "    message line"):
        assert _run("\n".join(lines[:5] + [bad] + lines[5:]) + "\n", fx.command) is None, bad


def test_show_oneline_name_only_only_for_one_commit():
    fx = load_fixture(HERE / "fixtures" / "log/held_sqz_show_oneline_name_only.json")
    text = fx.request().text
    out = format_show(FormatRequest(text, fx.command, exit_code=0)).splitlines()
    assert out[0] == text.splitlines()[0]
    assert out[1].startswith(" sqz_formatters_cloud/tests/fixtures/docker/images_no_trunc_upstream.json "
                             "sqz_formatters_cloud/tests/fixtures/docker/images_upstream.json ")
    # several commits: a path line could be a commit line, so the text is left alone
    for command in ("git show --oneline --name-only HEAD HEAD~1", "git show --oneline --name-only HEAD~3..HEAD",
                    "git log --oneline --name-only"):
        assert _run(text, command) is None, command


@given(st.text(alphabet='"\\ a\t', max_size=24))
def test_a_blank_outside_quotes_is_found_as_the_quoted_string_search_reads_it(item):
    """``_bare_blank`` (linear) answers as removing every ``"(?:[^"\\\\]|\\\\.)*"`` match and looking for a
    blank would (that search is quadratic on ``\\"`` repeated)."""
    from sqz_formatters_git._common import _bare_blank

    expected = any(c.isspace() for c in re.sub(r'"(?:[^"\\]|\\.)*"', "", item))
    assert _bare_blank(item) is expected


def test_a_long_run_of_escaped_quotes_is_read_once():
    from sqz_formatters_git._common import _bare_blank

    assert _bare_blank('\\"' * 50_000) is False
    assert _bare_blank('"' + '\\"' * 50_000 + ' ') is True
    assert _bare_blank('"a b""c d"') is False
    assert _bare_blank('"a b" -> "c d"') is True
