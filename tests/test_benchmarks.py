"""The benchmarks double as end-to-end checks: every fact of every real fixture survives the
whole pipeline (formatters, safety, generic stages, gate), and the replayed session gets the
references it should."""

import importlib.util
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def load(name: str):
    spec = importlib.util.spec_from_file_location(f"bench_{name}", ROOT / "benchmarks" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def quality_rows():
    return load("quality").run()


def test_quality_corpus_is_large_and_covers_every_pack(quality_rows):
    families = {r["family"].split("/")[0] for r in quality_rows}
    assert {"core", "git", "test", "cloud"} <= families
    assert len(quality_rows) >= 150


def test_every_fact_is_in_the_raw_output():
    """A fact is a fact of the tool's output: it must be there before sqz touches it."""
    from sqz_core.cleanup import clean_terminal
    from sqz_core.testing import iter_fixtures, missing_facts

    bench = load("quality")
    bad = {}
    for root in bench.fixture_roots():
        for fx in iter_fixtures(root):
            shown = clean_terminal(fx.text)
            missing = missing_facts(shown, fx.facts)
            if missing:
                bad[str(fx.path.relative_to(ROOT))] = missing
    assert bad == {}


def test_every_fact_of_every_fixture_survives_the_pipeline(quality_rows):
    lost = {f"{r['family']}/{r['fixture']}": r["lost"] for r in quality_rows if r["lost"]}
    assert lost == {}


def test_no_output_grows_and_repeats_expand_exactly(quality_rows):
    for r in quality_rows:
        assert r["tokens_out"] <= r["tokens_in"] + 1, r  # +1: the gate counts an estimate, not cl100k
        assert r["repeat"] != "MISMATCH", r


def test_formatters_add_to_the_generic_stages(quality_rows):
    total_in = sum(r["tokens_in"] for r in quality_rows)
    with_packs = sum(r["tokens_out"] for r in quality_rows)
    generic = sum(r["tokens_generic"] for r in quality_rows)
    assert with_packs < generic < total_in


def test_replayed_session_gets_refs_slices_and_deltas():
    rows = {r["step"]: r for r in load("replay").replay()}
    assert rows["line range of a read file"]["outcome"] == "slice"
    assert rows["re-read unchanged"]["outcome"] == "ref"
    assert rows["re-read after edit"]["outcome"] == "delta"
    assert rows["same failing run again"]["outcome"] == "ref"
    assert rows["subagent reads same file"]["outcome"] not in ("ref", "slice", "delta")
    assert rows["compaction, then re-read"]["outcome"] not in ("ref", "slice", "delta")
    for r in rows.values():
        assert r["seen"] <= r["raw"]
