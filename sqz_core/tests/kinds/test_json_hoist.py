"""JSON kind: fields shared by every item of an array said once, values equal to a sibling's
written "same as", objects emptied by pruning dropped; nothing else changes."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from sqz_core.kinds.json_doc import EACH, MIN_ITEMS, compress_json, compress_jsonl, hoist_shared, prune, same_as_sibling
from sqz_core.request import FormatRequest


def _items(n, **shared):
    return [{"name": f"pkg-{i}", "path": f"/src/pkg-{i}", **shared} for i in range(n)]


def test_shared_fields_are_said_once_varied_and_partial_ones_stay():
    deps = _items(4, req="*", optional=False, uses_default_features=True)
    deps[2]["extra"] = 1
    value, notes = hoist_shared({"packages": [{"id": "a", "dependencies": deps}]})
    assert notes == ['[every packages[].dependencies[] has "req":"*","optional":false,"uses_default_features":true]']
    items = value["packages"][0]["dependencies"]
    assert [sorted(x) for x in items] == [["name", "path"], ["name", "path"], ["extra", "name", "path"],
                                          ["name", "path"]]
    assert [x["name"] for x in items] == ["pkg-0", "pkg-1", "pkg-2", "pkg-3"]


def test_too_few_items_or_types_that_differ_are_not_hoisted():
    few = _items(MIN_ITEMS - 1, req="*", optional=False, uses_default_features=True)
    assert hoist_shared(few) == (few, [])
    mixed = _items(4, flag=True)
    mixed[1]["flag"] = 1          # 1 is not true
    assert hoist_shared(mixed) == (mixed, [])


def test_every_field_shared_keeps_the_first():
    same = [{"kind": "lib", "doc": True, "test": True, "edition": "2024"} for _ in range(5)]
    value, notes = hoist_shared(same)
    assert value == [{"kind": "lib"}] * 5
    assert notes == ['[every [] has "doc":true,"test":true,"edition":"2024"]']


def test_equal_sibling_is_written_same_as_short_one_stays():
    big = {"cpu": 2, "image": "registry.internal/app:1.4.2", "zone": "eu-west-1a"}
    v = same_as_sibling({"id": "x", "input": big, "output": dict(big), "tags": ["a"], "copy": ["a"]})
    assert v == {"id": "x", "input": big, "output": "[sqz: same as input]", "tags": ["a"], "copy": ["a"]}


def test_objects_emptied_by_pruning_go_an_empty_object_among_others_stays():
    assert prune({"deps": [{"name": "core", "dep_kinds": [{"kind": None, "target": None}]}]}) == {
        "deps": [{"name": "core"}]}
    assert prune({"xs": [{"a": None}, {"b": 1}]}) == {"xs": [{}, {"b": 1}]}
    assert prune({"xs": [{"a": None}, {"a": 1}]}) == {"xs": [{"a": None}, {"a": 1}]}  # a table's column


def test_document_notes_come_first_and_keep_the_values():
    doc = {"resources": [{"address": f"r.{i}", "mode": "managed", "schema_version": 0,
                          "values": {"input": {"name": f"n{i}", "size": 80 + i, "tags": ["x", f"t{i}"]},
                                     "output": {"name": f"n{i}", "size": 80 + i, "tags": ["x", f"t{i}"]}}}
                         for i in range(4)]}
    out = compress_json(FormatRequest(json.dumps(doc, indent=2), "terraform show -json"))
    lines = out.splitlines()
    assert lines[0] == '[every resources[] has "mode":"managed","schema_version":0]'
    assert lines[1] == '[every resources[].values has "output":"[sqz: same as input]"]'
    assert '"address":"r.3"' in lines[2] and '"name":"n3"' in lines[2] and '"mode"' not in lines[2]


def test_jsonl_records_of_one_type_share_a_note_before_the_first():
    rec = [{"reason": "artifact", "id": f"p{i}", "profile": {"opt": "0", "debug": True}, "fresh": False}
           for i in range(3)]
    text = "\n".join(["   Compiling p0", json.dumps(rec[0]), json.dumps(rec[1]), "   Compiling p2",
                      json.dumps(rec[2]), json.dumps({"reason": "done", "success": True})]) + "\n"
    out = compress_jsonl(FormatRequest(text, "cargo build --message-format=json")).splitlines()
    assert out == [
        "   Compiling p0",
        '[every "reason":"artifact" line has "profile":{"opt":"0","debug":true},"fresh":false]',
        '{"reason":"artifact","id":"p0"}', '{"reason":"artifact","id":"p1"}',
        "   Compiling p2",
        '{"reason":"artifact","id":"p2"}',
        '{"reason":"done","success":true}',
    ]


def _restore(v, sig, in_array, plan):
    """The test's inverse of hoisting: the noted fields put back into every item."""
    if isinstance(v, dict):
        out = {k: _restore(x, sig + (k,), in_array, plan) for k, x in v.items()}
        if in_array:  # a note "every X with fields F has …" reads on every object at X showing F, or more
            shown = frozenset(v)
            notes = [g for g in plan if isinstance(g[-1], frozenset) and g[0] == sig and g[1] <= shown]
            assert len(notes) <= 1, notes
            for g in notes:
                out.update(plan[g])
        if in_array and sig in plan:                    # a note for every object there
            out.update(plan[sig])
        return out
    if isinstance(v, list):
        return [_restore(x, sig + (EACH,), True, plan) for x in v]
    return v


