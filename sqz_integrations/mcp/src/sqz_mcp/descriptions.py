"""Compacting upstream tool descriptions for tools/list: whitespace collapsed, length capped.

Input schemas are never touched (a client validates arguments against them). A cut ends
on a word boundary with ``…``; the lazy form keeps the first sentence only (`` …`` when more
followed), so the agent can tell a shortened description from a whole one.
"""

from __future__ import annotations

import re

CAP = 400
LAZY_CAP = 160
_WS = re.compile(r"\s+")
_SENTENCE_END = re.compile(r"[.!?](?=\s|$)")


def collapse(text: str) -> str:
    return _WS.sub(" ", text).strip()


def _cut(text: str, cap: int) -> str:
    if len(text) <= cap:
        return text
    head = text[: cap - 1]
    space = head.rfind(" ")
    if space >= cap // 2:
        head = head[:space]
    return head.rstrip(" ,;:-") + "…"


def compact(text: str, lazy: bool = False) -> str:
    """``text`` with whitespace runs collapsed, at most 400 characters (lazy: first sentence, at most 160)."""
    flat = collapse(text)
    if not lazy:
        return _cut(flat, CAP)
    m = _SENTENCE_END.search(flat)
    first = flat[: m.end()] if m else flat
    if first == flat or len(first) > LAZY_CAP - 2:
        return _cut(flat, LAZY_CAP)
    return first + " …"  # more follows: sqz_tool_help has it


def compact_tools(tools: list, lazy: bool = False) -> tuple[list, dict]:
    """(tools with compacted descriptions, {name: original description}); other fields are kept as they are."""
    out = []
    originals = {}
    for tool in tools:
        if not isinstance(tool, dict) or not isinstance(tool.get("description"), str):
            out.append(tool)
            continue
        desc = tool["description"]
        if isinstance(tool.get("name"), str):
            originals[tool["name"]] = desc
        short = compact(desc, lazy)
        if short != desc:
            tool = dict(tool)
            tool["description"] = short
        out.append(tool)
    return out, originals
