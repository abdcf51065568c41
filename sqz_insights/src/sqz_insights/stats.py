"""Savings figures from what the store keeps, counted with a real tokenizer where the bytes exist.

Every token figure comes from the stored bytes of a call (its input and what was
served), counted with the named tokenizer and cached per hash. Calls whose bytes
were never stored (safe-mode content, binary, errors) fall back to the hot path's
estimate and are counted apart (``estimated_calls``), never mixed in silently.

Regret signals show over-compression: a quick re-run of the same command in the
same session after a shortened answer, and an ``sqz expand`` of an entry soon
after it was served shortened.
"""

from __future__ import annotations

import os
import time

from sqz_core.api import scrub_command

# outcomes where the model saw less than the command printed
SHORTENED = ("compressed", "ref", "slice", "delta")
DEDUP = ("ref", "slice", "delta")
BYPASSES = {"passthrough": "nothing to gain", "gate": "net-win gate", "safe": "safe mode"}
RERUN_WINDOW = 120.0  # seconds: same command, same session, after a shortened answer
EXPAND_WINDOW = 600.0  # seconds: expand of an entry after it was served shortened
GROUPINGS = ("command", "day", "agent", "session")
UNKNOWN = "(unknown)"


def _exact(store, digest: str | None, counter: str, cache: dict) -> int | None:
    if not digest or counter == "estimate":
        return None
    if digest in cache:
        return cache[digest]
    n = store.cached_count(digest, counter)
    if n is None:
        data = store.get_blob(digest)
        if data is None:
            cache[digest] = None
            return None
        from sqz_core.api import count_tokens as count

        n, used = count(data.decode("utf-8", "replace"), counter)
        if used != counter:
            cache[digest] = None
            return None
        store.save_count(digest, counter, n)
    cache[digest] = n
    return n


def project_session(path: str) -> str:
    """The default session id of calls made in ``path`` (``pipeline.default_session``'s rule)."""
    from sqz_core.api import default_session_for

    return default_session_for(os.path.realpath(os.path.abspath(os.path.expanduser(path))))


def _bucket() -> dict:
    return {"calls": 0, "tokens_in": 0, "tokens_out": 0, "saved": 0, "refs": 0, "dedup_hits": 0,
            "dedup_saved": 0, "bypasses": 0, "estimated_calls": 0, "regrets": 0}


def _day(ts: float) -> str:
    return time.strftime("%Y-%m-%d", time.localtime(ts))


def _group_key(by: str, family, ts, session, agent) -> str:
    if by == "day":
        return _day(ts)
    if by == "agent":
        return agent or UNKNOWN
    if by == "session":
        return session or UNKNOWN
    return family or "(none)"


def _ref_prefix(ref: str | None) -> str | None:
    """The hash prefix an ``expand`` event names (``ref:abcd…:L1-9``, ``abcd…``), or None."""
    if not ref:
        return None
    s = ref.strip().strip("§")
    if s.startswith("ref:"):
        s = s[4:]
    s = s.split(":", 1)[0].lower()
    return s if len(s) >= 4 and all(c in "0123456789abcdef" for c in s) else None


def regrets(calls: list, events: list, *, rerun_window: float = RERUN_WINDOW,
            expand_window: float = EXPAND_WINDOW) -> list[dict]:
    """Regret signals, oldest first: ``{"kind": "rerun"|"expand", "ts", "session", "command", "family",
    "outcome" (of the shortened answer), "identical" (re-run printed the same bytes)}``.

    ``calls`` are ``Store.calls`` rows, ``events`` ``Store.events`` rows.
    """
    found: list[dict] = []
    last: dict = {}  # (session, command) -> row of the latest call
    by_hash: list = []  # (ts, input_hash, row) of shortened answers, for expand matching
    for row in calls:
        ts, session, command, family, _plugin, outcome, *_rest = row
        in_hash = row[10]
        key = (session, command)
        prev = last.get(key) if command else None
        if prev is not None and prev[5] in SHORTENED and 0 <= ts - prev[0] <= rerun_window:
            found.append({"kind": "rerun", "ts": ts, "session": session, "command": command, "family": prev[3],
                          "agent": prev[12], "outcome": prev[5],
                          "identical": bool(in_hash and prev[10] and in_hash == prev[10])})
        if command:
            last[key] = row
        if outcome in SHORTENED and in_hash:
            by_hash.append((ts, in_hash, row))
    for ts, session, kind, ref, _detail in events:
        if kind != "expand":
            continue
        prefix = _ref_prefix(ref)
        if prefix is None:
            continue
        match = None
        for c_ts, digest, row in reversed(by_hash):
            if c_ts <= ts and digest.startswith(prefix):
                match = row if ts - c_ts <= expand_window else None
                break
        if match is not None:
            found.append({"kind": "expand", "ts": ts, "session": session or match[1], "command": match[2],
                          "family": match[3], "agent": match[12], "outcome": match[5], "identical": False})
    found.sort(key=lambda r: r["ts"])
    return found


