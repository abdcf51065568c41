"""The example pack, tested the way docs/plugin-authoring.md says: real captures with facts, what is
dropped, a near miss that passes through, recovery through the whole pipeline (sqz-testing's fixtures)."""

from pathlib import Path

import pytest

from sqz_formatters_yamllint import yamllint
from sqz_testing import assert_facts_kept, assert_passthrough, assert_recoverable, format_with, iter_fixtures

FIXTURES = Path(__file__).parent / "fixtures"
CASES = iter_fixtures(FIXTURES)


def test_the_captures_are_here():
    assert {fx.path.stem for fx in CASES} == {"ansible_core_changelogs_config", "ansible_core_config"}


@pytest.mark.parametrize("fx", CASES, ids=lambda fx: fx.path.stem)
def test_every_problem_survives_under_its_file_and_each_path_is_written_once(fx):
    out = format_with(yamllint, fx.text, fx.command, exit_code=fx.meta["exit_code"])
    assert out is not None
    assert_facts_kept(out, fx.facts)
    paths = {line.split(":", 1)[0] for line in fx.text.splitlines() if line.strip()}
    for path in paths:
        assert out.count(path) == 1  # once, as a header
    assert len(out) < len(fx.text) * 0.7
    kept = sum(len(line.split(": [", 1)[0].split(", ")) for line in out.splitlines() if line.startswith("  "))
    assert kept == len([line for line in fx.text.splitlines() if line.strip()])  # every location, once


def test_not_a_parsable_report_passes_through():
    assert_passthrough(yamllint, "lib/x.yml\n  3:1  warning  missing document start \"---\"  (document-start)\n",
                       "yamllint lib/x.yml")  # yamllint's default (standard) format: not this formatter's
    assert_passthrough(yamllint, "", "yamllint -f parsable .")


def test_the_whole_pipeline_keeps_the_original_recoverable(sqz_compress):
    fx = next(fx for fx in CASES if fx.path.stem == "ansible_core_config")
    result = sqz_compress(fx.raw, command=fx.command)
    assert result.outcome == "compressed" and len(result.output) < len(fx.raw) * 0.7
    assert_recoverable(fx.raw, result, sqz_compress.store)
