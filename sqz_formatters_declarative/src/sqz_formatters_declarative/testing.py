"""``sqz formatters test``: one spec on one real output, shown before and after with cl100k tokens
and the facts it keeps (the test kit's fact rule, ``sqz_testing.api``)."""

from __future__ import annotations

import json
import sys


def _read_output(on: str) -> str:
    data = sys.stdin.buffer.read() if on == "-" else open(on, "rb").read()
    return data.decode("utf-8", "replace")


def _load_facts(path: str):
    """``(facts, command, exit_code)`` from a JSON list of facts or a fixture sidecar."""
    with open(path, encoding="utf-8") as fh:
        data = json.load(fh)
    if isinstance(data, list):
        return data, None, None
    if isinstance(data, dict) and isinstance(data.get("facts"), list):
        return data["facts"], data.get("command"), data.get("exit_code")
    raise ValueError(f"{path}: a JSON list of facts, or an object with a `facts` list, is expected")


def run_test(file: str, on: str, facts_file: str | None, cmd: str | None, exit_code: int | None):
    """``(exit status, JSON-able result, lines to print)``."""
    from sqz_core.api import FormatRequest, clean_terminal, count_tokens

    from .compile import compile_file
    from .engine import apply, failing, matches

    specs, errors = compile_file(file, "file")
    if errors:
        return 1, {"errors": errors}, [f"error: {e}" for e in errors]
    if not specs:
        return 1, {"errors": [f"{file}: defines no formatter"]}, [f"error: {file} defines no formatter"]
    facts, side_cmd, side_exit = [], None, None
    if facts_file:
        try:
            facts, side_cmd, side_exit = _load_facts(facts_file)
        except (OSError, ValueError) as exc:
            return 1, {"errors": [str(exc)]}, [f"error: {exc}"]
    cmd = cmd if cmd is not None else side_cmd
    exit_code = exit_code if exit_code is not None else side_exit
    try:
        raw = _read_output(on)
    except OSError as exc:
        return 1, {"errors": [f"{on}: {exc.strerror or exc}"]}, [f"error: {on}: {exc.strerror or exc}"]
    before = clean_terminal(raw)  # what the pipeline hands a formatter
    if cmd:
        request = FormatRequest(before, cmd, exit_code=exit_code)
        spec = next((s for s in specs if matches(s, request)), None)
        if spec is None:
            names = ", ".join(f"{s['name']} ({'/'.join(s['programs'])})" for s in specs)
            msg = f"no formatter in {file} matches {cmd!r} (it has: {names})"
            return 1, {"errors": [msg]}, [f"error: {msg}"]
    else:
        spec = specs[0]
    after = apply(spec, before, exit_code)
    t_before, counter = count_tokens(before)
    t_after, _ = count_tokens(after)
    kept = []
    missing = 0
    if facts:
        try:
            from sqz_testing.api import fact_kept
        except ImportError:
            msg = "--facts needs the test kit: pip install 'sqz-formatters-declarative[testing]'"
            return 1, {"errors": [msg]}, [f"error: {msg}"]
        for fact in facts:
            ok = fact_kept(after, fact)
            missing += not ok
            kept.append({"fact": fact, "kept": ok})
    saved = (1 - t_after / t_before) * 100 if t_before else 0.0
    status = "unknown (counts as failing: error lines kept)" if exit_code is None else str(exit_code)
    data = {"formatter": spec["name"], "source": spec["source"], "command": cmd, "exit_code": exit_code,
            "failing": failing(exit_code), "tokenizer": counter,
            "before": {"lines": before.count("\n"), "tokens": t_before, "text": before},
            "after": {"lines": after.count("\n"), "tokens": t_after, "text": after},
            "saved_percent": round(saved, 1), "facts": kept, "facts_missing": missing}
    lines = [f"formatter {spec['name']} ({spec['source']}); command: {cmd or '(not given)'}; exit status: {status}",
             f"--- before: {data['before']['lines']} lines, {t_before} tokens ({counter}) ---", before.rstrip("\n"),
             f"--- after: {data['after']['lines']} lines, {t_after} tokens ({counter}), {saved:.1f}% saved ---",
             after.rstrip("\n")]
    if facts:
        lines.append(f"--- facts: {len(facts) - missing} of {len(facts)} kept ---")
        lines.extend(f"  {'kept   ' if k['kept'] else 'MISSING'} {json.dumps(k['fact'], ensure_ascii=False)}" for k in kept)
    return (1 if missing else 0), data, lines
