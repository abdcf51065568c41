"""Near-duplicate log lines: what folds, what the fold note says, what never folds."""

from __future__ import annotations

from sqz_formatters_generic.kinds import compress_kind, detect_kind
from sqz_formatters_generic.kinds.log_lines import template
from sqz_core.request import FormatRequest
from sqz_testing import load_fixture
from pathlib import Path
from sqz_testing import grows_linearly, work_done

FIX = Path(__file__).parent.parent / "fixtures" / "kinds" / "log"


class _Req:
    def __init__(self, text):
        self.text = text
        self.argv = ()
        self.program = None

    def is_file_content(self):
        return False

    def subcommand(self):
        return None


def test_worker_log_folds_to_a_fraction_and_keeps_every_severe_line():
    fx = load_fixture(FIX / "app_worker_log.txt")
    out = compress_kind("log", fx.request())
    assert len(out.split("\n")) < 30 < len(fx.text.split("\n"))
    for line in fx.text.split("\n"):
        if "WARNING" in line or "ERROR" in line:
            assert line in out.split("\n")
    assert "×190 lines like the one above, 72 of them further down, not shown" in out
    assert "1ms–3ms" in out  # the durations that varied inside the run


def test_masks_go_timestamps_ips_and_ports():
    a = "2026/12/01 02:24:11 dial 10.0.0.7:5432 ok in 3ms"
    b = "2026/12/01 02:25:40 dial 10.0.0.9:5433 ok in 12ms"
    assert template(a) == template(b)
    assert template(a) != template("2026/12/01 02:25:40 dial 10.0.0.9:5433 refused in 12ms")


def test_go_log_is_detected_and_folded_with_its_values():
    lines = [f"2026/12/01 02:24:{s:02d} dial 10.0.0.{s % 4}:5432 ok" for s in range(20)]
    text = "\n".join(lines) + "\n"
    req = _Req(text)
    assert detect_kind(text, req) == "log"
    out = compress_kind("log", req)
    assert out.split("\n")[0] == lines[0]
    # the last two lines are how the log ended: shown whole, so the fold holds the 18 before them
    assert "×18 lines like the one above, 2026/12/01 02:24:00 … 2026/12/01 02:24:17" in out
    assert out.split("\n")[-3:] == [lines[18], lines[19], ""]
    assert out.split("\n")[1].endswith(", 10.0.0.0|10.0.0.1|10.0.0.2|10.0.0.3]")  # each a word; the port never varies
    assert lines[7] not in out


def test_error_lines_with_different_text_are_never_folded():
    lines = [f"2026-12-01 02:24:{s:02d} ERROR job {s} failed: timeout after {s}s" for s in range(12)]
    text = "\n".join(lines)
    assert compress_kind("log", _Req(text)) is None


def test_many_distinct_values_are_counted_not_listed():
    lines = [f"2026-12-01 02:24:{s:02d} INFO served request {s:08x}-aaaa-4bbb-8ccc-{s:012x} ok"
             for s in range(30)]
    out = compress_kind("log", _Req("\n".join(lines)))
    assert out.split("\n") == [lines[0], "[×28 lines like the one above, 2026-12-01 02:24:00 … "
                                          "2026-12-01 02:24:27, 28 distinct]", lines[28], lines[29]]


def test_interleaved_repeats_fold_into_their_first_occurrence():
    fx = load_fixture(FIX / "http_server_urllib.txt")
    out = compress_kind("log", fx.request()).split("\n")
    hits = [line for line in out if '"GET /capture_logs.py HTTP/1.1" 200' in line]
    assert len(hits) == 3 and out[-3:] == hits[1:] + [""]  # the first, and the log's last two lines
    assert out[out.index(hits[0]) + 1].startswith("[×196 lines like the one above, 136 of them further down")
    assert sum('"GET /missing.txt HTTP/1.1" 404' in line for line in out) == 2  # under 3: both kept


def test_template_pass_is_linear():
    # lines that share a template and lines that do not (every value differs): the folds and the
    # distinct-value counts must not compare a line with every earlier one
    same = [f"2026-12-01 02:24:{s % 60:02d},628 INFO worker: GET /healthz 200 {s % 97}ms" for s in range(8000)]
    mixed = [f"2026-12-01 02:24:{s % 60:02d},628 INFO w{s}: job {s:06x} took {s}ms" if s % 2 else line
             for s, line in enumerate(same)]
    for lines in (same, mixed):
        small, n_small = work_done(compress_kind, "log", _Req("\n".join(lines[:2000])))
        large, n_large = work_done(compress_kind, "log", _Req("\n".join(lines)))
        assert large is not None and lines[0] in large
        assert grows_linearly(n_small, n_large, 4), (n_small, n_large)


def test_failure_and_exception_lines_are_kept_even_when_their_template_repeats():
    lines = [f"2026-12-01 02:24:{s:02d} INFO job {s} done" for s in range(10)]
    for k, word in ((3, "FAILED"), (6, "raised KeyError")):
        lines[k] = f"2026-12-01 02:24:{k:02d} INFO job {k} {word}"
    lines += [f"2026-12-01 02:25:{s:02d} INFO job {s} done" for s in range(10)]
    out = compress_kind("log", _Req("\n".join(lines))).split("\n")
    assert lines[3] in out and lines[6] in out
    assert len(out) < len(lines)


def test_a_log_holding_a_line_that_reads_as_our_note_is_left_as_it_is():
    from sqz_formatters_generic.kinds.log_lines import compress_log
    from sqz_testing import load_fixture

    fx = load_fixture(Path(__file__).parent.parent / "fixtures" / "kinds" / "log" / "app_worker_log.txt")
    assert compress_log(fx.request()) is not None
    for fake in ("[×3 lines like the one above]", "  [×2 lines like the one above, 1ms–3ms]"):
        lines = fx.text.split("\n")
        lines.insert(150, fake)
        assert compress_log(FormatRequest("\n".join(lines), fx.command)) is None, fake


