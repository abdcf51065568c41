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
past it the original goes out unchanged, nothing is stored, and the outcome is ``timeout``
(``hot.compress_bytes`` also stops a big input's call at the deadline whatever stage runs).
An input the full pipeline could not finish within the budget (``SURE_BYTES_PER_S``) skips
the formatters, content kinds and abbreviation: clean-up, safety, dedup, folding and the gate
still run.
"""

from __future__ import annotations

import os
import time

from .config import env
from .cleanup import clean_terminal, fold_blank_runs, fold_repeats, looks_like_diff, strip_escapes
from .dedup import digest_of  # noqa: F401 (public here too)
from .exitmarker import split_trailer
from .gate import keeps_every_word, min_saving, net_win, passes, recovery_line, with_recovery_line  # noqa: F401 (public here too)
from .request import FormatRequest
from .sessions import default_session  # noqa: F401 (public here too)
from .tokens import estimate, surely_more_than

TYPE_CHECKING = False  # not typing's: importing typing would cost every hook call (type checkers know the name)
if TYPE_CHECKING:  # pragma: no cover - types only
    from typing import Any

DEFAULT_MAX_BYTES = 32 * 1024 * 1024
DEFAULT_TIME_BUDGET_MS = 2000
MIN_REF_BYTES = 160  # shorter content is always sent in full
# what the whole pipeline surely keeps up with on a loaded machine (the slowest shapes run
# 3-10 MB/s here); an input larger than this times the budget takes the cheap stages only
SURE_BYTES_PER_S = 2 * 1024 * 1024


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
        self.output_digest: str | None = None

    def __repr__(self) -> str:
        return f"Result({self.outcome!r}, plugin={self.plugin!r}, {self.est_in}->{self.est_out} est tokens)"


def _max_bytes() -> int:
    try:
        return int(env("SQZ_MAX_BYTES") or DEFAULT_MAX_BYTES)
    except ValueError:
        return DEFAULT_MAX_BYTES


def time_budget() -> float:
    """Seconds a call may spend before the original is sent instead (``SQZ_TIME_BUDGET_MS``; 0: no limit)."""
    try:
        ms = int(env("SQZ_TIME_BUDGET_MS") or DEFAULT_TIME_BUDGET_MS)
    except ValueError:
        ms = DEFAULT_TIME_BUDGET_MS
    return ms / 1000 if ms > 0 else float("inf")


def _safe_passthrough(raw: bytes, text: str, exit_code, reason: str, family, est_in: int) -> Result:
    """Safe content unchanged, byte for byte (its colour codes too: nothing of it is stored, so no
    change to it could be recovered, issue 29.6); never stored."""
    return Result(raw, "safe", exit_code=exit_code, reason=reason, family=family, est_in=est_in, est_out=est_in)


def rebuilt_from_output(text: str, cleaned: str) -> bool:
    """True when every change the generic stages make to ``text`` is one their output undoes by
    itself: counted folds of repeated lines, blocks and traces (``line [×3]``), the abbreviation
    legend. False when the clean-up drops bytes (escape sequences, redraws, trailing blanks,
    control characters) or blank runs would be folded: such a change needs the stored original
    and a recovery line (issue 29.6: any change to the bytes is recoverable, or not made)."""
    return cleaned == text and (looks_like_diff(text) or fold_blank_runs(text) == text)


class _Call:
    """One call on its way through the stages (what each stage reads and leaves for the next)."""

    # what each field holds (set by __init__ and the stages); the fields are the slots
    data: bytes
    exit_nonce: str | None
    raw: bytes
    exit_code: int | None
    text: str
    cleaned: str
    req: FormatRequest
    family: str | None
    deadline: float
    mode: str
    command: str | None
    tool: str | None
    store: Any
    session: str | None
    no_cache: bool
    index: Any
    formatters: bool
    abbreviate: bool | None
    records: Any
    verdict: Any
    est_in: int
    is_safe: bool
    is_file: bool
    digest: str
    level: str
    reporter: Any
    plugin: Any
    formatted: str | None
    candidate: Any
    est_out: int
    lossy: bool
    kind_asked: bool
    cheap: bool
    masked: Any
    secret_blocks: Any
    raw_spans: Any
    words_kept: bool
    __slots__ = tuple(__annotations__)

    def __init__(self, **fields: Any) -> None:
        for name in self.__slots__:
            setattr(self, name, fields.get(name))

    def late(self, est_in: int = 0) -> Result | None:
        """The original, unchanged and unstored, as a ``timeout`` when the call is past its deadline, else None."""
        if time.monotonic() <= self.deadline:
            return None
        return Result(self.raw, "timeout", exit_code=self.exit_code, reason=f"over the {time_budget():g} s time budget",
                      family=self.family, est_in=est_in, est_out=est_in)


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

    A per-command rule of the config files (``config.rule_for``) applies first: ``passthrough`` sends
    the output unchanged (never stored), ``cache: false`` is ``no_cache``, ``level`` is the mode when
    the caller left it ``auto``.

    The stages run in order; each either answers (a ``Result``) or leaves the call to the next.
    """
    from .config import refresh

    refresh()  # each call reads the config files as they are (a long-lived host: the daemon, the MCP server, the proxy)
    rule = _rule(command, tool)
    if rule is not None:
        spec = rule["spec"]
        if spec.get("passthrough"):
            return _by_rule(data, exit_nonce, command, tool, rule)
        if spec.get("cache") is False:
            no_cache = True
        if spec.get("level") and mode == "auto":
            mode = spec["level"]
    call = _Call(deadline=time.monotonic() + time_budget(), data=data, exit_nonce=exit_nonce, mode=mode, command=command, tool=tool, store=store,
                 session=session, no_cache=no_cache, index=index, formatters=formatters, abbreviate=abbreviate)
    for stage in (_take_input, _seen_before, _clean_up, _classify, _find_ref, _format, _around_safe_spans,
                  _generic):
        result = stage(call)
        if result is not None:
            return result
    return _store(call, _gate(call))


def _rule(command: str | None, tool: str | None) -> dict | None:
    """The config's first rule matching this call, or None (a broken rule never breaks a call)."""
    try:
        from .config import rule_for

        return rule_for(command, tool)
    except Exception:
        return None


def rule_where(rule: dict) -> str:
    """``file:line`` of a rule, the file relative to the working directory when that is shorter."""
    path = rule.get("file") or "config"
    try:
        rel = os.path.relpath(path)
        if len(rel) < len(path):
            path = rel
    except (OSError, ValueError):
        pass
    return f"{path}:{rule['line']}" if rule.get("line") else path


def _by_rule(data: bytes, exit_nonce, command, tool, rule: dict) -> Result:
    """A ``passthrough`` rule's answer: the output as the command printed it (trailer stripped), not stored."""
    raw, exit_code = split_trailer(data, exit_nonce)
    family = FormatRequest("", command, tool=tool).program or (tool.lower() if tool else None)
    r = Result(raw, "passthrough", exit_code=exit_code, reason=f"rule at {rule_where(rule)}", family=family)
    try:
        r.est_in = r.est_out = estimate(raw.decode("utf-8", "replace"))
    except Exception:
        pass
    return r


def _take_input(c: _Call) -> Result | None:
    """The exit trailer stripped; empty, sqz's own, oversized, binary input answered as it is."""
    c.raw, c.exit_code = raw, exit_code = split_trailer(c.data, c.exit_nonce)
    if not raw:
        return Result(raw, "empty", exit_code=exit_code)
    command = c.command
    if command and "sqz" in command and _runs_sqz(command):  # sqz's own output (``sqz expand``): never again
        return Result(raw, "passthrough", exit_code=exit_code, reason="sqz's own output")
    if len(raw) > _max_bytes():
        return Result(raw, "huge", exit_code=exit_code, reason=f"over {_max_bytes()} bytes")
    try:
        c.text = raw.decode("utf-8")
    except UnicodeDecodeError:
        return Result(raw, "binary", exit_code=exit_code, reason="not UTF-8")
    if "\x00" in c.text:
        return Result(raw, "binary", exit_code=exit_code, reason="NUL bytes")
    c.cheap = len(raw) > time_budget() * SURE_BYTES_PER_S
    return None


def _seen_before(c: _Call) -> Result | None:
    """A repeat of content this session was served: its ``§ref`` from the store, before any scan.

    The bytes are hashed as they came; content marked served passed the safety checks when it
    was served (a secret is never stored, safe content is never marked served), and the model
    holds it, so the ref is answered without cleaning or classifying again. Only the core's
    exact-repeat lookup is used here (a plugin's own ``sqz_dedup`` gets the normal path, after
    the scan), and only a served mark (a pin alone does not vouch for the content).
    """
    store = c.store
    if (store is None or c.no_cache or c.mode == "safe" or len(c.raw) < MIN_REF_BYTES
            or env("SQZ_NO_DEDUP") == "1"):
        return None
    from . import dedup
    from .plugins import builtin_record, for_program, implementations, load_index

    ttl = dedup.ref_ttl()
    if ttl <= 0:
        return None
    probe = FormatRequest("", c.command, tool=c.tool)
    if c.index is None:
        c.index = load_index()
    records = [builtin_record()] + for_program(c.index, probe.program if c.formatters else None)
    if any(impl.plugin != "builtin" for impl in implementations("sqz_dedup", records)):
        return None
    digest, session = digest_of(c.raw), c.session or default_session()
    if store.is_pinned(digest):
        return None
    ref = dedup.exact(store, session, digest, ttl, c.command or c.tool)
    if ref is None:
        return None
    ref_out = ref.encode("utf-8")
    est_in, est_out = estimate(c.text), estimate(ref)
    if len(ref_out) >= len(c.raw) or not net_win(est_in, est_out, "default"):
        return None  # the full path decides (the net-win margin is smaller in aggressive mode)
    family = probe.program or (c.tool.lower() if c.tool else None)
    r = Result(ref_out, "ref", exit_code=c.exit_code, plugin="builtin", digest=digest, est_in=est_in,
               est_out=est_out, family=family)
    r.output_digest = digest_of(ref_out)
    with _batch(store):
        store.put_blob(digest, c.raw, c.command)
        store.put_blob(r.output_digest, ref_out, None)
        _mark_ref(store, session, digest, ref, c.command or c.tool, probe.is_file_content())
    r.stored = True
    return r


def _clean_up(c: _Call) -> Result | None:
    """Terminal noise resolved (what a reader saw); the request plugins get; ``--mode safe`` answered."""
    c.cleaned = clean_terminal(c.text)
    c.req = req = FormatRequest(c.cleaned, c.command, tool=c.tool, exit_code=c.exit_code,
                                mode="aggressive" if c.mode == "aggressive" else "default")
    c.family = req.program or (c.tool.lower() if c.tool else None)
    if (late := c.late()) is not None:
        return late
    if c.mode == "safe":
        est = estimate(c.text)
        return Result(c.raw, "safe", exit_code=c.exit_code, reason="--mode safe", family=c.family, est_in=est, est_out=est)
    return None


def _classify(c: _Call) -> Result | None:
    """The safety verdict (every classifier, the most restrictive wins); a secret goes out unchanged."""
    from .scan import forget

    try:
        return _classify_once(c)
    finally:
        forget()  # the detectors' offsets of this text (shared by the verdict and the per-span plan)


def _classify_once(c: _Call) -> Result | None:
    from .plugins import builtin_record, call_all, for_program, implementations, load_index
    from .verdicts import most_restrictive

    req, text = c.req, c.text
    if c.index is None:
        c.index = load_index()
    # formatters off: only the catch-alls (the generic content kinds), no per-command formatter
    c.records = records = [builtin_record()] + for_program(c.index, req.program if c.formatters else None)
    verdict = most_restrictive(call_all(implementations("sqz_classify_safety", records), request=req))
    if (verdict is None or not verdict.secret) and c.cleaned != text:
        from .safety import raw_secrets  # the raw bytes are what a store keeps: a secret a redraw hid counts
        from .scan import forget

        forget()  # another text: the cleaned text's offsets would only add to the peak
        raw_verdict = raw_secrets(text, c.cleaned)
        if raw_verdict is not None and raw_verdict.secret:
            verdict = raw_verdict
    c.verdict = verdict
    c.est_in = est_in = estimate(text)
    if (verdict is not None and verdict.level == "safe" and verdict.secret
            and (_nothing_around_secrets(c) or not _secret_spans_planned(c))):
        return _safe_passthrough(c.raw, text, c.exit_code, verdict.reason, c.family, est_in)
    if (late := c.late(est_in)) is not None:
        return late
    if verdict is not None and verdict.level == "aggressive" and c.mode == "auto":
        req.mode = "aggressive"
    c.is_safe = verdict is not None and verdict.level == "safe"
    c.is_file = req.is_file_content()
    c.digest = digest_of(c.raw if c.masked is None else c.masked.encode("utf-8"))
    c.session = c.session or default_session()
    c.level = "default"
    if c.store is not None and not c.is_safe:
        from .sessions import pressure

        c.level = pressure(c.store, c.session)[0]
        if c.level != "default" and c.mode == "auto":
            req.mode = "aggressive"
    return None


def _find_ref(c: _Call) -> Result | None:
    """Dedup against the session store: a ref, slice or delta when the model already holds the content."""
    from .plugins import call_first, implementations

    req, raw, store = c.req, c.raw, c.store
    # a test runner's failure report: its formatter renders the traces in it (stored, recoverable)
    c.reporter = _trace_reporter(c.records, c.verdict) if c.is_safe else None
    dedup_ok = (store is not None and (not c.is_safe or c.reporter) and not c.no_cache
                and len(raw) >= MIN_REF_BYTES and env("SQZ_NO_DEDUP") != "1")
    if not dedup_ok:
        return None
    plugin, ref = call_first(implementations("sqz_dedup", c.records), request=req, digest=c.digest,
                             session=c.session, store=store, data=raw)
    ref_out = None if ref is None else ref.encode("utf-8")
    if (late := c.late(c.est_in)) is not None:
        return late
    # the same gate as any other result: shorter in bytes and a net win in tokens
    if ref_out is None or len(ref_out) >= len(raw) or not net_win(c.est_in, estimate(ref), req.mode):
        return None
    outcome = "ref" if ref.startswith("§ref:") and ":L" not in ref.split("§", 2)[1] else (
        "slice" if ref.startswith("§ref:") else "delta")
    r = Result(ref_out, outcome, exit_code=c.exit_code, plugin=plugin, digest=c.digest,
               est_in=c.est_in, est_out=estimate(ref), family=c.family)
    r.output_digest = digest_of(r.output)
    with _batch(store):
        store.put_blob(c.digest, raw, c.command)
        store.put_blob(r.output_digest, r.output, None)
        # the model now holds this content (in full, as a slice of it, or as base + delta)
        _mark_ref(store, c.session, c.digest, ref, c.command or c.tool, c.is_file and outcome != "slice")
        if c.is_file and outcome == "delta":
            from .dedup import sketch

            store.add_sketch(c.session, c.digest, sketch(raw))
    r.stored = True
    return r


def _format(c: _Call) -> Result | None:
    """The per-command formatter (``sqz_format``), the content kind and catch-alls when none answers;
    file content skips both."""
    from .plugins import call_first, implementations

    req, records = c.req, c.records
    c.formatted = c.plugin = None
    if c.is_safe and not c.is_file:
        from .safety import fold_repeated_traces

        req.text = fold_repeated_traces(c.cleaned, c.verdict.spans)  # the first copy of each stays verbatim
    c.kind_asked = c.cheap  # too big for the budget: no kind, no formatter
    if not c.is_file and not c.cheap and c.masked is None:
        c.plugin, c.formatted, c.kind_asked = _first_format(records, req)
        if (late := c.late(c.est_in)) is not None:
            return late
    if c.is_safe and c.formatted is not None and c.plugin == c.reporter:
        c.is_safe = False  # its formatter keeps every failing test, message and frame location
        if req.text != c.cleaned:
            # the repeated traces were folded before the formatter saw them; its own rendering of the
            # whole report (it says "as above" in its own way) may be the shorter one
            folded, req.text = req.text, c.cleaned
            again, whole = call_first(implementations("sqz_format", records), request=req)
            req.text = folded
            if again == c.plugin and isinstance(whole, str) and estimate(whole) < estimate(c.formatted):
                c.formatted = whole
            if (late := c.late(c.est_in)) is not None:
                return late
    return None


def _around_safe_spans(c: _Call) -> Result | None:
    """Safe content: each sensitive span (a secret's lines, a stack trace, DDL's paragraph) kept verbatim
    and the rest compressed; else unchanged.

    The candidates: the formatter's summary of the whole text and the generic folding of repeats
    when they keep every span verbatim (outputs without a secret), and ``_rendered_around`` (each
    span a placeholder while the rest is rendered; library frames of long traces folded). The
    shortest that passes the gate goes out. A secret output's store keeps ``spans.masked``.
    """
    if not c.is_safe:
        return None
    text, cleaned, verdict, store = c.text, c.cleaned, c.verdict, c.store
    found: list[tuple[str, str | None, bool]] = []  # (candidate, plugin, lossy)
    if c.masked is None:
        from .safety import keeps_paragraphs

        for first in (True, False):
            candidate, by = (c.formatted, c.plugin) if first else (fold_repeats(c.req.text), None)
            if candidate is None or candidate == cleaned or not keeps_paragraphs(
                    cleaned, candidate, verdict.spans or [(0, len(cleaned.split("\n")) - 1)]):
                continue
            if by is not None and store is None:
                continue  # a formatter's summary is lossy: recoverable like any other, or not used
            found.append((candidate, by, by is not None))
    if not c.is_file and (verdict.spans or c.secret_blocks):
        found.extend(_rendered_around(c))
        if (late := c.late(c.est_in)) is not None:
            return late
    best = None
    for candidate, by, lossy in found:
        if text.endswith("\n") and not candidate.endswith("\n"):
            candidate += "\n"
        if lossy:
            candidate += ("" if candidate.endswith("\n") else "\n") + recovery_line(c.digest, store)
        elif not rebuilt_from_output(text, cleaned):
            # the generic folding of safe content is never stored: made only when the output itself
            # gives every byte back (counted folds), never when colour codes or blank runs would go
            continue
        est_out = estimate(candidate)
        if net_win(c.est_in, est_out, c.req.mode) and len(candidate) < len(text) and (best is None or est_out < best[1]):
            best = (candidate, est_out, by, lossy)
    if best is None or (c.masked is not None and not _masked_is_safe(c)):
        return _safe_passthrough(c.raw, text, c.exit_code, verdict.reason, c.family, c.est_in)
    candidate, est_out, by, lossy = best
    r = Result(candidate.encode("utf-8"), "safe", exit_code=c.exit_code, plugin=by, digest=c.digest,
               est_in=c.est_in, est_out=est_out, reason=verdict.reason, family=c.family)
    if lossy:
        store.put_blob(c.digest, c.raw if c.masked is None else c.masked.encode("utf-8"), c.command)
        r.stored = True
    return r


def _nothing_around_secrets(c: _Call) -> bool:
    """True when the per-span path surely ends with the original unchanged, found without placing a
    secret: no formatter claims the program (or none may run), no stack trace is there to fold, and the
    generic folding finds nothing in the cleaned text. Then it finds nothing in that text with the
    protected blocks as placeholder lines either (each is a line of its own, found nowhere else, and
    the lines between them keep their order and neighbours), so the page would be the cleaned text:
    the original goes out (``_around_safe_spans`` sends the original when no candidate changes it)."""
    from .safety import may_hold_traces

    if c.store is not None and not c.cheap:
        from .plugins import implementations

        catch_all = _catch_alls(c.records)
        if any(m.wraps or m.plugin not in catch_all for m in implementations("sqz_format", c.records)):
            return False
    cleaned = c.cleaned
    if cleaned != c.text or may_hold_traces(cleaned) or looks_like_diff(cleaned):
        return False
    return fold_repeats(cleaned) == cleaned


def _secret_spans_planned(c: _Call) -> bool:
    """For an output holding a secret: True when every secret line is placed (on the page and in the raw
    bytes); sets ``c.masked`` (what a store may keep) and ``c.secret_blocks`` (the page's secret line
    ranges). ``_masked_is_safe`` then checks that the withheld bytes hold no secret any more before a
    page that differs goes out. False: the whole output goes out unchanged, as before (file content,
    a secret without an exact extent)."""
    from .safety import TRACE
    from .spans import merge, masked, secret_spans

    verdict = c.verdict
    if not verdict.spans or c.req.is_file_content() or c.mode == "safe":
        return False
    page = secret_spans(c.cleaned)
    if not page:
        return False  # a classifier flagged what the core's detectors cannot place
    page = merge(page + [s for s in verdict.spans if len(s) < 3 or s[2] != TRACE])
    raw_spans = page if c.cleaned == c.text else secret_spans(c.text)
    if not raw_spans:
        return False
    stored = masked(c.text, raw_spans)
    from .safety import protected_spans
    from .verdicts import Safety

    traces = protected_spans(c.cleaned)  # the stack traces and DDL around the secrets stay protected too
    c.verdict = Safety("safe", verdict.reason, tuple(traces), secret=True)
    c.masked, c.secret_blocks = stored, page
    c.raw_spans = raw_spans  # ``_masked_is_safe`` checks them, only once a page that differs is chosen
    return True


def _masked_is_safe(c: _Call) -> bool:
    """The check that completes ``_secret_spans_planned``, run only when the page would differ from the
    original (an output sent unchanged keeps nothing of it and needs none): the raw bytes with the
    secret lines withheld hold no secret any more, and every raw secret line is on the page (a redraw
    may have hidden one). False: the whole output goes out unchanged, nothing stored."""
    from .safety import classify

    if classify(c.masked, secrets_only=True) is not None:
        return False  # a secret the spans missed: nothing of it may be stored
    if c.cleaned != c.text:
        lines, raw_lines = c.cleaned.split("\n"), c.text.split("\n")
        shown = "\n".join("\n".join(lines[a:b + 1]) for a, b in c.secret_blocks)
        for a, b in c.raw_spans:
            for line in raw_lines[a:b + 1]:
                if clean_terminal(line).strip() not in shown:
                    return False
    return True


_CHAIN_LINES = ("During handling of the above exception, another exception occurred:",
                "The above exception was the direct cause of the following exception:")


def _protected_blocks(c: _Call, lines: list[str]) -> list[tuple[int, int, bool]]:
    """``(first, last, foldable)``: the line ranges kept verbatim, sorted and disjoint; foldable when the
    block is stack traces only (no secret, no DDL): its library frames may fold (it is stored)."""
    from .safety import TRACE, paragraphs_holding
    from .spans import merge

    traces = merge([s for s in c.verdict.spans if len(s) > 2 and s[2] == TRACE])
    others = merge(list(c.secret_blocks or ()) + paragraphs_holding(lines, [s for s in c.verdict.spans
                                                                             if len(s) < 3 or s[2] != TRACE]))
    chained: list[list[int]] = []
    for a, b in traces:  # a chained traceback is one block: the lines between its parts are blank or say so
        if chained and all(not x.strip() or x.strip() in _CHAIN_LINES for x in lines[chained[-1][1] + 1:a]):
            chained[-1][1] = b
        else:
            chained.append([a, b])
    blocks = merge([tuple(t) for t in chained] + others)
    return [(a, b, not any(x <= b and a <= y for x, y in others)) for a, b in blocks]


def _rendered_around(c: _Call) -> list[tuple[str, str | None, bool]]:
    """Candidates with each protected block kept verbatim where it stood (a placeholder line stood for
    it while the formatter, or the content kind, or the generic folding, rendered the rest), or, when
    the rendering dropped or changed a placeholder, appended verbatim below its rendering of the rest.

    A stack trace outside a patch is one placeholder; any other block (a secret's lines, DDL, a patch's
    lines) has one per line, each keeping its line's indentation and marker, so the text keeps the
    shape its formatter parses (a patch's hunks keep their line counts)."""
    from collections import Counter

    from .spans import appended, fold_library_frames, put_back, with_placeholders

    lines = c.cleaned.split("\n")
    blocks = _protected_blocks(c, lines)
    if not blocks:
        return []
    recoverable = c.store is not None
    diff = looks_like_diff(c.cleaned)
    texts: list[str] = []
    spans: list[tuple[int, int]] = []
    folded_any = False
    seen: dict[str, int] = {}
    total = Counter("\n".join(lines[a:b + 1]) for a, b, _ in blocks)
    for a, b, foldable in blocks:
        if diff or not foldable:
            spans.extend((i, i) for i in range(a, b + 1))
            texts.extend(lines[a:b + 1])
            continue
        block = "\n".join(lines[a:b + 1])
        spans.append((a, b))
        if total[block] > 1:
            seen[block] = seen.get(block, 0) + 1
            if seen[block] > 1:  # the same trace again: one counted line (the first copy is verbatim)
                texts.append(f"[sqz: the same {b - a + 1}-line stack trace as above, copy {seen[block]} "
                             f"of {total[block]}]")
                continue
        if recoverable:
            kept, n = fold_library_frames(lines[a:b + 1])
            if n:
                folded_any = True
                block = "\n".join(kept)
        texts.append(block)
    held, marks = with_placeholders(lines, spans)
    out: list[tuple[str, str | None, bool]] = []
    if recoverable and not c.cheap:
        req = FormatRequest(held, c.command, tool=c.tool, exit_code=c.exit_code, mode=c.req.mode)
        req.safe = False  # every protected span is a placeholder line here
        plugin, formatted, _ = _first_format(c.records, req)
        if formatted is not None:
            done = put_back(formatted, marks, texts)
            if done is None and plugin not in _catch_alls(c.records):
                # a placeholder lost (not a line of its own where it stood): only a formatter that claims
                # the program renders the rest and has the blocks appended. A content kind that lost one
                # turned the text into another form (HTML markup into its text, issue 25's blind set:
                # 53 facts by words on three curl'd error pages): its rendering around spans is not used
                drop = set(marks)  # the text without the blocks
                rest = "\n".join(x for x in held.split("\n") if x not in drop)
                req = FormatRequest(rest, c.command, tool=c.tool, exit_code=c.exit_code, mode=c.req.mode)
                req.safe = False
                plugin, formatted, _ = _first_format(c.records, req)
                done = None if formatted is None else appended(formatted, texts)
            if done is not None:
                out.append((done, plugin, True))
    done = put_back(fold_repeats(held), marks, texts)
    if done is not None and (done != c.cleaned or folded_any):
        out.append((done, None, folded_any))
    return out


def _generic(c: _Call) -> Result | None:
    """The generic stages: file content keeps every byte but escapes; anything else is folded
    (repeats), cut under critical pressure, abbreviated; a lossy result gets its recovery line."""
    text, cleaned, formatted, store, level = c.text, c.cleaned, c.formatted, c.store, c.level
    recoverable = store is not None
    lossy = formatted is not None and recoverable
    if c.is_file:
        candidate = strip_escapes(text)  # file content: every byte kept but ANSI escape sequences (hinted below)
    else:
        candidate = fold_repeats(formatted if lossy and formatted is not None else cleaned)  # lossy: a rendering
        if level == "critical" and recoverable and formatted is None and not looks_like_diff(candidate):
            cut = head_and_tail(candidate)
            if cut is not None:
                candidate, lossy = cut, True
        abbreviate = c.abbreviate
        if abbreviate is None:
            abbreviate = env("SQZ_NO_ABBREV", "") in ("", "0")
        # a formatter's lines are what agents search for: abbreviate them only under pressure
        consider = abbreviate and recoverable and (formatted is None or level != "default") and not c.cheap
        if consider and not c.kind_asked:  # a claiming formatter answered: the kind was not needed until here
            from .plugins import call_first, implementations

            c.req.kind = call_first(implementations("sqz_detect", c.records), request=c.req)[1]
        if consider and c.req.kind not in ("json", "jsonl", "yaml") and not looks_like_diff(candidate):
            from .abbrev import abbreviate as abbreviate_text

            shorter = abbreviate_text(candidate)
            if shorter is not None and (level != "default" or estimate(shorter) < estimate(candidate)):
                candidate = shorter
    if candidate and text.endswith("\n") and not candidate.endswith("\n"):
        candidate += "\n"
    if lossy and not c.is_file and keeps_every_word(text, candidate):
        # only the layout changed (padding and trailing blanks, a table's borders): every word of the
        # original is on the page in its order, so no recovery line (issue 25; a colour code or a
        # progress redraw is a word gone, so those still get one); the original is still stored
        lossy, c.words_kept = False, True
    if lossy:
        candidate = with_recovery_line(candidate, c.digest, store)
    elif candidate != text and not c.words_kept and (c.is_file or not rebuilt_from_output(text, cleaned)):
        # a change the output cannot undo by itself, cosmetic or not (colour codes, redraws, trailing
        # blanks, folded blank runs), is recoverable: the original is stored (``_store``) and the line
        # says how to get it back, within the gate; with no store to keep it, it is not made (issue 29.6)
        candidate = with_recovery_line(candidate, c.digest, store) if recoverable else text

    est_out = estimate(candidate)
    if lossy and not c.is_file and cleaned != text:
        # colour/progress removed: the clean-up alone (with its own recovery line) wins when the
        # formatter's rendering is no shorter (a short output a formatter barely touches)
        plain = fold_repeats(cleaned)
        if text.endswith("\n") and not plain.endswith("\n"):
            plain += "\n"
        plain = with_recovery_line(plain, c.digest, store)
        if not surely_more_than(plain, est_out):
            est_plain = estimate(plain)
            if est_plain <= est_out:
                candidate, est_out, lossy = plain, est_plain, False
    c.candidate, c.est_out, c.lossy = candidate, est_out, lossy
    return c.late(c.est_in)


def _gate(c: _Call) -> Result:
    """The net-win gate: the candidate, or the original when it does not save enough."""
    if not passes(c.est_in, c.est_out, c.req.mode, c.candidate, c.text):
        return Result(c.raw, "gate" if c.candidate != c.text else "passthrough", exit_code=c.exit_code,
                      est_in=c.est_in, est_out=c.est_in, digest=c.digest, family=c.family)
    return Result(c.candidate.encode("utf-8"), "compressed", exit_code=c.exit_code,
                  plugin=c.plugin if c.lossy or c.words_kept else None, digest=c.digest, est_in=c.est_in, est_out=c.est_out,
                  family=c.family)


def _store(c: _Call, result: Result) -> Result:
    """The original (for ``expand``), what was served and to whom, and the recall index."""
    store, raw, digest = c.store, c.raw, c.digest
    if store is None:
        return result
    if result.output != raw:
        result.output_digest = digest_of(result.output)
    with _batch(store):  # one wait for the write lock per call, not one per row
        store.put_blob(digest, raw, c.command)
        if result.output_digest is not None:
            store.put_blob(result.output_digest, result.output, None)
        if not c.no_cache and len(raw) >= MIN_REF_BYTES:
            _mark_served(store, c.session, digest, result, raw, c.command or c.tool, c.is_file)
            if c.is_file:
                from .dedup import sketch

                store.add_sketch(c.session, digest, sketch(raw))
        store.index_text(digest, c.text, c.command or c.tool, c.session)
    result.stored = True
    return result


def _catch_alls(records: list[dict]) -> set[str]:
    """The names of the plugins that format any program (``commands = ("*",)``: the generic pack's kinds)."""
    return {r["name"] for r in records if "*" in r.get("commands", ())}


def _first_format(records: list[dict], req: FormatRequest) -> tuple:
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
    catch_all = _catch_alls(records)
    at = next((i for i, m in enumerate(impls) if not m.wraps and m.plugin in catch_all), len(impls))
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


def _runs_sqz(command: str) -> bool:
    from .shell import runs_sqz

    return runs_sqz(command)


def _mark_ref(store, session: str | None, digest: str, ref: str, command: str | None, is_file: bool) -> None:
    """After a ref: still held in full, or (a rerun's ref to content served shortened) still shortened."""
    from .dedup import SHORTENED_NOTE, shortened_key

    if SHORTENED_NOTE in ref:
        store.mark_served(session, shortened_key(digest, command), output_hash=None)
    else:
        store.mark_served(session, digest, output_hash=None, is_file=is_file)


def _mark_served(store, session: str | None, digest: str, result, raw: bytes, command: str | None, is_file: bool) -> None:
    """What the model now holds: the content in full, or (a shortened rendering) only the rendering.

    Content served shortened is marked under ``dedup.shortened_key``: only a rerun of the same
    command gets a ref to it; no other read is told it is "unchanged".
    """
    if is_file or result.output == raw:
        store.mark_served(session, digest, output_hash=result.output_digest, is_file=is_file)
    else:
        from .dedup import shortened_key

        store.mark_served(session, shortened_key(digest, command), output_hash=result.output_digest)
