"""Where the tool results are in each wire format, and which tool call produced each.

A ``Slot`` is one tool result's text inside a parsed request body, in request order, with the
name and input of the matching tool call (found earlier in the same request) and a setter that
replaces that text in place. Nothing else of a body is ever touched.

Formats: Anthropic Messages (``tool_use`` / ``tool_result`` blocks), OpenAI Chat Completions
(``tool_calls`` / ``role: tool``), OpenAI Responses (``*_call`` / ``*_call_output`` items) and
Gemini ``generateContent`` (``functionCall`` / ``functionResponse`` parts).
"""

from __future__ import annotations

import json

ANTHROPIC = "anthropic-messages"
OPENAI_CHAT = "openai-chat"
OPENAI_RESPONSES = "openai-responses"
GEMINI = "gemini"


class Slot:
    """One tool result's text: ``key`` identifies it across requests (tool-call id and part index)."""

    __slots__ = ("key", "call_id", "name", "args", "text", "is_error", "_owner", "_field")

    def __init__(self, key, call_id, name, args, text: str, owner: dict, field: str, is_error: bool = False):
        self.key = key
        self.call_id = call_id
        self.name = name if isinstance(name, str) else None
        self.args = args
        self.text = text
        self.is_error = is_error
        self._owner = owner
        self._field = field

    def set(self, text: str) -> None:
        self._owner[self._field] = text

    def __repr__(self) -> str:
        return f"Slot({self.key!r}, {self.name!r}, {len(self.text)} chars)"


def _json_args(value):
    """Tool-call arguments sent as a JSON string (OpenAI) parsed, else as they are."""
    if isinstance(value, str):
        try:
            return json.loads(value)
        except ValueError:
            return value
    return value


def _dicts(value):
    return [v for v in value if isinstance(v, dict)] if isinstance(value, list) else []


def anthropic(body: dict) -> list[Slot]:
    calls: dict = {}
    out: list[Slot] = []
    for msg in _dicts(body.get("messages")):
        for block in _dicts(msg.get("content")):
            kind = block.get("type")
            if kind in ("tool_use", "server_tool_use", "mcp_tool_use") and isinstance(block.get("id"), str):
                calls[block["id"]] = (block.get("name"), block.get("input"))
            elif kind == "tool_result":
                cid = block.get("tool_use_id")
                name, args = calls.get(cid, (None, None)) if isinstance(cid, str) else (None, None)
                err = block.get("is_error") is True
                content = block.get("content")
                if isinstance(content, str):
                    out.append(Slot((cid, 0), cid, name, args, content, block, "content", err))
                else:
                    for i, sub in enumerate(content if isinstance(content, list) else []):
                        if isinstance(sub, dict) and sub.get("type") == "text" and isinstance(sub.get("text"), str):
                            out.append(Slot((cid, i), cid, name, args, sub["text"], sub, "text", err))
    return out


def openai_chat(body: dict) -> list[Slot]:
    calls: dict = {}
    out: list[Slot] = []
    for msg in _dicts(body.get("messages")):
        role = msg.get("role")
        if role == "assistant":
            for call in _dicts(msg.get("tool_calls")):
                fn = call.get("function") if isinstance(call.get("function"), dict) else {}
                if isinstance(call.get("id"), str):
                    calls[call["id"]] = (fn.get("name"), _json_args(fn.get("arguments")))
        elif role == "tool":
            cid = msg.get("tool_call_id")
            name, args = calls.get(cid, (None, None)) if isinstance(cid, str) else (None, None)
            content = msg.get("content")
            if isinstance(content, str):
                out.append(Slot((cid, 0), cid, name, args, content, msg, "content"))
            else:
                for i, sub in enumerate(content if isinstance(content, list) else []):
                    if isinstance(sub, dict) and sub.get("type") == "text" and isinstance(sub.get("text"), str):
                        out.append(Slot((cid, i), cid, name, args, sub["text"], sub, "text"))
    return out


def _responses_call(item: dict):
    """(name, input) of a Responses-API tool call item."""
    kind = item.get("type")
    if kind == "function_call":
        return item.get("name"), _json_args(item.get("arguments"))
    if kind == "custom_tool_call":
        return item.get("name"), item.get("input")
    if kind == "local_shell_call":
        action = item.get("action") if isinstance(item.get("action"), dict) else {}
        return "local_shell", {"command": action.get("command")}
    return item.get("name") or kind, item.get("arguments") or item.get("action")


