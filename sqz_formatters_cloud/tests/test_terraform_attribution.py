"""terraform plan/apply: every resource's action and every value read back from the rendering.

A block that repeats the one above it is written ``[as ADDRESS above, but k = v, …]``, so the
sidecar facts (strings picked from the raw text) cannot say whose ``name = "web-04"`` a line is.
This test parses the raw plan on its own, resource by resource (address, action, block lines),
and rebuilds each resource from the rendering the way a reader would: the block printed in
full, or the named block above with the listed values put in; the two must be equal (lists
written on one line and unchanged values counted are compared in that form).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sqz_core.cleanup import clean_terminal
from sqz_testing import load_fixture
from sqz_formatters_cloud.terraform_plan import fold_unchanged_values, format_plan, inline_scalar_lists

FIX = Path(__file__).parent / "fixtures" / "terraform"
_ACTION = re.compile(r"^  # (\S.*) (will be \S.*|must be replaced)$")
_AS = re.compile(r"^    \[as (\S.*) above, but (.*)\]$")
_VALUE = re.compile(r"^(\s+(?:[+~-] |-/\+ |\+/- |<= )?)(\S+?)( *= )(.*)$")


def _resources(lines: list[str]) -> dict[str, tuple[str, list[str] | str]]:
    """address -> (action, block lines) from the raw plan, or (action, "[as …]") from a rendering."""
    out: dict[str, tuple[str, object]] = {}
    i = 0
    while i < len(lines):
        m = _ACTION.match(lines[i])
        if m:
            j = i + 1
            while j < len(lines) and lines[j].startswith("  # "):
                j += 1                                          # "(because … is not in configuration)"
            if j < len(lines) and _AS.match(lines[j]):
                out[m.group(1)] = (m.group(2), lines[j])
                i = j + 1
                continue
            k = j
            while k < len(lines) and lines[k] != "    }":
                k += 1
            out[m.group(1)] = (m.group(2), lines[j:k + 1])
            i = k + 1
            continue
        i += 1
    return out


def _apply_differences(ref: list[str], said: str) -> list[str]:
    """The reference block with each ``[marker] key = value`` of ``said`` put in."""
    diffs = re.split(r", (?=(?:[+-] )?[\w\"\[\].-]+ = )", said)
    block = list(ref)
    for d in diffs:
        dm = re.match(r"^((?:[+-] )?)(\S+) = (.*)$", d)
        assert dm, d
        hits = [i for i, line in enumerate(block)
                if (v := _VALUE.match(line)) and v.group(1).strip() == dm.group(1).strip() and v.group(2) == dm.group(2)]
        assert len(hits) == 1, (d, ref)              # the value names one line of the block above
        v = _VALUE.match(block[hits[0]])
        block[hits[0]] = f"{v.group(1)}{v.group(2)}{v.group(3)}{dm.group(3)}"
    return block


def _read_back(rendered: str) -> dict[str, tuple[str, list[str]]]:
    shown = _resources(rendered.split("\n"))
    back = {}
    for address, (action, body) in shown.items():
        if isinstance(body, str):
            ref, said = _AS.match(body).groups()
            assert shown[ref][0] == action and not isinstance(shown[ref][1], str)
            back[address] = (action, _apply_differences(shown[ref][1], said))
        else:
            back[address] = (action, body)
    return back


def _raw_resources(text: str) -> dict[str, tuple[str, list[str]]]:
    lines = fold_unchanged_values(inline_scalar_lists(clean_terminal(text).split("\n")))
    return {a: (act, body) for a, (act, body) in _resources(lines).items()}


@pytest.mark.parametrize("name", ["plan_create", "plan_changes", "apply_create", "apply_changes", "apply_error"])
def test_every_resource_reads_back_with_its_action_and_values(name):
    text = load_fixture(FIX / f"{name}.txt").request().text
    raw = _raw_resources(text)
    assert raw
    back = _read_back(format_plan(clean_terminal(text)))
    assert back == raw


_NAME = st.one_of(st.text(alphabet="abc-, =\"+", min_size=1, max_size=8),
                  st.sampled_from(["x, + zone = y", "a, b = c", "p, - name = q", "web, id = 1", "k = v"]))


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(_NAME, _NAME, st.sampled_from(["eu-1a", "eu-1b"])), min_size=2, max_size=5,
                unique_by=lambda t: t[0]))
def test_similar_created_blocks_read_back_whatever_their_values(servers):
    """Values holding ``", "``, ``" = "`` or markers never make a folded block read another way."""
    def esc(s):
        return s.replace("\\", "\\\\").replace('"', '\\"')
    parts = ["Terraform will perform the following actions:", ""]
    for key, name, zone in servers:
        parts += [f'  # terraform_data.server["{esc(key)}"] will be created',
                  '  + resource "terraform_data" "server" {',
                  "      + id     = (known after apply)",
                  "      + input  = {",
                  "          + cpu     = 2",
                  "          + image   = \"registry.internal/app:1.4.2\"",
                  f'          + name    = "{esc(name)}"',
                  f'          + zone    = "{zone}"',
                  "        }",
                  "      + output = (known after apply)",
                  "    }", ""]
    parts.append(f"Plan: {len(servers)} to add, 0 to change, 0 to destroy.")
    text = "\n".join(parts) + "\n"
    assert _read_back(format_plan(text)) == _raw_resources(text)


_HEREDOC_LINE = st.sampled_from(["[server]", "tags = [", '  "a",', '  "b",', "]", "opts = {", "  x = 1", "}",
                                 "+ y = 2", "list = [", "  1,", "],", "EOF", "name = \"v\""])


@settings(max_examples=150, deadline=None)
@given(st.lists(_HEREDOC_LINE, min_size=1, max_size=12), st.booleans())
def test_a_heredoc_string_reaches_the_reader_as_terraform_printed_it(body, changed):
    """Lines inside ``<<-EOT`` … ``EOT`` are file content: never inlined, folded or counted."""
    marker = "~ " if changed else "+ "
    content = [f"            {line}" for line in body]
    text = "\n".join(["Terraform will perform the following actions:", "",
                      "  # local_file.conf will be created", '  + resource "local_file" "conf" {',
                      f"      {marker}content  = <<-EOT", *content, "        EOT",
                      '      + filename = "conf.ini"', "    }", "",
                      "Plan: 1 to add, 0 to change, 0 to destroy."]) + "\n"
    out = format_plan(text).split("\n")
    start = out.index(f"      {marker}content  = <<-EOT")
    assert out[start + 1:start + 1 + len(content)] == content
    assert out[start + 1 + len(content)] == "        EOT"