SCALAR = st.one_of(st.none(), st.booleans(), st.integers(-3, 3), st.sampled_from(["a", "b", "", "1"]), st.just(1.0))
JSON = st.recursive(SCALAR, lambda kids: st.one_of(
    st.lists(kids, max_size=6), st.dictionaries(st.sampled_from(["k", "x", "y", "z", "name"]), kids, max_size=4)),
    max_leaves=40)


@settings(max_examples=400, deadline=None)
@given(JSON)
def test_property_hoisting_loses_nothing(value):
    plan: dict = {}
    hoisted, notes = hoist_shared(value, plan=plan)
    assert len(notes) == len(plan)
    back = _restore(hoisted, (), False, plan)
    assert json.dumps(back, sort_keys=True) == json.dumps(value, sort_keys=True)
    if not plan:
        assert hoisted == value


@st.composite
def arrays_with_shared_fields(draw):
    shared = draw(st.dictionaries(st.sampled_from(["req", "optional", "edition", "kind"]),
                                  st.one_of(SCALAR, st.text(min_size=20, max_size=30)), min_size=1))
    n = draw(st.integers(MIN_ITEMS, 7))
    items = [{"name": draw(st.text(max_size=5)), **shared, "v": draw(SCALAR)} for _ in range(n)]
    return draw(st.sampled_from(["list", "dict"])), items, shared


@settings(max_examples=300, deadline=None)
@given(arrays_with_shared_fields())
def test_property_shared_fields_hoisted_and_restorable(case):
    wrap, items, shared = case
    value = items if wrap == "list" else {"meta": {"items": items}}
    plan: dict = {}
    hoisted, notes = hoist_shared(value, plan=plan)
    back = _restore(hoisted, (), False, plan)
    assert json.dumps(back, sort_keys=True) == json.dumps(value, sort_keys=True)
    if sum(len(json.dumps(k)) + len(json.dumps(v)) + 2 for k, v in shared.items()) * (len(items) - 1) > 80:
        sig = (EACH,) if wrap == "list" else ("meta", "items", EACH)
        assert set(plan.get(sig, {})) >= set(shared), (plan, shared)
        assert all(not (set(x) & set(shared)) for x in (hoisted if wrap == "list" else hoisted["meta"]["items"]))


def _expand(line: str) -> list[str]:
    """The test's reading of a version-runs line, as a shell expands braces."""
    import re

    head, body = line.split("] ", 1)
    out = []
    for part in body.split(", "):
        m = re.fullmatch(r"(\d+\.\d+\.)\{(\d+)\.\.(\d+)\}", part)
        out.extend([m.group(1) + str(k) for k in range(int(m.group(2)), int(m.group(3)) + 1)] if m else [part])
    assert head == f"[sqz: {len(out)} versions"
    return out


