"""Held-out structured outputs: JSON documents printed one after another, JSON Lines kept
apart from them, XHTML pages; damaged input gets None, never a wrong rendering."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sqz_core import FormatRequest
from sqz_formatters_generic.kinds import compress_kind, detect_kind
from sqz_formatters_generic.kinds.html_page import looks_like_html
from sqz_formatters_generic.kinds.json_doc import Stream, compress_json, parse_document, prune
from sqz_testing import load_fixture, missing_facts

ROOT = Path(__file__).parent.parent / "fixtures" / "kinds"
CLOUD = Path(__file__).parents[3] / "sqz_formatters_cloud" / "tests" / "fixtures"
LABEL = CLOUD / "kubectl" / "label_local_json.txt"

DOCS = '{\n  "kind": "A",\n  "n": 1,\n  "empty": ""\n}\n{\n  "kind": "B",\n  "items": [1, 2]\n}\n'


def test_documents_one_after_another_are_a_stream_each_written_on_its_line():
    req = FormatRequest(DOCS, "jq . a.json b.json")
    assert detect_kind(req.text, req) == "json"
    out = compress_json(req)
    assert out.split("\n") == ['{"kind":"A","n":1}', '{"kind":"B","items":[1,2]}', ""]


def test_kubectl_label_of_three_manifests_keeps_every_value_of_every_document():
    fx = load_fixture(LABEL)
    req = fx.request()
    assert detect_kind(req.text, req) == "json"
    out = compress_kind("json", req)
    docs = parse_document(req.text)
    assert isinstance(docs, Stream) and len(docs) == 3
    lines = out.rstrip("\n").split("\n")
    assert [json.loads(line) for line in lines] == list(docs)   # nothing empty to drop here: every value stays
    assert missing_facts(out, fx.facts) == []


def test_json_lines_stay_json_lines():
    fx = load_fixture(ROOT / "jsonl" / "cargo_build_json_error.txt")
    req = fx.request()
    assert not isinstance(parse_document(req.text), Stream)
    assert detect_kind(req.text, req) == "jsonl"


@pytest.mark.parametrize("damaged", [
    DOCS[:-12],                       # cut inside the second document
    DOCS.replace('"B",', '"B"'),      # a comma lost
    DOCS + "42\n",                    # a bare number after the documents
    DOCS + "trailing words\n",
    '{"a": 1} {"a": 1, "a": 2}\n{"b":\n 2}',   # a key twice: said as it is
])
def test_a_damaged_stream_is_left_alone(damaged):
    assert compress_json(FormatRequest(damaged, "jq .")) is None


def test_every_truncation_of_a_real_stream_is_whole_documents_or_none():
    text = load_fixture(LABEL).request().text
    for cut in range(0, len(text), 11):
        out = compress_json(FormatRequest(text[:cut], "kubectl label -f manifests --local tier=backend -o json"))
        if out is not None:
            whole = parse_document(text[:cut])
            assert [json.loads(line) for line in out.rstrip("\n").split("\n")] == [prune(d) for d in whole]


def test_an_xhtml_page_with_its_xml_declaration_is_html():
    fx = load_fixture(ROOT / "html" / "libxslt_transform.txt")
    req = fx.request()
    assert detect_kind(req.text, req) == "html"
    out = compress_kind("html", req)
    assert missing_facts(out, fx.facts) == []
    assert "<td" not in out and "font-family" not in out          # markup and styles go
    assert len(out) < len(req.text) / 2


@pytest.mark.parametrize("text", [
    '<?xml version="1.0"?>\n<feed xmlns="http://www.w3.org/2005/Atom"><title>x</title></feed>\n',
    '<?xml version="1.0"?>\n<project><modelVersion>4.0.0</modelVersion></project>\n',
    '<?xml-stylesheet href="a.xsl"?><html>',
])
def test_other_xml_is_not_html(text):
    assert not looks_like_html(text)


@pytest.mark.parametrize("rel", ["json/npm_ls_long_json", "json/npm_outdated_json", "jsonl/cargo_build_json_error",
                                 "jsonl/rg_json_endpoints", "markdown/debug_readme", "html/libxslt_transform"])
def test_heldout_structured_facts_survive_their_kind(rel):
    fx = load_fixture(ROOT / f"{rel}.txt")
    req = fx.request()
    kind = detect_kind(req.text, req)
    assert kind == rel.split("/")[0]
    out = compress_kind(kind, req)
    assert out is not None and missing_facts(out, fx.facts) == []


# ---------------------------------------------------------------- subtrees written again
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from sqz_formatters_generic.kinds.json_doc import compact_versions, same_as_earlier, same_as_sibling  # noqa: E402


def _follow(doc, path: str):
    """The value at ``$.a["b.c"][2]`` in ``doc``."""
    dec, i, v = json.JSONDecoder(), 1, doc
    while i < len(path):
        if path.startswith('["', i):
            key, i = dec.raw_decode(path, i + 1)
            v, i = v[key], i + 1
        elif path[i] == "[":
            j = path.index("]", i)
            v, i = v[int(path[i + 1:j])], j + 1
        else:
            j = i + 1
            while j < len(path) and path[j] not in ".[":
                j += 1
            v, i = v[path[i + 1:j]], j
    return v


def _unshare(doc):
    """Every ``[sqz: same as $…]`` replaced by a copy of the value its path names, in document order."""
    def walk(v):
        items = list(v.items()) if isinstance(v, dict) else list(enumerate(v)) if isinstance(v, list) else []
        for k, x in items:
            if isinstance(x, str) and x.startswith("[sqz: same as $"):
                v[k] = json.loads(json.dumps(_follow(doc, x[len("[sqz: same as "):-1])))
            else:
                walk(x)
    walk(doc)
    return doc


def test_npm_ls_long_says_a_dependency_printed_again_once_and_reads_back():
    fx = load_fixture(ROOT / "json" / "npm_ls_long_json.txt")
    req = fx.request()
    out = compress_json(req)
    assert out.count("[sqz: same as $.dependencies.express.dependencies.body-parser.dependencies.debug]") >= 1
    before = same_as_sibling(compact_versions(prune(parse_document(req.text))))
    assert _unshare(json.loads(out)) == before
    assert missing_facts(out, fx.facts) == []
    assert len(out) < len(json.dumps(before, separators=(",", ":"))) * 0.95


_leaf = st.one_of(st.integers(-5, 5), st.booleans(), st.text(alphabet="ab.[]\"$ ", max_size=6))
_keys = st.sampled_from(["a", "b.c", "[0]", "$", "x y", "dependencies", "é"])


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(_keys, st.dictionaries(_keys, _leaf, min_size=1, max_size=4)), min_size=1, max_size=6),
       st.integers(0, 30), st.booleans())
def test_property_repeated_subtrees_read_back_exactly(parts, pad, as_list):
    big = {"pad": "p" * (pad * 10), "n": list(range(pad))}
    doc = {}
    for i, (k, sub) in enumerate(parts):
        doc[f"{k}{i}"] = {"sub": sub, "big": big, "again": [big, sub]}
    value = list(doc.values()) if as_list else doc
    shared = same_as_earlier(json.loads(json.dumps(value)))
    assert _unshare(shared) == value


# ---------------------------------------------------------------- ripgrep's --json events
from sqz_formatters_generic.kinds.json_doc import compress_jsonl  # noqa: E402


def _records(text: str) -> list:
    return [json.loads(line) for line in text.splitlines() if line.startswith("{")]


def test_rg_json_keeps_path_line_number_text_and_counts_drops_offsets_and_timings():
    fx = load_fixture(ROOT / "jsonl" / "rg_json_endpoints.txt")
    req = fx.request()
    out = compress_jsonl(req)
    raw = _records(req.text)
    kept = _records(out)
    assert len(kept) == len(raw)                        # one line a record, no record lost
    for r, k in zip(raw, kept):
        if r["type"] == "match":
            assert k["data"] == {"path": r["data"]["path"], "lines": r["data"]["lines"],
                                 "line_number": r["data"]["line_number"]}
    assert '"absolute_offset"' not in out and '"submatches"' not in out and '"elapsed"' not in out
    assert kept[-1]["data"]["stats"]["matched_lines"] == 51
    assert missing_facts(out, fx.facts) == []


def test_a_stream_that_only_looks_like_rg_keeps_its_fields():
    text = ('{"type":"match","data":{"absolute_offset":7,"submatches":[1]}}\n'
            '{"type":"end","data":{"elapsed_total":3}}\n{"type":"begin","data":{"x":1}}\n')
    out = compress_jsonl(FormatRequest(text, "tool --json"))
    assert out is None or ('"absolute_offset":7' in out and '"elapsed_total":3' in out and '"submatches":[1]' in out)
