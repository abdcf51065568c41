"""The compression pipeline: one tool output in, what the model should see out.

1. exit trailer stripped when it carries the call's nonce (the wrapped command's status is kept);
2. empty, binary, invalid UTF-8 or oversized input passes through byte-exact;
3. safety routing: secrets pass through untouched; stack traces and DDL pass
   through unless a formatter's summary keeps every line of their paragraphs;
   neither is ever cached;
4. exact-repeat dedup against the session store (``sqz_dedup``);
5. per-command formatter (``sqz_format``); when none answers, the content kind (``sqz_detect``)
   and the catch-all formatters (the generic pack's kinds);
6. generic lossless stages: terminal noise, blank runs, repeated lines/blocks;
7. the net-win gate: a result that does not save enough goes out as the original.
A lossy result ends with a line telling how to get the original back.

A per-call time budget (``SQZ_TIME_BUDGET_MS``, default 2000) is checked between stages:
past it the original goes out unchanged, nothing is stored, and the outcome is ``timeout``.
"""

from __future__ import annotations

import os
import time

from .cleanup import clean_terminal, fold_repeats, looks_like_diff, strip_escapes
from .exitmarker import split_trailer
from .request import FormatRequest
from .tokens import estimate

try:  # the C implementation without hashlib's OpenSSL set-up (saves a few ms per call)
    from _sha256 import sha256
except ImportError:  # pragma: no cover - other Pythons
    try:
        from _sha2 import sha256
    except ImportError:
        from hashlib import sha256

DEFAULT_MAX_BYTES = 32 * 1024 * 1024
DEFAULT_TIME_BUDGET_MS = 2000
MIN_REF_BYTES = 160  # shorter content is always sent in full


class Result:
    """What the pipeline decided for one output."""

    __slots__ = ("output", "outcome", "plugin", "exit_code", "digest", "est_in", "est_out", "reason",
                 "family", "stored", "output_digest")

    def __init__(self, output: bytes, outcome: str, *, exit_code=None, plugin=None, digest=None,
                 est_in: int = 0, est_out: int = 0, reason: str = "", family=None) -> None:
        self.output = output
        self.outcome = outcome  # compressed | ref | passthrough | gate | safe | binary | empty | huge | timeout
        self.plugin = plugin
        self.exit_code = exit_code
        self.digest = digest
        self.est_in = est_in
        self.est_out = est_out
        self.reason = reason
        self.family = family
        self.stored = False
        self.output_digest = None

    def __repr__(self) -> str:
        return f"Result({self.outcome!r}, plugin={self.plugin!r}, {self.est_in}->{self.est_out} est tokens)"


def digest_of(data: bytes) -> str:
    return sha256(data).hexdigest()


def default_session() -> str:
    """``SQZ_SESSION``, else one session per user, machine and working directory."""
    sid = os.environ.get("SQZ_SESSION")
    if sid:
        return sid
    from .sessions import default_session_for

    try:
        cwd = os.getcwd()
    except OSError:
        cwd = "?"
    return default_session_for(cwd)


def _max_bytes() -> int:
    try:
        return int(os.environ.get("SQZ_MAX_BYTES", DEFAULT_MAX_BYTES))
    except ValueError:
        return DEFAULT_MAX_BYTES


def time_budget() -> float:
    """Seconds a call may spend before the original is sent instead (``SQZ_TIME_BUDGET_MS``; 0: no limit)."""
    try:
        ms = int(os.environ.get("SQZ_TIME_BUDGET_MS", DEFAULT_TIME_BUDGET_MS))
    except ValueError:
        ms = DEFAULT_TIME_BUDGET_MS
    return ms / 1000 if ms > 0 else float("inf")


def _over_budget(raw: bytes, exit_code, deadline: float, family=None, est_in: int = 0) -> Result | None:
    """The original, unchanged and unstored, when the call is past its deadline; else None."""
    if time.monotonic() <= deadline:
        return None
    return Result(raw, "timeout", exit_code=exit_code, reason=f"over the {time_budget():g} s time budget",
                  family=family, est_in=est_in, est_out=est_in)