def openai_responses(body: dict) -> list[Slot]:
    calls: dict = {}
    out: list[Slot] = []
    for item in _dicts(body.get("input")):
        kind = item.get("type")
        if not isinstance(kind, str):
            continue
        cid = item.get("call_id")
        if kind.endswith("_call") and isinstance(cid, str):
            calls[cid] = _responses_call(item)
        elif kind.endswith("_call_output") and isinstance(cid, str):
            name, args = calls.get(cid, (None, None))
            output = item.get("output")
            if isinstance(output, str):
                out.append(Slot((cid, 0), cid, name, args, output, item, "output"))
            else:
                for i, sub in enumerate(output if isinstance(output, list) else []):
                    if (isinstance(sub, dict) and sub.get("type") in ("input_text", "output_text", "text")
                            and isinstance(sub.get("text"), str)):
                        out.append(Slot((cid, i), cid, name, args, sub["text"], sub, "text"))
    return out


RESPONSE_FIELDS = ("output", "content", "result")


def gemini(body: dict) -> list[Slot]:
    """functionResponse parts; a response without an id answers the oldest open call of its name."""
    by_id: dict = {}
    open_by_name: dict[str, list] = {}
    out: list[Slot] = []
    ordinal = 0
    for content in _dicts(body.get("contents")):
        for part in _dicts(content.get("parts")):
            call = part.get("functionCall")
            if isinstance(call, dict):
                entry = (call.get("name"), call.get("args"))
                if isinstance(call.get("id"), str):
                    by_id[call["id"]] = entry
                open_by_name.setdefault(str(call.get("name")), []).append(entry)
                continue
            resp = part.get("functionResponse")
            if not isinstance(resp, dict):
                continue
            ordinal += 1
            name, cid = resp.get("name"), resp.get("id")
            if isinstance(cid, str) and cid in by_id:
                entry = by_id[cid]
                queue = open_by_name.get(str(entry[0]), [])
                if entry in queue:
                    queue.remove(entry)
            else:
                queue = open_by_name.get(str(name), [])
                entry = queue.pop(0) if queue else (name, None)
            key_id = cid if isinstance(cid, str) else f"#{ordinal}:{name}"
            payload = resp.get("response")
            if not isinstance(payload, dict):
                continue
            for field in RESPONSE_FIELDS:
                if isinstance(payload.get(field), str):
                    out.append(Slot((key_id, field), cid if isinstance(cid, str) else None, entry[0] or name,
                                    entry[1], payload[field], payload, field, "error" in payload))
                    break
    return out


EXTRACTORS = {ANTHROPIC: anthropic, OPENAI_CHAT: openai_chat, OPENAI_RESPONSES: openai_responses, GEMINI: gemini}


def slots(fmt: str, body) -> list[Slot]:
    """The tool results of ``body`` (a parsed request of format ``fmt``), in request order."""
    if not isinstance(body, dict):
        return []
    return EXTRACTORS[fmt](body)


# -- assistant answers (model-output folding) ------------------------------------------------------

class Answer:
    """One text part of an earlier assistant answer: ``turn`` is its assistant turn's ordinal (0-based)."""

    __slots__ = ("turn", "text", "_owner", "_field")

    def __init__(self, turn: int, text: str, owner: dict, field: str):
        self.turn, self.text, self._owner, self._field = turn, text, owner, field

    def set(self, text: str) -> None:
        self._owner[self._field] = text


def _text_parts(content, kinds: tuple) -> list[tuple[dict, str]]:
    return [(p, "text") for p in _dicts(content) if p.get("type") in kinds and isinstance(p.get("text"), str)]


def answers(fmt: str, body) -> tuple[list[Answer], int]:
    """(the text parts of every assistant turn of ``body``, the number of assistant turns)."""
    if not isinstance(body, dict):
        return [], 0
    out: list[Answer] = []
    turns = 0
    if fmt in (ANTHROPIC, OPENAI_CHAT):
        for msg in _dicts(body.get("messages")):
            if msg.get("role") != "assistant":
                continue
            if isinstance(msg.get("content"), str):
                out.append(Answer(turns, msg["content"], msg, "content"))
            else:
                out.extend(Answer(turns, p["text"], p, f) for p, f in _text_parts(msg.get("content"), ("text",)))
            turns += 1
    elif fmt == OPENAI_RESPONSES:
        inside = False  # consecutive output items (message, reasoning, calls) are one turn
        for item in _dicts(body.get("input")):
            kind = item.get("type")
            mine = (kind == "message" and item.get("role") == "assistant") or kind == "reasoning" or (
                isinstance(kind, str) and kind.endswith("_call"))
            if mine and not inside:
                turns += 1
            inside = mine
            if kind == "message" and item.get("role") == "assistant":
                if isinstance(item.get("content"), str):
                    out.append(Answer(turns - 1, item["content"], item, "content"))
                else:
                    out.extend(Answer(turns - 1, p["text"], p, f)
                               for p, f in _text_parts(item.get("content"), ("output_text", "text")))
    elif fmt == GEMINI:
        for content in _dicts(body.get("contents")):
            if content.get("role") != "model":
                continue
            out.extend(Answer(turns, p["text"], p, "text") for p in _dicts(content.get("parts"))
                       if isinstance(p.get("text"), str) and set(p) <= {"text"})
            turns += 1
    return out, turns
