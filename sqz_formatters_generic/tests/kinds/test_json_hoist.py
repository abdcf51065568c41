"""JSON kind: fields shared by every item of an array said once, values equal to a sibling's
written "same as", objects emptied by pruning dropped; nothing else changes."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from sqz_formatters_generic.kinds.json_doc import EACH, MIN_ITEMS, compress_json, compress_jsonl, hoist_shared, prune, same_as_sibling
from sqz_core.request import FormatRequest
from sqz_testing import grows_linearly, work_done


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
    from sqz_formatters_generic.kinds.json_doc import compact_versions

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
    from sqz_formatters_generic.kinds.json_doc import compact_versions

    out = compact_versions(vs)
    if isinstance(out, str):
        assert _expand(out) == vs
    else:
        assert out == vs


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 3), st.integers(0, 3), st.integers(0, 5), st.integers(1, 6)),
                min_size=2, max_size=12))
def test_property_runs_of_patches_round_trip(runs):
    from sqz_formatters_generic.kinds.json_doc import compact_versions

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


def test_same_as_needs_exact_equality_and_many_siblings_stay_linear():
    ints = list(range(1, 30))
    assert same_as_sibling({"a": ints, "b": [True] + ints[1:]}) == {"a": ints, "b": [True] + ints[1:]}
    assert same_as_sibling({"a": ints, "b": [1.0] + ints[1:]})["b"] == [1.0] + ints[1:]
    assert same_as_sibling({"a": ints, "b": list(ints)})["b"] == "[sqz: same as a]"
    big = {f"k{i}": {"a": [1, 2, 3] * 20} for i in range(20000)}
    out = same_as_sibling(big)
    assert out["k0"] == {"a": [1, 2, 3] * 20} and out["k19999"] == "[sqz: same as k0]"
    # linear in the number of siblings: each is compared with a bounded number of earlier ones
    # siblings of one type and length that all differ: the case where comparing each with every
    # earlier one would be quadratic
    distinct = {f"k{i}": [i] + [1, 2, 3] * 20 for i in range(10000)}
    small, n_small = work_done(same_as_sibling, dict(list(distinct.items())[:2500]))
    large, n_large = work_done(same_as_sibling, distinct)
    assert large == distinct and grows_linearly(n_small, n_large, 4), (n_small, n_large)


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
                     ("sqz_formatters_generic/tests/fixtures/kinds/json/cargo_metadata.txt",
                      "cargo metadata --format-version 1"),
                     ("sqz_formatters_generic/tests/fixtures/kinds/json/pip_inspect.txt", "pip inspect")):
        before = same_as_sibling(prune(json.loads((REPO / rel).read_text())))
        plan: dict = {}
        hoisted, notes = hoist_shared(before, plan=plan)
        assert notes and len(notes) == len(plan)
        assert json.dumps(_restore(hoisted, (), False, plan), sort_keys=True) == json.dumps(before, sort_keys=True)


# ------------------------------------------- a reader of the text: notes, markers, runs

def _read_path(s: str, i: int) -> tuple[list, int]:
    """A note's path (``a[]["b.c"][]``) from ``s[i:]``, up to the space that ends it."""
    dec = json.JSONDecoder()
    path: list = []
    while i < len(s) and s[i] != " ":
        if s.startswith("[]", i):
            path.append(EACH)
            i += 2
        elif s.startswith('["', i):
            key, i = dec.raw_decode(s, i + 1)
            assert s[i] == "]", s
            path.append(key)
            i += 1
        elif s[i] == ".":
            i += 1
        else:
            j = i
            while j < len(s) and (s[j].isascii() and (s[j].isalnum() or s[j] in "_$@-")):
                j += 1
            assert j > i, (s, i)
            path.append(s[i:j])
            i = j
    return path, i


