"""Audit of the held-out pass #2 captures (h2_*): every new fold read back against an independent
reading of the raw capture (no value attached to another row, file or record), and a JSON Schema
keeps its empty schemas (``{}`` accepts anything; dropping it said the opposite)."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest

from sqz_formatters_generic.kinds.grep_matches import compress_grep
from sqz_formatters_generic.kinds.json_doc import compress_json, compress_jsonl, is_json_schema, prune
from sqz_formatters_generic.kinds.yaml_doc import compress_yaml
from sqz_core.request import FormatRequest
from sqz_testing import load_fixture, missing_facts

HERE = Path(__file__).resolve().parent
KINDS = HERE.parent / "fixtures" / "kinds"
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))
from test_json_hoist import _read_back, _read_back_jsonl  # noqa: E402
from test_list_h2_listings import _BIN, _MATCH, _read_grep  # noqa: E402

SCHEMA = KINDS / "json" / "h2_json_tool_openapi_v30.txt"


# ------------------------------------------------------------------ JSON Schema: {} is a schema

def test_json_schema_keeps_every_empty_schema_and_reads_back_whole():
    fx = load_fixture(SCHEMA)
    raw = json.loads(fx.text)
    assert is_json_schema(raw)
    out = compress_json(fx.request())
    assert out is not None and len(out) < len(fx.text) / 2
    # "patternProperties": {"^x-": {}} beside "additionalProperties": false: extensions allowed
    assert out.count('"^x-":{}') + out.count("[sqz: same as") >= 33
    assert '"patternProperties":{"^x-":{}},"additionalProperties":false,"definitions"' in out
    assert '"default":{}' in out and '"additionalProperties":{}' in out and '"items":{}' in out
    assert _read_back(out) == raw          # nothing dropped, nothing moved
    assert missing_facts(out, fx.facts) == []


def test_a_document_that_is_not_a_schema_still_drops_its_empty_values():
    doc = {"Reservations": [{"Tags": [], "Id": f"r-{i}", "Reason": "", "Extra": {}} for i in range(3)],
           "NextToken": None}
    assert not is_json_schema(doc)
    assert prune(doc) == {"Reservations": [{"Id": "r-0"}, {"Id": "r-1"}, {"Id": "r-2"}]}
    schema = {"$schema": "http://json-schema.org/draft-07/schema#", "properties": {"any": {}}, "default": ""}
    assert prune(schema, is_json_schema(schema)) == schema
    assert prune({"$schema": 3, "a": {}}, is_json_schema({"$schema": 3})) == {"$schema": 3}


def test_yaml_schema_keeps_its_empty_schemas_other_yaml_drops_them():
    schema = ("$schema: https://json-schema.org/draft/2020-12/schema\ntype: object\n"
              "patternProperties:\n  '^x-': {}\nproperties:\n  name:\n    type: string\n    default: ''\n"
              "additionalProperties: false\n")
    assert compress_yaml(FormatRequest(schema, "yq -y . schema.json")) is None   # nothing to drop
    values = "metadata:\n  name: web\n  labels: {}\n  annotations:\n    note: ''\nspec:\n  replicas: 2\n"
    assert compress_yaml(FormatRequest(values, "kubectl get deploy web -o yaml")) == (
        "metadata:\n  name: web\nspec:\n  replicas: 2\n")


# ------------------------------------------------------------- JSON / JSONL: notes read back

@pytest.mark.parametrize("name", ["h2_aws_dynamodb_scan", "h2_aws_ec2_describe_instances", "h2_aws_iam_list_roles",
                                  "h2_aws_s3api_list_objects", "h2_jq_pip_inspect", "h2_npm_pack_dry_run_express",
                                  "h2_npm_view_chalk_json"])
def test_json_documents_read_back_to_the_pruned_raw(name):
    fx = load_fixture(KINDS / "json" / f"{name}.txt")
    out = compress_json(fx.request())
    assert out is not None
    # every "[every X[] has …]" note put back on every object of its path gives the raw, pruned
    assert _read_back(out) == prune(json.loads(fx.text))
    assert missing_facts(out, fx.facts) == []
    assert [d for d in fx.dropped if d in out] == []   # (S3's ETag, the object's MD5, goes as bookkeeping)


@pytest.mark.parametrize("name", ["h2_jq_c_pip_inspect", "h2_jq_c_postgres_jsonlog"])
def test_jsonl_rows_read_back_each_with_its_own_fields(name):
    fx = load_fixture(KINDS / "jsonl" / f"{name}.txt")
    out = compress_jsonl(fx.request())
    assert out is not None
    want = [prune(json.loads(line)) for line in fx.text.splitlines() if line.strip()]
    assert json.dumps(_read_back_jsonl(out), sort_keys=True) == json.dumps(want, sort_keys=True)


def test_s3_listing_keeps_each_key_with_its_own_size_and_date():
    fx = load_fixture(KINDS / "json" / "h2_aws_s3api_list_objects.txt")
    out = compress_json(fx.request())
    rows = {}
    for line in out.split("\n"):
        m = re.match(r'^  (\S+?),"([^"]+)",(\d+)$', line)
        if m:
            rows[m.group(1)] = (m.group(2), int(m.group(3)))
    contents = json.loads(fx.text)["Contents"]
    assert rows == {c["Key"]: (c["LastModified"], c["Size"]) for c in contents} and len(rows) == 58
    # the entity tag is dropped as bookkeeping (a 32-hex id): `sqz expand` has it
    assert contents[0]["ETag"].strip('"') not in out


# ----------------------------------------------------------------- grep: rows of one text

def _raw_matches(text: str) -> tuple[set, list]:
    want, binary = set(), []
    lines = text.rstrip("\n").split("\n")
    for i, line in enumerate(lines):
        at = line.find("grep: ")
        if at > 0:      # a stderr notice cut this match line: its second half follows the notices
            binary.append(_BIN.match(line[at:]).group(1))
            line = line[:at] + next(x for x in lines[i + 1:] if not x.startswith("grep: "))
        elif at == 0:
            binary.append(_BIN.match(line).group(1))
            continue
        m = _MATCH.match(line)
        if m:
            want.add((m.group(1), m.group(2), m.group(3).strip()))
    return want, binary


@pytest.mark.parametrize("name", ["h2_grep_rn_binary_matches", "h2_rg_type_log_calls"])
def test_grep_rows_of_one_text_read_back_to_their_own_file_and_line(name):
    fx = load_fixture(KINDS / "grep" / f"{name}.txt")
    out = compress_grep(fx.request())
    assert out is not None
    got, binary = _read_grep(out)
    want, notices = _raw_matches(fx.text)
    assert {(p, n, t.strip()) for p, n, t in got} == want
    assert sorted(binary) == sorted(notices)


def test_grep_shared_rows_name_only_lines_that_hold_that_text():
    fx = load_fixture(KINDS / "grep" / "h2_grep_rn_head_sqlalchemy.txt")
    out = compress_grep(fx.request())
    want, _ = _raw_matches(fx.text)
    by_file = {}
    for p, n, t in want:
        by_file.setdefault(p, {})[n] = t
    path = None
    for line in out.split("\n"):
        head = re.match(r"^(.+) \(\d+ matches\):$", line)
        if head:
            path = head.group(1)
            continue
        row = re.match(r"^(\d+(?: \d+)+): (.*)$", line)
        if row:
            assert path is not None
            for n in row.group(1).split(" "):
                assert by_file[path][n] == row.group(2), (path, n)
            continue
        if not re.match(r"^\d+: ", line):
            path = None


# ------------------------------------------------------------------- logs: fold counts

def test_nginx_access_folds_count_exactly_the_requests_of_their_status():
    """Each "[×N lines like the one above …]" note counts lines of the shown request's shape and
    status only: summed per (request with its numbers masked, status) with the lines shown alone,
    the counts are the raw log's, and a note with one timestamp counts only that second."""
    from sqz_formatters_generic.kinds import compress_kind

    fx = load_fixture(KINDS / "log" / "h2_nginx_access.txt")
    out = compress_kind("log", fx.request())
    assert out is not None
    shape = re.compile(r'\[(\S+) \+0000\] "GET (\S+) HTTP/1\.1" (\d{3}) ')

    def key(line):
        t, path, status = shape.search(line).groups()
        return re.sub(r"\d+", "N", path), status, t

    raw = [key(line) for line in fx.text.splitlines()]
    lines = out.rstrip("\n").split("\n")
    told: dict = {}
    for i, line in enumerate(lines):
        note = re.match(r"^\[×(\d+) lines like the one above, (.*)\]$", line)
        if note:
            path, status, t = key(lines[i - 1])
            n = int(note.group(1))
            told[(path, status)] = told.get((path, status), 0) + n - 1   # the line above is one of them
            if "…" not in note.group(2):       # one timestamp: every line of the run is of that second
                assert sum(1 for k in raw if k == (path, status, t)) == n
        elif shape.search(line):
            path, status, _ = key(line)
            told[(path, status)] = told.get((path, status), 0) + 1
    want: dict = {}
    for path, status, _ in raw:
        want[(path, status)] = want.get((path, status), 0) + 1
    assert told == want
    assert want[("/api/health", "502")] == 40 and want[("/checkout", "500")] == 24
