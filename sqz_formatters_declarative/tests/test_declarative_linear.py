"""Which patterns a spec may use: the shapes that backtrack badly are refused with a reason, the
others get a line-length cap that bounds one test of one line."""

from __future__ import annotations

import pytest

from sqz_formatters_declarative.linear import CAPS, PatternError, check

REFUSED = {
    r"(a)\1": "backreference",
    r"(?P<x>a)(?P=x)": "backreference",
    r"(a)?(?(1)b|c)": "backreference",
    r"foo(?=bar)": "lookaround",
    r"(?<!x)y": "lookaround",
    r"(?!x)y": "lookaround",
    r"(a+)+": "nested quantifier",
    r"(\w+\s?)*$": "nested quantifier",
    r"(a|ab)*c": "nested quantifier",
    r"(x{1,60}){1,60}": "nested quantifier",
    r"\s*\s+": "adjacent repeats",
    r"\d+\w*": "adjacent repeats",
    r".*.*=": "adjacent repeats",
    r"\s*x?\s*$": "adjacent repeats",
    r"a.*b.*c.*d": "unbounded repeats",
    r"[unclosed": "not a valid regular expression",
}

ACCEPTED = {
    r"^ok: \[": CAPS[0],
    r"FAILED!": CAPS[0],
    r"^\s*$": CAPS[0],
    r"^\S+\s+: ok=\d+ +changed=\d+ +unreachable=\d+ +failed=[1-9]": CAPS[0],  # each repeat stops at a disjoint char
    r"\d{1,3}(\.\d{1,3}){3}": CAPS[0],  # a small bounded product
    r"ERROR.*": CAPS[0],  # a repeat ending the pattern never gives back
    r"(?:foo|bar)+": CAPS[0],  # alternatives that start differently: one is ever tried
    r".*ERROR": CAPS[1],
    r".*x.*y": CAPS[2],
    r"^a.*b.*c.*d": CAPS[2],  # anchored: tried at the line's start only
    r"a++b": CAPS[0],  # possessive: never backtracks
}


@pytest.mark.parametrize("pattern", sorted(REFUSED))
def test_refused_with_the_reason(pattern):
    with pytest.raises(PatternError) as err:
        check(pattern)
    word = {"adjacent repeats": "adjacent repeats", "unbounded repeats": "unbounded repeats"}.get(
        REFUSED[pattern], REFUSED[pattern])
    assert word in str(err.value)


@pytest.mark.parametrize("pattern", sorted(ACCEPTED))
def test_accepted_with_a_cap(pattern):
    assert check(pattern) == ACCEPTED[pattern]


def test_every_example_pattern_is_accepted():
    from pathlib import Path

    from sqz_formatters_declarative.compile import compile_file

    examples = sorted((Path(__file__).resolve().parents[2] / "examples" / "declarative-formatters").glob("*.yaml"))
    assert len(examples) >= 2
    for path in examples:
        specs, errors = compile_file(str(path), "user")
        assert errors == [] and specs, path