def _parse_note(line: str):
    """(path, fields or None, body) of ``[every PATH (with fields F,…)? has "k":v,…]``."""
    assert line.startswith("[every ") and line.endswith("]"), line
    path, i = _read_path(line, len("[every "))
    fields = None
    if line.startswith(" with fields ", i):
        i += len(" with fields ")
        fields = []
        while True:   # keys, bare or ["quoted"], separated by commas
            if line.startswith('["', i):
                key, i = json.JSONDecoder().raw_decode(line, i + 1)
                i += 1
            else:
                j = i
                while line[j] not in ", ":
                    j += 1
                key, i = line[i:j], j
            fields.append(key)
            if line[i] != ",":
                break
            i += 1
    assert line.startswith(" has ", i), (line, i)
    body = json.loads("{" + line[i + len(" has "):-1] + "}")
    return path, fields, body


def _at(v, path):
    if not path:
        yield v
        return
    head, rest = path[0], path[1:]
    if head is EACH and isinstance(v, list):
        for x in v:
            yield from _at(x, rest)
    elif head is not EACH and isinstance(v, dict) and head in v:
        yield from _at(v[head], rest)


def _root_path(s: str) -> list:
    """``$.a["b.c"][2].d`` → ["a", "b.c", 2, "d"]."""
    assert s.startswith("$"), s
    dec, path, i = json.JSONDecoder(), [], 1
    while i < len(s):
        if s.startswith('["', i):
            key, i = dec.raw_decode(s, i + 1)
            assert s[i] == "]", s
            path.append(key)
            i += 1
        elif s[i] == "[":
            j = s.index("]", i)
            path.append(int(s[i + 1:j]))
            i = j + 1
        else:
            assert s[i] == ".", s
            j = i + 1
            while j < len(s) and s[j] not in ".[":
                j += 1
            path.append(s[i + 1:j])
            i = j
    return path


def _resolve_earlier(doc):
    """``"[sqz: same as $.PATH]"`` → a copy of the value written at PATH (earlier in the document,
    so already resolved when the walk, in document order, reaches the marker)."""
    def walk(v):
        items = v.items() if isinstance(v, dict) else enumerate(v) if isinstance(v, list) else ()
        for k, x in list(items):
            if isinstance(x, str) and x.startswith("[sqz: same as $") and x.endswith("]"):
                target = doc
                for part in _root_path(x[len("[sqz: same as "):-1]):
                    target = target[part]
                v[k] = json.loads(json.dumps(target))
            else:
                walk(x)
    walk(doc)
    return doc


def _resolve(v):
    """``"[sqz: same as K]"`` → sibling K's value; ``"[sqz: N versions] …"`` → the list."""
    if isinstance(v, list):
        return [_resolve(x) for x in v]
    if not isinstance(v, dict):
        if isinstance(v, str) and v.startswith("[sqz: ") and " versions] " in v:
            return _expand(v)
        return v
    out = {k: _resolve(x) for k, x in v.items()
           if not (isinstance(x, str) and x.startswith("[sqz: same as "))}
    for k, x in v.items():
        if isinstance(x, str) and x.startswith("[sqz: same as "):
            sib = x[len("[sqz: same as "):-1]
            assert sib in out and list(v).index(sib) < list(v).index(k), (k, x)
            out[k] = json.loads(json.dumps(out[sib]))
    return {k: out[k] for k in v}


def _read_back(text: str):
    """What a reader rebuilds from ``compress_json``'s text by its documented notes."""
    from sqz_formatters_generic.kinds.toon import decode

    lines = text.rstrip("\n").split("\n")
    notes = []
    while lines and lines[0].startswith("[every "):
        notes.append(_parse_note(lines.pop(0)))
    body = "\n".join(lines)
    try:
        doc = json.loads(body)
    except ValueError:
        doc = decode(body)
    targets = []   # every object a note reads on, found before any note is applied
    for path, fields, note in notes:
        for obj in _at(doc, path):
            # objects only: a note says nothing of a null among them
            if isinstance(obj, dict) and (fields is None or set(fields) <= set(obj)):
                targets.append((obj, note))
    for obj, note in targets:
        assert not (set(obj) & set(note)), (obj, note)   # a note never overrides a written field
        obj.update(note)
    return _resolve(_resolve_earlier(doc))


