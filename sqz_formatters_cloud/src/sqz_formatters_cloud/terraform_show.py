"""``terraform show -json`` of a state: one line per resource, its address then its values.

The state JSON repeats, for every resource, what its address already says (``mode``,
``type``, ``name``, ``index``), what every resource shares (``provider_name``,
``schema_version``: said once), an all-false ``sensitive_values`` (nothing is sensitive)
and, for ``terraform_data``, an ``output`` equal to its ``input``. Those go, a legend line
says which; every value of every resource, the outputs and the versions stay, as JSON.
Anything but a state of that shape (a plan's JSON, an unknown key) → None, left to the
generic JSON stage.
"""

from __future__ import annotations

import json

_TOP = frozenset({"format_version", "terraform_version", "values"})
_VALUES = frozenset({"outputs", "root_module"})


def _dump(value) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def _any_true(value) -> bool:
    """Whether a ``true`` is anywhere in ``value`` (an explicit stack: any depth)."""
    todo = [value]
    while todo:
        value = todo.pop()
        if isinstance(value, dict):
            todo.extend(value.values())
        elif isinstance(value, list):
            todo.extend(value)
        elif value is True:
            return True
    return False


def _resources(module: dict, out: list) -> bool:
    """Every resource of ``module`` and its child modules, in order (an explicit stack: modules
    nested at any depth); False on an unknown shape."""
    todo = [module]
    while todo:
        module = todo.pop()
        if not isinstance(module, dict) or not set(module) <= {"resources", "child_modules", "address"}:
            return False
        resources, children = module.get("resources", []), module.get("child_modules", [])
        if not isinstance(resources, list) or not isinstance(children, list):
            return False
        for r in resources:
            if not isinstance(r, dict) or not isinstance(r.get("address"), str):
                return False
            out.append(r)
        todo.extend(reversed(children))
    return True


def _named_by_address(r: dict) -> bool:
    """Whether ``mode``/``type``/``name``/``index`` can be read back from the address."""
    mode, typ, name = r.get("mode"), r.get("type"), r.get("name")
    if mode not in ("managed", "data") or not isinstance(typ, str) or not isinstance(name, str):
        return False
    tail = ("data." if mode == "data" else "") + f"{typ}.{name}"
    if "index" in r:
        tail += f"[{_dump(r['index'])}]"
    return r["address"] == tail or r["address"].endswith("." + tail)


def format_show_json(text: str) -> str | None:
    try:
        return _format(text)
    except RecursionError:      # JSON nested deeper than the json module reads or writes
        return None


def _format(text: str) -> str | None:
    try:
        doc = json.loads(text)
    except ValueError:
        return None
    if not isinstance(doc, dict) or not set(doc) <= _TOP or not isinstance(doc.get("values"), dict):
        return None
    values = doc["values"]
    if not set(values) <= _VALUES:
        return None
    resources: list[dict] = []
    if not _resources(values.get("root_module", {}), resources) or not resources:
        return None
    shared = {}
    for key in ("provider_name", "schema_version"):
        seen = {_dump(r[key]) if key in r else None for r in resources}
        if len(seen) == 1 and None not in seen:
            shared[key] = resources[0][key]
    dropped = {"address": False, "sensitive": False, "output": False}
    lines = []
    for r in resources:
        rest = {k: v for k, v in r.items() if k != "address" and k not in shared}
        if _named_by_address(r):
            for k in ("mode", "type", "name", "index"):
                rest.pop(k, None)
            dropped["address"] = True
        if "sensitive_values" in rest and not _any_true(rest["sensitive_values"]):
            del rest["sensitive_values"]
            dropped["sensitive"] = True
        vals = rest.get("values")
        if isinstance(vals, dict) and "output" in vals and vals.get("output") == vals.get("input"):
            rest["values"] = {k: v for k, v in vals.items() if k != "output"}
            dropped["output"] = True
        lines.append(f"{r['address']} {_dump(rest)}")
    notes = []
    if dropped["address"]:
        notes.append('"mode", "type", "name", "index" as in the address')
    notes.extend(f'"{k}":{_dump(v)} on every resource' for k, v in shared.items())
    if dropped["sensitive"]:
        notes.append('"sensitive_values" left out where none is true')
    if dropped["output"]:
        notes.append('"output" left out where it equals "input"')
    head = {k: doc[k] for k in ("format_version", "terraform_version") if k in doc}
    out = [_dump(head), f"[state: {len(resources)} resources, one a line" + "".join("; " + n for n in notes) + "]"]
    if "outputs" in values:
        out.append(f'"outputs":{_dump(values["outputs"])}')
    out.extend(lines)
    return "\n".join(out) + "\n"
