"""Held-out pass #2 (structured data): psql's expanded records, and a JSON document or a
``pip list`` table below pip's own warnings, on the real captures (h2_*) and on damaged copies
of them. What survives is checked cell by cell against an independent reading of the raw
capture; what is refused is left as printed (None). The AWS CLI's box tables of this pass are
the cloud pack's (sqz_formatters_cloud/tests/test_aws_table.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from sqz_formatters_generic.kinds import compress_kind, detect_kind
from sqz_formatters_generic.kinds.aligned_table import _fixed_layout
from sqz_formatters_generic.kinds.dep_tree import compress_pip_list
from sqz_formatters_generic.kinds.json_doc import compress_json
from sqz_core.request import FormatRequest
from sqz_testing import grows_linearly, load_fixture, missing_facts, work_done

KINDS = Path(__file__).resolve().parents[1] / "fixtures" / "kinds"
WAL = KINDS / "table" / "h2_psql_expanded_wal.txt"
PIP_JSON = KINDS / "json" / "h2_pip_list_outdated_json.txt"
PIP_TABLE = KINDS / "deptree" / "h2_pip_list_outdated.txt"


def _text(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def _lines(path: Path) -> list[str]:
    return _text(path).rstrip("\n").split("\n")


# ---------------------------------------------------------------------------- psql -x

def _records(text: str) -> list[dict[str, str]]:
    recs = []
    for line in text.rstrip("\n").split("\n"):
        if line.startswith("-[ RECORD "):
            recs.append({})
        elif " | " in line or line.endswith(" |"):
            name, _, value = line.partition("|")
            recs[-1][name.strip()] = value[1:] if value.startswith(" ") else value
    return recs


def _records_back(out: str) -> list[dict[str, str]]:
    """Records read back from the rendering: constants and empty fields filled in from the notes."""
    lines = out.rstrip("\n").split("\n")
    every, fields = {}, None
    while lines[0].startswith("["):
        note = lines.pop(0)
        if note.startswith("[every record: "):
            name, _, value = note[len("[every record: "):-1].partition(" | ")
            every[name] = value
        else:
            fields = note[len("[fields: "):note.index("; ")].split(", ")
    recs = []
    for line in lines:
        if line.startswith("-[ RECORD "):
            recs.append({})
        else:
            name, _, value = line.partition(" | ")
            recs[-1][name.rstrip(" |")] = value
    full = []
    for rec in recs:
        rec = {**rec, **every}
        full.append({f: rec.get(f, "") for f in fields} if fields else rec)
    return full


def test_expanded_records_read_back_whole():
    text = _text(WAL)
    out = _fixed_layout(text)
    assert out is not None
    assert _records_back(out) == _records(text)
    assert len(_records(text)) == 38
    assert out.startswith("[every record: pending_restart | f]\n[fields: name, setting, unit,")
    assert "name | max_wal_size\nsetting | 1024\nunit | MB\n" in out
    assert "unit |\n" not in out and "pending_restart" not in out.split("\n", 2)[2]
    assert len(out) < 0.6 * len(text)


def test_expanded_records_facts():
    fx = load_fixture(WAL)
    req = fx.request()
    assert detect_kind(req.text, req) == "table"
    assert missing_facts(compress_kind("table", req), fx.facts) == []


def test_expanded_records_damaged_are_left_alone():
    lines = _lines(WAL)
    # a value psql wrapped (a ``+`` at its end, the rest on the next line)
    i = lines.index("name            | max_wal_size")
    wrapped = lines[:i + 1] + [lines[i + 1] + "+", "                | more"] + lines[i + 2:]
    assert _fixed_layout("\n".join(wrapped) + "\n") is None
    # a record missing (numbers not in sequence)
    j = next(k for k, line in enumerate(lines) if line.startswith("-[ RECORD 5 ]"))
    k = next(m for m, line in enumerate(lines) if line.startswith("-[ RECORD 6 ]"))
    assert _fixed_layout("\n".join(lines[:j] + lines[k:]) + "\n") is None
    # a field not padded to the others' width
    assert _fixed_layout("\n".join(lines[:i] + ["name | max_wal_size"] + lines[i + 1:]) + "\n") is None
    # records with different fields
    assert _fixed_layout("-[ RECORD 1 ]-+--\na | 1\n-[ RECORD 2 ]-+--\nb | 2\n") is None


def test_expanded_records_work_grows_linearly():
    lines = _lines(WAL)
    starts = [k for k, line in enumerate(lines) if line.startswith("-[ RECORD ")]
    block = lines[starts[0]:starts[1]]
    bar = block[0][block[0].index(" ]") + 2:]

    def build(k: int) -> str:
        out = []
        for n in range(1, k + 1):
            out.append(f"-[ RECORD {n} ]" + bar[len(str(n)) - 1:] if len(str(n)) > 1 else f"-[ RECORD {n} ]" + bar)
            out.extend(block[1:])
        return "\n".join(out) + "\n"

    small, work_small = work_done(_fixed_layout, build(20))
    large, work_large = work_done(_fixed_layout, build(160))
    assert small is not None and large is not None
    assert grows_linearly(work_small, work_large, 8)


# ---------------------------------------------------------------------------- pip's warnings

def test_json_below_warnings_keeps_them_and_compresses_the_document():
    fx = load_fixture(PIP_JSON)
    req = fx.request()
    out = compress_json(req)
    assert out is not None and len(out) < len(req.text)
    warnings = [line for line in req.text.split("\n") if line.startswith("WARNING: ")]
    assert len(warnings) == 12 and out.split("\n")[:12] == warnings
    assert missing_facts(out, fx.facts) == []
    assert "latest_version" in out and '"latest_version": ' not in out


@pytest.mark.parametrize("text", [
    'WARNING: x\n{"a": 1,\n',                          # a cut document
    '{"a": 1}\n  "b": 2\n}\n',                         # a document's own lines after it
    'WARNING: x\n{"a": 1}\n{"b": 2}\n',                # two documents: not one document
    'note\n"just a string"\n',                         # no object or array
])
def test_json_below_warnings_refuses_what_is_not_one_document(text):
    assert compress_json(FormatRequest(text, "pip list --format=json")) is None


def test_pip_list_table_below_warnings():
    fx = load_fixture(PIP_TABLE)
    out = compress_pip_list(fx.request().text)
    assert out is not None
    lines = out.split("\n")
    assert all(line.startswith("WARNING: Location ") for line in lines[:12])
    assert lines[12] == "Package Version Latest Type"
    assert "certifi 2020.12.5 2026.10.19.post1 wheel" in lines
    assert missing_facts(out, fx.facts) == []
    assert compress_pip_list("WARNING: only a warning\n") is None


# ---------------------------------------------------------------------------- markdown tables

MARKDOWN = KINDS / "table" / "h2_sqlite_markdown_mode.txt"


def _md_rows(text: str) -> list[list[str]]:
    lines = text.rstrip("\n").split("\n")
    return [[c.strip() for c in line.strip("|").split("|")] for k, line in enumerate(lines) if k != 1]


def test_markdown_table_keeps_every_cell():
    text = _text(MARKDOWN)
    out = _fixed_layout(text)
    assert out is not None and "|" not in out and "---" not in out
    assert [line.split(" ") for line in out.rstrip("\n").split("\n")] == _md_rows(text)
    fx = load_fixture(MARKDOWN)
    assert missing_facts(compress_kind("table", fx.request()), fx.facts) == []


@pytest.mark.parametrize("damage", [
    lambda ls: ls[:2] + [ls[2][:-2] + "|"] + ls[3:],            # a row of another width
    lambda ls: ls[:2] + [ls[2].replace("| ", "|", 1) + " "] + ls[3:],   # a cell touching its pipe
    lambda ls: ls[:2] + [ls[2].replace(" ", "|", 1)[:len(ls[2])]] + ls[3:],  # a pipe off the rule
    lambda ls: ls[:1] + ["|---|"] + ls[2:],                      # a rule that is not the table's
])
def test_markdown_table_damaged_is_left_alone(damage):
    lines = _text(MARKDOWN).rstrip("\n").split("\n")
    assert _fixed_layout("\n".join(damage(lines)) + "\n") is None


def test_markdown_table_work_grows_linearly():
    lines = _text(MARKDOWN).rstrip("\n").split("\n")

    def build(k: int) -> str:
        return "\n".join(lines[:2] + lines[2:] * k) + "\n"

    small, work_small = work_done(_fixed_layout, build(4))
    large, work_large = work_done(_fixed_layout, build(32))
    assert small is not None and large is not None
    assert grows_linearly(work_small, work_large, 8)


# ---------------------------------------------------------------------------- JSON lines

PG_LOG = KINDS / "jsonl" / "h2_jq_c_postgres_jsonlog.txt"


def test_jsonl_run_says_its_shared_fields_once():
    from sqz_formatters_generic.kinds.json_doc import compress_jsonl

    fx = load_fixture(PG_LOG)
    out = compress_jsonl(fx.request())
    assert missing_facts(out, fx.facts) == []
    note = ('[every row below has "user":"postgres","dbname":"postgres","remote_host":"[local]","txid":0,'
            '"error_severity":"LOG","application_name":"psql","backend_type":"client backend","query_id":0]')
    lines = out.split("\n")
    assert note in lines and lines[lines.index(note) + 1] == "[5]{timestamp,pid,session_id,line_num,ps,session_start,vxid,message}:"
    # the ERROR record is not in a run: it stays whole, with its own severity and code
    assert any(line.startswith("{") and '"error_severity":"ERROR"' in line and '"state_code":"42P01"' in line
               for line in lines)
    # every message of the log is still there, once
    import json
    for raw in fx.text.splitlines():
        msg = json.loads(raw)["message"]
        if len(msg) < 200:
            assert out.count(json.dumps(msg)[1:-1]) + out.count(msg) >= 1, msg