KEYS = st.sampled_from(["k", "x", "name", "req", "a.b", "x[]", "[]", 'q"t', "é", "名", "", "a,b", " has ", "has",
                        "with fields", "input", "output", "$", "$x", "$.a"])
TRAPS = st.sampled_from(["[every k has 1]", "1.0.0", "1", "a long value that is repeated as a sibling",
                         "…[+3 chars]", "[]", "{}", "0.14.{0..1}", "1.0.0, 1.0.1"])
MARKERS = st.sampled_from(["[sqz: same as k]", "[sqz: 8 versions] 1.0.{0..7}", "x [sqz: 2 versions] 1.0.0"])
LEAF = st.one_of(SCALAR, TRAPS, st.floats(allow_nan=False, allow_infinity=False), st.integers(-2**70, 2**70))
VERSIONS = st.lists(st.tuples(st.integers(0, 2), st.integers(0, 2), st.integers(0, 5), st.integers(1, 6)),
                    min_size=2, max_size=6).map(lambda runs: [f"{a}.{b}.{c + k}" for a, b, c, n in runs
                                                              for k in range(n)])
NODE = st.recursive(st.one_of(LEAF, VERSIONS), lambda kids: st.one_of(
    st.lists(kids, max_size=5), st.dictionaries(KEYS, kids, max_size=5)), max_leaves=30)


@st.composite
def documents(draw):
    """Objects with arrays of look-alike items (so notes are written) and equal siblings."""
    item = draw(st.dictionaries(KEYS, NODE, min_size=1, max_size=5))
    shared = draw(st.dictionaries(KEYS, st.one_of(LEAF, st.text(min_size=15, max_size=25)), max_size=3))
    n = draw(st.integers(0, 6))
    items = [{**item, **shared, **draw(st.dictionaries(KEYS, LEAF, max_size=2))} for _ in range(n)]
    doc = draw(st.dictionaries(KEYS, NODE, max_size=4))
    doc[draw(KEYS)] = items
    if draw(st.booleans()):
        doc["input"] = doc["output"] = draw(NODE)
    if draw(st.sampled_from([False] * 7 + [True])):
        doc[draw(KEYS)] = draw(MARKERS)   # a value that already reads as one of our markers
    return doc if draw(st.booleans()) else [doc, draw(NODE)]


@settings(max_examples=500, deadline=None)
@given(documents())
def test_property_reader_rebuilds_the_pruned_document_or_we_refuse(value):
    text = json.dumps(value, ensure_ascii=False, indent=1)
    out = compress_json(FormatRequest(text, "tool --json"))
    if out is None:   # refused: only for a document that already holds one of our markers
        assert "[sqz:" in text
        return
    assert "[sqz:" not in text
    back = _read_back(out)
    assert json.dumps(back, sort_keys=True) == json.dumps(prune(value), sort_keys=True), out


def test_keys_with_path_characters_are_quoted_in_notes():
    items = [{"id": i, "kubectl.kubernetes.io/x": "a value shared by every item here", "a,b": True} for i in range(4)]
    doc = {"metadata": {"a.b": items}}
    out = compress_json(FormatRequest(json.dumps(doc, indent=2), "kubectl get -o json"))
    assert out.splitlines()[0] == ('[every metadata["a.b"][] has "kubectl.kubernetes.io/x":'
                                   '"a value shared by every item here","a,b":true]')
    assert json.dumps(_read_back(out), sort_keys=True) == json.dumps(doc, sort_keys=True)
    # an array inside an array and a key spelled "[]" are two places, not one
    both = {"a": [[{"v": i, "s": "shared by the items in the inner arrays"}] for i in range(4)]
            + [{"[]": {"v": i, "s": "other"}} for i in range(4)]}
    out = compress_json(FormatRequest(json.dumps(both), "tool --json"))
    assert json.dumps(_read_back(out), sort_keys=True) == json.dumps(both, sort_keys=True)
    assert '[every a[][] has "s":"shared by the items in the inner arrays"]' in out


