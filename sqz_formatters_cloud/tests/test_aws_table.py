"""The AWS CLI's ``--output table`` boxes (held-out pass #2 of the structured data, h2_*): what
survives is checked cell by cell against an independent reading of the raw capture; a damaged
copy is left as printed (None). Moved here from the generic pack with the layout: ``aws`` is
this pack's command."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqz_core.pipeline import compress
from sqz_core.store import Store
from sqz_testing import grows_linearly, load_fixture, missing_facts, work_done

from sqz_formatters_cloud import aws_cli
from sqz_formatters_cloud.aws_cli import render_box_tables as _fixed_layout

AWS = Path(__file__).resolve().parent / "fixtures" / "aws"
EC2 = AWS / "h2_aws_ec2_instances_table.txt"
SUBNETS = AWS / "h2_aws_subnets_table.txt"


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


def test_aws_table_facts_and_detection(tmp_path):
    store = Store.open(str(tmp_path / "db.sqlite"))
    for path in (EC2, SUBNETS):
        fx = load_fixture(path)
        req = fx.request()
        out = aws_cli.sqz_format(req)
        assert missing_facts(out, fx.facts) == []
        # the pipeline routes the command to this pack (it used to reach the layout as a table kind)
        r = compress(fx.raw, command=fx.command, store=store, session=path.stem)
        assert r.plugin == "aws" and r.output.decode().startswith(out)


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
