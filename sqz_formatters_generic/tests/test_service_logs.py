"""Service logs read as agents read them (tests/fixtures/service_logs, scripts/capture_service_logs.sh):
nginx in front of gunicorn + Flask with the upstream stopped half-way, gunicorn's own logs, the Flask
dev server with two tracebacks, PostgreSQL after pgbench with failing statements and a deadlock,
redis at verbose, a Python worker at DEBUG retrying against a closed port — by cat, tail -n, head -n
and grep. Facts are judged by issue 25's word rule (every word of a fact still on the page: a value
a fold note lists counts); every distinct severe line is kept whole, every failed request too, and
a fold's values are listed whole or counted, never merged into a range of statuses."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from sqz_formatters_generic.kinds import compress_kind, detect_kind
from sqz_testing import assert_snapshot, iter_fixtures, missing_facts_by_words

HERE = Path(__file__).parent
FIXTURES = iter_fixtures(HERE / "fixtures" / "service_logs")
SNAPSHOTS = HERE / "kinds" / "snapshots" / "service_logs"
# every line is a severe line about its own job, or an error with its detail and statement: nothing folds
UNCHANGED = {"svc_worker_debug_grep", "svc_postgres_pgbench_grep",
             # ten lifecycle lines around two Flask tracebacks (a traceback is never folded)
             "svc_gunicorn_error_cat"}
_SEVERE = re.compile(r"\b(?:ERROR|WARNING|FATAL|error|deadlock)\b")
_FAILED = re.compile(r'"[A-Z]+ \S+ HTTP/[\d.]+" [45]\d\d\b')


def _run(fx):
    req = fx.request()
    kind = detect_kind(req.text, req)
    return req, kind, (compress_kind(kind, req) if kind else None)


def test_the_captures_are_there():
    assert len(FIXTURES) == 12
    assert all(fx.command.split()[0] in ("cat", "tail", "head", "grep") for fx in FIXTURES)


@pytest.mark.parametrize("fx", FIXTURES, ids=lambda fx: fx.name)
def test_each_read_is_a_log(fx):
    assert _run(fx)[1] == "log"


@pytest.mark.parametrize("fx", FIXTURES, ids=lambda fx: fx.name)
def test_facts_kept_by_words(fx):
    req, _, out = _run(fx)
    if fx.name in UNCHANGED:
        assert out is None
        out = req.text
    assert out is not None and missing_facts_by_words(out, fx.facts) == []


@pytest.mark.parametrize("fx", [f for f in FIXTURES if f.name not in UNCHANGED], ids=lambda fx: fx.name)
def test_the_big_ones_shrink_and_match_their_snapshot(fx):
    req, _, out = _run(fx)
    assert len(out) < len(req.text) * 0.7
    assert_snapshot(out, SNAPSHOTS / f"{fx.name}.expected")


@pytest.mark.parametrize("fx", FIXTURES, ids=lambda fx: fx.name)
def test_every_distinct_severe_line_and_failed_request_is_whole(fx):
    from test_logs_heldout import rebuild_severe_folds

    req, _, out = _run(fx)
    out = req.text if out is None else out
    kept = set(out.split("\n")) | set(rebuild_severe_folds(out))
    for line in req.text.split("\n"):
        if _FAILED.search(line) or (_SEVERE.search(line) and not line.startswith((" ", "\t"))):
            assert line in kept, line


def test_the_upstream_failures_fold_apart_from_the_successes():
    fx = next(f for f in FIXTURES if f.name == "svc_nginx_access_cat")
    _, _, out = _run(fx)
    lines = out.split("\n")
    # 200s and 502s for the same path never share a fold; each 502 path is shown whole
    for path in ("/health", "/api/items/3", "/api/report"):
        assert any(f'"GET {path} HTTP/1.1" 502' in line for line in lines), path
    assert not any("200–502" in line or "200-502" in line for line in lines)
    # requests for a few paths fold per path: each path's first line whole, its count beside it
    for n in (3, 7, 12, 19):
        first = next(i for i, line in enumerate(lines) if f'"GET /api/items/{n} HTTP/1.1" 200' in line)
        assert lines[first + 1].startswith("[×"), n


def test_a_flood_of_one_kind_of_warning_does_not_pin_the_debug_lines_around_it():
    fx = next(f for f in FIXTURES if f.name == "svc_worker_debug_cat")
    req, _, out = _run(fx)
    raw = req.text.split("\n")
    # every WARNING and ERROR line is whole (each names its own job) ...
    severe = [line for line in raw if " WARNING " in line or " ERROR " in line]
    assert len(severe) == 36 and all(line in out.split("\n") for line in severe)
    # ... and the DEBUG lines between them fold: the first WARNING's neighbours are its context
    debug = [line for line in raw if " DEBUG " in line]
    shown = [line for line in out.split("\n") if " DEBUG " in line]
    assert len(debug) == 60 and len(shown) <= 12
    assert "[×34 lines like the one above, 33 of them further down, not shown" in out
