"""A status value that differs (a 404 among 200s) is never merged into a fold: its line stays whole."""

from __future__ import annotations

import pytest

from sqz_core.request import FormatRequest
from sqz_formatters_generic.kinds import compress_kind, detect_kind
from sqz_formatters_generic.kinds.status_fields import protect, reveal


def _lines(shape: str, n: int = 24, odd: int = 11, status: str = "404") -> list[str]:
    return [shape.format(i=i, s=status if i == odd else "200", ms=3 + i % 5) for i in range(n)]


SHAPES = {
    # docker logs of a Go service (no leading timestamp: the runs kind's folding)
    "runs": "web handled request id={i} response:{s} in {ms}ms",
    # a logfmt log (the log kind's template mining)
    "log": "time=2026-12-01T10:00:{i:02d}Z level=info msg=handled path=/items status={s} dur={ms}ms",
    # a JSON-lines-ish log without a leading timestamp, read as a log by its levels
    "log-level": "INFO handled request {i} HTTP {s} after {ms}ms",
}


@pytest.mark.parametrize("name", sorted(SHAPES))
@pytest.mark.parametrize("status", ["404", "500", "302"])
def test_the_odd_status_line_stays_whole_and_no_range_spans_it(name, status):
    lines = _lines(SHAPES[name], status=status)
    text = "\n".join(lines) + "\n"
    req = FormatRequest(text, "docker logs web-1")
    kind = detect_kind(text, req)
    assert kind in ("runs", "log")
    out = compress_kind(kind, req)
    assert out is not None and len(out) < len(text)          # the 200s still fold
    assert lines[11] in out.split("\n")                        # the odd one, whole
    assert f"200–{status}" not in out and f"{status}–200" not in out and f"200 {status}" not in out


def test_without_the_odd_status_the_same_lines_fold_further():
    same = "\n".join(_lines(SHAPES["runs"], status="200")) + "\n"
    odd = "\n".join(_lines(SHAPES["runs"])) + "\n"
    a = compress_kind("runs", FormatRequest(same, "docker logs web-1"))
    b = compress_kind("runs", FormatRequest(odd, "docker logs web-1"))
    assert len(a.split("\n")) < len(b.split("\n"))


def test_protect_hides_status_digits_only_and_reveal_shows_them():
    cases = {
        '127.0.0.1 - - [01/Dec/2026:10:00:00 +0000] "GET /x HTTP/1.1" 404 153': ("404",),
        "msg=done response:404 took 3ms": ("404",),
        '{"status": 500, "n": 3}': ("500",),
        "worker exited with code 1": ("1",),
        "exit status 2": ("2",),
        "job 13 answered HTTP 501": ("501",),
        "rc=0 dur=1.5": ("0",),
    }
    for line, hidden in cases.items():
        shown = protect(line)
        assert shown != line and reveal(shown) == line, line
        kept_digits = [c for c in shown if c.isdigit()]
        assert len(kept_digits) == sum(c.isdigit() for c in line) - sum(len(h) for h in hidden), line
    for line in ("result 3 items", "decode 12 bytes", "took 3ms at 10:00:01", "status of 3 jobs"):
        assert protect(line) == line