def min_saving(est_in: int, mode: str) -> int:
    """Tokens a result must save to be used: 10% (5% in aggressive mode), at least 8.

    The margin covers the estimate's error (about ±10% against cl100k, more when a
    transformation changes the mix of characters), so a result the gate lets through
    is shorter in real tokens too.
    """
    frac = 0.05 if mode == "aggressive" else 0.10
    return max(8, int(est_in * frac))


def recovery_line(digest: str, store) -> str:
    """``[<sqz> expand ID]``: the last line of a lossy result, a command the agent's shell can run.

    ID is the shortest prefix of ``digest`` (12 hex digits or more) unique in ``store`` now,
    so ``sqz expand ID`` never answers "ambiguous" (``runnable.RECOVERY_LINE`` parses it).
    """
    from .expand import short_id
    from .runnable import recovery_text

    return recovery_text(short_id(store, digest)) + "\n"


def net_win(est_in: int, est_out: int, mode: str) -> bool:
    """The gate: the result must save ``min_saving`` tokens even if the estimate of it is 8% low."""
    return est_out * 1.08 + min_saving(est_in, mode) <= est_in


def _passthrough(raw: bytes, outcome: str, exit_code, reason: str = "", family=None) -> Result:
    return Result(raw, outcome, exit_code=exit_code, reason=reason, family=family)


def _safe_passthrough(raw: bytes, text: str, exit_code, reason: str, family, est_in: int) -> Result:
    """Safe content unchanged but for colour codes (what the user saw); never stored."""
    shown = strip_escapes(text)
    out = raw if shown == text else shown.encode("utf-8")
    r = Result(out, "safe", exit_code=exit_code, reason=reason, family=family, est_in=est_in)
    r.est_out = estimate(shown) if out is not raw else est_in
    return r


