"""benchmarks/peers.py and quality.py report the blind set (benchmarks/blind) apart from the tuned fixtures."""

import importlib.util
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def load(name: str):
    spec = importlib.util.spec_from_file_location(f"blindrep_{name}", ROOT / "benchmarks" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    sys.path.insert(0, str(ROOT / "benchmarks"))
    spec.loader.exec_module(module)
    return module


def test_the_sets_are_apart():
    q = load("quality")
    tuned, blind, every = q.fixture_roots("tuned"), q.fixture_roots("blind"), q.fixture_roots("all")
    assert blind == [ROOT / "benchmarks" / "blind"]
    assert q.BLIND not in tuned and tuned and set(every) == set(tuned) | set(blind)
    assert q.fixture_roots() == tuned  # the default stays the tuned set, so its figures do not move
    assert q.set_of(q.BLIND) == "blind" and q.set_of(tuned[0]) == "tuned"


def test_every_blind_fixture_has_a_named_category():
    q = load("quality")
    from sqz_testing import iter_fixtures

    cats = {}
    for fx in iter_fixtures(q.BLIND):
        fam = q.family_of(q.BLIND, fx.path)
        assert fam.startswith("blind/")
        cats[fx.path.parent.name + "/" + fx.name] = q.category_of(fam, fx.command, fx.path.parent.name)
    assert set(cats.values()) <= set(q.CATEGORIES) - {"cloud", "other tools"}
    assert {"logs", "git", "test runners", "search/listings", "structured data", "build/compilers"} <= set(cats.values())


def test_the_judge_is_this_checkouts_and_counts_both_rules():
    q = load("quality")
    j = q.judge()
    assert Path(j.__file__) == ROOT / "sqz_testing" / "src" / "sqz_testing" / "kit.py"
    out = "modified files:\n  src/app.py\n"
    assert j.missing_facts(out, [["src/app.py", "modified"]]) == [["src/app.py", "modified"]]
    assert j.missing_facts_by_words(out, [["src/app.py", "modified"]]) == []


def test_a_tools_view_and_summary_carry_the_word_rule():
    p = load("peers")
    row = {"family": "blind/logs", "fixture": "x", "category": "logs", "tokens_in": 100, "tokens_in_clean": 100,
           "facts": 4, "sqz": {"tokens_out": 40, "reduction": 60.0, "reduction_clean": 60.0, "facts_kept": 2,
                               "facts_kept_words": 3}}
    view = p.tool_view([row], "sqz")
    s = p._quality().summary(view)
    assert (s["facts"], s["facts_kept"], s["facts_kept_words"], s["reduction"]) == (4, 2, 3, 60.0)
    assert "3/4" in p._cells(s)
