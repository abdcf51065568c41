"""The ``sqz`` command for people: typer, help text, tables.

The hot verbs (``compress``, ``run``, ``expand``) are also declared here so that
``--help`` explains them and malformed calls get typer's clear errors; a well-formed
call of those never reaches this module (see ``sqz_core.hot``).
"""

from __future__ import annotations

import json
import sys
from typing import List, Optional

import typer

from . import hot

app = typer.Typer(
    name="sqz",
    help="Compress what AI coding agents read from their tools, before it enters the model's context.\n\n"
         "Deterministic and offline: no model calls, no network. Every shortened output can be "
         "recovered with `sqz expand`.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)

_MODE_HELP = ("auto: safety routing decides; safe: pass through unchanged, never cached; "
              "default: normal compression; aggressive: lower net-win threshold.")


def _opts(cmd, tool, mode, session, no_cache, no_abbrev=False, agent=None) -> dict:
    import os

    if mode not in hot._MODES:
        raise typer.BadParameter(f"{mode!r} is not one of {', '.join(hot._MODES)}", param_hint="--mode")
    return {"command": cmd, "tool": tool, "mode": mode, "session": session, "no_cache": no_cache,
            "no_abbrev": no_abbrev, "agent": agent or os.environ.get("SQZ_AGENT") or None}


_AGENT_HELP = "The agent framework served (claude-code, codex…), for per-agent stats and budgets; default $SQZ_AGENT."


_NO_ABBREV_HELP = "Never replace repeated phrases with §N symbols (also SQZ_NO_ABBREV=1)."


@app.command()
def compress(
    cmd: Optional[str] = typer.Option(None, "--cmd", help="The command line that produced the input; picks the formatter."),
    tool: Optional[str] = typer.Option(None, "--tool", help="Agent/MCP tool name for non-shell content (read_file…); file content is never summarised."),
    mode: str = typer.Option("auto", "--mode", help=_MODE_HELP),
    session: Optional[str] = typer.Option(None, "--session", help="Agent session id (default: $SQZ_SESSION, else one per working directory)."),
    no_cache: bool = typer.Option(False, "--no-cache", help="No refs for this call: repeats are sent in full and this output is not remembered as served."),
    no_abbrev: bool = typer.Option(False, "--no-abbrev", help=_NO_ABBREV_HELP),
    agent: Optional[str] = typer.Option(None, "--agent", help=_AGENT_HELP),
):
    """Compress stdin to stdout; one short stats line on stderr (SQZ_QUIET=1 silences it).

    A trailing exit marker written by an sqz hook is stripped and becomes sqz's exit status.
    """
    raise typer.Exit(hot.cmd_compress(_opts(cmd, tool, mode, session, no_cache, no_abbrev, agent)))


@app.command(context_settings={"allow_interspersed_args": False})
def run(
    command: List[str] = typer.Argument(..., help="The command and its arguments, after `--`."),
    mode: str = typer.Option("auto", "--mode", help=_MODE_HELP),
    session: Optional[str] = typer.Option(None, "--session", help="Agent session id."),
    no_cache: bool = typer.Option(False, "--no-cache", help="No refs for this call."),
    no_abbrev: bool = typer.Option(False, "--no-abbrev", help=_NO_ABBREV_HELP),
):
    """Run a command, merge its stdout and stderr, compress, and exit with the command's status.

    Example: sqz run -- git log --stat -n 20
    """
    raise typer.Exit(hot.cmd_run(_opts(None, None, mode, session, no_cache, no_abbrev), list(command)))


@app.command()
def expand(ref: str = typer.Argument(..., help="§ref:HASH§, a full hash, a unique hex prefix (≥4), or HASH:L10-20.")):
    """Print the original bytes behind a reference, exactly."""
    status = hot.cmd_expand([ref])
    raise typer.Exit(1 if status is hot.NOT_MINE else status)


# --- stats / cost / report (issue 9) ---
_BY_HELP = "Group the table by command (program name), day, agent or session."
_PROJECT_HELP = ("Only calls made in this directory: recorded with it as their working directory, or under its "
                 "default session (cwd:<crc32>).")
_TURNS_HELP = "Requests a saved token would have been carried on until compaction (the cost assumption)."


def _summary(days: Optional[float], project: Optional[str], all_: bool, by: str) -> dict:
    from .stats import GROUPINGS, summarize

    if by not in GROUPINGS:
        raise typer.BadParameter(f"{by!r} is not one of {', '.join(GROUPINGS)}", param_hint="--by")
    if project and all_:
        raise typer.BadParameter("choose one of --project and --all")
    store = _store_or_exit()
    try:
        return summarize(store, days=days, project=None if all_ else project, by=by)
    finally:
        store.close()


def _cost(summary: dict, model: Optional[str], turns: int, prices: Optional[str]) -> Optional[dict]:
    """The cost block, or None after a one-line error on stderr (a bad price file, an unknown model)."""
    from .pricing import PriceError, cost_block, load

    try:
        return cost_block(load(prices), model, max(summary["total"]["saved"], 0), turns)
    except PriceError as exc:
        typer.echo(f"sqz: prices: {exc}", err=True)
        return None


def _counter_line(counter: str) -> str:
    if counter == "estimate":
        return "tokens counted with: estimate (no exact tokenizer could load; figures are approximate)"
    return f"tokens counted with: {counter} (tiktoken, exact), from the bytes sqz stored"


def _print_summary(summary: dict, cost: Optional[dict]) -> None:
    import time

    t = summary["total"]
    typer.echo(_counter_line(summary["counter"]))
    scope = f"project {summary['project']} (session {summary['project_session']})" if summary["project"] else "all projects"
    when = "all time" if not summary["since"] else "since " + time.strftime(
        "%Y-%m-%d %H:%M", time.localtime(summary["since"]))
    typer.echo(f"scope: {scope}, {when}")
    if t["estimated_calls"]:
        typer.echo(f"  {t['estimated_calls']} call(s) ({t['estimated_tokens_in']:,} tokens in) have no stored bytes "
                   "(safe mode, binary, errors): their figures are the hot path's estimate")
    if t["uncounted_calls"]:
        typer.echo(f"  {t['uncounted_calls']} call(s) ({t['uncounted_bytes']:,} bytes) sent with --mode safe have no "
                   "stored bytes and no estimate: not counted in the token figures")
    typer.echo(f"{summary['by']:<22}{'calls':>7}{'tokens in':>12}{'served':>11}{'saved':>10}{'%':>5}"
               f"{'dedup':>7}{'bypass':>7}{'regret':>7}")
    rows = sorted(summary["groups"].items(), key=lambda kv: (kv[0] if summary["by"] == "day" else -kv[1]["saved"]))
    for name, g in rows + [("total", t)]:
        pct = 100 * g["saved"] / g["tokens_in"] if g["tokens_in"] else 0
        typer.echo(f"{name[:21]:<22}{g['calls']:>7}{g['tokens_in']:>12,}{g['tokens_out']:>11,}{g['saved']:>10,}"
                   f"{pct:>4.0f}%{g['dedup_hits']:>7}{g['bypasses']:>7}{g['regrets']:>7}")
    b = summary["bypasses"]
    typer.echo(f"dedup: {t['dedup_hits']} hit(s) (refs, slices, deltas) saved {t['dedup_saved']:,} tokens; "
               f"bypasses: {b['passthrough']} passthrough, {b['gate']} net-win gate, {b['safe']} safe mode")
    r = summary["regret"]
    typer.echo(f"regret: {r['reruns']} quick re-run(s) ({r['reruns_identical']} identical output), "
               f"{r['expands']} expand(s) soon after a shortened answer = {100 * r['rate']:.1f}% of "
               f"{r['shortened_answers']} shortened answers")
    if summary["budget_warnings"]:
        typer.echo(f"budgets: {summary['budget_warnings']} session(s) crossed their agent's budget (sqz budget list)")
    if cost:
        typer.echo(f"cost: ${cost['cached_usd']:,.2f} saved at {cost['label']} prices with prompt caching "
                   f"(${cost['uncached_usd']:,.2f} without; ${cost['first_turn_usd']:,.2f} counting one request only)")
        typer.echo(f"  assumption: {cost['assumption']} (--turns, --model)")
        typer.echo(f"  prices: {cost.get('source') or 'your price file'}, read {cost.get('checked') or '?'}")
    if summary["outcomes"]:
        typer.echo("outcomes: " + ", ".join(f"{k} {v}" for k, v in sorted(summary["outcomes"].items())))


def _stats_command(days, project, all_, by, as_json, as_csv, model, turns, prices, chart, prune, older_than) -> None:
    if prune:
        from .retention import parse_age, prune as prune_store

        try:
            age = parse_age(older_than)
        except ValueError as exc:
            raise typer.BadParameter(str(exc), param_hint="--older-than")
        store = _store_or_exit()
        try:
            done = prune_store(store, age)
        finally:
            store.close()
        import time

        cutoff = time.strftime("%Y-%m-%d %H:%M", time.localtime(done.pop("cutoff")))
        if as_json:
            typer.echo(json.dumps({"pruned_before": cutoff, "deleted": done}, indent=2, sort_keys=True))
            return
        typer.echo(f"pruned everything recorded before {cutoff}: " +
                   ", ".join(f"{n} {k}" for k, n in sorted(done.items())) +
                   " (pinned content and the bytes of remaining calls kept)")
        return
    summary = _summary(days, project, all_, by)
    cost = _cost(summary, model, turns, prices)
    if cost is not None:
        summary["cost"] = cost
    if as_json:
        typer.echo(json.dumps(summary, indent=2, sort_keys=True))
    elif as_csv:
        import csv

        from .stats import csv_rows

        writer = csv.writer(sys.stdout, lineterminator="\n")
        writer.writerows(csv_rows(summary))
    else:
        _print_summary(summary, cost)
        if chart:
            from .report import terminal_chart

            typer.echo("")
            terminal_chart(summary)
    if cost is None:
        raise typer.Exit(1)


@app.command()
def stats(
    days: Optional[float] = typer.Option(None, "--days", help="Only calls from the last N days."),
    project: Optional[str] = typer.Option(None, "--project", help=_PROJECT_HELP),
    all_: bool = typer.Option(False, "--all", help="Every project (the default)."),
    by: str = typer.Option("command", "--by", help=_BY_HELP),
    as_json: bool = typer.Option(False, "--json", help="Machine-readable output."),
    as_csv: bool = typer.Option(False, "--csv", help="The --by table as CSV."),
    model: Optional[str] = typer.Option(None, "--model", help="Price savings at this model's prices (see the price table)."),
    turns: int = typer.Option(10, "--turns", min=1, help=_TURNS_HELP),
    prices: Optional[str] = typer.Option(None, "--prices", help="A price table YAML (default: $SQZ_PRICES, else ~/.config/sqz/prices.yaml over the built-in one)."),
    chart: bool = typer.Option(False, "--chart", help="Also draw tokens saved per day."),
    prune: bool = typer.Option(False, "--prune", help="Delete stats and stored content older than --older-than instead."),
    older_than: str = typer.Option("90d", "--older-than", help="With --prune: an age such as 90d, 12h, 2w."),
):
    """Calls, tokens in/out and saved per command, dedup hits, bypasses, regret signals and their worth.

    Counted with an exact tokenizer (named in the output) from the bytes the store holds;
    calls whose bytes were never stored are counted apart, as estimates.
    """
    _stats_command(days, project, all_, by, as_json, as_csv, model, turns, prices, chart, prune, older_than)


@app.command()
def gain(
    days: Optional[float] = typer.Option(None, "--days", help="Only calls from the last N days."),
    project: Optional[str] = typer.Option(None, "--project", help=_PROJECT_HELP),
    all_: bool = typer.Option(False, "--all", help="Every project (the default)."),
    by: str = typer.Option("command", "--by", help=_BY_HELP),
    as_json: bool = typer.Option(False, "--json", help="Machine-readable output."),
    as_csv: bool = typer.Option(False, "--csv", help="The --by table as CSV."),
    model: Optional[str] = typer.Option(None, "--model", help="Price savings at this model's prices."),
    turns: int = typer.Option(10, "--turns", min=1, help=_TURNS_HELP),
    prices: Optional[str] = typer.Option(None, "--prices", help="A price table YAML."),
):
    """`sqz stats` with a chart of tokens saved per day."""
    _stats_command(days, project, all_, by, as_json, as_csv, model, turns, prices, True, False, "90d")


@app.command()
def report(
    html_file: str = typer.Option(..., "--html", help="Write the report to this file (one self-contained page)."),
    days: Optional[float] = typer.Option(None, "--days", help="Only calls from the last N days."),
    project: Optional[str] = typer.Option(None, "--project", help=_PROJECT_HELP),
    model: Optional[str] = typer.Option(None, "--model", help="Price savings at this model's prices."),
    turns: int = typer.Option(10, "--turns", min=1, help=_TURNS_HELP),
    prices: Optional[str] = typer.Option(None, "--prices", help="A price table YAML."),
):
    """Write an HTML report: tables and charts inline (SVG), no script and nothing fetched; viewable offline."""
    from .report import html_report, write_private

    summary = _summary(days, project, False, "command")
    by_agent = _summary(days, project, False, "agent")["groups"]
    cost = _cost(summary, model, turns, prices)
    page = html_report(summary, cost, by_agent=by_agent)
    try:
        write_private(html_file, page)  # it names commands and projects: not for other users
    except OSError as exc:
        typer.echo(f"sqz report: cannot write {html_file}: {exc.strerror or exc}", err=True)
        raise typer.Exit(1)
    typer.echo(f"wrote {html_file} ({len(page.encode()):,} bytes, {summary['total']['calls']} calls)")
    if cost is None:
        raise typer.Exit(1)


budget_app = typer.Typer(help="Token budgets per agent: a session that crosses its agent's budget gets one "
                              "warning line from `sqz compress`.", no_args_is_help=True)
app.add_typer(budget_app, name="budget")


@budget_app.command("set")
def budget_set(
    tokens: int = typer.Argument(..., min=1, help="Tokens sqz may serve to one session of this agent."),
    agent: str = typer.Option(..., "--agent", help="Agent name as given by --agent / SQZ_AGENT; * for every agent; (unknown) for calls without one."),
):
    """Set an agent's per-session budget."""
    from .budget import load, save

    budgets = load()
    budgets[agent] = tokens
    path = save(budgets)
    typer.echo(f"budget for {agent}: {tokens:,} tokens per session ({path})")


@budget_app.command("remove")
def budget_remove(agent: str = typer.Option(..., "--agent", help="The agent whose budget goes.")):
    """Remove an agent's budget."""
    from .budget import load, save

    budgets = load()
    if agent not in budgets:
        typer.echo(f"sqz budget remove: no budget for {agent!r}", err=True)
        raise typer.Exit(1)
    del budgets[agent]
    save(budgets)
    typer.echo(f"budget for {agent} removed")


@budget_app.command("list")
def budget_list(as_json: bool = typer.Option(False, "--json", help="Machine-readable output.")):
    """Budgets, and the sessions of those agents with what they were served (estimate)."""
    from .budget import load, usage

    budgets = load()
    rows = []
    if budgets:
        store = _store_or_exit()
        try:
            rows = usage(store, budgets)
        finally:
            store.close()
    if as_json:
        typer.echo(json.dumps({"budgets": budgets, "sessions": rows}, indent=2, sort_keys=True))
        return
    if not budgets:
        typer.echo("no budget set (sqz budget set --agent NAME TOKENS)")
        return
    for name, limit in sorted(budgets.items()):
        typer.echo(f"{name:<20} {limit:>12,} tokens per session")
    for r in rows[:20]:
        flag = "  OVER" if r["used"] >= r["limit"] else ""
        typer.echo(f"  {r['session']:<38} {r['agent']:<14} ~{r['used']:>10,} / {r['limit']:,}{flag}")


@app.command()
def reset(
    cache_only: bool = typer.Option(False, "--cache-only", help="Only stored content, served marks and the recall index (pins kept)."),
    stats_only: bool = typer.Option(False, "--stats-only", help="Only the stats (calls, events, budget warnings)."),
    yes: bool = typer.Option(False, "--yes", "-y", help="Do not ask for confirmation."),
):
    """Delete sqz's stored content and/or stats. Asks first unless --yes."""
    from .retention import reset as reset_store
    from .stores import describe

    if cache_only and stats_only:
        raise typer.BadParameter("choose one of --cache-only and --stats-only")
    what = "the cache (stored outputs; pins kept)" if cache_only else (
        "the stats" if stats_only else "everything: cached outputs, pins and stats")
    if not yes and not typer.confirm(f"Delete {what} in {describe()}?", default=False):
        typer.echo("nothing deleted")
        raise typer.Exit(1)
    store = _store_or_exit()
    try:
        done = reset_store(store, cache=not stats_only, stats=not cache_only)
    finally:
        store.close()
    typer.echo(f"deleted {what}: " + ", ".join(f"{n} {k}" for k, n in sorted(done.items())))
# --- end stats / cost / report ---


@app.command()
def plugins(
    as_json: bool = typer.Option(False, "--json", help="Machine-readable output."),
    refresh: bool = typer.Option(False, "--refresh", help="Rescan entry points and rewrite the plugin index."),
):
    """List installed plugins: formatters (entry name, distribution, version, commands claimed, hooks) and integrations.

    SQZ_LOAD_PLUGINS=a,b allows only those plugins; SQZ_DISABLE_PLUGINS=a,b blocks them.
    """
    from .plugins import enabled, index_path, load_index, plugin_manager

    index = load_index(refresh=refresh)
    active = {r["name"] for r in enabled(index["plugins"])}
    problems = []
    try:
        plugin_manager(index)
    except Exception as exc:  # pluggy validation: a hook that does not match its spec
        problems.append(f"validation: {type(exc).__name__}: {exc}")
    integrations = _integration_records()
    if as_json:
        typer.echo(json.dumps({"index": index_path(), "plugins": index["plugins"], "active": sorted(active),
                               "integrations": integrations, "problems": problems}, indent=2))
        raise typer.Exit(1 if problems else 0)
    if not index["plugins"]:
        typer.echo("no formatter plugins installed (only the built-in generic stages run)")
    for rec in index["plugins"]:
        state = "error" if rec.get("error") else ("on" if rec["name"] in active else "off")
        cmds = ",".join(rec.get("commands") or []) or "-"
        hooks = ",".join(h.replace("sqz_", "") for h in sorted(rec.get("hooks", {})))
        typer.echo(f"{rec['name']:<14} {state:<5} {rec.get('dist') or '?'} {rec.get('version') or '?'}"
                   f"  commands: {cmds}  hooks: {hooks}")
        if rec.get("error"):
            typer.echo(f"{'':<14}       {rec['error']}")
    typer.echo("integrations:" if integrations else "integrations: none installed")
    for rec in integrations:
        state = f"error: {rec['error']}" if rec["error"] else (rec["tier"] or "?")
        typer.echo(f"  {rec['name']:<12} {rec.get('dist') or '?'} {rec.get('version') or '?'}  tier: {state}")
    for p in problems:
        typer.echo(p, err=True)
    raise typer.Exit(1 if problems else 0)


def _integration_records() -> list[dict]:
    """Every registered integration (``sqz.integrations``): entry name, distribution, version, tier, load error."""
    from importlib.metadata import entry_points

    from .plugins import INTEGRATIONS_GROUP

    out = []
    for ep in sorted(entry_points(group=INTEGRATIONS_GROUP), key=lambda e: e.name):
        dist = getattr(ep, "dist", None)
        rec = {"name": ep.name, "dist": dist.metadata["Name"] if dist else None,
               "version": dist.version if dist else None, "tier": None, "error": None}
        try:
            rec["tier"] = getattr(ep.load(), "tier", None)
        except Exception as exc:
            rec["error"] = f"{type(exc).__name__}: {exc}"
        out.append(rec)
    return out


@app.command(context_settings={"allow_extra_args": True, "ignore_unknown_options": True})
def hook(
    ctx: typer.Context,
    agent: str = typer.Argument(..., help="claude-code, gemini-cli, copilot-cli, opencode… (see `sqz plugins`), "
                                           "or precompact."),
):
    """Answer an agent's hook: its hook JSON on stdin, its rewrite JSON on stdout.

    Written into the agent's configuration by `sqz init`. It never grants permission and fails
    open: any error prints nothing and exits 0, so the agent's command runs unchanged.
    `sqz hook precompact` (after or before the agent compacts its history) forgets what the
    session was served. Extra arguments (`--post`) go to the integration.
    """
    raise typer.Exit(hot.cmd_hook([agent, *ctx.args]))


# --- daemon ---
daemon_app = typer.Typer(help="An optional warm local daemon: `sqz compress` and `sqz run` skip Python's start-up "
                              "while it runs (never started implicitly; SQZ_DAEMON=0 ignores it).",
                         no_args_is_help=True)
app.add_typer(daemon_app, name="daemon")


@daemon_app.command("start")
def daemon_start(
    idle_minutes: float = typer.Option(15.0, "--idle-minutes", min=0, help="Exit after this many minutes without a request (0: never)."),
    foreground: bool = typer.Option(False, "--foreground", help="Serve in this process instead of the background."),
):
    """Start the daemon for this user (private Unix socket); refuses if one is already running."""
    from .daemon import start

    raise typer.Exit(start(idle_minutes, foreground, echo=typer.echo))


@daemon_app.command("stop")
def daemon_stop(
    wait: float = typer.Option(5.0, "--wait", min=0.0,
                               help="Seconds to wait for the daemon to exit before it is killed (SIGKILL)."),
):
    """Stop the daemon, wait until its process is gone (killing it if it does not exit) and say which happened.

    Also removes the socket and pid file a killed daemon left. Exit 1 if the process is still running.
    """
    from .daemon import stop

    raise typer.Exit(stop(echo=typer.echo, timeout=wait))


@daemon_app.command("status")
def daemon_status():
    """Whether a daemon serves this user's calls: pid, socket, version, requests served. Exit 1 if none."""
    from .daemon import status

    raise typer.Exit(status(echo=typer.echo))
# --- end daemon ---


def _store_or_exit():
    """The configured store, or one clear line on stderr and exit 1 (unreadable, corrupt…)."""
    from .store import StoreError
    from .stores import open_store

    try:
        return open_store()
    except StoreError as exc:
        sys.stderr.write(f"sqz: cannot read the store ({exc})\n")
        raise typer.Exit(1)


@app.command()
def compact(
    session: Optional[str] = typer.Option(None, "--session", help="The agent session (default: $SQZ_SESSION, else this directory's)."),
):
    """Forget what a session was served, so no ref points at text the agent compacted away.

    Agent hooks do this automatically (`sqz hook precompact`); run it by hand after /compact
    if refs confuse the agent.
    """
    from .pipeline import default_session
    from .sessions import compact as forget

    session = session or default_session()
    store = _store_or_exit()
    try:
        n = forget(store, session)
    finally:
        store.close()
    typer.echo(f"session {session}: {n} served entr{'y' if n == 1 else 'ies'} forgotten; content is re-sent in full")


pin_app = typer.Typer(help="Pinned content: refs to it skip the freshness window (project docs, conventions).",
                      no_args_is_help=True)
app.add_typer(pin_app, name="pin")


@pin_app.command("add")
def pin_add(
    source: str = typer.Argument(..., help="A file to pin, or - for stdin."),
    label: Optional[str] = typer.Option(None, "--label", help="A name to show in `sqz pin list` (default: the file name)."),
):
    """Store content and pin it; prints its ref."""
    from .expand import short_id
    from .sessions import pin_bytes

    if source == "-":
        data = sys.stdin.buffer.read()
    else:
        try:
            with open(source, "rb") as fh:
                data = fh.read()
        except OSError as exc:
            typer.echo(f"sqz pin add: cannot read {source}: {exc.strerror or exc}", err=True)
            raise typer.Exit(1)
    if not data:
        typer.echo("sqz pin add: nothing to pin (empty input)", err=True)
        raise typer.Exit(1)
    store = _store_or_exit()
    try:
        digest = pin_bytes(store, data, label or (None if source == "-" else source))
        ref_id = short_id(store, digest)
    finally:
        store.close()
    typer.echo(f"§ref:{ref_id}§")


@pin_app.command("list")
def pin_list(as_json: bool = typer.Option(False, "--json", help="Machine-readable output.")):
    """List pinned entries: ref, size, label, when pinned."""
    import time

    from .expand import short_id

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
def pin_remove(ref: str = typer.Argument(..., help="The pinned entry's ref or hash prefix.")):
    """Unpin an entry (its content stays stored, subject to the normal freshness rules)."""
    from .expand import ExpandError, short_id
    from .sessions import resolve_prefix

    store = _store_or_exit()
    try:
        try:
            digest = resolve_prefix(store, ref)
        except ExpandError as exc:
            typer.echo(f"sqz pin remove: {exc}", err=True)
            raise typer.Exit(1)
        ref_id = short_id(store, digest)
        if not store.unpin(digest):
            typer.echo(f"sqz pin remove: {ref_id} is not pinned", err=True)
            raise typer.Exit(1)
    finally:
        store.close()
    typer.echo(f"unpinned §ref:{ref_id}§")


@app.command()
def recall(
    query: str = typer.Argument(..., help="Words to find (SQLite FTS5 syntax: a b, \"exact phrase\", prefix*)."),
    limit: int = typer.Option(10, "--limit", min=1, help="At most this many matches."),
    as_json: bool = typer.Option(False, "--json", help="Machine-readable output."),
):
    """Search everything sqz has compressed (never safe-mode content); prints each match's ref to expand."""
    from .dedup import short_age
    from .sessions import recall as search

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


@app.command()
def sessions(as_json: bool = typer.Option(False, "--json", help="Machine-readable output.")):
    """Sessions with live entries: how many outputs each was served and when last, with its pressure."""
    from .dedup import short_age
    from .sessions import pressure

    import time

    store = _store_or_exit()
    try:
        rows = [(sid, n, last, *pressure(store, sid)) for sid, n, last in store.sessions()]
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


@app.command()
def version():
    """Print sqz's version."""
    from ._version import VERSION

    typer.echo(f"sqz {VERSION}")




# --- verbs of other distributions (entry points ``sqz.commands``) ---
COMMANDS_GROUP = "sqz.commands"
# The verbs sqz's own distributions bring: with one of them missing, `sqz --help` still lists its
# verbs and each says which distribution to install.
PROVIDED_BY = {"init": "sqz-agents", "uninstall": "sqz-agents", "doctor": "sqz-agents", "discover": "sqz-agents",
               "proxy": "sqz-proxy"}
_OWN_VERBS = frozenset({"compress", "run", "expand", "hook", "compact", "pin", "recall", "sessions", "version",
                        "plugins"})


_STUB = {"allow_extra_args": True, "ignore_unknown_options": True, "help_option_names": []}
_mounted: set[str] = set()


def _stub(name: str, why: str) -> None:
    """A verb that cannot run here: listed in ``--help``, and saying why (exit 1) whatever its arguments."""
    def unavailable(ctx: typer.Context):
        typer.echo(f"sqz {name}: {why}", err=True)
        raise typer.Exit(1)

    unavailable.__doc__ = f"(not available: {why})"
    app.command(name, context_settings=_STUB)(unavailable)
    _mounted.add(name)


def mount_commands(args: list[str]) -> None:
    """Add the verbs of the ``sqz.commands`` entry points to ``app``: a ``typer.Typer`` is mounted as a
    group, a function as one command. Only the verb asked for is loaded when it is a known one; every
    one for ``--help`` or an unknown word. sqz's own verbs (the hot ones above all) scan nothing."""
    verb = next((a for a in args if not a.startswith("-")), None)
    if verb in _OWN_VERBS:
        return
    wanted = verb if verb in PROVIDED_BY else None
    from importlib.metadata import entry_points

    for ep in sorted(entry_points(group=COMMANDS_GROUP), key=lambda e: e.name):
        if ep.name in _mounted or ep.name in _OWN_VERBS or wanted not in (None, ep.name):
            continue
        try:
            obj = ep.load()
        except Exception as exc:
            dist = getattr(ep, "dist", None)
            _stub(ep.name, f"{dist.metadata['Name'] if dist else ep.value} failed to load ({type(exc).__name__}: {exc})")
            continue
        if isinstance(obj, typer.Typer):
            app.add_typer(obj, name=ep.name)
        else:
            app.command(ep.name)(obj)
        _mounted.add(ep.name)
    for name, dist in PROVIDED_BY.items():
        if name not in _mounted and wanted in (None, name):
            _stub(name, f"this verb comes with the {dist} distribution, which is not installed (pip install {dist})")


# --- end verbs of other distributions ---


def _version_callback(value: bool):
    if value:
        from ._version import VERSION

        typer.echo(f"sqz {VERSION}")
        raise typer.Exit()


@app.callback()
def _root(_version: bool = typer.Option(False, "--version", "-V", callback=_version_callback, is_eager=True,
                                        help="Print the version and exit.")):
    pass


def run_app(args: list[str]) -> int:
    from .store import StoreError

    mount_commands(args)
    try:
        app(args=args, prog_name="sqz", standalone_mode=True)
    except StoreError as exc:  # a database corrupt past its header: one line, never a traceback
        sys.stderr.write(f"sqz: cannot read the store ({exc})\n")
        return 1
    except SystemExit as exc:
        code = exc.code
        return code if isinstance(code, int) else (0 if code is None else 1)
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(run_app(sys.argv[1:]))