def compress(data: bytes, *, command: str | None = None, tool: str | None = None, mode: str = "auto",
             session: str | None = None, store=None, no_cache: bool = False, index: dict | None = None,
             formatters: bool = True, abbreviate: bool | None = None, exit_nonce: str | None = None) -> Result:
    """Run the pipeline on ``data`` (raw bytes as the command printed them).

    ``store`` is a ``sqz_core.store.Store`` or None (no dedup, no lossy stages: nothing
    could be recovered). ``no_cache`` disables refs for this call (neither emitted
    nor recorded); originals of lossy results are still kept for ``expand``.
    ``formatters=False`` skips per-command plugins, keeping the catch-alls such as the generic
    content kinds (to measure the generic stages).
    ``abbreviate`` None follows ``SQZ_NO_ABBREV``. ``exit_nonce``: the wrapper's per-call
    nonce; only a trailer carrying it is stripped (``exitmarker``).

    Pressure (tokens served to the session in a sliding window, ``sessions.pressure``):
    ``high`` switches to aggressive mode (smaller savings accepted, abbreviation
    always tried); ``critical`` also cuts long unformatted output to its head and
    tail, the middle recoverable with ``sqz expand``. File content, diffs and safe
    content are never cut.
    """
    from .plugins import builtin_record, call_all, call_first, for_program, implementations, load_index
    from .verdicts import most_restrictive

    deadline = time.monotonic() + time_budget()
    raw, exit_code = split_trailer(data, exit_nonce)
    if not raw:
        return _passthrough(raw, "empty", exit_code)
    if command and "sqz" in command and _runs_sqz(command):  # sqz's own output (``sqz expand``): never again
        return _passthrough(raw, "passthrough", exit_code, reason="sqz's own output")
    if len(raw) > _max_bytes():
        return _passthrough(raw, "huge", exit_code, reason=f"over {_max_bytes()} bytes")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        return _passthrough(raw, "binary", exit_code, reason="not UTF-8")
    if "\x00" in text:
        return _passthrough(raw, "binary", exit_code, reason="NUL bytes")

    cleaned = clean_terminal(text)
    req = FormatRequest(cleaned, command, tool=tool, exit_code=exit_code,
                        mode="aggressive" if mode == "aggressive" else "default")
    family = req.program or (tool.lower() if tool else None)
    if (late := _over_budget(raw, exit_code, deadline, family)) is not None:
        return late
    if mode == "safe":
        r = _passthrough(raw, "safe", exit_code, reason="--mode safe", family=family)
        r.est_in = r.est_out = estimate(text)
        return r

    if index is None:
        index = load_index()
    # formatters off: only the catch-alls (the generic content kinds), no per-command formatter
    records = [builtin_record()] + for_program(index, req.program if formatters else None)

    verdict = most_restrictive(call_all(implementations("sqz_classify_safety", records), request=req))
    if (verdict is None or not verdict.secret) and cleaned != text:
        from .safety import classify  # the raw bytes are what a store keeps: a secret a redraw hid counts

        raw_verdict = classify(text)
        if raw_verdict is not None and raw_verdict.secret:
            verdict = raw_verdict
    est_in = estimate(text)
    if verdict is not None and verdict.level == "safe" and verdict.secret:
        return _safe_passthrough(raw, text, exit_code, verdict.reason, family, est_in)
    if (late := _over_budget(raw, exit_code, deadline, family, est_in)) is not None:
        return late
    if verdict is not None and verdict.level == "aggressive" and mode == "auto":
        req.mode = "aggressive"
    is_safe = verdict is not None and verdict.level == "safe"
    is_file = req.is_file_content()

    digest = digest_of(raw)
    session = session or default_session()
    level = "default"
    if store is not None and not is_safe:
        from .sessions import pressure

        level = pressure(store, session)[0]
        if level != "default" and mode == "auto":
            req.mode = "aggressive"

    # a test runner's failure report: its formatter renders the traces in it (stored, recoverable)
    reporter = _trace_reporter(records, verdict) if is_safe else None
    dedup_ok = (store is not None and (not is_safe or reporter) and not no_cache and len(raw) >= MIN_REF_BYTES
                and os.environ.get("SQZ_NO_DEDUP") != "1")
    if dedup_ok:
        plugin, ref = call_first(implementations("sqz_dedup", records), request=req, digest=digest,
                                 session=session, store=store, data=raw)
        ref_out = None if ref is None else ref.encode("utf-8")
        if (late := _over_budget(raw, exit_code, deadline, family, est_in)) is not None:
            return late
        # the same gate as any other result: shorter in bytes and a net win in tokens
        if ref_out is not None and len(ref_out) < len(raw) and net_win(est_in, estimate(ref), req.mode):
            outcome = "ref" if ref.startswith("§ref:") and ":L" not in ref.split("§", 2)[1] else (
                "slice" if ref.startswith("§ref:") else "delta")
            r = Result(ref_out, outcome, exit_code=exit_code, plugin=plugin, digest=digest,
                       est_in=est_in, est_out=estimate(ref), family=family)
            r.output_digest = digest_of(r.output)
            with _batch(store):
                store.put_blob(digest, raw, command)
                store.put_blob(r.output_digest, r.output, None)
                # the model now holds this content (in full, as a slice of it, or as base + delta)
                _mark_ref(store, session, digest, ref, command or tool, is_file and outcome != "slice")
                if is_file and outcome == "delta":
                    from .dedup import sketch

                    store.add_sketch(session, digest, sketch(raw))
            r.stored = True
            return r

    formatted = plugin = None
    if is_safe and not is_file:
        from .safety import fold_repeated_traces

        req.text = fold_repeated_traces(cleaned, verdict.spans)  # the first copy of each stays verbatim
    kind_asked = False
    if not is_file:
        plugin, formatted, kind_asked = _format(records, req)
        if (late := _over_budget(raw, exit_code, deadline, family, est_in)) is not None:
            return late
    if is_safe and formatted is not None and plugin == reporter:
        is_safe = False  # its formatter keeps every failing test, message and frame location
        if req.text != cleaned:
            # the repeated traces were folded before the formatter saw them; its own rendering of the
            # whole report (it says "as above" in its own way) may be the shorter one
            folded, req.text = req.text, cleaned
            again, whole = call_first(implementations("sqz_format", records), request=req)
            req.text = folded
            if again == plugin and isinstance(whole, str) and estimate(whole) < estimate(formatted):
                formatted = whole
            if (late := _over_budget(raw, exit_code, deadline, family, est_in)) is not None:
                return late

    if is_safe:
        # Compress around the sensitive paragraphs only when they survive verbatim:
        # first the formatter's summary, then the generic folding of repeats.
        for candidate, by in ((formatted, plugin), (fold_repeats(req.text), None)):
            if candidate is None or candidate == cleaned or not _keeps(cleaned, candidate, verdict.spans):
                continue
            if text.endswith("\n") and not candidate.endswith("\n"):
                candidate += "\n"
            if by is not None:  # a formatter's summary is lossy: recoverable like any other, or not used
                if store is None:
                    continue
                candidate += ("" if candidate.endswith("\n") else "\n") + recovery_line(digest, store)
            est_out = estimate(candidate)
            if net_win(est_in, est_out, req.mode) and len(candidate) < len(text):
                r = Result(candidate.encode("utf-8"), "safe", exit_code=exit_code, plugin=by, digest=digest,
                           est_in=est_in, est_out=est_out, reason=verdict.reason, family=family)
                if by is not None:
                    store.put_blob(digest, raw, command)
                    r.stored = True
                return r
        return _safe_passthrough(raw, text, exit_code, verdict.reason, family, est_in)

    recoverable = store is not None
    lossy = formatted is not None and recoverable
    if is_file:
        candidate = strip_escapes(text)  # file content: every byte kept but ANSI escape sequences
    else:
        candidate = fold_repeats(formatted if lossy else cleaned)
        if level == "critical" and recoverable and formatted is None and not looks_like_diff(candidate):
            cut = head_and_tail(candidate)
            if cut is not None:
                candidate, lossy = cut, True
        if abbreviate is None:
            abbreviate = os.environ.get("SQZ_NO_ABBREV", "") in ("", "0")
        # a formatter's lines are what agents search for: abbreviate them only under pressure
        consider = abbreviate and recoverable and (formatted is None or level != "default")
        if consider and not kind_asked:  # a claiming formatter answered: the kind was not needed until here
            req.kind = call_first(implementations("sqz_detect", records), request=req)[1]
        if consider and req.kind not in ("json", "jsonl", "yaml") and not looks_like_diff(candidate):
            from .abbrev import abbreviate as abbreviate_text

            shorter = abbreviate_text(candidate)
            if shorter is not None and (level != "default" or estimate(shorter) < estimate(candidate)):
                candidate = shorter
    if candidate and text.endswith("\n") and not candidate.endswith("\n"):
        candidate += "\n"
    if lossy:
        if candidate and not candidate.endswith("\n"):
            candidate += "\n"  # the recovery line on its own line, even after a last line without newline
        candidate += recovery_line(digest, store)

    est_out = estimate(candidate)
    if lossy and not is_file and cleaned != text:
        # colour/progress removed: the lossless clean-up alone wins when the lossy rendering
        # plus its recovery line is no shorter (a short output a formatter barely touches)
        plain = fold_repeats(cleaned)
        if text.endswith("\n") and not plain.endswith("\n"):
            plain += "\n"
        est_plain = estimate(plain)
        if est_plain <= est_out:
            candidate, est_out, lossy = plain, est_plain, False
    if (late := _over_budget(raw, exit_code, deadline, family, est_in)) is not None:
        return late
    result: Result
    if not net_win(est_in, est_out, req.mode) or len(candidate) >= len(text):
        result = Result(raw, "gate" if candidate != text else "passthrough", exit_code=exit_code,
                        est_in=est_in, est_out=est_in, digest=digest, family=family)
    else:
        result = Result(candidate.encode("utf-8"), "compressed", exit_code=exit_code,
                        plugin=plugin if lossy else None, digest=digest, est_in=est_in, est_out=est_out,
                        family=family)
    if store is not None:
        if result.output != raw:
            result.output_digest = digest_of(result.output)
        with _batch(store):  # one wait for the write lock per call, not one per row
            store.put_blob(digest, raw, command)
            if result.output_digest is not None:
                store.put_blob(result.output_digest, result.output, None)
            if not no_cache and len(raw) >= MIN_REF_BYTES:
                _mark_served(store, session, digest, result, raw, command or tool, is_file)
                if is_file:
                    from .dedup import sketch

                    store.add_sketch(session, digest, sketch(raw))
            store.index_text(digest, text, command or tool, session)
        result.stored = True
    return result


