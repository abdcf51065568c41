"""The ``runs`` and ``columns`` kinds on their own: what folds, what is kept whole, what is never
touched, and garbled or cut input (passthrough or a faithful rendering, never a crash)."""

from __future__ import annotations

from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sqz_formatters_generic.kinds import compress_kind, detect_kind
from sqz_formatters_generic.kinds.constant_columns import compress_columns, looks_like_columns
from sqz_formatters_generic.kinds.line_runs import compress_runs, looks_like_runs
from sqz_core.request import FormatRequest
from sqz_testing import load_fixture

FIX = Path(__file__).parent / "fixtures"


def _req(text: str, command: str | None = None) -> FormatRequest:
    return FormatRequest(text, command)


def _progress(n: int, fmt: str = "[{i:03d}/{n}] fetched item-{i:03d} in {ms}ms") -> list[str]:
    return [fmt.format(i=i, n=n, ms=10 + (i * 7) % 31) for i in range(1, n + 1)]


# ------------------------------------------------------------------ runs
def test_a_run_keeps_its_first_and_last_line_and_names_what_varied():
    lines = ["starting"] + _progress(30) + ["done: 30 items"]
    out = compress_runs(_req("\n".join(lines) + "\n"))
    ms = [10 + (i * 7) % 31 for i in range(2, 30)]  # the durations of the 28 lines in the middle
    assert out.split("\n") == ["starting", lines[1],
                               f"[sqz: 28 more lines like these: 002–029, item-002–029, in {min(ms)}–{max(ms)}ms]",
                               lines[30], "done: 30 items", ""]


def test_short_runs_stay():
    text = "\n".join(["begin"] + _progress(5) + ["end"])
    assert not looks_like_runs(text)
    assert compress_runs(_req(text)) is None


def test_error_and_warning_lines_are_never_folded_and_split_a_run():
    lines = _progress(20)
    lines[9] = "[010/20] fetch item-010 failed after 3 retries"
    out = compress_runs(_req("\n".join(lines)))
    assert lines[9] in out.split("\n")
    assert lines[8] in out.split("\n") and lines[10] in out.split("\n")  # the runs around it end and start there


def test_data_rows_are_never_folded():
    for sep in ("|", ",", "\t", ";"):
        rows = [f"{i}{sep}paid{sep}{i * 3.5}" for i in range(1, 40)]
        assert compress_runs(_req("\n".join(rows))) is None, sep


def test_lines_without_words_and_exact_repeats_are_not_runs():
    assert compress_runs(_req("\n".join(f"{i} {i * 2}" for i in range(50)))) is None
    assert compress_runs(_req("\n".join(["waiting for lock"] * 20))) is None  # fold_repeats' job


def test_hex_byte_lines_fold_into_one_note():
    hexes = [":".join(f"{(i * 15 + k) % 256:02x}" for k in range(15)) + ":" for i in range(12)]
    text = "Modulus:\n" + "\n".join("    " + h for h in hexes) + "\nExponent: 65537 (0x10001)\n"
    out = compress_runs(_req(text)).split("\n")
    assert out == ["Modulus:", "    " + hexes[0], "    [sqz: 10 more lines of hex bytes like these]",
                   "    " + hexes[-1], "Exponent: 65537 (0x10001)", ""]


def test_safe_content_is_left_to_the_pipeline():
    text = "\n".join(_progress(20)) + "\nTraceback (most recent call last):\n  File \"a.py\", line 3, in <module>\n" \
                                     "    main()\nValueError: bad\n"
    assert compress_runs(_req(text)) is None


def test_text_that_already_holds_our_note_is_left_alone():
    text = "\n".join(_progress(20)) + "\n[sqz: 3 more lines like these]\n"
    assert compress_runs(_req(text)) is None


def test_a_patch_is_never_folded():
    lines = ["--- a/conf.py", "+++ b/conf.py", "@@ -1,3 +1,23 @@", " HEADER = 1"] + [
        f"+ITEM_{i} = {i * 3}  # slot {i}" for i in range(20)] + [" FOOTER = 2"]
    text = "\n".join(lines) + "\n"
    req = _req(text, "diff -u a/conf.py b/conf.py")
    assert detect_kind(text, req) is None
    assert compress_runs(req) is None
    listing = "\n".join(["--- a/x", "+++ b/x", "@@ -1,1 +1,13 @@"] + ["+" + r for r in _listing(12)])
    assert compress_columns(_req(listing)) is None


def test_file_content_read_after_cd_is_never_folded():
    text = "\n".join(_progress(30)) + "\n"
    for command in ("cd /srv/app && cat progress.log", "cd src; head -n 200 log.txt", "pushd x && tail -n 50 y"):
        assert compress_runs(_req(text, command)) is None, command
    assert compress_columns(_req("\n".join(_listing(12)), "cd /srv && cat listing.txt")) is None
    assert compress_runs(_req(text, "cd /srv/app && python3 train.py")) is not None
    assert compress_runs(FormatRequest(text, tool="read_file")) is None


def test_runs_tuning_fixtures():
    fx = load_fixture(FIX / "kinds" / "runs" / "shards_progress.txt")
    out = compress_kind("runs", fx.request())
    assert "[sqz: 38 more lines like these: 002–039, shard-002–039, 9000–9949 rows, in 0.23–1.20s]" in out
    assert "[063/120] shard-063.parquet" not in out


# ------------------------------------------------------------------ columns
def _listing(n: int) -> list[str]:
    return [f"-rw-r--r-- root/root {100 + i * 37:>9} 2026-12-01 10:10 pkg/mod_{i:02d}.py" for i in range(n)]


