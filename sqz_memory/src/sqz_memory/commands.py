"""The verbs of sqz's session memory, mounted by ``sqz`` from the ``sqz.commands`` entry points:
``sqz compact`` (forget what a session was served), ``sqz pin add|list|remove`` (refs that skip the
freshness window), ``sqz recall`` (search everything compressed) and ``sqz sessions``.

The memory itself (the store's served marks, pins, the FTS5 index, pressure) is the core's; these are
the people's verbs over it, through ``sqz_core.api``.
"""

from __future__ import annotations

import json
import sys
from typing import Optional

from typing import TYPE_CHECKING

import typer

if TYPE_CHECKING:
    from sqz_core.api import StoreProtocol


def _store_or_exit() -> StoreProtocol:
    """The configured store, or one clear line on stderr and exit 1 (unreadable, corrupt…)."""
    from sqz_core.api import StoreError, open_store

    try:
        return open_store()
    except StoreError as exc:
        sys.stderr.write(f"sqz: cannot read the store ({exc})\n")
        raise typer.Exit(1) from None


def compact(
    session: Optional[str] = typer.Option(None, "--session", help="The agent session (default: $SQZ_SESSION, else this directory's)."),
    as_json: bool = typer.Option(False, "--json", help="Machine-readable output."),
):
    """Forget what a session was served, so no ref points at text the agent compacted away.

    Agent hooks do this automatically (`sqz hook precompact`); run it by hand after /compact
    if refs confuse the agent.
    """
    from sqz_core.api import compact_session, default_session

    session = session or default_session()
    store = _store_or_exit()
    try:
        n = compact_session(store, session)
    finally:
        store.close()
    if as_json:
        typer.echo(json.dumps({"session": session, "forgotten": n}, indent=2))
        return
    typer.echo(f"session {session}: {n} served entr{'y' if n == 1 else 'ies'} forgotten; content is re-sent in full")


pin_app = typer.Typer(help="Pinned content: refs to it skip the freshness window (project docs, conventions).",
                      no_args_is_help=True)


@pin_app.command("add")
def pin_add(
    source: str = typer.Argument(..., help="A file to pin, or - for stdin."),
    label: Optional[str] = typer.Option(None, "--label", help="A name to show in `sqz pin list` (default: the file name)."),
    as_json: bool = typer.Option(False, "--json", help="Machine-readable output."),
):
    """Store content and pin it; prints its ref."""
    from sqz_core.api import short_id

    from .memory import pin_bytes

    if source == "-":
        data = sys.stdin.buffer.read()
    else:
        try:
            with open(source, "rb") as fh:
                data = fh.read()
        except OSError as exc:
            typer.echo(f"sqz pin add: cannot read {source}: {exc.strerror or exc}", err=True)
            raise typer.Exit(1) from None
    if not data:
        typer.echo("sqz pin add: nothing to pin (empty input)", err=True)
        raise typer.Exit(1)
    store = _store_or_exit()
    label = label or (None if source == "-" else source)
    try:
        digest = pin_bytes(store, data, label)
        ref_id = short_id(store, digest)
    finally:
        store.close()
    if as_json:
        typer.echo(json.dumps({"ref": f"§ref:{ref_id}§", "id": ref_id, "hash": digest, "bytes": len(data),
                               "label": label}, indent=2, ensure_ascii=False))
        return
    typer.echo(f"§ref:{ref_id}§")


@pin_app.command("list")
def pin_list(as_json: bool = typer.Option(False, "--json", help="Machine-readable output.")):
    """List pinned entries: ref, size, label, when pinned."""
    from sqz_core.api import short_id

    import time

    store = _store_or_exit()
    try:
        rows = store.pins()
        ids = {h: short_id(store, h) for h, _lab, _ts, _size in rows}
    finally:
        store.close()
    if as_json:
        typer.echo(json.dumps([{"hash": h, "label": lab, "pinned_at": ts, "bytes": size}
                               for h, lab, ts, size in rows], indent=2))
        return
    if not rows:
        typer.echo("no pinned entries")
    for h, lab, ts, size in rows:
        day = time.strftime("%Y-%m-%d", time.localtime(ts))
        typer.echo(f"§ref:{ids[h]}§  {size:>8} bytes  {day}  {lab or ''}")


@pin_app.command("remove")
def pin_remove(ref: str = typer.Argument(..., help="The pinned entry's ref or hash prefix."),
               as_json: bool = typer.Option(False, "--json", help="Machine-readable output.")):
    """Unpin an entry (its content stays stored, subject to the normal freshness rules)."""
    from sqz_core.api import ExpandError, short_id

    from .memory import resolve_prefix

    store = _store_or_exit()
    try:
        try:
            digest = resolve_prefix(store, ref)
        except ExpandError as exc:
            typer.echo(f"sqz pin remove: {exc}", err=True)
            raise typer.Exit(1) from None
        ref_id = short_id(store, digest)
        if not store.unpin(digest):
            typer.echo(f"sqz pin remove: {ref_id} is not pinned", err=True)
            raise typer.Exit(1)
    finally:
        store.close()
    if as_json:
        typer.echo(json.dumps({"ref": f"§ref:{ref_id}§", "id": ref_id, "hash": digest, "unpinned": True}, indent=2,
                              ensure_ascii=False))
        return
    typer.echo(f"unpinned §ref:{ref_id}§")


def recall(
    query: str = typer.Argument(..., help="Words to find (SQLite FTS5 syntax: a b, \"exact phrase\", prefix*)."),
    limit: int = typer.Option(10, "--limit", min=1, help="At most this many matches."),
    as_json: bool = typer.Option(False, "--json", help="Machine-readable output."),
):
    """Search everything sqz has compressed (never safe-mode content); prints each match's ref to expand."""
    from sqz_core.api import short_age

    from .memory import recall as search

    store = _store_or_exit()
    try:
        matches = search(store, query, limit)
    finally:
        store.close()
    if as_json:
        typer.echo(json.dumps(matches, indent=2))
        return
    if not matches:
        typer.echo(f"no match for {query!r}")
        raise typer.Exit(1)
    for m in matches:
        typer.echo(f"{m['ref']}  {short_age(m['age_seconds'])} ago  {m['command'] or '-'}\n    {m['snippet']}")


def sessions(as_json: bool = typer.Option(False, "--json", help="Machine-readable output.")):
    """Sessions with live entries: how many outputs each was served and when last, with its pressure."""
    from sqz_core.api import session_pressure, short_age

    import time

    store = _store_or_exit()
    try:
        rows = [(sid, n, last, *session_pressure(store, sid)) for sid, n, last in store.sessions()]
    finally:
        store.close()
    if as_json:
        typer.echo(json.dumps([{"session": sid, "served": n, "last_served": last, "pressure": lvl,
                                "pressure_ratio": round(ratio, 3)} for sid, n, last, lvl, ratio in rows], indent=2))
        return
    if not rows:
        typer.echo("no session has live entries")
    now = time.time()
    for sid, n, last, lvl, ratio in rows:
        typer.echo(f"{sid:<40} {n:>5} served  last {short_age(now - last)} ago  pressure {lvl} ({ratio:.0%})")