def _format(records: list[dict], req: FormatRequest) -> tuple:
    """``(plugin, text, kind asked)`` of the first formatter that answers (plugin and text None if none).

    One ``sqz_format`` call in pluggy's order (wrappers included); the content kind
    (``sqz_detect``) is asked in it just before the first catch-all formatter
    (``commands = ("*",)``, the generic pack's kinds), so only when every formatter that
    claims the program declined: a ``git status`` the git pack renders never sniffs the text.
    """
    from .plugins import Impl, call_first, implementations

    asked = []

    def ask_kind(request):  # answers nothing: it sets the kind the catch-alls after it read
        asked.append(True)
        request.kind = call_first(implementations("sqz_detect", records), request=request)[1]

    impls = implementations("sqz_format", records)
    catch_alls = {r["name"] for r in records if "*" in r.get("commands", ())}
    at = next((i for i, m in enumerate(impls) if not m.wraps and m.plugin in catch_alls), len(impls))
    impls.insert(at, Impl("sqz_detect", ask_kind, ("request",), False, False))
    plugin, formatted = call_first(impls, request=req)
    return plugin, formatted, bool(asked)


def _batch(store):
    """The store's write transaction (``Store.batch``), or nothing for a backend without one."""
    batch = getattr(store, "batch", None)
    if batch is None:
        from contextlib import nullcontext

        return nullcontext()
    return batch()