def test_version_lists_become_runs_in_order_other_lists_stay():
    from sqz_core.kinds.json_doc import compact_versions

    vs = ["0.14.0", "0.14.1", "1.0.0", "1.0.1", "1.0.2", "2.0.0", "3.0.0-rc1", "3.0.0", "3.0.1", "3.0.2",
          "3.0.3", "3.1.0", "3.1.2", "3.1.3", "3.1.4"]
    out = compact_versions({"versions": vs, "keywords": ["web", "http"], "n": [1, 2, 3]})
    assert out["versions"] == ("[sqz: 15 versions] 0.14.{0..1}, 1.0.{0..2}, 2.0.0, 3.0.0-rc1, 3.0.{0..3}, "
                               "3.1.0, 3.1.{2..4}")
    assert out["keywords"] == ["web", "http"] and out["n"] == [1, 2, 3]
    assert _expand(out["versions"]) == vs
    scattered = ["1.0.0", "2.0.0", "3.0.0", "4.0.0", "5.0.0", "6.0.0", "7.0.0", "8.0.0"]
    assert compact_versions(scattered) == scattered  # nothing to shorten: the list as it is
    padded = ["1.0.01", "1.0.02", "1.0.03", "1.0.04", "1.0.05", "1.0.06", "1.0.07", "1.0.08"]
    assert compact_versions(padded) == padded


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(st.builds(lambda a, b, c: f"{a}.{b}.{c}", st.integers(0, 2), st.integers(0, 2),
                                    st.integers(0, 12)),
                          st.sampled_from(["1.0.0-rc1", "2.0.0beta", "v3", "1.2", "01.2.3"])), max_size=60))
def test_property_version_runs_expand_to_the_list(vs):
    from sqz_core.kinds.json_doc import compact_versions

    out = compact_versions(vs)
    if isinstance(out, str):
        assert _expand(out) == vs
    else:
        assert out == vs


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 3), st.integers(0, 3), st.integers(0, 5), st.integers(1, 6)),
                min_size=2, max_size=12))
def test_property_runs_of_patches_round_trip(runs):
    from sqz_core.kinds.json_doc import compact_versions

    vs = [f"{a}.{b}.{c + k}" for a, b, c, n in runs for k in range(n)]
    out = compact_versions(vs)
    assert (_expand(out) if isinstance(out, str) else out) == vs
    if isinstance(out, str):
        assert len(out) < sum(len(x) + 3 for x in vs)


@settings(max_examples=300, deadline=None)
@given(st.one_of(
    JSON.map(json.dumps),
    st.integers(1, 3000).map(lambda d: "[" * d + "]" * d),
    st.integers(1, 3000).map(lambda d: '{"a":' * d + "1" + "}" * d),
    st.text(st.sampled_from('{}[]":,1a \n'), max_size=200)))
def test_property_json_kinds_never_raise(text):
    for f, t in ((compress_json, text), (compress_jsonl, (text + "\n") * 3)):
        out = f(FormatRequest(t, "cat data.json"))
        assert out is None or (isinstance(out, str) and out.endswith("\n"))


def test_same_as_needs_exact_equality_and_many_siblings_stay_fast():
    import time

    ints = list(range(1, 30))
    assert same_as_sibling({"a": ints, "b": [True] + ints[1:]}) == {"a": ints, "b": [True] + ints[1:]}
    assert same_as_sibling({"a": ints, "b": [1.0] + ints[1:]})["b"] == [1.0] + ints[1:]
    assert same_as_sibling({"a": ints, "b": list(ints)})["b"] == "[sqz: same as a]"
    big = {f"k{i}": {"a": [1, 2, 3] * 20} for i in range(20000)}
    t = time.perf_counter()
    out = same_as_sibling(big)
    assert time.perf_counter() - t < 3.0
    assert out["k0"] == {"a": [1, 2, 3] * 20} and out["k19999"] == "[sqz: same as k0]"


