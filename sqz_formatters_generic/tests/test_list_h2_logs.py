"""Held-out pass #2 on logs (h2_* fixtures from servers run here under load: nginx, PostgreSQL, Redis,
a threaded urllib3 app, the syslog they wrote to): Redis's own line format is read as a log, thread
names (``[sync_3]``) do not split a template, whole numbers in a fold note are listed exactly, and
error lines whose numbers differ are never folded (nginx's error log stays as it is)."""

from __future__ import annotations

import re
from pathlib import Path

from sqz_formatters_generic.kinds import compress_kind, detect_kind
from sqz_formatters_generic.kinds.log_lines import _int_ranges, _varied
from sqz_core.request import FormatRequest
from sqz_testing import grows_linearly, load_fixture, work_done

from test_logs_heldout import rebuild_severe_folds

FIX = Path(__file__).parent / "fixtures" / "kinds" / "log"
_FAILED = re.compile(r'"[A-Z]+ \S+ HTTP/[\d.]+" [45]\d\d\b')


def _out(name: str) -> tuple[str, str | None]:
    fx = load_fixture(FIX / f"{name}.txt")
    req = fx.request()
    assert detect_kind(req.text, req) == "log"
    return fx.text, compress_kind("log", req)


def test_redis_log_is_a_log_its_warning_and_lifecycle_kept_connections_folded():
    raw, out = _out("h2_redis_verbose")
    assert len(out) < len(raw) / 5
    kept = out.split("\n")
    for line in raw.split("\n"):
        if " # " in line:                       # Redis's warning level: start, warning, shutdown
            assert line in kept
    assert raw.count(" - Accepted 127.0.0.1:") == 95
    assert out.count(" - Accepted 127.0.0.1:") == 1
    note = kept[kept.index(next(x for x in kept if " - Accepted 127.0.0.1:" in x)) + 1]
    assert note == ("[×95 lines like the one above, 94 of them further down, not shown, "
                    "01 Dec 2026 12:58:59.323 … 01 Dec 2026 12:59:09.381, 95 of 39800–53946]")   # the client ports: how many, their span


def test_thread_names_do_not_split_a_template_and_orders_are_listed_exactly():
    raw, out = _out("h2_python_urllib3_threads")
    synced = [line for line in raw.split("\n") if line.endswith(" synced")]
    assert len(synced) == 39 and len({line.split("[")[1].split("]")[0] for line in synced}) == 4
    lines = out.split("\n")
    first = lines.index(synced[0])
    assert lines[first + 1].startswith("[×39 lines like the one above, 38 of them further down, not shown, ")
    # threads sync_0..3 by their whole names (a reader quotes ``sync_2``), every order but 13
    assert lines[first + 1].endswith(", sync_1|sync_2|sync_3|sync_0, 1–12 14–40]")
    assert sum(line.endswith(" synced") for line in lines) == 1
    # the failure and the exception chain stay whole
    for line in raw.split("\n"):
        if " ERROR " in line or _FAILED.search(line) or line.startswith(("Traceback", "  File ", "urllib3.", "requests.")):
            assert line in lines, line


def test_error_lines_whose_numbers_differ_fold_with_every_value_listed():
    raw, out = _out("h2_nginx_error")
    assert len(out) < len(raw) / 2
    kept = out.split("\n")
    refused = [line for line in raw.split("\n") if "(111: Connection refused)" in line]
    assert len(refused) == 40
    at = kept.index(refused[0])
    note = kept[at + 1]
    # the connection failures' own repeats pin no context of theirs: all but the first and two kept by
    # their neighbours' context fold (the next error of another kind pins its two lines before)
    assert note.startswith("[×38 lines like the one above; the other 37, in order")
    # connection ids listed one by one, the worker pid once (nginx writes it twice: 1953#1953)
    assert "value 3: as value 2; value 4: *1403 | *1410 | *1419 | *1425 | *1439 | " in note and "value 1:" not in note
    assert sum("(111: Connection refused)" in line for line in kept) == 3   # the first, others' context
    for name in ("h2_nginx_error", "h2_syslog_servers"):
        raw, out = _out(name)
        kept = set(out.split("\n"))
        rebuilt = set(rebuild_severe_folds(out))
        assert len(rebuilt) == 52 and rebuilt <= set(raw.split("\n")), name   # 50 before repeats pinned no context
        errors = [line for line in raw.split("\n") if "[error]" in line or "ERROR:" in line]
        assert errors and all(line in kept or line in rebuilt for line in errors), name
        # a different request, file or upstream is a different line: each is shown itself
        for line in errors:
            if "/wp-login.php" in line or "/.env" in line or "app-99.css" in line or "(110: " in line:
                assert line in kept, line


