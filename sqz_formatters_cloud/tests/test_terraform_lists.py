"""terraform plan/apply: a list of plain values created (or printed as an output) whole is one line."""

from __future__ import annotations

import json
import re

from hypothesis import given, settings
from hypothesis import strategies as st
from sqz_testing import load_fixture
from pathlib import Path

from sqz_formatters_cloud.terraform_plan import format_plan, inline_scalar_lists

FIX = Path(__file__).parent / "fixtures" / "terraform"


def test_created_lists_and_outputs_are_one_line_each_in_apply():
    out = format_plan(load_fixture(FIX / "apply_create.txt").request().text)
    lines = out.split("\n")
    assert '          + tags    = ["team-platform", "cost-center-42"]' in lines
    assert "          + ports     = [80, 443]" in lines
    assert ('  + server_names = ["web-01", "web-02", "web-03", "web-04", "web-05", "web-06", "web-07", "web-08", '
            '"web-09", "web-10", "web-11", "web-12"]') in lines
    assert ('server_names = tolist(["web-01", "web-02", "web-03", "web-04", "web-05", "web-06", "web-07", "web-08", '
            '"web-09", "web-10", "web-11", "web-12"])') in lines
    assert not any(re.fullmatch(r'\s+\+ "web-\d+",', l) for l in lines)


def test_a_list_with_added_and_removed_items_keeps_its_lines():
    block = ['      ~ tags = [', '          - "old",', '          + "new",', '        ]']
    assert inline_scalar_lists(block) == block
    nested = ['      + rules = [', '          + {', '              + port = 80', '            },', '        ]']
    assert inline_scalar_lists(nested) == nested


_ITEM = st.one_of(st.integers(-9, 9999).map(str), st.sampled_from(["true", "false", "null"]),
                  st.text(alphabet='ab ,-"\\', max_size=6).map(json.dumps))


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(["", "+ ", "- "]), st.lists(_ITEM, max_size=6), st.lists(st.sampled_from(["", "+ ", "- "]),
       min_size=6, max_size=6), st.booleans(), st.integers(0, 8))
def test_inlined_list_reads_back_and_mixed_markers_never_inline(marker, items, item_markers, output, depth):
    indent = " " * depth
    if output:
        marker = ""
    opener = f"{indent}{marker}names = {'tolist(' if output else ''}["
    closer = f"{indent}{' ' * len(marker)}{'])' if output else ']'}"
    same = [f"{indent}    {marker}{x}," for x in items]
    out = inline_scalar_lists([opener] + same + [closer, "after"])
    if items and sum(len(x) + 2 for x in items) <= 200:
        assert len(out) == 2 and out[1] == "after"
        assert out[0].startswith(opener)
        body = out[0][len(opener):-len("])" if output else "]")]
        assert json.loads("[" + body + "]") == [json.loads(x) for x in items]
    else:
        assert out == [opener] + same + [closer, "after"]
    mixed = [f"{indent}    {m}{x}," for m, x in zip(item_markers, items)]
    if any(m != marker for m, _ in zip(item_markers, items)):
        assert inline_scalar_lists([opener] + mixed + [closer]) == [opener] + mixed + [closer]
