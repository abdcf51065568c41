"""The hosts' own lines around a command's output: cut off exactly, exit status read, body alone compressed."""

from __future__ import annotations

import pytest

from sqz_proxy import envelope

CASES = [
    # (as the host sends it, head, body, tail, exit code)
    ("Exit code 1\nFAILED a\n", "Exit code 1\n", "FAILED a\n", "", 1),                     # Claude Code 2.1.332
    ("Exit code: 2\nWall time: 0.4 seconds\nOutput:\nboom\n", "Exit code: 2\nWall time: 0.4 seconds\nOutput:\n",
     "boom\n", "", 2),                                                                     # Codex shell
    ("Process exited with code 1\nOutput:\nx\n", "Process exited with code 1\nOutput:\n", "x\n", "", 1),
    ("<untrusted_context>\nOutput: a\nb\nExit Code: 1\nProcess Group PGID: 1314\n</untrusted_context>",
     "<untrusted_context>\nOutput: ", "a\nb", "\nExit Code: 1\nProcess Group PGID: 1314\n</untrusted_context>", 1),
    ("Command: ls\nDirectory: (root)\nOutput: a\nError: (none)\nExit Code: (none)\nSignal: (none)\n"
     "Background PIDs: (none)\nProcess Group PGID: 7", "Command: ls\nDirectory: (root)\nOutput: ", "a",
     "\nError: (none)\nExit Code: (none)\nSignal: (none)\nBackground PIDs: (none)\nProcess Group PGID: 7", None),
    ("out\n<shellId: 0 completed with exit code 3>", "", "out", "\n<shellId: 0 completed with exit code 3>", 3),
    ("line\n\n<system-reminder>\nmind it\n</system-reminder>\n", "", "line",
     "\n\n<system-reminder>\nmind it\n</system-reminder>\n", None),
    ("plain output\nExit code 1\n", "", "plain output\nExit code 1\n", "", None),        # not at the start: output
    ("<system-reminder>only</system-reminder>", "", "<system-reminder>only</system-reminder>", "", None),
]


@pytest.mark.parametrize("text,head,body,tail,code", CASES)
def test_split(text, head, body, tail, code):
    f = envelope.split(text)
    assert (f.head, f.body, f.tail, f.exit_code) == (head, body, tail, code)
    assert f.join(f.body) == text
