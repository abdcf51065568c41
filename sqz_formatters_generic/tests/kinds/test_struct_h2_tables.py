"""Held-out pass #2 (structured data): AWS CLI box tables, psql's expanded records, and a JSON
document or a ``pip list`` table below pip's own warnings, on the real captures (h2_*) and on
damaged copies of them. What survives is checked cell by cell against an independent reading
of the raw capture; what is refused is left as printed (None)."""

from __future__ import annotations

from pathlib import Path

import pytest

from sqz_formatters_generic.kinds import compress_kind, detect_kind
from sqz_formatters_generic.kinds.aligned_table import _fixed_layout, looks_like_table
from sqz_formatters_generic.kinds.dep_tree import compress_pip_list
from sqz_formatters_generic.kinds.json_doc import compress_json
from sqz_core.request import FormatRequest
from sqz_core.testing import grows_linearly, load_fixture, missing_facts, work_done

KINDS = Path(__file__).resolve().parents[1] / "fixtures" / "kinds"
EC2 = KINDS / "table" / "h2_aws_ec2_instances_table.txt"
SUBNETS = KINDS / "table" / "h2_aws_subnets_table.txt"
WAL = KINDS / "table" / "h2_psql_expanded_wal.txt"
PIP_JSON = KINDS / "json" / "h2_pip_list_outdated_json.txt"
PIP_TABLE = KINDS / "deptree" / "h2_pip_list_outdated.txt"


def _text(path: Path) -> str:
    return path.read_text(encoding="utf-8")


# ---------------------------------------------------------------------------- AWS CLI tables

def _aws_sections(text: str) -> list[tuple[int, str, list[tuple[str, ...]]]]:
    """Every section of an AWS table read naively: (depth, title, rows), the frame's pipes
    stripped, cells split on ``|`` (the captures hold no ``|`` inside a value), rules skipped;
    a list's column names are its first row."""
    out = []
    for line in text.rstrip("\n").split("\n")[1:]:
        inner = line.strip("|")
        if inner.startswith("+") or not inner.strip():
            continue
        if "|" in inner:
            out[-1][2].append(tuple(c.strip() for c in inner.split("|")))
        else:
            out.append((len(line) - len(line.lstrip("|")), inner.strip(), []))
    return out


def _rendered_sections(out: str) -> list[tuple[int, str, list[tuple[str, ...]]]]:
    """The sections read back from the rendering, each note's fields put back in every section
    of its title (the notes of these captures name a title, not a path)."""
    sections, notes = [], {}
    for line in out.rstrip("\n").split("\n"):
        indent = len(line) - len(line.lstrip(" "))
        s = line.strip()
        if s.startswith("[every "):
            title, _, said = s[len("[every "):-1].partition(": ")
            assert " > " not in title
            notes[(indent, title)] = [tuple(kv.split(": ", 1)) for kv in said.split("; ")]
        elif " | " in s and ": " in s.split(" | ", 1)[0]:   # (no value of these captures holds " | ")
            title, first = s.split(": ", 1)             # ``Tags: Key | Value``: title, then names
            sections.append((indent + 1, title, [tuple(first.split(" | "))]))
        elif " | " in s:
            sections[-1][2].append(tuple(s.split(" | ")))
        elif s.startswith("- "):
            sections[-1][2].append((s[2:],))
        elif ":" in s:
            key, _, value = s.partition(":")
            sections[-1][2].append((key, value.strip()))
        else:
            sections.append((indent + 1, s, []))
    for depth, title, rows in sections:
        rows.extend(notes.get((depth, title), []))
    return sections


def _same(sections):
    return [(d, t, sorted(rows)) for d, t, rows in sections]


@pytest.mark.parametrize("path", [EC2, SUBNETS], ids=lambda p: p.stem)
def test_aws_table_keeps_every_title_and_cell(path):
    text = _text(path)
    out = _fixed_layout(text)
    assert out is not None
    assert _same(_rendered_sections(out)) == _same(_aws_sections(text))
    assert len(out) * 4 < len(text)              # the frame, padding and repeats were most of it
    assert "|  " not in out and "+--" not in out