def test_every_failed_request_of_the_nginx_access_log_is_kept():
    raw, out = _out("h2_nginx_access")
    failed = [line for line in raw.split("\n") if _FAILED.search(line)]
    assert len(failed) == 92             # 40 × 502, 24 × 500, 16 × 403, 8 + 3 × 404, 1 × 504
    kept = out.split("\n")
    # each distinct failing request is shown; only exact repeats (timestamps aside) fold into it
    stamp = re.compile(r"\[\d\d/\w{3}/\d{4}:\d\d:\d\d:\d\d [+-]\d{4}\]")
    kept_text = {stamp.sub("@", line) for line in kept}
    assert all(stamp.sub("@", line) in kept_text for line in failed)
    # every failed line, its second included, is there; only byte-for-byte repeats fold, counted
    assert set(failed) <= set(kept) and len(set(failed)) == 12
    at = kept.index('127.0.0.1 - - [01/Dec/2026:12:58:26 +0000] "GET /api/health HTTP/1.1" 502 157 "-" "Python-urllib/3.11"')
    assert kept[at + 1] == "[×40 lines like the one above, 38 of them further down, not shown, 01/Dec/2026:12:58:26 +0000]"
    assert len(out) < len(raw) / 40


def test_postgres_errors_and_slow_statements_survive_with_the_deadlock_report():
    raw, out = _out("h2_postgres_slow_deadlock")
    kept = out.split("\n")
    for i, line in enumerate(raw.split("\n")):
        if re.search(r" (?:ERROR|DETAIL|STATEMENT|HINT|CONTEXT):  ", line) or line.startswith("\tProcess "):
            assert line in kept, line
    assert "duration: 5841.826 ms  statement: SELECT count(*)" in out


def test_whole_numbers_are_listed_exactly_as_runs_else_counted():
    assert _int_ranges(["1", "2", "3", "5", "7", "8"]) == "1–3 5 7 8"
    assert _int_ranges(["40", "1", "2"]) == "1 2 40"
    assert _int_ranges(["1", "3", "5", "7", "9", "11", "13"]) is None      # more than 6 runs
    assert _int_ranges(["01", "2"]) is None and _int_ranges(["1.5", "2"]) is None
    assert _varied([[str(n)] for n in range(1, 41) if n != 13]) == "1–12 14–40"
    assert _varied([[str(n)] for n in range(1, 40, 3)]) == "13 of 1–37"
    assert _varied([["0.5ms"], ["1.25ms"]]) == "0.5ms–1.25ms"


def test_redis_and_thread_masks_are_linear():
    fx = load_fixture(FIX / "h2_redis_verbose.txt")
    lines = fx.text.rstrip("\n").split("\n")
    small, n_small = work_done(compress_kind, "log", FormatRequest("\n".join(lines * 5), "redis-server --loglevel verbose"))
    large, n_large = work_done(compress_kind, "log", FormatRequest("\n".join(lines * 20), "redis-server --loglevel verbose"))
    assert small is not None and large is not None
    assert grows_linearly(n_small, n_large, 4), (n_small, n_large)


def test_severe_folds_are_linear_in_lines_and_in_numbers_per_line():
    fx = load_fixture(FIX / "h2_nginx_error.txt")
    lines = fx.text.rstrip("\n").split("\n")
    small, n_small = work_done(compress_kind, "log", FormatRequest("\n".join(lines * 5), "nginx"))
    large, n_large = work_done(compress_kind, "log", FormatRequest("\n".join(lines * 20), "nginx"))
    assert small is not None and large is not None
    assert grows_linearly(n_small, n_large, 4), (n_small, n_large)

    def wide(width: int) -> FormatRequest:    # error lines with many lone numbers, all differing
        return FormatRequest("".join("2026-12-01 10:00:00 ERROR ids " + " ".join(str(r * 7 + k) for k in range(width)) + "\n"
                                     for r in range(20)), "app")
    small, n_small = work_done(compress_kind, "log", wide(200))
    large, n_large = work_done(compress_kind, "log", wide(800))
    assert grows_linearly(n_small, n_large, 4), (n_small, n_large)
