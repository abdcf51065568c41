"""The verbs sqz-insights brings to ``sqz`` (entry points ``sqz.commands``): stats, gain, report, budget, reset.

``sqz_core.cli`` mounts each function below as a command (``budget``: a group) of its typer
application; none of them is on the hot path.
"""

from __future__ import annotations

import json
import os
import sys
from typing import Optional

import typer


def _store_or_exit():
    """The configured store, or one clear line on stderr and exit 1 (unreadable, corrupt…)."""
    from sqz_core.api import StoreError, open_store

    try:
        return open_store()
    except StoreError as exc:
        sys.stderr.write(f"sqz: cannot read the store ({exc})\n")
        raise typer.Exit(1)


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


def report(
    html_file: str = typer.Option(..., "--html", help="Write the report to this file (one self-contained page)."),
    days: Optional[float] = typer.Option(None, "--days", help="Only calls from the last N days."),
    project: Optional[str] = typer.Option(None, "--project", help=_PROJECT_HELP),
    model: Optional[str] = typer.Option(None, "--model", help="Price savings at this model's prices."),
    turns: int = typer.Option(10, "--turns", min=1, help=_TURNS_HELP),
    prices: Optional[str] = typer.Option(None, "--prices", help="A price table YAML."),
    as_json: bool = typer.Option(False, "--json", help="Machine-readable output: the file written, its size, "
                                                       "the calls it covers."),
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
    if as_json:
        typer.echo(json.dumps({"path": os.path.abspath(html_file), "bytes": len(page.encode()),
                               "calls": summary["total"]["calls"], "priced": cost is not None}, indent=2))
    else:
        typer.echo(f"wrote {html_file} ({len(page.encode()):,} bytes, {summary['total']['calls']} calls)")
    if cost is None:
        raise typer.Exit(1)


budget = typer.Typer(help="Token budgets per agent: a session that crosses its agent's budget gets one "
                          "warning line from `sqz compress`.", no_args_is_help=True)


@budget.command("set")
def budget_set(
    tokens: int = typer.Argument(..., min=1, help="Tokens sqz may serve to one session of this agent."),
    agent: str = typer.Option(..., "--agent", help="Agent name as given by --agent / SQZ_AGENT; * for every agent; (unknown) for calls without one."),
    as_json: bool = typer.Option(False, "--json", help="Machine-readable output."),
):
    """Set an agent's per-session budget."""
    from .budgets import load, save

    budgets = load()
    budgets[agent] = tokens
    path = save(budgets)
    if as_json:
        typer.echo(json.dumps({"agent": agent, "tokens": tokens, "path": str(path)}, indent=2))
        return
    typer.echo(f"budget for {agent}: {tokens:,} tokens per session ({path})")


@budget.command("remove")
def budget_remove(agent: str = typer.Option(..., "--agent", help="The agent whose budget goes."),
                  as_json: bool = typer.Option(False, "--json", help="Machine-readable output.")):
    """Remove an agent's budget."""
    from .budgets import load, save

    budgets = load()
    if agent not in budgets:
        typer.echo(f"sqz budget remove: no budget for {agent!r}", err=True)
        raise typer.Exit(1)
    del budgets[agent]
    save(budgets)
    if as_json:
        typer.echo(json.dumps({"agent": agent, "removed": True}, indent=2))
        return
    typer.echo(f"budget for {agent} removed")


@budget.command("list")
def budget_list(as_json: bool = typer.Option(False, "--json", help="Machine-readable output.")):
    """Budgets, and the sessions of those agents with what they were served (estimate)."""
    from .budgets import load, usage

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


def reset(
    cache_only: bool = typer.Option(False, "--cache-only", help="Only stored content, served marks and the recall index (pins kept)."),
    stats_only: bool = typer.Option(False, "--stats-only", help="Only the stats (calls, events, budget warnings)."),
    yes: bool = typer.Option(False, "--yes", "-y", help="Do not ask for confirmation."),
    as_json: bool = typer.Option(False, "--json", help="Machine-readable output on stdout (the question, if "
                                                       "asked, goes to stderr)."),
):
    """Delete sqz's stored content and/or stats. Asks first unless --yes."""
    from sqz_core.api import describe_store as describe

    from .retention import reset as reset_store

    if cache_only and stats_only:
        raise typer.BadParameter("choose one of --cache-only and --stats-only")
    what = "the cache (stored outputs; pins kept)" if cache_only else (
        "the stats" if stats_only else "everything: cached outputs, pins and stats")
    scope = "cache" if cache_only else ("stats" if stats_only else "all")
    if not yes and not typer.confirm(f"Delete {what} in {describe()}?", default=False, err=as_json):
        if as_json:
            typer.echo(json.dumps({"scope": scope, "deleted": None}, indent=2))
        else:
            typer.echo("nothing deleted")
        raise typer.Exit(1)
    store = _store_or_exit()
    try:
        done = reset_store(store, cache=not stats_only, stats=not cache_only)
    finally:
        store.close()
    if as_json:
        typer.echo(json.dumps({"scope": scope, "deleted": dict(sorted(done.items()))}, indent=2))
        return
    typer.echo(f"deleted {what}: " + ", ".join(f"{n} {k}" for k, n in sorted(done.items())))
