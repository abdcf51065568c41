"""JSON kind: a "same as" marker names a value written before it, in reading order (notes
applied first), and a document that already says one of our markers is left as it is."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from sqz_formatters_generic.kinds.json_doc import compress_json, compress_jsonl, prune
from sqz_core.request import FormatRequest
from test_json_hoist import _read_back, _root_path

# Found by Hypothesis (test_json_hoist's reader property): "x" was written "same as k", then
# "k" (a small object, hoistable) was taken out of every item into a note; a reader applying
# the note put "k" after "x", so the marker named a sibling that came later.
V = {"k": "[every k has 1]", "x": "b", 'q"t': 1.0}
HYPOTHESIS_EXAMPLE = {"k": [{"k": V, "x": V}, {"k": V, "x": V}, {"k": V}]}


def _check_markers_point_back(doc) -> None:
    """Every ``[sqz: same as K]`` has sibling K before it; every ``[sqz: same as $PATH]`` names a
    value already met in document order, and not one holding the marker."""
    seen: set[tuple] = set()

    def walk(v, path: tuple) -> None:
        seen.add(path)
        items = list(v.items()) if isinstance(v, dict) else list(enumerate(v)) if isinstance(v, list) else []
        for i, (k, x) in enumerate(items):
            if isinstance(x, str) and x.startswith("[sqz: same as "):
                name = x[len("[sqz: same as "):-1]
                if name.startswith("$"):
                    target = tuple(_root_path(name))
                    assert target in seen and target != path[:len(target)], (x, path + (k,))
                else:
                    assert isinstance(v, dict) and name in [kk for kk, _ in items[:i]], (x, list(v))
            elif isinstance(x, (dict, list)):
                walk(x, path + (k,))

    walk(doc, ())


def _render(value) -> str | None:
    return compress_json(FormatRequest(json.dumps(value, ensure_ascii=False, indent=1), "tool --json"))


def test_hypothesis_example_a_sibling_named_by_a_marker_stays_written_before_it():
    out = _render(HYPOTHESIS_EXAMPLE)
    assert not out.startswith("[every ")   # "k" is named by the markers: no note takes it out
    body = json.loads(out)
    assert body["k"][0] == {"k": V, "x": "[sqz: same as k]"} and body["k"][2] == {"k": V}
    _check_markers_point_back(body)
    assert _read_back(out) == HYPOTHESIS_EXAMPLE


def test_a_marker_itself_may_be_said_in_a_note_its_sibling_stays():
    big = {"cpu": 2, "image": "registry.internal/app:1.4.2", "zone": "eu-west-1a"}
    doc = {"rs": [{"id": i, "input": dict(big, id=i), "output": dict(big, id=i)} for i in range(4)]}
    out = _render(doc)
    assert out.splitlines()[0] == '[every rs[] has "output":"[sqz: same as input]"]'
    assert out.count('"input":{') == 4   # each item's own input, written
    assert _read_back(out) == doc


def test_a_field_hoisted_for_other_objects_of_a_shape_is_kept_where_a_marker_names_it():
    v = {"image": "registry.internal/app:1.4.2", "zone": "eu-west-1a", "cpu": 2}
    items = [{"name": f"n{i}", "base": v, "copy": v} for i in range(4)] + [{"name": "o", "base": v} for _ in range(4)]
    out = _render({"xs": items})
    for line in out.splitlines():
        assert not (line.startswith("[every ") and '"base":' in line), line
    _check_markers_point_back(json.loads(out.splitlines()[-1]))
    assert _read_back(out) == {"xs": items}


def test_a_key_starting_with_dollar_is_not_named_as_a_sibling():
    # "[sqz: same as $defs]" would read as a path from the root
    d = {"type": "object", "properties": {"name": {"type": "string"}, "age": {"type": "integer"}}}
    doc = {"$defs": d, "definitions": d, "n": None}
    out = _render(doc)
    assert "[sqz: same as $defs]" not in out and out.count('"properties"') == 2
    assert _read_back(out) == prune(doc)
    big = {"$defs": {"p": list(range(80))}, "other": {"p": list(range(80))}}
    out = _render(big)   # a copy of a large value: a path from the root, which spells "$defs" after "$."
    assert json.loads(out)["other"] == "[sqz: same as $.$defs]"
    assert _read_back(out) == big


def test_a_repeated_subtree_points_to_its_first_copy_in_reading_order():
    dep = {"version": "4.3.4", "resolved": "https://pkgs.example.org/debug/-/debug-4.3.4.tgz",
           "integrity": "sha512-" + "a" * 120, "dependencies": {"ms": {"version": "2.1.2"}}}
    doc = {"dependencies": {"a": {"version": "1.0.0", "dependencies": {"debug": dep}},
                            "b": {"version": "2.0.0", "dependencies": {"debug": dep, "c": {"debug": dep, "v": 1}}},
                            "debug": dep}}
    out = _render(doc)
    assert out.count("[sqz: same as $.dependencies.a.dependencies.debug]") == 3
    assert out.count("sha512-") == 1
    _check_markers_point_back(json.loads(out))
    assert _read_back(out) == doc


def test_no_path_marker_when_the_document_has_notes():
    dep = {"version": "4.3.4", "integrity": "sha512-" + "a" * 200}
    doc = {"pkgs": [{"name": f"p{i}", "optional": False, "req": "a shared requirement string"} for i in range(5)],
           "a": dep, "b": {"copy": dep}}
    out = _render(doc)
    assert out.startswith("[every pkgs[] has ")
    assert "[sqz: same as $" not in out and out.count("sha512-") == 2
    assert _read_back(out) == doc


MARKED = ["[sqz: same as k]", "[sqz: same as $.a]", "[sqz: 8 versions] 1.0.{0..7}", "[sqz: value dropped, 3 chars]"]


def test_our_markers_already_in_a_document_are_refused_even_escaped():
    big = {"x": list(range(20))}
    for m in MARKED:
        for spelled in (json.dumps(m), json.dumps(m, ensure_ascii=True).replace("[", "\\u005b", 1),
                        json.dumps(m).replace("s", "\\u0073", 1)):
            text = '{"k": %s, "a": %s, "b": %s, "n": null}' % (spelled, json.dumps(big), json.dumps(big))
            assert compress_json(FormatRequest(text, "tool --json")) is None, text
            stream = text + "\n" + text + "\n"   # documents one after another
            assert compress_json(FormatRequest(stream, "jq .")) is None, stream
            key = '{"%s": 1, "n": null}' % spelled[1:-1]   # in a key too
            assert compress_json(FormatRequest(key, "tool --json")) is None, key
            lines = '{"t":"a","s":"shared by the records of this type"}\n' * 3 + '{"t":"b","m":%s}\n' % spelled
            assert compress_jsonl(FormatRequest(lines, "tool --json")) is None, lines


def test_look_alikes_that_are_not_our_markers_stay_literal():
    big = {"x": list(range(20))}
    for s in ["[SQZ: same as k]", "[sqz same as k]", "sqz: same as k]", "[ sqz: same as a]", "\\u005bsqz:",
              "[every k has 1]", "[sqz expand 1]"]:
        doc = {"k": big, "a": big, "m": s, "n": None}
        out = _render(doc)
        assert out is not None and json.dumps(s, ensure_ascii=False) in out, out
        assert _read_back(out) == prune(doc)


SMALL = st.fixed_dictionaries({"image": st.sampled_from(["registry.internal/app:1.4.2", "app:2"]),
                               "zone": st.sampled_from(["eu-west-1a", "us-east-2b"]), "cpu": st.integers(1, 2)})
KEY = st.sampled_from(["k", "x", "$", "$x", "$.a", "a.b", "input", "output", "base", "copy", ""])


@st.composite
def arrays_with_equal_siblings(draw):
    """Items whose fields often equal an earlier sibling's (small objects, hoistable), some items
    without the copy, keys in varied orders; sometimes a large value repeated elsewhere."""
    n = draw(st.integers(3, 7))
    keys = draw(st.lists(KEY, min_size=2, max_size=4, unique=True))
    shared = draw(SMALL)
    items = []
    for _ in range(n):
        item = {}
        for k in keys:
            if draw(st.integers(0, 4)):
                item[k] = shared if draw(st.integers(0, 3)) else draw(SMALL)
        items.append(item)
    doc = {draw(KEY): items}
    if draw(st.booleans()):
        big = {"p": list(range(draw(st.integers(0, 60)))), "s": shared}
        doc[draw(KEY)] = big
        doc.setdefault("again", [big])
    return doc if draw(st.booleans()) else [doc, draw(st.sampled_from([None, 1, "x"]))]


@settings(max_examples=400, deadline=None)
@given(arrays_with_equal_siblings())
def test_property_markers_name_what_a_reader_has_already_read(value):
    out = _render(value)
    assert out is not None
    lines = out.splitlines()
    body = lines[-1]
    if body.startswith(("{", "[")):
        _check_markers_point_back(json.loads(body))
    assert json.dumps(_read_back(out), sort_keys=True) == json.dumps(prune(value), sort_keys=True), out


def test_a_raw_line_separator_inside_a_json_lines_string_does_not_tear_the_record():
    recs = ['{"t":"a","s":"shared value for every record of this type"}'] * 3
    for sep in ("\x85", "\u2028", "\u2029"):   # legal raw in a JSON string; str.splitlines splits there
        rec = '{"t":"b","m":"one%stwo","n":1}' % sep
        out = compress_jsonl(FormatRequest("\n".join(recs + [rec, "plain%stext" % sep]) + "\n", "tool --json"))
        assert out.split("\n")[0].startswith('[every "t":"a" line has ')
        assert out.split("\n")[-3:] == [rec, "plain%stext" % sep, ""], repr(out)
    for sep in ("\x0c", "\x1e", "\r"):   # a control character raw in a string is not JSON: left as it is
        rec = '{"t":"b","m":"one%stwo","n":1}' % sep
        assert compress_jsonl(FormatRequest("\n".join(recs + [rec]) + "\n", "tool --json")) is None
        out = compress_jsonl(FormatRequest("\n".join(recs + ["plain%stext" % sep]) + "\n", "tool --json"))
        assert out.split("\n")[-2:] == ["plain%stext" % sep, ""], repr(out)
    crlf = "\r\n".join(recs + ['{"t":"b","n":1}', "done"]) + "\r\n"   # CRLF still ends a line
    assert compress_jsonl(FormatRequest(crlf, "tool --json")).split("\n")[-3:] == ['{"t":"b","n":1}', "done", ""]


@settings(max_examples=200, deadline=None)
@given(__import__("test_json_hoist").documents())
def test_property_escaping_the_input_changes_nothing(value):
    for f, text in ((compress_json, lambda a: json.dumps(value, ensure_ascii=a, indent=1)),
                    (compress_jsonl, lambda a: (json.dumps(value, ensure_ascii=a) + "\n") * 3)):
        assert f(FormatRequest(text(False), "tool --json")) == f(FormatRequest(text(True), "tool --json"))