def summarize(store, *, days: float | None = None, counter: str = "cl100k", project: str | None = None,
              by: str = "command", since: float | None = None, now: float | None = None) -> dict:
    """Calls, tokens in/out and saved, per command family, per ``by`` group and per day.

    Token figures are exact (``counter``) for every call whose input and output bytes
    are in the store (or whose counts were cached before the bytes were pruned); the
    rest use the hot path's estimate and are counted under ``estimated_calls``.
    ``project`` keeps only calls made in that directory: recorded with that working
    directory, or under its default per-directory session (``cwd:<crc32>``). ``by`` is one
    of ``GROUPINGS``.
    """
    from sqz_core.api import counter_name

    if by not in GROUPINGS:
        raise ValueError(f"by must be one of {', '.join(GROUPINGS)}")
    used = counter_name(counter)
    now = time.time() if now is None else now
    if since is None:
        since = now - days * 86400 if days else 0.0
    wanted = project_session(project) if project else None
    where = os.path.realpath(os.path.abspath(os.path.expanduser(project))) if project else None
    rows = [r[:13] for r in store.calls(since)
            if wanted is None or r[1] == wanted or (len(r) > 13 and r[13] == where)]
    events = store.events(since)
    if wanted is not None:
        # expand events carry SQZ_SESSION or nothing: keep those that may belong to the project
        events = [e for e in events if e[1] in (None, wanted)]
    cache: dict = {}
    fams: dict[str, dict] = {}
    groups: dict[str, dict] = {}
    daily: dict[str, dict] = {}
    total = _bucket()
    total["estimated_tokens_in"] = 0
    total["uncounted_calls"] = total["uncounted_bytes"] = 0  # no bytes, no estimate (--mode safe)
    outcomes: dict[str, int] = {}
    bypasses = {name: 0 for name in BYPASSES}
    for (ts, session, command, family, plugin, outcome, b_in, b_out, est_in, est_out,
         in_hash, out_hash, agent) in rows:
        t_in = _exact(store, in_hash, used, cache)
        if t_in is not None:
            t_out = _exact(store, out_hash, used, cache) if out_hash else t_in
        else:
            t_out = None
        estimated = t_in is None or t_out is None
        if estimated:
            t_in, t_out = est_in, est_out
            total["estimated_tokens_in"] += est_in
            if not est_in and b_in:
                total["uncounted_calls"] += 1
                total["uncounted_bytes"] += b_in
        fam = fams.setdefault(family or "(none)", _bucket())
        grp = groups.setdefault(_group_key(by, family, ts, session, agent), _bucket())
        day = daily.setdefault(_day(ts), _bucket())
        for bucket in (fam, grp, day, total):
            bucket["calls"] += 1
            bucket["tokens_in"] += t_in
            bucket["tokens_out"] += t_out
            bucket["saved"] += t_in - t_out
            bucket["estimated_calls"] += 1 if estimated else 0
            if outcome == "ref":
                bucket["refs"] += 1
            if outcome in DEDUP:
                bucket["dedup_hits"] += 1
                bucket["dedup_saved"] += t_in - t_out
            if outcome in BYPASSES:
                bucket["bypasses"] += 1
        if outcome in BYPASSES:
            bypasses[outcome] += 1
        outcomes[outcome] = outcomes.get(outcome, 0) + 1
    signals = regrets(rows, events)
    for sig in signals:
        total["regrets"] += 1
        fams.setdefault(sig["family"] or "(none)", _bucket())["regrets"] += 1
        groups.setdefault(_group_key(by, sig["family"], sig["ts"], sig["session"], sig["agent"]),
                          _bucket())["regrets"] += 1
        daily.setdefault(_day(sig["ts"]), _bucket())["regrets"] += 1
    shortened = sum(outcomes.get(o, 0) for o in SHORTENED)
    regret = {
        "reruns": sum(1 for s in signals if s["kind"] == "rerun"),
        "reruns_identical": sum(1 for s in signals if s["kind"] == "rerun" and s["identical"]),
        "expands": sum(1 for s in signals if s["kind"] == "expand"),
        "shortened_answers": shortened,
        "rate": round(len(signals) / shortened, 4) if shortened else 0.0,
        "rerun_window_s": RERUN_WINDOW, "expand_window_s": EXPAND_WINDOW,
        # commands an older sqz stored unscrubbed never reach a report or a terminal with their secrets
        "recent": [dict({k: s[k] for k in ("kind", "ts", "session", "outcome", "identical")},
                        command=scrub_command(s["command"])) for s in signals[-10:]],
    }
    budget_warnings = sum(1 for e in events if e[2] == "budget")
    return {"counter": used, "since": since, "until": now, "project": project, "project_session": wanted,
            "by": by, "total": total, "by_family": fams, "groups": groups,
            "daily": [dict(day=d, **daily[d]) for d in sorted(daily)], "outcomes": outcomes,
            "bypasses": bypasses, "regret": regret, "budget_warnings": budget_warnings}


def csv_rows(summary: dict) -> list[list]:
    """The ``by`` groups of a summary as CSV rows, header first."""
    cols = ("calls", "tokens_in", "tokens_out", "saved", "dedup_hits", "bypasses", "regrets", "estimated_calls")
    rows: list[list] = [[summary["by"], *cols, "counter"]]
    for name, g in sorted(summary["groups"].items()):
        rows.append([name, *(g[c] for c in cols), summary["counter"]])
    t = summary["total"]
    rows.append(["total", *(t[c] for c in cols), summary["counter"]])
    return rows


def warm_counts(store, counter: str = "cl100k") -> int:
    """Count and cache the tokens of every call's stored bytes, so figures stay exact after the
    content itself is pruned or reset. Returns how many hashes were counted."""
    from sqz_core.api import counter_name

    used = counter_name(counter)
    cache: dict = {}
    for row in store.calls(0.0):
        for digest in (row[10], row[11]):
            _exact(store, digest, used, cache)
    return sum(1 for v in cache.values() if v is not None)
