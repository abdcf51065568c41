"""Held-out cloud outputs: terraform's -json UI stream, kubectl's offline manifests, docker
without a daemon. Each keeps its facts through the whole pipeline; the UI stream keeps every
message and drops only timestamps and the fields that restate the message."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from sqz_core import FormatRequest
from sqz_core.pipeline import compress
from sqz_core.store import Store
from sqz_testing import iter_fixtures, load_fixture, missing_facts

from sqz_formatters_cloud import terraform_cli
from sqz_formatters_cloud.terraform_ui_json import format_ui_stream

FIX = Path(__file__).parent / "fixtures"
HELDOUT = ["kubectl/kustomize_shop", "kubectl/create_f_no_cluster", "kubectl/label_local_json",
           "kubectl/configmap_from_files_yaml", "terraform/plan_json", "terraform/plan_json_error",
           "terraform/validate_json_error", "docker/version_no_daemon"]


def _fmt(name: str, command: str) -> tuple[str, str | None]:
    text = load_fixture(FIX / "terraform" / f"{name}.txt").request().text
    return text, terraform_cli.sqz_format(request=FormatRequest(text, command))


def test_plan_json_is_its_messages_one_a_line():
    text, out = _fmt("plan_json", "terraform plan -json")
    messages = [json.loads(line)["@message"] for line in text.splitlines()]
    lines = out.rstrip("\n").split("\n")
    assert lines[:len(messages)] == messages                  # every message, in order
    assert lines[len(messages):] == ["  server_names: create"]  # the output's action
    assert 'terraform_data.server["web-07"]: Plan to create' in lines
    assert "@timestamp" not in out and "terraform.ui" not in out and "implied_provider" not in out
    assert len(out) * 5 < len(text)


def test_a_failed_precondition_reads_as_terraform_prints_it():
    _, out = _fmt("plan_json_error", "terraform plan -json")
    assert out.split("\n")[2:7] == [
        "Error: Resource precondition failed",
        '  on main.tf line 11, column 23, in resource "terraform_data" "cluster":',
        "  11:       condition     = var.replicas >= 3",
        "    var.replicas is 1",
        "  A production cluster needs at least 3 replicas.",
    ]


def test_a_replacement_keeps_its_reason_and_an_unknown_record_stays_as_printed():
    recs = [
        {"@level": "info", "@message": "Terraform 1.11.4", "type": "version", "terraform": "1.11.4"},
        {"@level": "info", "@message": "aws_instance.a: Plan to replace", "type": "planned_change",
         "change": {"resource": {"addr": "aws_instance.a"}, "action": "replace", "reason": "cannot_update"}},
        {"@level": "info", "@message": "aws_instance.b: Plan to create", "type": "planned_change",
         "change": {"resource": {"addr": "aws_instance.b"}, "action": "create",
                    "previous_resource": {"addr": "aws_instance.old"}}},
        {"@level": "info", "@message": "something new", "type": "future_type", "payload": {"x": 1}},
    ]
    text = "\n".join(json.dumps(r) for r in recs) + "\n"
    out = format_ui_stream(text)
    lines = out.rstrip("\n").split("\n")
    assert lines[1] == "aws_instance.a: Plan to replace (reason: cannot_update)"
    assert lines[2] == "aws_instance.b: Plan to create (moved from aws_instance.old)"
    assert lines[3] == json.dumps(recs[3])                    # a type this module does not read: verbatim


@pytest.mark.parametrize("damage", ["cut", "brace", "prose"])
def test_a_damaged_stream_is_refused(damage):
    text, _ = _fmt("plan_json", "terraform plan -json")
    if damage == "cut":
        text = text[: len(text) // 2]                          # the last line cut mid-record
    elif damage == "brace":
        text = text.replace('"type":"planned_change"}', '"type":"planned_change"', 1)
    else:
        text = "Terraform used the selected providers to generate the following plan:\n" * 5 + text[:200]
    assert format_ui_stream(text) is None


def test_every_truncation_is_whole_records_or_none():
    text, _ = _fmt("plan_json", "terraform plan -json")
    for cut in range(0, len(text), 13):
        out = format_ui_stream(text[:cut])
        if out is not None:
            complete = [json.loads(line)["@message"] for line in text[:cut].splitlines()]
            assert all(m in out for m in complete)


def test_plain_plan_text_and_show_json_are_not_the_stream():
    text = load_fixture(FIX / "terraform" / "plan_create.txt").request().text
    assert format_ui_stream(text) is None
    show = load_fixture(FIX / "terraform" / "show_json.txt").request().text
    assert format_ui_stream(show) is None


@pytest.mark.parametrize("rel", HELDOUT)
def test_heldout_facts_survive_the_pipeline(rel, tmp_path):
    fx = load_fixture(FIX / f"{rel}.txt")
    store = Store.open(str(tmp_path / "db.sqlite"))
    res = compress(fx.raw, command=fx.command, store=store, session="t")
    assert missing_facts(res.output.decode("utf-8"), fx.facts) == []


def test_every_heldout_fixture_is_listed():
    names = {f"{t}/{fx.name}" for t in ("kubectl", "terraform", "docker") for fx in iter_fixtures(FIX / t)}
    assert set(HELDOUT) <= names