def test_what_cannot_be_said_faithfully_is_left_as_it_is():
    for text in ['{"name": "a", "name": "b", "x": [1, 2, 3]}',              # a key twice: json keeps the last
                 '[{"a": 1}, {"a": 1, "a": 2}]',
                 '{"big": 1e400, "pad": [null, null]}',                    # not a double
                 '{"pi": 3.14159265358979323846264338327950288, "n": null}',  # more digits than a double
                 '{"input": [1, 2, 3], "output": "[sqz: same as input]", "n": null}',
                 '{"versions": "[sqz: 3 versions] 1.0.{0..2}", "n": null}']:
        assert compress_json(FormatRequest(text, "tool --json")) is None, text
    assert compress_json(FormatRequest('{"n": 1e-7, "x": null}', "t")) is not None   # notation differs, value same
    lines = "\n".join(['{"type":"a","k":1,"s":"some shared value for the records"}'] * 4)
    assert compress_jsonl(FormatRequest(lines + '\n{"type":"b","k":1,"k":2}\n', "t")) is None
    assert compress_jsonl(FormatRequest(lines + '\n[every "type":"a" line has "k":1]\n', "t")) is None
    assert compress_jsonl(FormatRequest(lines + '\n{"type":"c","m":"[sqz: same as k]"}\n', "t")) is None
    assert compress_jsonl(FormatRequest(lines + "\n", "t")) is not None


def test_long_arrays_stay_linear_and_faithful():
    items = [{"name": f"pkg-{i}", "version": f"1.{i % 7}.{i}", "optional": False, "req": "*",
              "tags": ["x", str(i % 3)], "n": i if i % 2 else str(i)} for i in range(20000)]
    text = json.dumps({"packages": items})
    out = compress_json(FormatRequest(text, "tool --json"))
    assert out.startswith('[every packages[] has "optional":false,"req":"*"]')
    back = _read_back(out)
    assert back == {"packages": items}
    assert [type(x["n"]) for x in back["packages"][:2]] == [str, int]   # "0" stays a string, 1 a number
    # linear: the work on 4 × the items is about 4 × the work (a pass quadratic in them: 16 ×)
    small, n_small = work_done(compress_json, FormatRequest(json.dumps({"packages": items[:1500]}), "tool --json"))
    large, n_large = work_done(compress_json, FormatRequest(json.dumps({"packages": items[:6000]}), "tool --json"))
    assert _read_back(large) == {"packages": items[:6000]}
    assert grows_linearly(n_small, n_large, 4), (n_small, n_large)


def _read_back_jsonl(text: str) -> list:
    """What a reader rebuilds from ``compress_jsonl``'s text: records (dicts) and other lines."""
    import re

    from sqz_formatters_generic.kinds.toon import decode_table

    dec = json.JSONDecoder()
    lines = (text[:-1] if text.endswith("\n") else text).split("\n")
    notes, out, i = [], [], 0
    while i < len(lines):
        line = lines[i]
        if line.startswith('[every "'):
            k, j = dec.raw_decode(line, len("[every "))
            assert line[j] == ":"
            v, j = dec.raw_decode(line, j + 1)
            rest = line[j:]
            path = []
            if rest.startswith(" line's "):
                path, n = _read_path(rest, len(" line's "))
                rest = rest[n:]
            else:
                assert rest.startswith(" line "), rest
                rest = rest[len(" line"):]
            _, fields, body = _parse_note("[every []" + rest)
            notes.append(((k, v), path, fields, body))
            i += 1
        elif line.startswith("[every row below has "):
            # fields every row of the table under it shares
            shared = json.loads("{" + line[len("[every row below has "):-1] + "}")
            m = re.match(r"\[(\d+)\]\{", lines[i + 1])
            assert m, lines[i + 1]
            j = i + 2 + int(m.group(1))
            rows = decode_table(lines[i + 1:j])[1]
            for row in rows:
                assert not (set(row) & set(shared)), (row, shared)
                row.update(shared)
            out.extend(rows)
            i = j
        elif m := re.match(r"\[(\d+)\]\{", line):
            j = i + 1 + int(m.group(1))   # the header counts the rows: an indented line after them is not one
            out.extend(decode_table(lines[i:j])[1])
            i = j
        elif line.startswith("{"):
            out.append(json.loads(line))
            i += 1
        else:
            out.append(line)
            i += 1
    targets = []
    for disc, path, fields, body in notes:
        for rec in out:
            if isinstance(rec, dict) and rec and next(iter(rec.items())) == disc:
                for obj in _at(rec, path):
                    if isinstance(obj, dict) and (fields is None or set(fields) <= set(obj)):
                        targets.append((obj, body))
    for obj, body in targets:
        assert not (set(obj) & set(body)), (obj, body)
        obj.update(body)
    return out


