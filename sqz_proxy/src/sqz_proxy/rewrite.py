"""One request's tool results, compressed in a way that keeps the prompt cache.

For each tool result, in request order:

1. the host's own status lines (``envelope``) are kept verbatim around the command's output;
2. an output identical to an earlier result still in this request becomes one line naming it;
3. a file re-read after a small edit becomes a delta against the earlier copy still here;
4. anything else goes through ``sqz_core.api.compress`` (a shell result with its command's
   formatter and exit status, a file read with its tool name, so it is never summarised);
5. the result is used only when it is shorter in cl100k tokens than the text as sent.

Each decision depends only on the result and the results before it, and is memoised by
tool-call id: a later request that still holds the same prefix gets exactly the same bytes
for it (the memoised form is reused only while a ref's target is still present).
"""

from __future__ import annotations

import json
import os
import sys
import time
from collections import OrderedDict

from . import delta, envelope, fold, tools, wire

# the session compress() sees: no call is recorded under it, so the core's pressure levels (which
# read the tokens served to a session) never change how the proxy compresses a result
COMPRESS_SESSION = "sqz-proxy:stateless"
MEMO_ENTRIES = 50_000


def _log(message: str) -> None:
    try:
        sys.stderr.write(f"sqz proxy: {message}\n")
        sys.stderr.flush()
    except (OSError, ValueError):
        pass


class Decision:
    """The memoised outcome for one tool result: its new text (None: unchanged) and the
    earlier result it refers to (``(digest, label)``), which must still be present to reuse it."""

    __slots__ = ("text", "dep", "outcome", "body_digest", "file_body", "path")

    def __init__(self, text: str | None, dep, outcome: str):
        self.text, self.dep, self.outcome = text, dep, outcome
        self.body_digest = None  # what later results of the same request compare against
        self.file_body = None    # the command output, when it is file content (a delta base)
        self.path = None


class Stats:
    __slots__ = ("results", "new", "changed", "tokens_in", "tokens_out", "folded")

    def __init__(self):
        self.results = self.new = self.changed = self.tokens_in = self.tokens_out = self.folded = 0


