"""Every fixture's facts are statements taken from its raw capture.

A fact names information a user would look for (a path with its status, a test id with its
outcome, a key with its value). It must hold in the raw capture itself (ANSI codes and
progress redraws aside), so no fact can be chosen from a rendering; and a bare word of five
characters or fewer (``true``, ``13``, ``OK``) states nothing on its own, so it is refused.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from sqz_core.cleanup import clean_terminal
from sqz_testing import iter_fixtures, missing_facts, missing_facts_by_words

ROOT = Path(__file__).resolve().parents[1]
FIXTURE_ROOTS = ["sqz_core/tests/fixtures", "sqz_formatters_test/tests/fixtures",
                 "sqz_formatters_git/tests/fixtures", "sqz_formatters_cloud/tests/fixtures",
                 "sqz_formatters_declarative/tests/fixtures"]
FIXTURES = [fx for root in FIXTURE_ROOTS for fx in iter_fixtures(ROOT / root)]
# the blind set (issue 25): checked here by its facts only; formatter authors do not open it
BLIND = iter_fixtures(ROOT / "benchmarks" / "blind")


def _id(fx):
    return str(fx.path.relative_to(ROOT))


def test_every_fixture_root_has_fixtures():
    assert len(FIXTURES) >= 250


@pytest.mark.parametrize("fx", FIXTURES, ids=_id)
def test_facts_hold_in_the_raw_capture(fx):
    if not fx.text.strip():
        assert fx.facts == [], "an empty capture states nothing"
        return
    assert fx.facts, "a fixture without facts proves nothing"
    assert missing_facts(clean_terminal(fx.text), fx.facts) == []


@pytest.mark.parametrize("fx", FIXTURES, ids=_id)
def test_no_fact_is_a_bare_fragment(fx):
    _no_bare_fragment(fx)


def _no_bare_fragment(fx):
    def size(fact):
        if isinstance(fact, dict):
            return len(fact["under"].strip()) + size(fact["line"])
        return len(fact.strip()) if isinstance(fact, str) else sum(len(p.strip()) for p in fact)

    assert [f for f in fx.facts if size(f) <= 5] == []


def test_the_blind_set_is_there():
    assert len(BLIND) >= 60


@pytest.mark.parametrize("fx", BLIND, ids=_id)
def test_blind_facts_hold_in_the_raw_capture_by_both_rules(fx):
    text = clean_terminal(fx.text)
    assert 1 <= len(fx.facts) <= 40
    assert missing_facts(text, fx.facts) == []
    assert missing_facts_by_words(text, fx.facts) == []
    assert fx.meta.get("produced_by") and fx.meta.get("captured") and fx.command


@pytest.mark.parametrize("fx", BLIND, ids=_id)
def test_no_blind_fact_is_a_bare_fragment(fx):
    _no_bare_fragment(fx)


def test_no_pack_reads_the_blind_set():
    """Formatters and their tests never open benchmarks/blind (issue 25: nobody tunes on what judges them)."""
    import subprocess

    files = subprocess.run(["git", "ls-files", "sqz_*"], cwd=ROOT, capture_output=True, text=True,
                           check=True).stdout.split()
    readers = [f for f in files if f.endswith(".py") and (ROOT / f).is_file()
               and "benchmarks/blind" in (ROOT / f).read_text(encoding="utf-8", errors="replace")]
    assert readers == []
