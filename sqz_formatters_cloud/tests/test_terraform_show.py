"""``terraform show -json`` of a state: one resource a line, and every value reads back."""

from __future__ import annotations

import json
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st
from sqz_core import FormatRequest
from sqz_testing import load_fixture

from sqz_formatters_cloud import terraform_cli
from sqz_formatters_cloud.terraform_show import format_show_json

FIX = Path(__file__).parent / "fixtures" / "terraform"


def test_state_is_one_resource_a_line_with_the_shared_and_derivable_keys_said_once():
    text = load_fixture(FIX / "show_json.txt").request().text
    out = terraform_cli.sqz_format(request=FormatRequest(text, "terraform show -json"))
    lines = out.rstrip("\n").split("\n")
    assert lines[0] == '{"format_version":"1.0","terraform_version":"1.11.4"}'
    assert lines[1].startswith('[state: 18 resources, one a line; "mode", "type", "name", "index" as in the address; '
                               '"provider_name":"pkgs.example.org/builtin/terraform" on every resource; '
                               '"schema_version":0 on every resource;')
    assert lines[2].startswith('"outputs":{"server_names":{"sensitive":false,"value":["web-01",')
    assert lines[3] == ('terraform_data.bucket {"values":{"id":"53543faf-6a1e-f810-4c61-b0491cbc339d","input":{"name":'
                        '"artifacts","size_gb":80,"tags":["team-platform","cost-center-42"]},"triggers_replace":null}}')
    assert lines[-1] == ('module.network.terraform_data.vpc {"values":{"id":"76f9773e-eae2-4223-0a40-f51efab1cee0",'
                         '"input":{"cidr":"10.20.0.0/16"},"triggers_replace":null}}')
    assert len(lines) == 3 + 18
    shared = '"provider_name":"pkgs.example.org/builtin/terraform","schema'
    for gone in ('"sensitive_values"', '"mode"', shared, '"output"'):
        assert gone not in "\n".join(lines[3:])
    assert _no_sensitive(_read_back(out)) == _no_sensitive(_flat(json.loads(text)))


def test_a_plan_json_or_another_shape_is_left_to_the_generic_stage():
    plan = json.dumps({"format_version": "1.2", "terraform_version": "1.11.4", "planned_values": {}})
    assert terraform_cli.sqz_format(request=FormatRequest(plan, "terraform show -json tfplan")) is None
    assert format_show_json("not json") is None
    assert format_show_json(json.dumps({"values": {"root_module": {"resources": [], "x": 1}}})) is None
    assert format_show_json(json.dumps({"values": {"root_module": {}}})) is None  # an empty state


def test_a_sensitive_value_and_a_differing_output_stay():
    r = {"address": "aws_x.a", "mode": "managed", "type": "aws_x", "name": "a", "provider_name": "p",
         "schema_version": 1, "values": {"input": 1, "output": 2}, "sensitive_values": {"k": True}}
    out = format_show_json(json.dumps({"format_version": "1.0", "values": {"root_module": {"resources": [r]}}}))
    assert 'aws_x.a {"values":{"input":1,"output":2},"sensitive_values":{"k":true}}' in out
    assert '"sensitive_values" left out' not in out and '"output" left out' not in out


def _flat(doc):
    out = []

    def walk(m):
        out.extend(m.get("resources", []))
        for c in m.get("child_modules", []):
            walk(c)

    walk(doc["values"].get("root_module", {}))
    return {"head": {k: doc[k] for k in ("format_version", "terraform_version") if k in doc},
            "outputs": doc["values"].get("outputs"), "resources": out}


def _read_back(out):
    """The state's resources rebuilt from the rendering and its legend line."""
    lines = out.rstrip("\n").split("\n")
    head, legend = json.loads(lines[0]), lines[1]
    outputs, rest = None, lines[2:]
    if rest and rest[0].startswith('"outputs":'):
        outputs = json.loads(rest[0][len('"outputs":'):])
        rest = rest[1:]
    shared = {}
    for key in ("provider_name", "schema_version"):
        mark = f'"{key}":'
        if mark in legend:
            shared[key] = json.JSONDecoder().raw_decode(legend[legend.index(mark) + len(mark):])[0]
    resources = []
    for line in rest:
        address, _, body = line.partition(" {")
        body = json.loads("{" + body)
        r = {"address": address}
        if "mode" not in body:  # said by the address: [module.M.]*[data.]TYPE.NAME[INDEX]
            tail = address
            while tail.startswith("module."):
                tail = tail.split(".", 2)[2]
            r["mode"] = "data" if tail.startswith("data.") else "managed"
            tail = tail.removeprefix("data.")
            typ, _, name = tail.partition(".")
            r["type"] = typ
            if "[" in name:
                name, _, idx = name.partition("[")
                r["name"], r["index"] = name, json.loads(idx[:-1])
            else:
                r["name"] = name
        r.update(shared)
        r.update(body)
        vals = r.get("values")
        if isinstance(vals, dict) and "input" in vals and "output" not in vals and '"output" left out' in legend:
            vals["output"] = vals["input"]
        if "sensitive_values" not in r and '"sensitive_values" left out' in legend:
            r["sensitive_values"] = None  # all false: compared by _no_sensitive below
        resources.append(r)
    return {"head": head, "outputs": outputs, "resources": resources}


