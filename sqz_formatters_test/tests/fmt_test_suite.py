"""The standard tests every formatter family of this pack runs on its captured fixtures.

A family's test module builds a ``FormatterSuite`` for its formatter and fixtures directory,
adds the generated standard tests to its namespace and keeps only its *specific* tests::

    suite = FormatterSuite(formatter, "cc", refused={"gcc_de_locale"})
    run, fixture, ask = suite.run, suite.fixture, suite.ask
    globals().update(suite.standard_tests(at_least=3))

Standard tests (parametrised by fixture name):

- ``test_fixture_set``: at least ``at_least`` handled fixtures, and every name in ``complete``;
- ``test_facts_survive``: a handled fixture gives output keeping every fact of its sidecar;
- ``test_refused``: the fixtures in ``refused`` (captured on purpose to be declined) give None;
- ``test_noise_is_dropped``: a handled fixture's output keeps none of its sidecar's ``dropped`` strings;
- ``test_snapshot``: the output (``<None>`` for a refused fixture) equals ``NAME.expected``;
- ``test_output_shrinks``: with ``ratios`` ``{name: r}``, output ≤ r × input for those fixtures;
  otherwise every handled fixture longer than ``big`` characters loses over 10%, and a
  shorter one grows by at most one counted line (80 characters);
- ``test_deterministic``: two runs give the same output.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from sqz_core import FormatRequest
from sqz_testing import assert_snapshot, iter_fixtures, load_fixture, missing_facts

FIXTURES_DIR = Path(__file__).parent / "fixtures"


class FormatterSuite:
    """One formatter and its captured fixtures under ``tests/fixtures/<family>/``."""

    def __init__(self, formatter, family: str, *, refused=()) -> None:
        self.formatter = formatter
        self.dir = FIXTURES_DIR / family
        self.all = fixtures_of(family)
        self.refused = frozenset(refused)
        self.handled = [fx for fx in self.all if fx.name not in self.refused]

    def run(self, fx, **kw):
        """The formatter's answer on fixture ``fx`` (request overrides in ``kw``)."""
        return self.formatter.sqz_format(request=fx.request(**kw))

    def ask(self, text, command, exit_code=None):
        """The formatter's answer on ``text`` printed by ``command``."""
        return self.formatter.sqz_format(request=FormatRequest(text, command, exit_code=exit_code))

    def fixture(self, name):
        return next(fx for fx in self.all if fx.name == name)

    def snapshot_path(self, fx) -> Path:
        return self.dir / f"{fx.name}.expected"

    def standard_tests(self, *, at_least: int = 0, complete=(), ratios: dict | None = None,
                       big: int = 1500) -> dict:
        """The standard tests as ``{name: test function}``, for the family module's ``globals()``."""
        suite, run = self, self.run
        ids = lambda fx: fx.name  # noqa: E731
        # refused fixtures captured with a snapshot (``<None>``) are held to it like the others
        snapshotted = [fx for fx in self.all if fx.name not in self.refused or self.snapshot_path(fx).exists()]
        tests = {}

        def test_fixture_set():
            assert len(suite.handled) >= at_least
            assert {fx.name for fx in suite.all} >= set(complete)

        @pytest.mark.parametrize("fx", self.handled, ids=ids)
        def test_facts_survive(fx):
            out = run(fx)
            assert out is not None, f"formatter declined {fx.name}, a fixture it should handle"
            assert fx.facts, "a fixture without facts proves nothing"
            assert missing_facts(out, fx.facts) == []

        @pytest.mark.parametrize("fx", self.handled, ids=ids)
        def test_noise_is_dropped(fx):
            out = run(fx)
            assert out is not None
            assert [d for d in fx.dropped if d in out] == []

        @pytest.mark.parametrize("fx", snapshotted, ids=ids)
        def test_snapshot(fx):
            out = run(fx)
            assert_snapshot(out if out is not None else "<None>\n", suite.snapshot_path(fx))

        if ratios is None:
            @pytest.mark.parametrize("fx", self.handled, ids=ids)
            def test_output_shrinks(fx):
                text = fx.request().text
                out = run(fx)
                if len(text) > big:
                    assert len(out) < len(text) * 0.9
                else:
                    assert len(out) <= len(text) + 80   # never much longer: at most one counted line
        else:
            @pytest.mark.parametrize("name,ratio", sorted(ratios.items()))
            def test_output_shrinks(name, ratio):
                """Measured in tokens' stand-in (characters): the noise-heavy fixtures must lose most of it."""
                fx = load_fixture(suite.dir / f"{name}.txt")
                out = run(fx)
                assert out is not None
                assert len(out) <= ratio * len(fx.request().text)

        @pytest.mark.parametrize("fx", snapshotted, ids=ids)
        def test_deterministic(fx):
            assert run(fx) == run(fx)

        tests.update(test_fixture_set=test_fixture_set, test_facts_survive=test_facts_survive,
                     test_noise_is_dropped=test_noise_is_dropped, test_snapshot=test_snapshot,
                     test_output_shrinks=test_output_shrinks, test_deterministic=test_deterministic)
        if self.refused:
            @pytest.mark.parametrize("fx", [fx for fx in self.all if fx.name in self.refused], ids=ids)
            def test_refused(fx):
                assert run(fx) is None

            tests["test_refused"] = test_refused
        return tests


