"""The issues' 12-step session (``benchmarks/agent_sessions.py``) in each of the five real CLIs, once without
sqz and once through the proxy (no hooks), asserting what the model received (issue 26.8): every fact that
reached the model without sqz reaches it through the proxy, the failing test run is compressed with all its
FAILED lines, its summary and the host's exit line, the re-read after the edit is a delta and the unchanged
re-read a ref to the copy still in the request (Gemini CLI's included, which no Gemini hook can replace).
"""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path

import pytest

from sqz_core.api import count_tokens

ROOT = Path(__file__).resolve().parents[3]


def _sessions():
    spec = importlib.util.spec_from_file_location("agent_sessions_for_e2e", ROOT / "benchmarks" / "agent_sessions.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


S = _sessions()


@pytest.mark.parametrize("agent", S.AGENTS)
def test_twelve_step_session_through_the_proxy_keeps_every_fact_and_compresses_the_failing_run(agent, monkeypatch):
    # measure() points the in-process proxy's store at its own temporary folder: keep this test's env as it was
    for name in ("SQZ_DB_PATH", "SQZ_CACHE_DIR"):
        monkeypatch.setenv(name, os.environ.get(name, ""))
    plain, proxied = S.measure(agent, "none"), S.measure(agent, "proxy")
    assert plain["steps_answered"] == 12, plain["note"]
    assert proxied["steps_answered"] == 12, proxied["note"]
    a, b = plain["results"], proxied["results"]
    for i, facts in enumerate(S.FACTS):
        for j, fact in enumerate(facts):
            if fact(a[i]):
                assert fact(b[i]), (agent, f"step {i + 1}, fact {j}", b[i][:1500])
    # the failing run: compressed, every FAILED line and the summary kept, the host's exit line as it sent it
    tokens = lambda t: count_tokens(t)[0]  # noqa: E731
    assert tokens(b[1]) < 0.8 * tokens(a[1]), (a[1], b[1])
    assert all(f in b[1] for f in S.FAILED) and "6 failed, 94 passed" in b[1]
    exit_lines = [line for line in a[1].splitlines() if S._EXIT_LINE.search(line)]
    assert all(line in b[1].splitlines() for line in exit_lines), (exit_lines, b[1][-400:])
    if agent != "opencode":  # OpenCode 1.18.33 sends the command's output alone
        assert exit_lines, a[1][-400:]
    # the re-read after the edit: a delta against the first read still in the request; the unchanged re-read: a ref
    assert "§delta:" in b[6] and tokens(b[6]) < 0.2 * tokens(a[6]), b[6]
    assert S._held(b[11]) and tokens(b[11]) < 0.1 * tokens(a[11]), b[11]
    # first reads are file content: what the agent sent, unchanged
    # (the same bytes but for a host's per-call header, e.g. Codex's random "Chunk ID")
    assert tokens(b[2]) == pytest.approx(tokens(a[2]), rel=0.02) and tokens(b[3]) == pytest.approx(tokens(a[3]), rel=0.02)
    assert proxied["tokens"] < 0.7 * plain["tokens"]
