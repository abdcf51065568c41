"""Held-out structured outputs: JSON documents printed one after another, JSON Lines kept
apart from them, XHTML pages; damaged input gets None, never a wrong rendering."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sqz_core import FormatRequest
from sqz_core.kinds import compress_kind, detect_kind
from sqz_core.kinds.html_page import looks_like_html
from sqz_core.kinds.json_doc import Stream, compress_json, parse_document, prune
from sqz_core.testing import load_fixture, missing_facts

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