RECORD = st.builds(lambda first, rest: {**first, **rest},
                   st.one_of(st.fixed_dictionaries({"reason": st.sampled_from(["artifact", "message"])}),
                             st.dictionaries(KEYS, LEAF, max_size=1)),
                   st.dictionaries(st.one_of(KEYS, st.just("reason")),
                                   st.one_of(LEAF, st.sampled_from(["the records of one type share it", "artifact"]),
                                             st.dictionaries(KEYS, LEAF, max_size=2)), max_size=4))


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(RECORD, RECORD, st.sampled_from(["   Compiling x v0.1.0", "warning: y", ""])),
                min_size=2, max_size=12))
def test_property_jsonl_reader_rebuilds_every_record_or_we_refuse(items):
    text = "\n".join(x if isinstance(x, str) else json.dumps(x, ensure_ascii=False) for x in items) + "\n"
    out = compress_jsonl(FormatRequest(text, "cargo build --message-format=json"))
    if out is None:
        assert sum(isinstance(x, dict) for x in items) < 2 or "[sqz:" in text
        return
    want = [prune(x) if isinstance(x, dict) else x for x in items]
    got = _read_back_jsonl(out)
    assert json.dumps(got, sort_keys=True) == json.dumps(want, sort_keys=True), out


def test_a_record_type_is_not_noted_when_another_line_shows_its_field_further_in():
    recs = [{"reason": "m", "n": i, "s": "shared value for every record here"} for i in range(4)]
    text = "\n".join(json.dumps(r) for r in recs + [{"id": 5, "reason": "m"}]) + "\n"
    out = compress_jsonl(FormatRequest(text, "t"))
    # no note for the type (a line further in shows its field); the four records' table says
    # what its rows share above it instead
    assert '[every "reason"' not in out and out.count("shared value for every record here") == 1
    assert out.startswith('[every row below has "reason":"m","s":"shared value for every record here"]\n[4]{n}:')
    assert _read_back_jsonl(out) == recs + [{"id": 5, "reason": "m"}]


def test_bookkeeping_goes_only_with_an_id_like_value_and_the_applied_annotation_keeps_its_key():
    doc = {"dependencies": {"etag": "~1.8.1", "send": "0.19.0"}, "ETag": '"33a64df551425fcc55e4d42a148795d9"',
           "requestId": "7f3c2a9e-1d4b-4c8a-9e2f-0b1c2d3e4f50",
           "metadata": {"managedFields": [{"manager": "kubectl"}], "name": "web", "annotations": {
               "kubectl.kubernetes.io/last-applied-configuration": '{"kind":"Deployment"}\n'}}}
    assert prune(doc) == {"dependencies": {"etag": "~1.8.1", "send": "0.19.0"}, "metadata": {
        "name": "web", "annotations": {"kubectl.kubernetes.io/last-applied-configuration":
                                       "[sqz: value dropped, 22 chars]"}}}
    rows = [{"name": "etag", "etag": "~1.8.1"}, {"name": "x", "etag": "W/\"0815abcdef0123456789\""}]
    assert prune(rows) == rows   # a column that is not bookkeeping in every row stays