def test_objects_of_one_shape_among_others_share_a_note():
    res = [{"address": "bucket", "name": "bucket", "input": {"size": 80}}]
    res += [{"address": f"server[{i}]", "name": "server", "index": i,
             "input": {"cpu": 2, "env": "staging", "memory_mb": 4096, "image": f"app:{i}", "zone": f"z{i % 2}"}}
            for i in range(8)]
    plan: dict = {}
    value, notes = hoist_shared({"resources": res}, plan=plan)
    assert notes == ['[every resources[] with fields address,index,input has "name":"server"]',
                     '[every resources[].input with fields image,zone has "cpu":2,"env":"staging","memory_mb":4096]']
    assert value["resources"][0] == res[0]
    assert value["resources"][3] == {"address": "server[2]", "index": 2, "input": {"image": "app:2", "zone": "z0"}}
    assert _restore(value, (), False, plan) == {"resources": res}


def test_no_shape_note_when_other_objects_have_those_fields_too():
    res = [{"id": i, "kind": "a", "flag": True, "extra": i} for i in range(2)]
    res += [{"id": i, "kind": "b", "flag": True} for i in range(5)]
    plan: dict = {}
    value, notes = hoist_shared(res, plan=plan)
    # "every [] with fields id has …" would also read on the first two objects ({id, extra, …} ⊇ {id})
    assert all("with fields id has" not in n for n in notes)
    assert _restore(value, (), False, plan) == res


@settings(max_examples=300, deadline=None)
@given(arrays_with_shared_fields(), st.lists(st.dictionaries(st.sampled_from(["name", "req", "v", "w", "kind"]),
                                                            SCALAR, max_size=4), max_size=4), st.randoms())
def test_property_mixed_shapes_restore_exactly(case, others, rnd):
    _, items, _ = case
    mixed = items + others
    rnd.shuffle(mixed)
    plan: dict = {}
    hoisted, notes = hoist_shared({"xs": mixed}, plan=plan)
    assert len(notes) == len(plan)
    assert json.dumps(_restore(hoisted, (), False, plan), sort_keys=True) == json.dumps({"xs": mixed}, sort_keys=True)


REPO = __import__("pathlib").Path(__file__).resolve().parents[3]


def test_terraform_state_every_resource_and_value_survives():
    """``terraform show -json`` (the cloud pack leaves it to this kind): each resource's address,
    its own values, and the shared ones once in a note."""
    text = (REPO / "sqz_formatters_cloud/tests/fixtures/terraform/show_json.txt").read_text()
    out = compress_json(FormatRequest(text, "terraform show -json"))
    doc = json.loads(text)
    lines = out.splitlines()
    body = lines[-1]
    for r in doc["values"]["root_module"]["resources"]:
        assert json.dumps(r["address"]) in body
        assert r["values"]["id"] in body
    assert ('[every values.root_module.resources[].values.input with fields image,name,zone has '
            '"cpu":2,"env":"staging","memory_mb":4096,"ports":[80,443],"subnet":"subnet-9a478aa5"]') in lines
    assert '"image":"registry.internal/app:1.5.0","name":"web-03","zone":"eu-west-1a"' in body
    assert '"format_version":"1.0"' in body
    assert '"output":{"image"' not in body and '"output":{"cpu"' not in body  # the same as its input: said once
    assert len(out) < len(text) * 0.6


def test_fixture_documents_restore_from_their_notes():
    for rel, cmd in (("sqz_formatters_cloud/tests/fixtures/terraform/show_json.txt", "terraform show -json"),
                     ("sqz_core/tests/fixtures/kinds/json/cargo_metadata.txt", "cargo metadata --format-version 1"),
                     ("sqz_core/tests/fixtures/kinds/json/pip_inspect.txt", "pip inspect")):
        before = same_as_sibling(prune(json.loads((REPO / rel).read_text())))
        plan: dict = {}
        hoisted, notes = hoist_shared(before, plan=plan)
        assert notes and len(notes) == len(plan)
        assert json.dumps(_restore(hoisted, (), False, plan), sort_keys=True) == json.dumps(before, sort_keys=True)