class Rewriter:
    """Holds the memo and the store; call ``rewrite_body`` from one thread at a time."""

    def __init__(self, *, use_store: bool = True, budget_ms: int | None = None, fold_answers: bool | None = None,
                 fold_settings: fold.Settings | None = None):
        self.memo: OrderedDict = OrderedDict()
        self.folds: OrderedDict = OrderedDict()  # answer digest -> its folded text (None: stays whole)
        if fold_answers is None:
            fold_answers = fold.enabled_from_env()
        self.fold = (fold_settings or fold.Settings()) if fold_answers else None
        self._counts: OrderedDict = OrderedDict()
        self._use_store = use_store
        self._store = None
        self._store_failed = False
        if budget_ms is None:
            from sqz_core.api import config_env  # the variable, else the config files (sqz config)

            try:
                budget_ms = int(config_env("SQZ_PROXY_BUDGET_MS") or "5000")
            except ValueError:
                budget_ms = 5000
        self.budget = budget_ms / 1000 if budget_ms > 0 else float("inf")

    # -- the store (expand, stats); the proxy works without it ---------------------------------
    @property
    def store(self):
        if self._store is None and self._use_store and not self._store_failed:
            from sqz_core.api import open_store

            try:
                self._store = open_store()
            except Exception as exc:  # StoreError or a broken backend: compress without it
                self._store_failed = True
                _log(f"store unavailable, results are compressed losslessly only: {exc}")
        return self._store

    def close(self) -> None:
        if self._store is not None:
            try:
                self._store.close()
            except Exception:
                pass
            self._store = None

    def tokens(self, text: str) -> int:
        """cl100k tokens of ``text`` (memoised by content)."""
        from sqz_core.api import count_tokens, digest_of

        key = digest_of(text.encode("utf-8", "surrogatepass"))
        n = self._counts.get(key)
        if n is None:
            n = count_tokens(text)[0]
            self._counts[key] = n
            if len(self._counts) > MEMO_ENTRIES:
                self._counts.popitem(last=False)
        return n

    # -- a whole request --------------------------------------------------------------------------
    def rewrite_body(self, fmt: str, raw: bytes, agent: str | None = None, stats: Stats | None = None) -> bytes:
        """The request body to send upstream: ``raw`` itself unless some tool result got shorter.

        Raises on a body that is not JSON; the caller forwards ``raw`` then.
        """
        body = json.loads(raw)
        found = wire.slots(fmt, body)
        changed = bool(found) and self.rewrite_slots(found, agent, stats)
        if self.fold is not None:
            changed = self.fold_answers(fmt, body, agent, stats) or changed
        if not changed:
            return raw
        return json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode("utf-8")

    # -- model-output folding (off by default) ----------------------------------------------------------
    def fold_answers(self, fmt: str, body: dict, agent: str | None = None, stats: Stats | None = None) -> bool:
        """Fold the long assistant answers before the stable fold point; True when any text changed."""
        settings = self.fold
        if settings is None:
            return False
        found, turns = wire.answers(fmt, body)
        limit = fold.boundary(turns, settings.every)
        changed = False
        for answer in found:
            if answer.turn >= limit:
                continue
            try:
                folded = self._fold_one(answer.text, agent)
            except Exception as exc:  # never worse: the answer stays as sent
                _log(f"an answer left whole: {type(exc).__name__}: {exc}")
                folded = None
            if folded is not None and folded != answer.text:
                answer.set(folded)
                changed = True
                if stats is not None:
                    stats.folded += 1
        return changed

    def _fold_one(self, text: str, agent: str | None) -> str | None:
        from sqz_core.api import digest_of

        raw = text.encode("utf-8", "surrogatepass")
        key = digest_of(raw)
        if key in self.folds:
            self.folds.move_to_end(key)
            return self.folds[key]
        folded = None
        tokens_in = self.tokens(text) if len(text) >= self.fold.min_tokens else 0
        shape = fold.outline(text) if tokens_in >= self.fold.min_tokens else None
        if shape is not None:
            sid = self._keep(key, raw, None)  # recoverable, or not folded at all
            if sid is not None:
                candidate = fold.render(shape[0], shape[1], sid)
                tokens_out = self.tokens(candidate)
                if tokens_out < tokens_in:
                    folded = candidate
                    self._record(agent, "assistant answer", "fold", None, "fold", text, candidate, tokens_in,
                                 tokens_out)
        self.folds[key] = folded
        if len(self.folds) > MEMO_ENTRIES:
            self.folds.popitem(last=False)
        return folded

    def rewrite_slots(self, slots: list, agent: str | None = None, stats: Stats | None = None) -> bool:
        from sqz_core.api import digest_of

        stats = stats if stats is not None else Stats()
        present: dict[str, tuple] = {}  # body digest -> (label, name) of its first result in this request
        files: list[tuple] = []          # earlier file-content results: (path, body, digest, label, name)
        deadline = time.monotonic() + self.budget
        changed = False
        for n, slot in enumerate(slots):
            command = tools.command_of(slot.name, slot.args)
            key = (slot.key, digest_of(slot.text.encode("utf-8", "surrogatepass")), slot.name, command)
            label = slot.call_id or f"#{n + 1}"
            decision = self.memo.get(key)
            if decision is not None and decision.dep is not None and present.get(decision.dep[0]) != decision.dep[1]:
                decision = None  # what it pointed at is no longer in the request (compacted away)
            stats.results += 1
            if decision is None:
                stats.new += 1
                framed = envelope.split(slot.text)
                body_digest = digest_of(framed.body.encode("utf-8", "surrogatepass"))
                if time.monotonic() > deadline:
                    decision = Decision(None, None, "timeout")
                else:
                    try:
                        decision = self._decide(slot, framed, body_digest, command, present, files, label, agent)
                    except Exception as exc:  # one result's failure leaves it as sent
                        _log(f"result {label} sent unchanged: {type(exc).__name__}: {exc}")
                        decision = Decision(None, None, "error")
                decision.body_digest = body_digest
                if self._is_file(slot, command, framed.body):
                    decision.file_body, decision.path = framed.body, tools.path_of(slot.args)
                self.memo[key] = decision
                if len(self.memo) > MEMO_ENTRIES:
                    self.memo.popitem(last=False)
            else:
                self.memo.move_to_end(key)
            if decision.text is not None and decision.text != slot.text:
                slot.set(decision.text)
                changed = True
                stats.changed += 1
            present.setdefault(decision.body_digest, (label, slot.name))
            if decision.file_body is not None:
                files.append((decision.path, decision.file_body, decision.body_digest, label, slot.name))
        return changed

    # -- one result -------------------------------------------------------------------------------
    @staticmethod
    def _is_file(slot, command, body: str) -> bool:
        from sqz_core.api import FormatRequest

        return FormatRequest(body[:4096], command, tool=None if command else slot.name).is_file_content()

    def _decide(self, slot, framed, body_digest, command, present, files, label, agent) -> Decision:
        from sqz_core.api import MIN_REF_BYTES

        text, body = slot.text, framed.body
        raw = body.encode("utf-8", "surrogatepass")
        candidate, dep, outcome, plugin, family = None, None, "passthrough", None, None
        if len(raw) >= MIN_REF_BYTES and body_digest in present:
            earlier, name = present[body_digest]
            candidate = framed.join(self._ref_line(body_digest, raw, command, earlier, name))
            dep, outcome = (body_digest, present[body_digest]), "ref"
        is_file = self._is_file(slot, command, body)
        if candidate is None and is_file and len(raw) >= MIN_REF_BYTES:
            found = self._delta(slot, body, body_digest, raw, command, files)
            if found is not None:
                candidate, dep, outcome = framed.join(found[0]), found[1], "delta"
        if candidate is None and not is_file:
            result = self._compress(raw, framed.exit_code, command, slot.name)
            if result is not None and result.output != raw:
                try:
                    candidate = framed.join(result.output.decode("utf-8"))
                    outcome, plugin, family = result.outcome, result.plugin, result.family
                except UnicodeDecodeError:
                    candidate = None
        tokens_in = self.tokens(text)
        tokens_out = tokens_in
        if candidate is not None and candidate != text:
            tokens_out = self.tokens(candidate)
            if tokens_out >= tokens_in:  # never worse: the block goes out as the agent sent it
                candidate, dep, outcome, tokens_out = None, None, "gate", tokens_in
        else:
            candidate, dep = None, None
        self._record(agent, command or slot.name, family or (slot.name or "").lower() or None, plugin, outcome,
                     text, candidate, tokens_in, tokens_out)
        return Decision(candidate, dep, outcome)

    def _compress(self, raw: bytes, exit_code, command, tool):
        from sqz_core.api import compress, new_nonce, trailer

        nonce = None
        data = raw
        if exit_code is not None:
            nonce = new_nonce()
            data = raw + (b"" if raw.endswith(b"\n") or not raw else b"\n") + trailer(exit_code, nonce)
        result = compress(data, command=command, tool=None if command else tool, session=COMPRESS_SESSION,
                          store=self.store, no_cache=True, exit_nonce=nonce)
        if nonce is not None and not raw.endswith(b"\n") and result.output.endswith(b"\n") and result.output[:-1] == raw:
            return None  # only the newline the trailer needed came back
        return result

    def _keep(self, digest: str, raw: bytes, command) -> str | None:
        """Store ``raw`` for ``sqz expand`` and return its short id; None without a store or for a secret."""
        from sqz_core.api import holds_secret, short_id

        store = self.store
        if store is None or holds_secret(raw):
            return None
        try:
            store.put_blob(digest, raw, command)
            return short_id(store, digest)
        except Exception:
            return None

    def _ref_line(self, digest: str, raw: bytes, command, earlier: str, name) -> str:
        sid = self._keep(digest, raw, command)
        what = f"the {name} result {earlier}" if name else f"tool result {earlier}"
        if sid is None:
            return f"[sqz: same output as {what} above]\n"
        from sqz_core.api import expand_hint

        return f"§ref:{sid}§ same output as {what} above (`{expand_hint(sid)}` prints it)\n"

    def _delta(self, slot, body: str, digest: str, raw: bytes, command, files):
        """(delta text, dependency) against the latest earlier copy of the same file, when much shorter."""
        path = tools.path_of(slot.args)
        for base_path, base, base_digest, label, name in reversed(files):
            if path is not None and base_path is not None and base_path != path:
                continue
            if not delta.similar_enough(base, body):
                continue
            rendered = delta.render(base, body)
            if rendered is None:
                continue
            hunks, n_changed = rendered
            sid = self._keep(digest, raw, command)
            base_sid = self._keep(base_digest, base.encode("utf-8", "surrogatepass"), command)
            what = f"the {name} result {label}" if name else f"tool result {label}"
            if sid is not None and base_sid is not None:
                from sqz_core.api import expand_hint

                head = (f"§delta:{base_sid}→{sid}§ changed since {what} above; {n_changed} changed line(s), one "
                        f"unchanged line around each (`{expand_hint(sid)}` prints the new version)")
            else:
                head = (f"[sqz: changed since {what} above; {n_changed} changed line(s), one unchanged line "
                        f"around each]")
            out = head + "\n" + "\n".join(hunks) + "\n"
            if len(out) <= delta.max_ratio() * len(body):
                return out, (base_digest, (label, name))
            return None
        return None

    def _record(self, agent, command, family, plugin, outcome, text: str, candidate, tokens_in, tokens_out) -> None:
        """One row of per-call stats; both texts kept by hash (unless secret) so `sqz stats` counts them exactly."""
        store = self.store
        if store is None:
            return
        raw = text.encode("utf-8", "surrogatepass")
        out = raw if candidate is None else candidate.encode("utf-8", "surrogatepass")
        try:
            from sqz_core.api import digest_of, holds_secret

            in_hash = out_hash = None
            if not holds_secret(raw):
                in_hash = digest_of(raw)
                store.put_blob(in_hash, raw, command)
                if candidate is not None:
                    out_hash = digest_of(out)
                    store.put_blob(out_hash, out, None)
            store.record_call(session=f"proxy:{agent or 'unknown'}", command=command, family=family, plugin=plugin,
                              outcome=outcome if candidate is not None or outcome in ("gate", "timeout", "error")
                              else "passthrough",
                              bytes_in=len(raw), bytes_out=len(out), est_in=tokens_in, est_out=tokens_out,
                              input_hash=in_hash, output_hash=out_hash, agent=agent)
        except Exception as exc:
            _log(f"stats not recorded: {type(exc).__name__}")