_NAME = st.text(alphabet="abcxyz_", min_size=1, max_size=6)
_SCALAR = st.one_of(st.none(), st.booleans(), st.integers(-5, 5000), st.text(alphabet="ab-. /\"", max_size=8))
_VALUE = st.recursive(_SCALAR, lambda inner: st.one_of(st.lists(inner, max_size=3),
                                                       st.dictionaries(_NAME, inner, max_size=3)), max_leaves=8)


@st.composite
def _resource(draw, module):
    mode = draw(st.sampled_from(["managed", "data"]))
    typ, name = draw(_NAME), draw(_NAME)
    r = {"address": "", "mode": mode, "type": typ, "name": name}
    index = draw(st.one_of(st.none(), st.integers(0, 3), st.text(alphabet="web-0123", min_size=1, max_size=6)))
    if index is not None:
        r["index"] = index
    address = ("data." if mode == "data" else "") + f"{typ}.{name}"
    if index is not None:
        address += f"[{json.dumps(index)}]"
    r["address"] = f"{module}.{address}" if module else address
    r["provider_name"] = draw(st.sampled_from(["pkgs.example.org/hashicorp/aws", "pkgs.example.org/builtin/terraform"]))
    r["schema_version"] = draw(st.sampled_from([0, 1]))
    inp = draw(_VALUE)
    r["values"] = {"id": draw(_NAME), "input": inp, "output": inp if draw(st.booleans()) else draw(_VALUE)}
    r["sensitive_values"] = draw(st.dictionaries(_NAME, st.booleans(), max_size=2))
    return r


@st.composite
def _state(draw):
    root = draw(st.lists(_resource(""), min_size=1, max_size=5))
    child = draw(st.lists(_resource("module.net"), max_size=3))
    mod = {"resources": root}
    if child:
        mod["child_modules"] = [{"address": "module.net", "resources": child}]
    values = {"root_module": mod}
    if draw(st.booleans()):
        values["outputs"] = {"names": {"sensitive": False, "value": draw(_VALUE)}}
    return {"format_version": "1.0", "terraform_version": "1.11.4", "values": values}


def _no_sensitive(flat):
    """``sensitive_values`` with no true in it compares as absent-of-secrets (None)."""
    for r in flat["resources"]:
        s = r.get("sensitive_values")
        if s is not None and "true" not in json.dumps(s):
            r["sensitive_values"] = None
    return flat


@settings(max_examples=300, deadline=None)
@given(_state())
def test_every_resource_value_reads_back_from_the_rendering(state):
    out = format_show_json(json.dumps(state))
    assert out is not None
    assert len(out.rstrip("\n").split("\n")) == 2 + ("outputs" in state["values"]) + len(_flat(state)["resources"])
    assert _no_sensitive(_read_back(out)) == _no_sensitive(_flat(state))


def test_json_nested_past_the_recursion_limit_is_left_alone_without_an_error():
    assert format_show_json("[" * 100_000 + "]" * 100_000) is None
    deep = '{"values":{"root_module":{"resources":[{"address":"a.b","sensitive_values":%s}]}}}'
    assert format_show_json(deep % ("[" * 100_000 + "]" * 100_000)) is None


def test_modules_nested_deep_keep_every_resource_in_order():
    module: dict = {"resources": [{"address": "r.last", "values": {}}]}
    for i in range(299, -1, -1):
        module = {"address": f"module.m{i}", "resources": [{"address": f"r.m{i}", "values": {"i": i}}],
                  "child_modules": [module]}
    module["resources"][0]["sensitive_values"] = {"deep": [[[[False]]]]}
    out = format_show_json(json.dumps({"values": {"root_module": module}}))
    addresses = [line.split(" ", 1)[0] for line in out.rstrip("\n").split("\n")[2:]]
    assert addresses == [f"r.m{i}" for i in range(300)] + ["r.last"]
    assert '"sensitive_values" left out where none is true' in out
