"""The host's own lines around a command's output, kept verbatim.

Agents wrap what a command printed in their own status lines: Claude Code starts a failed
Bash result with ``Exit code N``; Codex with ``Exit code: N`` / ``Wall time`` / ``Output:`` or
``Process exited with code N``; Copilot ends with ``<shellId: … exit code N>``; Gemini CLI frames
it with ``Command:``/``Directory:``/``Output:`` and ``Error:``/``Exit Code:``/… lines; hosts append
``<system-reminder>`` blocks. ``split`` cuts such a frame off so only the command's own output
is compressed, and reads the exit status from it for the formatters.
"""

from __future__ import annotations

import re

_HEADS = (
    re.compile(r"\AExit code (?P<code>-?\d+)\n"),                             # Claude Code, a failed Bash call
    re.compile(r"\A(?:Chunk ID: [^\n]*\n)?(?:Wall time: [^\n]*\n)?Process exited with code (?P<code>-?\d+)\n"
               r"(?:Original token count: \d+\n)?(?:Output:\n)?"),           # Codex exec_command / hook reason
    re.compile(r"\AExit code: (?P<code>-?\d+)\n(?:Wall time: [^\n]*\n)?(?:Total output lines: \d+\n)?Output:\n"),
    # Gemini CLI run_shell_command (0.61: inside <untrusted_context>, no Command/Directory lines)
    re.compile(r"\A(?P<gemini><untrusted_context>\n)?(?:Command: [^\n]*\n)?(?:Directory: [^\n]*\n)?Output: "),
)
_GEMINI_TAIL = re.compile(r"\n(?:(?:Error|Exit Code|Signal|Background PIDs|Process Group PGID): [^\n]*(?:\n|\Z))+"
                          r"(?:</untrusted_context>\s*)?\Z")
_GEMINI_EXIT = re.compile(r"^Exit Code: (-?\d+)$", re.M)
_EXIT_TAILS = (
    re.compile(r"\n?<shellId: [^>\n]{0,80}?exit code (-?\d+)>\s*\Z"),        # Copilot CLI
    re.compile(r"\n?<exited with exit code (-?\d+)>\s*\Z"),
)
_BLOCK_TAILS = ("system-reminder", "bash_metadata")  # hosts' appended blocks (Claude Code, OpenCode)


def _peel(body: str):
    """(body, tail, exit code) with one host tail cut off the end, or None. Looks at the end only."""
    end = body.rstrip()
    if end.endswith(">"):
        window = body[-200:]
        for rx in _EXIT_TAILS:
            m = rx.search(window)
            if m:
                cut = len(body) - len(window) + m.start()
                if cut > 0:
                    return body[:cut], body[cut:], int(m.group(1))
        for tag in _BLOCK_TAILS:
            if end.endswith(f"</{tag}>"):
                start = end.rfind(f"<{tag}>")
                if start > 0:
                    while start > 0 and body[start - 1] == "\n":
                        start -= 1
                    if start > 0:
                        return body[:start], body[start:], None
    return None


class Framed:
    __slots__ = ("head", "body", "tail", "exit_code")

    def __init__(self, head: str, body: str, tail: str, exit_code: int | None):
        self.head, self.body, self.tail, self.exit_code = head, body, tail, exit_code

    def join(self, body: str) -> str:
        return self.head + body + self.tail


def split(text: str) -> Framed:
    """``text`` as host head + command output + host tail (either may be empty)."""
    head, exit_code = "", None
    for rx in _HEADS:
        m = rx.match(text)
        if m:
            head = m.group(0)
            if m.groupdict().get("code"):
                exit_code = int(m.group("code"))
            break
    body, tail = text[len(head):], ""
    if head.endswith("Output: "):
        m = _GEMINI_TAIL.search(body)
        if m:
            body, tail = body[:m.start()], body[m.start():]
            e = _GEMINI_EXIT.search(tail)
            if e:
                exit_code = int(e.group(1))
    # host tails, outermost last: peel them one by one
    for _ in range(8):
        found = _peel(body)
        if found is None:
            break
        body, cut, code = found
        tail = cut + tail
        if exit_code is None and code is not None:
            exit_code = code
    return Framed(head, body, tail, exit_code)