# ---------------------------------------------------------------- helpers of the specific tests


def fixtures_of(family: str) -> list:
    """Every fixture of ``family``, sorted by name."""
    return iter_fixtures(FIXTURES_DIR / family)


def other(family: str, name: str):
    """The fixture ``name`` of any family."""
    return load_fixture(FIXTURES_DIR / family / f"{name}.txt")


def text_of(family: str, name: str) -> str:
    """The text the pipeline would hand a formatter for fixture ``family/name``."""
    return other(family, name).request().text


def raw_text(family: str, name: str) -> str:
    """The captured bytes of fixture ``family/name`` as text, terminal codes and all."""
    return (FIXTURES_DIR / family / f"{name}.txt").read_text()


def cut(text: str, fraction: float) -> str:
    """The first ``fraction`` of the output's lines (a run cut short)."""
    lines = text.splitlines()
    return "\n".join(lines[: int(len(lines) * fraction)]) + "\n"


def cut_tail(text: str, n: int) -> str:
    """The output with its last ``n`` lines missing (an interrupted or truncated capture)."""
    return "\n".join(text.splitlines()[:-n]) + "\n"


def trace_paragraphs(text: str, marker: str) -> list[str]:
    """Blank-line separated paragraphs of ``text`` that contain ``marker``."""
    return [p for p in text.split("\n\n") if marker in p]


def assert_whole(out: str, text: str, marker: str) -> None:
    """Every paragraph of ``text`` holding ``marker`` is in ``out`` whole (blank lines aside)."""
    paras = trace_paragraphs(text, marker)
    assert paras, marker
    for p in paras:
        lines = [l for l in p.strip("\n").split("\n") if l.strip()]
        block = "\n".join(lines)
        assert block in out, f"trace paragraph not kept whole:\n{block[:300]}"


def listed_by_file(out: str, is_row=lambda head: True) -> dict[tuple[str, str], list[str]]:
    """``{(path, message): [location, …]}`` of a report grouped by file: a path line, then indented
    ``l:c, l:c: message`` rows under it (merged repeats list every location); ``is_row`` picks the rows."""
    listed: dict[tuple[str, str], list[str]] = {}
    path = None
    for line in out.splitlines():
        if not line.startswith(" "):
            path = line
            continue
        head = line.strip()
        if is_row(head):
            locs, rest = head.split(": ", 1)
            listed.setdefault((path, rest), []).extend(locs.split(", "))
    return listed


def located_in_raw(raw: str, pattern) -> dict[tuple[str, str], list[str]]:
    """The same mapping read from the raw report with ``pattern`` (groups ``path``, ``loc``, ``rest``)."""
    want: dict[tuple[str, str], list[str]] = {}
    for m in pattern.finditer(raw):
        want.setdefault((m.group("path"), m.group("rest")), []).append(m.group("loc"))
    return want
