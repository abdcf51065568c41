"""Capture the hook payloads the real Claude Code CLI sends (tests/payloads/*.json, "captured" ones).

Runs the CLI installed by ``install_test_agent.sh`` against the scripted model of tests/e2e in a
throwaway HOME and git repository, with a hook that only records its stdin. The model asks for
``git log --stat -n 5``, a Read, and a failing ``git log``; the PostToolUse payloads of Bash and
Read and the PostToolUseFailure payload of Bash are written, with the temp paths replaced by
``/tmp/capture``. Usage: ``python capture_payloads.py`` (from anywhere).
"""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
sys.path.insert(0, str(HERE.parent / "tests" / "e2e"))
from claude_scripted_model import ScriptedModel, tool_results  # noqa: E402

CLAUDE = os.environ.get("SQZ_CLAUDE_CODE_BIN") or str(ROOT / ".cache/agents/claude/node_modules/.bin/claude")
OUT = HERE.parent / "tests" / "payloads"
RECORD = "import json, os, sys, time\nd = json.load(sys.stdin)\n" \
         "open(os.path.join(sys.argv[1], f\"{time.time():.6f}.json\"), 'w').write(json.dumps(d))\n"


def main() -> int:
    tmp = Path(tempfile.mkdtemp(prefix="capture"))
    home, repo, log = tmp / "home", tmp / "repo", tmp / "log"
    for d in (home, repo, log):
        d.mkdir()
    git = lambda *a: subprocess.run(["git", "-C", str(repo), *a], check=True, capture_output=True)  # noqa: E731
    git("init", "-q")
    git("config", "user.email", "dev@example.org")
    git("config", "user.name", "Dev Example")
    for i, subject in enumerate(["Add the parser", "Fix pagination", "Document the cache"]):
        (repo / f"part{i}.py").write_text("".join(f"def f{i}_{k}():\n    return {k}\n" for k in range(5)))
        git("add", ".")
        git("commit", "-q", "-m", subject)
    (tmp / "record.py").write_text(RECORD)
    hook = {"type": "command", "command": f"{shlex.quote(sys.executable)} {tmp / 'record.py'} {log}"}
    (home / ".claude").mkdir()
    (home / ".claude" / "settings.json").write_text(json.dumps({"permissions": {"allow": ["Bash(git log:*)"]}, "hooks": {
        event: [{"matcher": "Bash|Read", "hooks": [hook]}] for event in ("PostToolUse", "PostToolUseFailure")}}))
    steps = [("tool", "Bash", {"command": "git log --stat -n 5", "description": "Show recent commits"}),
             ("tool", "Read", {"file_path": str(repo / "part1.py")}),
             ("tool", "Bash", {"command": "git log -n 1 --no-such-flag", "description": "Fails"}),
             ("text", "done")]
    env = {k: v for k, v in os.environ.items() if not k.startswith(("ANTHROPIC_", "CLAUDE"))}
    with ScriptedModel(lambda messages: steps[min(len(tool_results(messages)), 3)]) as model:
        env.update(HOME=str(home), ANTHROPIC_BASE_URL=model.url, ANTHROPIC_API_KEY="sk-ant-test-dummy",
                   CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC="1", DISABLE_AUTOUPDATER="1", DISABLE_TELEMETRY="1",
                   DISABLE_ERROR_REPORTING="1")
        subprocess.run([CLAUDE, "-p", "go"], cwd=repo, env=env, check=True, timeout=120, capture_output=True)
    version = subprocess.run([CLAUDE, "--version"], capture_output=True, text=True).stdout.split()[0]
    names = {("PostToolUse", "Bash"): "posttooluse_bash.json", ("PostToolUse", "Read"): "posttooluse_read_captured.json",
             ("PostToolUseFailure", "Bash"): "posttoolusefailure_bash.json"}
    for f in sorted(log.iterdir()):
        data = json.loads(f.read_text().replace(str(tmp), "/tmp/capture"))
        name = names.get((data.get("hook_event_name"), data.get("tool_name")))
        if name:
            data["_captured_with"] = f"Claude Code {version} (sqz_integrations/claude_code/scripts/capture_payloads.py)"
            (OUT / name).write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n")
            print("wrote", OUT / name)
    return 0


if __name__ == "__main__":
    sys.exit(main())