HEAD_LINES, TAIL_LINES, CUT_MIN_LINES = 120, 80, 400


def head_and_tail(text: str) -> str | None:
    """Under critical pressure: the first and last lines of a long output, the middle recoverable
    (the result is lossy, so its last line is the recovery line the note points at)."""
    lines = text.split("\n")
    if len(lines) < CUT_MIN_LINES:
        return None
    dropped = len(lines) - HEAD_LINES - TAIL_LINES
    note = f"[sqz: {dropped} lines omitted here (context pressure); the last line's command prints all]"
    return "\n".join(lines[:HEAD_LINES] + [note] + lines[-TAIL_LINES:])


_TRACE_REASONS = frozenset(("python-traceback", "jvm-stacktrace", "js-stacktrace", "go-goroutine", "rust-backtrace"))


def _trace_reporter(records: list[dict], verdict) -> str | None:
    """The formatter that renders the stack traces of this output itself, when only stack traces
    made ``verdict`` safe: a test runner's pack declaring ``reports_traces = True``, whose traces
    are part of a failure report it renders faithfully (every failing test, message, ``file:line``)."""
    if verdict.secret or not verdict.reason or not set(verdict.reason.split(",")) <= _TRACE_REASONS:
        return None
    from .plugins import load_plugin

    for rec in records:
        if rec["name"] != "builtin" and getattr(load_plugin(rec), "reports_traces", False) is True:
            return rec["name"]
    return None


def _keeps(original: str, candidate: str, spans) -> bool:
    from .safety import keeps_paragraphs

    return keeps_paragraphs(original, candidate, spans or [(0, len(original.split("\n")) - 1)])


def _runs_sqz(command: str) -> bool:
    from .shell import runs_sqz

    return runs_sqz(command)


def _mark_ref(store, session: str, digest: str, ref: str, command: str | None, is_file: bool) -> None:
    """After a ref: still held in full, or (a rerun's ref to content served shortened) still shortened."""
    from .dedup import SHORTENED_NOTE, shortened_key

    if SHORTENED_NOTE in ref:
        store.mark_served(session, shortened_key(digest, command), output_hash=None)
    else:
        store.mark_served(session, digest, output_hash=None, is_file=is_file)


def _mark_served(store, session: str, digest: str, result, raw: bytes, command: str | None, is_file: bool) -> None:
    """What the model now holds: the content in full, or (a shortened rendering) only the rendering.

    Content served shortened is marked under ``dedup.shortened_key``: only a rerun of the same
    command gets a ref to it; no other read is told it is "unchanged".
    """
    if is_file or result.output == raw:
        store.mark_served(session, digest, output_hash=result.output_digest, is_file=is_file)
    else:
        from .dedup import shortened_key

        store.mark_served(session, shortened_key(digest, command), output_hash=result.output_digest)
