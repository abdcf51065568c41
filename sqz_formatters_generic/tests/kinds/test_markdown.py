"""Markdown kind: what survives (headings, code, prose, used link definitions, links to other
pages) and what goes (badges and their definitions, in-page anchors' targets, author-collapsed
sections, ignorable indentation)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from sqz_formatters_generic.kinds.markdown_doc import FOLD_DETAILS, compress_markdown
from sqz_core.request import FormatRequest
from sqz_testing import grows_linearly, nested_repeats, regex_patterns, work_done


def md(text: str) -> str | None:
    return compress_markdown(FormatRequest(text, "curl -s http://127.0.0.1:8000/README.md"))


DOC = """\
[![Build][ci-image]][ci-url]
[![Version][npm-image]][npm-url]

# Tool

**This project has a [Code of Conduct][].** See [the guide][guide] and [faq].

## Table of contents

* [Install](#install)
* [Usage](#usage)

## Install

  Indented prose that Markdown
  reads as a plain paragraph.

  * Robust routing
    * nested item
  14 template engines via [Lib](https://example.com/lib),

    indented code block

```console
$ npm install tool
  <details>
```

## People

* [alice](https://github.com/alice) - **Alice**
* [Bob's page](https://github.com/bob) - **Bob**

<details>
<summary>Emeriti</summary>

#### Emeriti

  * [c1](https://github.com/c1) - **C1**
  * [c2](https://github.com/c2) - **C2**
  * [c3](https://github.com/c3) - **C3**
  * [c4](https://github.com/c4) - **C4**
  * [c5](https://github.com/c5) - **C5**
  * [c6](https://github.com/c6) - **C6**
  * [c7](https://github.com/c7) - **C7**
  * [c8](https://github.com/c8) - **C8**
</details>

<details>
<summary>Short</summary>
one line kept
</details>

[ci-image]: https://badgen.example/ci.svg
[ci-url]: https://ci.example/tool
[npm-image]: https://badgen.example/npm.svg
[npm-url]: https://npm.example/tool
[Code of Conduct]: https://example.com/coc.md
[guide]: https://example.com/guide
[FAQ]: https://example.com/faq
"""


def test_badges_and_their_definitions_go_used_definitions_stay():
    out = md(DOC)
    assert "[![" not in out
    for gone in ("[ci-image]:", "[ci-url]:", "[npm-image]:", "[npm-url]:"):
        assert gone not in out
    # collapsed "[x][]", full "[text][label]" and shortcut "[label]" (case-insensitive) uses
    for kept in ("[Code of Conduct]: https://example.com/coc.md", "[guide]: https://example.com/guide",
                 "[FAQ]: https://example.com/faq"):
        assert kept in out


def test_anchor_links_keep_their_text_and_links_to_pages_stay():
    out = md(DOC)
    assert "* Install\n* Usage\n" in out
    assert "(#install)" not in out
    assert "[Lib](https://example.com/lib)" in out
    # a link whose text is its URL's last segment: the URL says both
    assert "* https://github.com/alice - **Alice**" in out
    assert "[Bob's page](https://github.com/bob)" in out  # other text: kept as it stands


def test_paragraph_indentation_goes_list_nesting_and_code_stay():
    out = md(DOC)
    assert "\nIndented prose that Markdown\nreads as a plain paragraph.\n" in out
    assert "\n  * Robust routing\n    * nested item\n" in out
    assert "\n  14 template engines via" in out  # after a list item: its continuation, left as is
    assert "\n    indented code block\n" in out
    assert "```console\n$ npm install tool\n  <details>\n```" in out  # a fence is verbatim, no section


def test_collapsed_section_folds_with_its_summary_short_one_stays():
    out = md(DOC)
    assert "[Emeriti: a collapsed section of 9 lines, not shown]" in out
    assert "c1" not in out and "C8" not in out
    assert "one line kept" in out and "Short" in out
    assert "<details>" not in out.split("```")[2]


def test_no_section_fold_below_the_threshold():
    body = "\n".join(f"* item {i}" for i in range(FOLD_DETAILS - 1))
    out = md(f"# T\n\n[a](https://x.example/a) [b](https://x.example/b)\n\n<details>\n<summary>S</summary>\n\n"
             f"{body}\n</details>\n\n\n\nend\n")
    assert f"* item {FOLD_DETAILS - 2}" in out
    assert "collapsed section" not in out


def _unclosed(n: int) -> str:
    return "# T\n\n" + "<!-- x\n" * n + "<details>\n" * n + "[a](#a)\n" * 100


class _Text(str):
    """A document that counts the characters its ``find`` looks at: a search to the end of the text
    from every unclosed ``<!--`` runs in C, where counting lines of Python does not see it."""

    scanned = 0

    def find(self, sub, start=0, end=None):
        stop = len(self) if end is None else end
        at = str.find(self, sub, start, stop)
        self.scanned += (stop if at < 0 else at + len(sub)) - start
        return at


def test_unclosed_comment_and_details_are_linear_and_kept():
    out = md(_unclosed(20000))
    assert out is None or out.count("<!-- x") == 20000
    # linear: 4 × the lines, about 4 × the work (a search to the end from every opener: 16 ×)
    small_text, large_text = _Text(_unclosed(5000)), _Text(_unclosed(20000))
    (small, n_small), (large, n_large) = work_done(md, small_text), work_done(md, large_text)
    assert large == out and grows_linearly(n_small, n_large, 4), (n_small, n_large)
    assert grows_linearly(small_text.scanned, large_text.scanned, 4), (small_text.scanned, large_text.scanned)


LINE = st.one_of(
    st.sampled_from(["# H", "## Sub", "```", "~~~", "<details>", "</details>", "<summary>S</summary>",
                     "[l]: https://e.example/l", "[![b][l]][l]", "* [x](#x)", "  * item", "    code",
                     "   prose", "[n](https://g.example/n)", "<!--", "-->", "", "| a |  b |", "text [l][]"]),
    st.text(st.sampled_from("ab #*[]()<>!:/-` \t"), max_size=30),
)


@settings(max_examples=300, deadline=None)
@given(st.lists(LINE, max_size=40))
def test_property_headings_and_code_survive(lines):
    text = "\n".join(lines) + "\n"
    out = md(text)
    if out is None:
        return
    assert len(out) < len(text)
    # every line inside a fence (when no comment or collapsed section can hide it) stays verbatim
    if "<!--" not in text and "<details" not in text:
        fence = None
        for line in text.split("\n"):
            if fence is not None:
                assert line in out.split("\n")
                if line.strip().startswith(fence):
                    fence = None
            elif line.lstrip().startswith(("```", "~~~")):
                fence = line.lstrip()[:3]
                assert line in out.split("\n")
            elif line.startswith("# ") or line.startswith("## "):
                assert line.rstrip() in out.split("\n")


def test_adversarial_lines_stay_linear():
    head = "# T\n\n- a\n- [b](#c)\n"
    cases = [
        lambda k: head + "[" * 25000 * k + "](#x)\n",
        lambda k: head + "[" + "a" * 12500 * k + "](https://" + "a/" * 12500 * k + ")\n",
        lambda k: head + "[ab](https://x.example/a/b/c/ab)" * 1250 * k + "\n",
        lambda k: head + "<details>\n" * 12500 * k,
        lambda k: head + "[x]: http://e.example\n" * 7500 * k + "[y]" * 7500 * k + "\n",
    ]
    # the regular expressions that scan these lines cannot backtrack exponentially (their shape) ...
    from sqz_formatters_generic.kinds import markdown_doc

    for name, pattern in regex_patterns(markdown_doc).items():
        assert nested_repeats(pattern) == [], (name, pattern)
    # ... and the Python around them does about 4 × the work on 4 × the input
    for case in cases:
        (small, n_small), (out, n_large) = work_done(md, case(1)), work_done(md, case(4))
        assert out is None or "# T" in out
        assert grows_linearly(n_small, n_large, 4), (case(1)[:60], n_small, n_large)


def test_collapsed_section_with_code_stays():
    body = "\n".join(f"step {i}" for i in range(FOLD_DETAILS + 2))
    out = md(f"# T\n\n[a](https://x.example/a)\n\n- x\n\n<details>\n<summary>Install with yarn</summary>\n\n"
             f"{body}\n\n```sh\nyarn add tool\n```\n</details>\n\n\n\nend\n")
    assert "yarn add tool" in out and f"step {FOLD_DETAILS + 1}" in out
    assert "collapsed section" not in out


def test_html_lines_keep_link_targets():
    out = md('# T\n\n- [a](https://x.example/a)\n- b\n\n<p align="center">Fast web framework</p>\n'
             '<a href="https://docs.example/api">API docs</a>\n')
    assert "\nFast web framework\n" in out
    assert '<a href="https://docs.example/api">API docs</a>' in out


def test_a_text_already_saying_not_shown_keeps_its_sections():
    fake = "[Old: a collapsed section of 12 lines, not shown]\n"
    out = md(DOC + fake)
    assert "collapsed section of 9 lines" not in out and "c1" in out and "C8" in out
    assert fake in out