def test_constant_columns_are_stated_once_and_each_line_keeps_mode_size_and_name():
    lines = _listing(12)
    lines.insert(3, "-rw-r--r-- dev/dev        77 2026-11-30 09:00 pkg/odd.py")
    out = compress_columns(_req("\n".join(lines) + "\n")).split("\n")
    assert out[0] == "[sqz: on each line below not shown whole: field 2 root/root, field 4 2026-12-01, field 5 10:10]"
    assert out[1] == "-rw-r--r-- 100 pkg/mod_00.py"
    assert lines[3] in out  # its owner and date differ: kept whole
    assert out.count("-rw-r--r-- 507 pkg/mod_11.py") == 1


def test_a_table_under_a_header_is_left_to_the_table_kind():
    rows = ["NAME   NAMESPACE   REVISION   STATUS     CHART"] + [
        f"app{i:02d}  default     {i}          deployed   web-1.0.0" for i in range(12)]
    assert compress_columns(_req("\n".join(rows))) is None


def test_tab_separated_lines_are_left_alone():
    rows = [f"app{i:02d}\t  default\t  {i}\t  2016-01-16 00:00:01 +0000 UTC\t  deployed" for i in range(12)]
    assert compress_columns(_req("\n".join(rows))) is None


def test_first_and_last_fields_never_move_out():
    rows = [f"-rw-r--r--  x:y  {i}  same.txt" for i in range(20)]
    out = compress_columns(_req("\n".join(rows)))
    assert out is not None and all(line.startswith("-rw-r--r-- ") and line.endswith(" same.txt")
                                   for line in out.split("\n")[1:])


def test_prose_is_not_columns():
    text = "\n".join(f"line {i} of the story goes on and on" for i in range(30))
    assert not looks_like_columns(text)


def test_detection_order_keeps_existing_kinds():
    ps = load_fixture(FIX / "kinds" / "table" / "ps_aux.txt")
    req = ps.request()
    assert detect_kind(req.text, req) == "table"


# ------------------------------------------------------------------ garbled, cut and random input
_SAMPLES = [load_fixture(FIX / p).text for p in (
    "generic/python_train_progress.txt", "generic/strace_c_python.txt", "generic/openssl_x509_text.txt",
    "generic/tar_tvf_requests.txt", "generic/zipinfo_rich_wheel.txt", "kinds/runs/shards_progress.txt")]


def _check_runs(text: str) -> None:
    out = compress_runs(_req(text))
    if out is None:
        return
    original = text.split("\n")
    pos = 0
    for line in out.split("\n"):
        if line.lstrip().startswith("[sqz: "):
            continue
        pos = original.index(line, pos) + 1  # every other line is an original line, in order


def _reduced_from(line: str, orig: str) -> bool:
    """``line`` is ``orig`` or ``orig``'s fields with some inner ones left out (first and last kept)."""
    if line == orig:
        return True
    got, had = line.split(), orig.split()
    if not got or not had or got[0] != had[0] or got[-1] != had[-1]:
        return False
    it = iter(had)
    return all(f in it for f in got)


def _check_columns(text: str) -> None:
    out = compress_columns(_req(text))
    if out is None:
        return
    original = text.split("\n")
    pos = 0
    for line in out.split("\n"):
        if line.startswith("[sqz: "):
            continue
        while pos < len(original) and not _reduced_from(line, original[pos]):
            pos += 1
        assert pos < len(original), line  # every line comes from an original line, in order
        pos += 1


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(range(len(_SAMPLES))), st.integers(0, 20000), st.integers(0, 20000),
       st.sampled_from(["", "\x00", "\ufffd", "::::", "  ", "\n\n", "[sqz: x]", "9" * 50]))
def test_cut_and_garbled_real_outputs(sample, a, b, junk):
    text = _SAMPLES[sample]
    a, b = sorted((a % (len(text) + 1), b % (len(text) + 1)))
    damaged = text[:a] + junk + text[b:]
    for kind in ("runs", "columns"):
        req = _req(damaged)
        detect_kind(damaged, req)
        compress_kind(kind, req)
    _check_runs(damaged)
    _check_columns(damaged)


@settings(max_examples=80, deadline=None)
@given(st.lists(st.sampled_from(["step 1 loss=0.5", "step 22 loss=0.25", "a|1|2", "00:11:22:33:44",
                                 "  ab:cd:ef:01:23:45:", "ERROR 5 failed", "x  1  y  2  z", "", "   ",
                                 "-rw  r  12  2026-01-01  f", "[sqz: 1 more]", "10", "é 1 ü"]),
                max_size=80))
def test_random_line_mixes(lines):
    text = "\n".join(lines)
    _check_runs(text)
    _check_columns(text)
    looks_like_runs(text)
    looks_like_columns(text)


def test_large_input_is_handled_in_one_pass():
    text = "\n".join(_progress(200_000, "[{i}/{n}] step {i} loss={ms}.5 ok")) + "\n"
    out = compress_runs(_req(text))
    assert out.count("\n") == 3
    listing = "\n".join(_listing(100_000))
    assert compress_columns(_req(listing)).count("\n") == 100_000


@settings(max_examples=150, deadline=None)
@given(st.text(max_size=400))
def test_any_text_at_all(text):
    text = "\n".join([text] * 7)  # long enough to be looked at
    req = _req(text)
    detect_kind(text, req)
    _check_runs(text)
    _check_columns(text)


def test_a_lone_surrogate_does_not_break_the_byte_keys():
    text = "".join(f"\ud800 step {i} of 9\n" for i in range(1, 10))
    out = compress_runs(_req(text))
    assert out.split("\n")[0] == "\ud800 step 1 of 9" and out.split("\n")[2] == "\ud800 step 9 of 9"
