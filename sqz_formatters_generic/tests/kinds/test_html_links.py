"""HTML kind: link targets that differ only in numbers keep the first ones and a count; the
text of every link stays; a nav's own "- " bullets and blank <pre> lines are not doubled."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from sqz_formatters_generic.kinds.html_page import FOLD_MIN, SAME_PATTERN_LINKS, html_to_text


def page(body: str) -> str:
    return f"<!DOCTYPE html><html><head><title>T</title></head><body>{body}</body></html>"


def changelog(n: int) -> str:
    return "".join(f'<p>1.{i}.0 — <a href="https://git.example/r/compare/1.{i - 1}.0...1.{i}.0">Diff</a> '
                   f'— see <a href="https://other.example/page">notes</a></p>' for i in range(n, 0, -1))


def test_links_of_one_number_pattern_keep_the_first_targets_and_a_count():
    n = SAME_PATTERN_LINKS + FOLD_MIN + 2
    out = html_to_text(page(changelog(n)))
    lines = out.splitlines()
    kept = [x for x in lines if "<https://git.example/" in x and not x.startswith("[")]
    assert kept == [f"1.{n}.0 — Diff <https://git.example/r/compare/1.{n - 1}.0...1.{n}.0> — see notes "
                    "<https://other.example/page>",
                    f"1.{n - 1}.0 — Diff <https://git.example/r/compare/1.{n - 2}.0...1.{n - 1}.0> — see notes "
                    "<https://other.example/page>"]
    assert lines[-2:] == [f"[{n - SAME_PATTERN_LINKS} more link targets like "
                          f"<https://git.example/r/compare/1.{n - 1}.0...1.{n}.0> left out]",
                          f"[{n - SAME_PATTERN_LINKS} more link targets like <https://other.example/page> left out]"]
    assert "1.1.0 — Diff — see notes" in lines
    assert all(f"1.{i}.0 — Diff" in out for i in range(1, n + 1))


def test_few_links_of_a_pattern_all_keep_their_targets():
    n = SAME_PATTERN_LINKS + FOLD_MIN - 1
    out = html_to_text(page(changelog(n)))
    assert out.count("<https://git.example/r/compare/") == n
    assert "left out" not in out


def test_nav_bullets_and_blank_pre_lines():
    out = html_to_text(page('<ul><li>- <a href="#each">each</a></li><li>- map</li></ul>'
                            "<pre>\n      \n_.size([1, 2]);\n=> 2\n</pre>"))
    assert "\n- each\n- map\n" in out
    assert "\n\n_.size([1, 2]);\n=> 2\n" in out
    assert "      \n" not in out


URL = st.builds(lambda host, a, b: f"https://{host}.example/{a}/x{b}",
                st.sampled_from(["a", "b"]), st.integers(0, 30), st.integers(0, 3))


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.from_regex(r"[abc][abc xyz]{0,5}", fullmatch=True), URL), max_size=20))
def test_property_every_link_text_stays_and_targets_are_counted(links):
    html = page("".join(f'<p>{t} <a href="{u}">{t}</a></p>' for t, u in links))
    out = html_to_text(html)
    shown = sum(x.count(" <https://") for x in out.splitlines() if not x.startswith("["))
    left = sum(int(m) for m in re.findall(r"^\[(\d+) more link targets? like", out, re.M))
    assert shown + left == len(links)
    for t, _ in links:
        assert " ".join(t.split()) in out


def test_a_page_already_saying_left_out_keeps_every_target():
    n = SAME_PATTERN_LINKS + FOLD_MIN + 2
    fake = "<p>[3 more link targets like &lt;https://git.example/r&gt; left out]</p>"
    out = html_to_text(page(changelog(n) + fake))
    assert "more link targets like <https://git.example/r/compare" not in out
    assert all(f"compare/1.{i - 1}.0...1.{i}.0>" in out for i in range(1, n + 1))
