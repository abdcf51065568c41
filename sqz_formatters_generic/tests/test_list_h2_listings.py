"""Held-out pass #2 on listings and searches (fixtures h2_*, captured by `capture_kinds.sh heldout-h2`
over SQLAlchemy and urllib3): what survives the new readings (a file's rows of one text as one row,
grep's binary-file notices grouped by directory, a match line cut by a stderr notice rejoined,
rg --stats, find -printf) and that shapes they do not fit stay passthrough."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

from sqz_formatters_generic.kinds.grep_matches import compress_grep
from sqz_formatters_generic.kinds.listings import compress_find
from sqz_core.request import FormatRequest
from sqz_testing import grows_linearly, load_fixture, work_done

FIX = Path(__file__).parent / "fixtures" / "kinds"
_MATCH = re.compile(r"^(.+?):(\d+):(.*)$")
_BIN = re.compile(r"^grep: (.+): binary file matches$")


def _fx(kind: str, name: str):
    return load_fixture(FIX / kind / f"{name}.txt")


def _read_grep(out: str) -> tuple[set, list[str]]:
    """(path, line, text) of every match in the numbered rendering, and the binary-file paths."""
    got, binary, path = set(), [], None
    for line in out.rstrip("\n").split("\n"):
        if line.startswith("grep: binary file matches in "):
            d, _, names = line[len("grep: binary file matches in "):].partition("/: ")
            binary.extend(f"{d}/{n}" for n in shlex.split(names))
            continue
        if line.startswith("[") and line.endswith("]"):
            continue
        row = re.match(r"^(\d+(?: \d+)*): (.*)$", line)
        if row and path is not None:
            got.update((path, n, row.group(2)) for n in row.group(1).split(" "))
            continue
        head = re.match(r"^(.+) \(\d+ match(?:es)?\):$", line)
        if head:
            path = head.group(1)
            continue
        shared = re.match(r"^(.*?)\{(.+?)\}: (.*)$", line)      # files whose one match is this same line
        if shared:
            for item in shared.group(2).split(" "):
                name, _, n = item.rpartition(":")
                got.add((shared.group(1) + name, n, shared.group(3)))
            path = None
            continue
        m = _MATCH.match(line)
        assert m, line
        got.add((m.group(1), m.group(2), m.group(3).removeprefix(" ")))
        path = None
    return got, binary


# ---------------------------------------------------------------- grep -rn over a big tree


def test_big_grep_keeps_every_match_and_every_binary_file_once():
    fx = _fx("grep", "h2_grep_rn_head_sqlalchemy")
    out = compress_grep(fx.request())
    assert out is not None and len(out) < len(fx.text) / 2
    got, binary = _read_grep(out)
    # both streams in one pipe: a notice sometimes cut a match line in two; the line's second
    # half comes after the notices that followed it
    lines = fx.text.rstrip("\n").split("\n")
    notices, matches, cuts = [], set(), 0
    for i, line in enumerate(lines):
        at = line.find("grep: ")
        if at > 0:
            cuts += 1
            rest = next(x for x in lines[i + 1:] if not x.startswith("grep: "))
            line, notice = line[:at] + rest, line[at:]
            notices.append(_BIN.match(notice).group(1))
        elif at == 0:
            notices.append(_BIN.match(line).group(1))
            continue
        m = _MATCH.match(line)
        if m and m.group(1).startswith("sqlalchemy/"):      # a line's second half ("l/elements.py:…") is not one
            matches.add((m.group(1), m.group(2), m.group(3).strip()))
    assert cuts == 3
    assert sorted(binary) == sorted(notices) and len(notices) == 51
    assert ("sqlalchemy/sql/elements.py", "2983", "raise NotImplementedError(") in got
    assert matches == got and len(got) == 250
    assert not any(not p.startswith("sqlalchemy/") for p, _, _ in got)


def test_rows_of_one_text_share_a_row_in_line_order():
    fx = _fx("grep", "h2_grep_rn_head_sqlalchemy")
    out = compress_grep(fx.request()).split("\n")
    at = out.index("sqlalchemy/sql/selectable.py (16 matches):")
    assert out[at + 1] == "231 240 247 251 277 296 3429 3439 3454 3513 3522 3541 3673: raise NotImplementedError()"
    assert out[at + 2:at + 5] == ["1595: raise NotImplementedError(", "3792: raise NotImplementedError",
                                  "4572: raise NotImplementedError("]
    # two rows of one text are not worth a shared row
    text = "".join(f"src/mod.py:{n}:x = {n % 2}\n" for n in range(1, 5)) + "src/b.py:1:y\n"
    assert compress_grep(FormatRequest(text, "grep -rn x src")) in (None, "src/mod.py (4 matches):\n"
                                                                   "1: x = 1\n2: x = 0\n3: x = 1\n4: x = 0\n"
                                                                   "src/b.py:1: y\n[5 matching lines in 2 files]\n")


def test_binary_notices_are_grouped_only_when_there_are_several():
    fx = _fx("grep", "h2_grep_rn_binary_matches")
    out = compress_grep(fx.request())
    lines = out.split("\n")
    raw_binary = [m.group(1) for m in map(_BIN.match, fx.text.split("\n")) if m]
    assert len(raw_binary) == 27
    assert sorted(_read_grep(out)[1]) == sorted(raw_binary)
    dirs = {p.rpartition("/")[0] for p in raw_binary}
    assert sum(line.startswith("grep: binary file matches in ") for line in lines) == len(dirs)
    two = "grep: a/x.pyc: binary file matches\ngrep: a/y.pyc: binary file matches\n" + "".join(
        f"src/module_{n}.py:{n}:hit number {n}\n" for n in range(3))
    out = compress_grep(FormatRequest(two, "grep -rn hit ."))
    assert out is None or ("grep: a/x.pyc: binary file matches" in out and "grep: a/y.pyc: binary file matches" in out)


def test_a_cut_line_that_does_not_rejoin_into_a_match_is_not_guessed():
    fx = _fx("grep", "h2_grep_rn_head_sqlalchemy")
    text = fx.text.replace("\nl/elements.py:2983:", "\nl/elements.py-2983-", 1)
    out = compress_grep(FormatRequest(text, fx.command))
    assert out is None or "sqlalchemy/sql/elements.py:2983" not in out


# ---------------------------------------------------------------- rg --stats


def test_rg_stats_keeps_its_block_as_written_and_every_match_under_its_file():
    fx = _fx("grep", "h2_rg_stats_todo")
    out = compress_grep(fx.request())
    assert out is not None and len(out) < len(fx.text)
    block = fx.text.rstrip("\n").split("\n\n")[-1]
    assert out.endswith("\n" + block + "\n")
    assert block.split("\n")[:3] == ["181 matches", "179 matched lines", "70 files contained matches"]
    body = fx.text[:fx.text.rindex("\n\n")]
    path, got = None, []
    for line in out[:out.rindex(block)].rstrip("\n").split("\n"):
        if line == "[179 matching lines in 70 files]":
            continue
        if line.startswith("  "):
            got.append((path, line[2:]))
        elif m := re.match(r"^(.+) \(\d+ matches\):$", line):
            path = m.group(1)
        else:
            p, _, t = line.partition(": ")
            got.append((p, t))
    raw = [(p, t.strip()) for p, _, t in (line.partition(":") for line in body.split("\n"))]
    assert sorted(got) == sorted(raw)


def test_rg_stats_without_its_block_is_left_alone():
    fx = _fx("grep", "h2_rg_stats_todo")
    body = fx.text[:fx.text.rindex("\n\n")] + "\n"
    assert compress_grep(FormatRequest(body, fx.command)) is None


# ---------------------------------------------------------------- find -printf


def _read_printf(out: str) -> tuple[str, set]:
    lines = out.rstrip("\n").split("\n")
    legend, pairs = lines[0], set()
    for line in lines[1:]:
        d, _, rest = line.partition("/: ")
        words = shlex.split(rest)
        pairs.update((words[k], f"{d}/{words[k + 1]}") for k in range(0, len(words), 2))
    return legend, pairs


def test_find_printf_size_path_reads_back_every_pair():
    fx = _fx("find", "h2_find_printf_size")
    out = compress_find(fx.request())
    legend, pairs = _read_printf(out)
    assert legend == "[find -printf, grouped by directory]"
    raw = {tuple(line.split("\t")) for line in fx.text.strip().split("\n")}
    assert pairs == raw and len(raw) == 57


def test_find_printf_with_a_time_says_the_shared_time_once():
    fx = _fx("find", "h2_find_printf_time")
    out = compress_find(fx.request())
    legend, pairs = _read_printf(out)
    assert legend == "[find -printf, grouped by directory; every line had: 2026-12-01 12:58]"
    assert out.count("2026-12-01") == 1
    raw = {(line.split()[2], line.split()[3]) for line in fx.text.strip().split("\n")}
    assert pairs == raw and len(raw) == 74


def test_find_printf_formats_not_ending_with_the_path_stay_passthrough():
    fx = _fx("find", "h2_find_printf_size")
    swapped = "".join(f"{p}\t{s}\n" for s, p in (line.split("\t") for line in fx.text.strip().split("\n")))
    assert compress_find(FormatRequest(swapped, "find sqlalchemy/orm -name '*.py' -printf '%p\\t%s\\n'")) is None
    owner = "".join(f"{line} root\n" for line in fx.text.strip().split("\n"))
    assert compress_find(FormatRequest(owner, "find sqlalchemy/orm -printf '%s\\t%p %u\\n'")) is None
    # a line whose path is not under find's starting point: not the format we read
    odd = fx.text.replace("\tsqlalchemy/orm/sync.py", "\tlib/sync.py", 1)
    assert compress_find(FormatRequest(odd, fx.command)) is None


def test_find_printf_and_grep_rows_are_linear():
    base = _fx("find", "h2_find_printf_size").text.strip().split("\n")
    small, n_small = work_done(compress_find, FormatRequest("\n".join(base * 10) + "\n", "find sqlalchemy -printf '%s\\t%p\\n'"))
    large, n_large = work_done(compress_find, FormatRequest("\n".join(base * 40) + "\n", "find sqlalchemy -printf '%s\\t%p\\n'"))
    assert small is not None and large is not None
    assert grows_linearly(n_small, n_large, 4), (n_small, n_large)
    rows = [f"src/pkg/module.py:{n}:    raise NotImplementedError()" for n in range(1, 2001)]
    notice = [f"grep: src/pkg/__pycache__/m{n}.pyc: binary file matches" for n in range(500)]
    text_s = "\n".join(notice[:125] + rows[:500]) + "\n"
    text_l = "\n".join(notice + rows) + "\n"
    small, n_small = work_done(compress_grep, FormatRequest(text_s, "grep -rn NotImplementedError src"))
    large, n_large = work_done(compress_grep, FormatRequest(text_l, "grep -rn NotImplementedError src"))
    assert small is not None and large is not None
    assert grows_linearly(n_small, n_large, 4), (n_small, n_large)


# ---------------------------------------------------------------- du | sort


def test_du_sorted_by_size_keeps_its_ranking():
    from sqz_formatters_generic.kinds.listings import compress_du

    for name in ("h2_du_ah_sort_tail", "h2_du_sh_sort_rh"):
        fx = _fx("du", name)
        assert compress_du(fx.request()) is None, name      # passthrough: the order is the answer
    # du's own order (children before their directory) grows too: still grouped
    own = "4.0K\td/a\n4.0K\td/b\n8.0K\td/s/c\n12K\td/s\n20K\td\n"
    assert compress_du(FormatRequest(own, "du -ah d")) is not None
    # sorted by path, not by size: grouped as usual
    by_path = "12K\td/s\n4.0K\td/a\n8.0K\td/s/c\n4.0K\td/b\n20K\td\n"
    assert compress_du(FormatRequest(by_path, "du -ah d | sort -k2")) is not None
    assert compress_du(FormatRequest(own, "du -ah d | sort -h")) is None


# ---------------------------------------------------------------- damaged input never crashes

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

_PIECE = st.sampled_from(["grep: ", "a/b.pyc", ": binary file matches", "src/m.py:", "12", ":", "\t", " ",
                          "sqlalchemy/orm/", "x.py", "-", "2026-12-01 12:58", "\n", "1 matches", "", "l/"])


@settings(max_examples=300, deadline=None)
@given(st.lists(st.lists(_PIECE, max_size=8).map("".join), max_size=30),
       st.sampled_from(["grep -rn x src", "rg --stats x src", "grep -rn -C2 x src", "rg -c x src"]))
def test_grep_readings_never_crash_and_never_lengthen(lines, command):
    text = "\n".join(lines) + "\n"
    out = compress_grep(FormatRequest(text, command))
    assert out is None or len(out) < len(text)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.lists(_PIECE, max_size=8).map("".join), max_size=30))
def test_find_printf_never_crashes_and_every_path_stays(lines):
    text = "\n".join(lines) + "\n"
    out = compress_find(FormatRequest(text, "find sqlalchemy/orm src -printf '%s\\t%p\\n'"))
    assert out is None or len(out) < len(text)
    if out is not None:                   # every name is still there (quoted where it has a blank)
        bare = out.replace("'", "")
        for line in text.split("\n"):
            if line:
                assert line.rpartition("/")[2] in bare, line
