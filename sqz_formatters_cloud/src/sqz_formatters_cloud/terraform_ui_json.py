"""``terraform plan|apply|destroy -json``: the machine-readable UI stream, one JSON object a line.

Each record already carries its human line in ``@message`` (``terraform_data.db: Plan to
create``, ``Plan: 18 to add, 0 to change, 0 to destroy.``); the rest of it is that line
again as fields plus a timestamp, a module name and a UI version. The rendering is the
``@message`` of each record, plus what a record says beyond it:

- ``planned_change`` / ``resource_drift``: the reason of a replacement or a delete, a move's old address;
- ``outputs``: each output with its action (and value, when terraform printed one);
- ``diagnostic``: terraform's own layout (``on main.tf line 11, column 23, in resource …:``, the
  source line, the values of the expression, the detail).

A line that is not such a record, or a record of a type not listed in ``_KNOWN``, stays as it
is; input that is not a stream of them at all gets None.
"""

from __future__ import annotations

import json

# types whose fields beyond @message/@level/@module/@timestamp/type are rendered (or restate the message)
_KNOWN = frozenset({
    "version", "planned_change", "resource_drift", "change_summary", "outputs", "diagnostic", "log",
    "apply_start", "apply_progress", "apply_complete", "apply_errored", "refresh_start", "refresh_complete",
    "provision_start", "provision_progress", "provision_complete", "provision_errored",
})
_BASE = frozenset({"@level", "@message", "@module", "@timestamp", "type"})


def _record(line: str):
    s = line.strip()
    if not (s.startswith("{") and s.endswith("}")):
        return None
    try:
        v = json.loads(s)
    except ValueError:
        return None
    if not isinstance(v, dict) or not isinstance(v.get("@message"), str) or not isinstance(v.get("type"), str):
        return None
    return v


def _change_extra(change) -> str:
    if not isinstance(change, dict):
        return ""
    extra = []
    if change.get("reason"):
        extra.append(f"reason: {change['reason']}")
    prev = change.get("previous_resource")
    if isinstance(prev, dict) and prev.get("addr"):
        extra.append(f"moved from {prev['addr']}")
    return f" ({', '.join(extra)})" if extra else ""


def _outputs(outputs) -> list[str] | None:
    if not isinstance(outputs, dict):
        return None
    out = []
    for name, o in outputs.items():
        if not isinstance(o, dict):
            return None
        line = f"  {name}: {o.get('action', '?')}"
        if o.get("sensitive"):
            line += " (sensitive)"
        if "value" in o:
            line += " = " + json.dumps(o["value"], ensure_ascii=False)
        out.append(line)
    return out


def _diagnostic(d) -> list[str] | None:
    if not isinstance(d, dict):
        return None
    out = []
    rng, snip = d.get("range"), d.get("snippet")
    if isinstance(rng, dict) and rng.get("filename"):
        start = rng.get("start") or {}
        where = f"  on {rng['filename']} line {start.get('line', '?')}, column {start.get('column', '?')}"
        if isinstance(snip, dict) and snip.get("context"):
            where += f", in {snip['context']}"
        out.append(where + ":")
    if isinstance(snip, dict) and isinstance(snip.get("code"), str):
        out.append(f"  {snip.get('start_line', '?')}: {snip['code']}")
        for val in snip.get("values") or []:
            if isinstance(val, dict):
                out.append(f"    {val.get('traversal', '')} {val.get('statement', '')}".rstrip())
    if d.get("detail"):
        out.extend("  " + line if line else "" for line in str(d["detail"]).split("\n"))
    if d.get("address"):
        out.append(f"  (resource {d['address']})")
    return out


def render(v: dict) -> list[str] | None:
    """The lines for one record, or None when its type is not one this module reads."""
    kind = v["type"]
    if kind not in _KNOWN:
        return None
    msg = v["@message"]
    level = v.get("@level")
    if kind == "log" and level not in ("info", None) and not msg.lower().startswith(str(level)):
        msg = f"{level}: {msg}"
    if kind in ("planned_change", "resource_drift"):
        return [msg + _change_extra(v.get("change"))]
    if kind == "outputs":
        lines = _outputs(v.get("outputs"))
        return None if lines is None else [msg] + lines
    if kind == "diagnostic":
        lines = _diagnostic(v.get("diagnostic"))
        return None if lines is None else [msg] + lines
    return [msg]


def format_ui_stream(text: str) -> str | None:
    lines = text.splitlines()
    out: list[str] = []
    records = 0
    for line in lines:
        v = _record(line)
        rendered = render(v) if v is not None else None
        if rendered is None:
            if v is None and line.strip().startswith("{"):
                return None   # a broken record: not a stream this module can vouch for
            out.append(line)
            continue
        records += 1
        out.extend(rendered)
    if records < 2 or records * 2 < len([x for x in lines if x.strip()]):
        return None
    return "\n".join(out) + "\n"
