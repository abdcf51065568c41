"""``sqz discover``: what sqz would have saved on the tool results of past Claude Code sessions.

Claude Code keeps one JSONL file per session under ``~/.claude/projects/<project>/``.
An ``assistant`` line's ``message.content`` holds ``tool_use`` blocks (``id``, ``name``,
``input``: ``command`` for Bash); a later ``user`` line holds the matching
``tool_result`` blocks (``tool_use_id``, ``content`` as a string or a list of text
blocks, ``is_error``). Each result is replayed through the real pipeline with a
throw-away store (one session per transcript, so repeats become refs as they would
have), and counted with the exact tokenizer. Nothing leaves the machine.
"""

from __future__ import annotations

import json
import os

SQZ_MARKS = ("§ref:", "§delta:")  # sqz's references; its recovery line is found by ``is_sqz_output``


def is_sqz_output(text: str) -> bool:
    """Whether ``text`` already went through sqz: a reference, or a recovery line in either form
    (``[sqz expand ID]`` now, ``[sqz: full output: sqz expand H]`` in older transcripts)."""
    from sqz_core.api import RECOVERY_LINE

    return any(mark in text for mark in SQZ_MARKS) or RECOVERY_LINE.search(text) is not None


def default_dir() -> str:
    return os.path.join(os.path.expanduser("~"), ".claude", "projects")


def transcript_files(root: str) -> list[str]:
    """Every ``*.jsonl`` under ``root`` (or ``root`` itself), sorted."""
    if os.path.isfile(root):
        return [root]
    found = []
    for base, _dirs, files in os.walk(root):
        found += [os.path.join(base, f) for f in files if f.endswith(".jsonl")]
    return sorted(found)


def _result_text(content) -> str | None:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        texts = [b.get("text", "") for b in content if isinstance(b, dict) and b.get("type") == "text"]
        return "\n".join(texts) if texts else None
    return None


def tool_results(path: str) -> tuple[list[dict], int]:
    """``([{"session", "tool", "command", "text", "is_error"}…], unreadable lines)`` of one transcript."""
    pending: dict = {}
    results: list[dict] = []
    bad = 0
    with open(path, encoding="utf-8", errors="replace") as fh:
        for line in fh:
            if not line.strip():
                continue
            try:
                entry = json.loads(line)
            except ValueError:
                bad += 1
                continue
            if not isinstance(entry, dict):
                continue
            message = entry.get("message")
            content = message.get("content") if isinstance(message, dict) else None
            if not isinstance(content, list):
                continue
            session = entry.get("sessionId") or os.path.splitext(os.path.basename(path))[0]
            for block in content:
                if not isinstance(block, dict):
                    continue
                if block.get("type") == "tool_use" and block.get("id"):
                    pending[block["id"]] = block
                elif block.get("type") == "tool_result":
                    use = pending.pop(block.get("tool_use_id"), None)
                    text = _result_text(block.get("content"))
                    if use is None or text is None:
                        continue
                    name = str(use.get("name") or "?")
                    args = use.get("input") if isinstance(use.get("input"), dict) else {}
                    command = args.get("command") if name == "Bash" and isinstance(args.get("command"), str) else None
                    results.append({"session": session, "tool": name, "command": command, "text": text,
                                    "is_error": bool(block.get("is_error"))})
    return results, bad


def _program(command: str | None) -> str | None:
    if not command:
        return None
    from sqz_core.api import FormatRequest

    return FormatRequest("", command).program


def discover(root: str, *, counter: str = "cl100k", progress=None) -> dict:
    """Replay every tool result under ``root``; totals per tool and per command (program name).

    ``progress(done, total)``, when given, is called with the transcripts replayed so far (0 first).
    """
    import tempfile

    from sqz_core.api import Store, compress, counter_name
    from sqz_core.api import count_tokens as count

    used = counter_name(counter)
    files = transcript_files(root)
    total = {"results": 0, "tokens_in": 0, "tokens_out": 0, "saved": 0, "already_sqz": 0}
    by_tool: dict[str, dict] = {}
    by_command: dict[str, dict] = {}
    outcomes: dict[str, int] = {}
    bad_lines = 0
    with tempfile.TemporaryDirectory(prefix="sqz-discover-") as tmp:
        store = Store.open(os.path.join(tmp, "replay.db"))
        try:
            if progress is not None:
                progress(0, len(files))
            for n, path in enumerate(files, 1):
                if progress is not None and n > 1:
                    progress(n - 1, len(files))
                try:
                    results, bad = tool_results(path)
                except OSError:
                    continue
                bad_lines += bad
                for r in results:
                    text = r["text"]
                    if is_sqz_output(text):
                        total["already_sqz"] += 1
                        continue
                    data = text.encode("utf-8", "surrogatepass")
                    tool = None if r["command"] else r["tool"].lower()
                    res = compress(data, command=r["command"], tool=tool, session=f"discover:{r['session']}",
                                   store=store)
                    t_in = count(text, used)[0]
                    t_out = t_in if res.output == data else count(res.output.decode("utf-8", "replace"), used)[0]
                    outcomes[res.outcome] = outcomes.get(res.outcome, 0) + 1
                    keys = [(by_tool, r["tool"])]
                    if r["command"]:
                        keys.append((by_command, _program(r["command"]) or "?"))
                    for table, key in keys:
                        b = table.setdefault(key, {"results": 0, "tokens_in": 0, "tokens_out": 0, "saved": 0})
                        b["results"] += 1
                        b["tokens_in"] += t_in
                        b["tokens_out"] += t_out
                        b["saved"] += t_in - t_out
                    total["results"] += 1
                    total["tokens_in"] += t_in
                    total["tokens_out"] += t_out
                    total["saved"] += t_in - t_out
            if progress is not None and files:
                progress(len(files), len(files))
        finally:
            store.close()
    return {"counter": used, "root": root, "transcripts": len(files), "unreadable_lines": bad_lines,
            "total": total, "by_tool": by_tool, "by_command": by_command, "outcomes": outcomes}
