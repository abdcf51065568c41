"""Django and Flask debug pages and dev-server logs (tests/fixtures/web, scripts/capture_fam_tables.sh web),
through the whole pipeline: every fact kept, never longer than the original, the traceback spans protected
(each user frame and exception line verbatim)."""

from __future__ import annotations

from pathlib import Path

import pytest

from sqz_core.pipeline import compress
from sqz_core.store import Store
from sqz_testing import iter_fixtures, missing_facts

PAGES = iter_fixtures(Path(__file__).parent / "fixtures" / "web")


def test_the_web_captures_are_there():
    assert {fx.name for fx in PAGES} >= {"fam_django_500_text", "fam_django_500_html", "fam_django_runserver_500",
                                         "fam_flask_run_tracebacks", "fam_werkzeug_debugger_html"}
    assert all(fx.meta.get("produced_by") and fx.facts for fx in PAGES)


@pytest.mark.parametrize("fx", PAGES, ids=lambda fx: fx.name)
def test_every_fact_of_a_debug_page_survives(fx, tmp_path):
    r = compress(fx.raw, command=fx.command, store=Store.open(str(tmp_path / "db.sqlite")), session="s1")
    out = r.output.decode("utf-8")
    assert missing_facts(out, fx.facts) == []
    assert len(r.output) <= len(fx.raw)


def test_the_runserver_log_keeps_its_user_frames_verbatim(tmp_path):
    fx = next(f for f in PAGES if f.name == "fam_django_runserver_500")
    out = compress(fx.raw, command=fx.command, store=Store.open(str(tmp_path / "db.sqlite")), session="s1").output.decode()
    frame = '  File "/tmp/sqz-capture/fam-tables/djshop/shopsite/views.py", line 7, in line_total\n    return PRICES[sku] * qty\n'
    assert frame in out and "KeyError: 'SKU-7'" in out
    assert len(out) < len(fx.text)
