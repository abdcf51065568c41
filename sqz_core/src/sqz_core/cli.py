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


def _opts(cmd, tool, mode, session, no_cache) -> dict:
    if mode not in hot._MODES:
        raise typer.BadParameter(f"{mode!r} is not one of {', '.join(hot._MODES)}", param_hint="--mode")
    return {"command": cmd, "tool": tool, "mode": mode, "session": session, "no_cache": no_cache}


@app.command()
def compress(
    cmd: Optional[str] = typer.Option(None, "--cmd", help="The command line that produced the input; picks the formatter."),
    tool: Optional[str] = typer.Option(None, "--tool", help="Agent/MCP tool name for non-shell content (read_file…); file content is never summarised."),
    mode: str = typer.Option("auto", "--mode", help=_MODE_HELP),
    session: Optional[str] = typer.Option(None, "--session", help="Agent session id (default: $SQZ_SESSION, else one per working directory)."),
    no_cache: bool = typer.Option(False, "--no-cache", help="No refs for this call: repeats are sent in full and this output is not remembered as served."),
):
    """Compress stdin to stdout; one short stats line on stderr (SQZ_QUIET=1 silences it).

    A trailing exit marker written by an sqz hook is stripped and becomes sqz's exit status.
    """
    raise typer.Exit(hot.cmd_compress(_opts(cmd, tool, mode, session, no_cache)))


@app.command(context_settings={"allow_interspersed_args": False})
def run(
    command: List[str] = typer.Argument(..., help="The command and its arguments, after `--`."),
    mode: str = typer.Option("auto", "--mode", help=_MODE_HELP),
    session: Optional[str] = typer.Option(None, "--session", help="Agent session id."),
    no_cache: bool = typer.Option(False, "--no-cache", help="No refs for this call."),
):
    """Run a command, merge its stdout and stderr, compress, and exit with the command's status.

    Example: sqz run -- git log --stat -n 20
    """
    raise typer.Exit(hot.cmd_run(_opts(None, None, mode, session, no_cache), list(command)))


@app.command()
def expand(ref: str = typer.Argument(..., help="§ref:HASH§, a full hash, a unique hex prefix (≥4), or HASH:L10-20.")):
    """Print the original bytes behind a reference, exactly."""
    status = hot.cmd_expand([ref])
    raise typer.Exit(1 if status is hot.NOT_MINE else status)


@app.command()
def stats(
    as_json: bool = typer.Option(False, "--json", help="Machine-readable output."),
    days: Optional[float] = typer.Option(None, "--days", help="Only calls from the last N days."),
):
    """Calls, tokens in/out and saved, by command family, counted from the stored bytes."""
    from .stats import summarize

    store = hot._open_store()
    if store is None:
        raise typer.Exit(2)
    try:
        summary = summarize(store, days=days)
    finally:
        store.close()
    if as_json:
        typer.echo(json.dumps(summary, indent=2, sort_keys=True))
        return
    t = summary["total"]
    counter = summary["counter"]
    label = "cl100k (tiktoken, exact)" if counter == "cl100k" else counter
    typer.echo(f"tokens counted with: {label}")
    if t["estimated_calls"]:
        typer.echo(f"  {t['estimated_calls']} call(s) whose bytes are never stored (safe mode, binary, errors) "
                   "use the hot path's estimate")
    typer.echo(f"{'family':<16}{'calls':>7}{'tokens in':>12}{'tokens out':>12}{'saved':>10}{'%':>6}{'refs':>6}")
    rows = sorted(summary["by_family"].items(), key=lambda kv: -kv[1]["saved"])
    for name, f in rows:
        pct = 100 * f["saved"] / f["tokens_in"] if f["tokens_in"] else 0
        typer.echo(f"{name[:15]:<16}{f['calls']:>7}{f['tokens_in']:>12,}{f['tokens_out']:>12,}{f['saved']:>10,}"
                   f"{pct:>5.0f}%{f['refs']:>6}")
    pct = 100 * t["saved"] / t["tokens_in"] if t["tokens_in"] else 0
    typer.echo(f"{'total':<16}{t['calls']:>7}{t['tokens_in']:>12,}{t['tokens_out']:>12,}{t['saved']:>10,}{pct:>5.0f}%")
    if summary["outcomes"]:
        typer.echo("outcomes: " + ", ".join(f"{k} {v}" for k, v in sorted(summary["outcomes"].items())))


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
    from .integrations import discover

    integrations = discover()
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


@app.command()
def version():
    """Print sqz's version."""
    from ._version import VERSION

    typer.echo(f"sqz {VERSION}")


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
    try:
        app(args=args, prog_name="sqz", standalone_mode=True)
    except SystemExit as exc:
        code = exc.code
        return code if isinstance(code, int) else (0 if code is None else 1)
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(run_app(sys.argv[1:]))
