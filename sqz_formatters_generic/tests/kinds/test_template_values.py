"""The template mining reads long line-oriented output that is not a log (issue 25.2): folds with
every severe line kept and the values said; file reads and short output are left alone; linear."""

from __future__ import annotations

from sqz_core.request import FormatRequest
from sqz_formatters_generic.kinds import compress_kind, detect_kind
from sqz_testing import grows_linearly, work_done


def test_long_output_that_is_not_a_log_is_template_mined():
    lines = []
    for page in range(1, 41):
        lines.append(f"fetched {page * 7 % 50 + 3} items from page {page} in {page % 4 + 1}.{page % 10}s")
        if page % 5 == 0:
            lines.append(f"  stored pages {page - 4}-{page} in shard {page % 3}")
    lines.insert(17, "  skipped page 15: upstream answered 503, will retry")
    text = "\n".join(lines) + "\n"
    req = FormatRequest(text, "python crawl.py")
    assert detect_kind(text, req) == "templates"
    out = compress_kind("templates", req)
    assert out is not None and len(out) * 2 < len(text)
    assert "  skipped page 15: upstream answered 503, will retry" in out.split("\n")
    assert "[×39 lines like the one above, 34 of them further down, not shown, 39 of 5–52, " in out
    assert out.split("\n")[-3:] == lines[-2:] + [""]   # how the run ended, whole


def test_records_of_several_lines_are_not_template_mined():
    # ``stat``-like records: each line's template repeats once per record, none dominates
    text = "".join(f"  File: pkg/m{s}.py\n  Size: {100 + s * 37}\tBlocks: {8 + s % 3}\n"
                   f"Access: 2026-12-01 12:58:{s:02d}\nModify: 2026-12-01 12:57:{s:02d}\n" for s in range(30))
    assert detect_kind(text, FormatRequest(text, "stat pkg/*.py")) != "templates"


def test_the_templates_kind_leaves_file_reads_and_short_output_alone():
    lines = "".join(f"fetched {s} items from page {s}\n" for s in range(60))
    assert compress_kind("templates", FormatRequest(lines, "cd out && cat pages.txt")) is None
    short = "".join(f"fetched {s} items from page {s}\n" for s in range(10))
    assert detect_kind(short, FormatRequest(short, "python crawl.py")) != "templates"


def test_value_listing_and_template_detection_are_linear():
    def crawl(n: int) -> FormatRequest:
        return FormatRequest("".join(f"fetched {s * 7 % 97} items from page {s} in {s % 9}.{s % 7}s\n"
                                     for s in range(n)), "python crawl.py")

    small, n_small = work_done(compress_kind, "templates", crawl(2000))
    large, n_large = work_done(compress_kind, "templates", crawl(8000))
    assert small is not None and large is not None
    assert grows_linearly(n_small, n_large, 4), (n_small, n_large)
    _, d_small = work_done(detect_kind, crawl(500).text, crawl(500))
    _, d_large = work_done(detect_kind, crawl(2000).text, crawl(2000))
    assert grows_linearly(d_small, d_large, 4), (d_small, d_large)

    def wide(width: int) -> FormatRequest:   # many values per line, every one differing: the listing gives up
        return FormatRequest("".join("2026-12-01 10:00:00 INFO ids " + " ".join(str(r * 7 + k) for k in range(width))
                                     + "\n" for r in range(20)), "app")
    _, w_small = work_done(compress_kind, "log", wide(200))
    _, w_large = work_done(compress_kind, "log", wide(800))
    assert grows_linearly(w_small, w_large, 4), (w_small, w_large)


def test_a_repeated_error_keeps_the_time_of_every_repeat():
    times = ["10:00:01,120", "10:00:04,388", "10:00:09,002", "10:01:15,700"]
    lines = [f"2026-12-01 {t} ERROR db: connection to 10.0.0.7:5432 refused" for t in times]
    lines = [x for pair in zip(lines, [f"2026-12-01 {t} INFO web: GET /health 200" for t in times]) for x in pair]
    out = compress_kind("log", FormatRequest("\n".join(lines * 2) + "\n", "journalctl -u web"))
    assert out is not None
    assert lines[0] in out.split("\n")
    # the last error and the line after it end the log: shown whole; the note gives the other six times
    assert out.split("\n")[-3:] == lines[-2:] + [""]
    note = next(line for line in out.split("\n") if line.startswith("[×7 lines like the one above") and "ERROR" not in line
                and "the others at:" in line)
    assert note.endswith("; the others at: 04,388 | 09,002 | 01:15,700 | 00:01,120 | 04,388 | 09,002]")
    # the healthy lines' fold says no times: only a severe line's repeats are listed by time
    assert sum("the others at:" in line for line in out.split("\n")) == 1


def _log(lines):
    text = "\n".join(lines) + "\n"
    req = FormatRequest(text, "journalctl -u shop")
    assert detect_kind(text, req) == "log"
    return compress_kind("log", req)


def test_requests_for_a_few_paths_fold_per_path_each_path_shown_whole():
    paths = ["/api/items/3", "/api/items/7", "/api/items/12"]
    lines = [f'127.0.0.1 - - [02/Dec/2026:07:31:{s:02d} +0000] "GET {paths[s % 3]} HTTP/1.1" 200 {19 + s % 2} "-" "curl/8"'
             for s in range(30)]
    out = _log(lines).split("\n")
    for k, path in enumerate(paths):
        at = out.index(lines[k])                          # each path's first request, whole
        # each path's requests but the log's last two (shown whole: how it ended) fold under it
        assert out[at + 1].startswith(f"[×{10 if k == 0 else 9} lines like the one above, {9 if k == 0 else 8} of them "
                                      "further down, not shown, ")
    assert len(out) == 9 and out[-3:] == lines[-2:] + [""]


def test_a_few_shared_words_are_listed_whole_a_value_of_their_own_on_every_line_is_counted():
    lines = [f"2026-12-02 07:32:{s:02d},100 INFO [worker-{s % 3}] accepted 10.0.0.9:{40000 + 7 * s}" for s in range(24)]
    out = _log(lines).split("\n")
    assert out[0] == lines[0]
    # the three thread names, each a word a reader can quote; 24 client ports (the address never
    # varies): how many, and their span
    assert out[1].endswith(", worker-0|worker-1|worker-2, 22 of 40000–40147]")
    assert out[2:] == lines[-2:] + [""]   # the log's last two lines, whole


def test_many_words_one_number_apart_are_said_exactly_as_runs():
    lines = [f"2026-12-02 07:32:{s:02d} INFO stored /var/spool/shop/order-{s + 1}.json" for s in range(40) if s != 12]
    out = _log(lines).split("\n")
    assert out[1].endswith(", /var/spool/shop/order-{1–12 14–38}.json]")
    assert out[2:] == lines[-2:] + [""]
