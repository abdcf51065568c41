"""Savings figures from what the store keeps, counted with a real tokenizer where the bytes exist."""

from __future__ import annotations

import time


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
        from .tokens import count

        n, used = count(data.decode("utf-8", "replace"), counter)
        if used != counter:
            cache[digest] = None
            return None
        store.save_count(digest, counter, n)
    cache[digest] = n
    return n


def summarize(store, *, days: float | None = None, counter: str = "cl100k") -> dict:
    """Calls, tokens in/out and saved, per command family and outcome.

    Token figures are exact (``counter``) for every call whose input and output bytes
    are in the store; the rest (never-cached safe content, binary, errors) use the
    hot path's estimate and are counted separately under ``estimated_calls``.
    """
    from .tokens import counter_name

    used = counter_name(counter)
    since = time.time() - days * 86400 if days else 0.0
    cache: dict = {}
    fams: dict[str, dict] = {}
    total = {"calls": 0, "tokens_in": 0, "tokens_out": 0, "saved": 0, "estimated_calls": 0}
    outcomes: dict[str, int] = {}
    for (ts, session, command, family, plugin, outcome, b_in, b_out, est_in, est_out,
         in_hash, out_hash, _agent) in store.calls(since):
        t_in = _exact(store, in_hash, used, cache)
        if t_in is not None:
            t_out = _exact(store, out_hash, used, cache) if out_hash else t_in
        else:
            t_out = None
        estimated = t_in is None or t_out is None
        if estimated:
            t_in, t_out = est_in, est_out
        fam = fams.setdefault(family or "(none)", {"calls": 0, "tokens_in": 0, "tokens_out": 0, "saved": 0,
                                                   "refs": 0, "estimated_calls": 0})
        for bucket in (fam, total):
            bucket["calls"] += 1
            bucket["tokens_in"] += t_in
            bucket["tokens_out"] += t_out
            bucket["saved"] += t_in - t_out
            bucket["estimated_calls"] += 1 if estimated else 0
        if outcome == "ref":
            fam["refs"] += 1
        outcomes[outcome] = outcomes.get(outcome, 0) + 1
    return {"counter": used, "since": since, "total": total, "by_family": fams, "outcomes": outcomes}
