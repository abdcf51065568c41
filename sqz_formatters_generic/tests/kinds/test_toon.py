"""TOON tables and documents read back exactly what was written."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from sqz_formatters_generic.kinds.toon import decode, decode_table, encode, encode_table, is_tabular

# Any text a JSON string can hold except lone surrogates; includes commas, quotes,
# colons, brackets, newlines, tabs, other control characters and non-ASCII.
TEXT = st.text(st.characters(blacklist_categories=("Cs",)), max_size=20)
SCALAR = st.one_of(st.none(), st.booleans(), st.integers(-10**20, 10**20),
                   st.floats(allow_nan=False, allow_infinity=False), TEXT,
                   st.sampled_from(["", " x", "x ", "-1", "05", "1e5", "true", "null", "a,b", 'q"q',
                                    "line\nbreak", "[x]", "{y}", "k: v", "naïve ünïcode ✓", "-"]))
KEYS = st.lists(st.one_of(st.from_regex(r"[A-Za-z_][A-Za-z0-9_.]{0,6}", fullmatch=True), TEXT),
                min_size=1, max_size=5, unique=True)


def same(a, b) -> bool:
    """Equal with types: True is not 1, 1.0 is not 1."""
    return json.dumps(a, sort_keys=False) == json.dumps(b, sort_keys=False) and _types(a) == _types(b)


def _types(v):
    if isinstance(v, dict):
        return {k: _types(x) for k, x in v.items()}
    if isinstance(v, list):
        return [_types(x) for x in v]
    return type(v).__name__


@st.composite
def uniform_objects(draw):
    keys = draw(KEYS)
    n = draw(st.integers(2, 8))
    return [{k: draw(SCALAR) for k in keys} for _ in range(n)]


@settings(max_examples=200, deadline=None)
@given(uniform_objects())
def test_table_round_trip(rows):
    assert is_tabular(rows)
    lines = encode_table(rows, "items")
    assert len(lines) == len(rows) + 1          # header once, one row per item
    key, back = decode_table(lines)
    assert key == "items"
    assert same(back, rows)


JSON = st.recursive(
    SCALAR,
    lambda children: st.one_of(st.lists(children, max_size=5), st.dictionaries(TEXT, children, max_size=5),
                               uniform_objects()),
    max_leaves=25,
)


@settings(max_examples=200, deadline=None)
@given(JSON)
def test_document_round_trip(value):
    assert same(decode(encode(value)), value)


def test_table_form_is_used_for_uniform_objects():
    rows = [{"name": "a,b", "n": 1, "ok": True}, {"name": 'say "hi"', "n": 2.5, "ok": None}]
    assert encode(rows) == '[2]{name,n,ok}:\n  "a,b",1,true\n  "say \\"hi\\"",2.5,null'


def test_strings_that_look_like_other_values_are_quoted():
    assert encode({"a": "true", "b": "42", "c": "05", "d": "", "e": "-x", "f": "plain text"}) == (
        'a: "true"\nb: "42"\nc: "05"\nd: ""\ne: "-x"\nf: plain text')


def test_numbers_are_canonical_and_keep_their_type():
    assert encode([1e-7, 1e21, 1.0, 7]) == "[4]: 0.0000001,1000000000000000000000.0,1.0,7"
    assert same(decode(encode([1e-7, 1e21, 1.0, 7])), [1e-7, 1e21, 1.0, 7])