def test_aws_table_renders_nesting_and_lists():
    out = _fixed_layout(_text(EC2))
    lines = out.split("\n")
    assert lines[:4] == ["DescribeInstances", " Reservations", "  [every Reservations: OwnerId: 123456789012]",
                         "  ReservationId: r-fe3ef4b046c78aeb6"]
    # a dict nested in a list item: one space deeper per level of the frame
    assert "     AttachTime: 2026-12-01T12:54:44.000Z" in lines
    # what all five instances share is said once, on the first; what differs stays on each
    assert out.count("[every Instances: AmiLaunchIndex: 0; Architecture: x86_64;") == 1
    assert out.count("Architecture") == 1 and out.count("InstanceType: ") == 5
    assert "     [every Ebs: DeleteOnTermination: True; Status: attached]" in lines
    # a list of dicts: its column names after its title, then one row a dict
    i = lines.index("   Tags: Key | Value")
    assert lines[i + 1:i + 3] == ["    Name | web-1", "    team | shop"]
    # an empty value keeps its key
    assert "   StateTransitionReason:" in lines
    assert out.count(" Reservations\n") == 5 and out.count("InstanceId: i-") == 5
    assert "   State\n    Code: 80\n    Name: stopped\n" in out
    assert "   State\n    Code: 80\n    Name: stopped\n" in out


def test_aws_table_facts_and_detection():
    for path in (EC2, SUBNETS):
        fx = load_fixture(path)
        req = fx.request()
        assert looks_like_table(req.text)
        out = compress_kind(detect_kind(req.text, req), req)
        assert missing_facts(out, fx.facts) == []


def _lines(path: Path) -> list[str]:
    return _text(path).rstrip("\n").split("\n")


def test_aws_table_damaged_is_left_alone():
    lines = _lines(EC2)
    # the bottom rule cut off: the last section does not close
    assert _fixed_layout("\n".join(lines[:-1]) + "\n") is None
    # a title moved off its centre
    i = next(k for k, line in enumerate(lines) if "Reservations" in line)
    moved = lines[i].replace(" Reservations", "Reservations ", 1)
    assert moved != lines[i] and len(moved) == len(lines[i])
    assert _fixed_layout("\n".join(lines[:i] + [moved] + lines[i + 1:]) + "\n") is None
    # a value pushed off its column's padding
    j = next(k for k, line in enumerate(lines) if "InstanceType" in line)
    shifted = lines[j].replace("|  t3.small ", "| t3.small  ", 1)
    assert shifted != lines[j]
    assert _fixed_layout("\n".join(lines[:j] + [shifted] + lines[j + 1:]) + "\n") is None
    # a line of another width (a cut line)
    assert _fixed_layout("\n".join(lines[:j] + [lines[j][:-3]] + lines[j + 1:]) + "\n") is None
    # a dashed line alone, or a rule over prose
    assert _fixed_layout("--------\n| a  |\n") is None
    assert _fixed_layout("----------\nhello world\n") is None


def test_aws_table_work_grows_linearly():
    lines = _lines(SUBNETS)
    head, body = lines[:3], lines[3:]            # the top title and its rule, then the sections

    def build(k: int) -> str:
        return "\n".join(head + body * k) + "\n"

    small, work_small = work_done(_fixed_layout, build(2))
    large, work_large = work_done(_fixed_layout, build(16))
    assert small is not None and large is not None
    assert large.count("\n Subnets\n") == 8 * small.count("\n Subnets\n")
    assert grows_linearly(work_small, work_large, 8)


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


def test_aws_note_holds_only_what_every_section_of_its_path_shares():
    lines = _lines(SUBNETS)
    i = next(k for k, line in enumerate(lines) if "|  available " in line)
    changed = lines[i].replace("|  available ", "|  pending   ", 1)   # one subnet of five differs
    text = "\n".join(lines[:i] + [changed] + lines[i + 1:]) + "\n"
    out = _fixed_layout(text)
    assert out is not None
    assert "State: available]" not in out and "[every Subnets: AssignIpv6AddressOnCreation: False; " in out
    assert out.count("State: available") == 4 and out.count("State: pending") == 1
    assert _same(_rendered_sections(out)) == _same(_aws_sections(text))
