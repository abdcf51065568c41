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


def _opts(cmd: str | None, tool: str | None, mode: str, session: str | None, no_cache: bool, no_abbrev: bool = False,
          agent: str | None = None) -> dict[str, object]:
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
) -> None:
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
) -> None:
    """Run a command, merge its stdout and stderr, compress, and exit with the command's status.

    Example: sqz run -- git log --stat -n 20
    """
    raise typer.Exit(hot.cmd_run(_opts(None, None, mode, session, no_cache, no_abbrev), list(command)))


@app.command()
def expand(ref: str = typer.Argument(..., help="The id a recovery line names (n + 15 digits or more), §ref:HASH§, a full hash, a unique hex prefix (≥4), or ID:L10-20.")) -> None:
    """Print the original bytes behind a reference, exactly."""
    status = hot.cmd_expand([ref])
    raise typer.Exit(1 if status is hot.NOT_MINE else status)


@app.command()
def plugins(
    as_json: bool = typer.Option(False, "--json", help="Machine-readable output."),
    refresh: bool = typer.Option(False, "--refresh", help="Rescan entry points and rewrite the plugin index."),
) -> None:
    """List installed plugins: formatters (entry name, distribution, version, commands claimed, hooks) and integrations.

    A formatter the index refused (it failed to import, pluggy rejects it against the specs, it
    claims no command) shows as `error: <reason>`, is never called, and makes the status 1.
    SQZ_LOAD_PLUGINS=a,b allows only those plugins; SQZ_DISABLE_PLUGINS=a,b blocks them.
    """
    from .plugins import enabled, index_path, load_index, plugin_manager
    from .progress import Progress

    # a rebuild imports every formatter pack: a bar on a terminal when it takes over a second
    with Progress("sqz plugins: rebuilding the plugin index") as progress:
        index = load_index(refresh=refresh, progress=progress)
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
        raise typer.Exit(1 if problems or any(r.get("error") for r in index["plugins"]) else 0)
    if not index["plugins"]:
        typer.echo("no formatter plugins installed (only the built-in generic stages run)")
    for rec in index["plugins"]:
        if rec.get("error"):
            typer.echo(f"{rec['name']:<14} error: {rec['error']}  ({rec.get('dist') or '?'} {rec.get('version') or '?'})")
            continue
        state = "on" if rec["name"] in active else "off"
        cmds = ",".join(rec.get("commands") or []) or "-"
        hooks = ",".join(h.replace("sqz_", "") for h in sorted(rec.get("hooks", {})))
        typer.echo(f"{rec['name']:<14} {state:<5} {rec.get('dist') or '?'} {rec.get('version') or '?'}"
                   f"  commands: {cmds}  hooks: {hooks}")
    typer.echo("integrations:" if integrations else "integrations: none installed")
    for rec in integrations:
        tier = f"error: {rec['error']}" if rec["error"] else (rec["tier"] or "?")
        typer.echo(f"  {rec['name']:<12} {rec.get('dist') or '?'} {rec.get('version') or '?'}  tier: {tier}")
    for p in problems:
        typer.echo(p, err=True)
    raise typer.Exit(1 if problems or any(r.get("error") for r in index["plugins"]) else 0)


def _integration_records() -> list[dict[str, object]]:
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
) -> None:
    """Answer an agent's hook: its hook JSON on stdin, its rewrite JSON on stdout.

    Written into the agent's configuration by `sqz init`. It never grants permission and fails
    open: any error prints nothing and exits 0, so the agent's command runs unchanged.
    `sqz hook precompact` (after or before the agent compacts its history) forgets what the
    session was served. Extra arguments (`--post`) go to the integration.
    """
    raise typer.Exit(hot.cmd_hook([agent, *ctx.args]))


@app.command()
def version(as_json: bool = typer.Option(False, "--json", help="Machine-readable output: sqz's version and "
                                                                "every installed sqz distribution's.")) -> None:
    """Print sqz's version."""
    from ._version import VERSION

    if as_json:
        from importlib.metadata import distributions

        dists = {d.metadata["Name"]: d.version for d in distributions()
                 if (d.metadata["Name"] or "").lower().startswith("sqz-")}
        typer.echo(json.dumps({"version": VERSION, "distributions": dict(sorted(dists.items()))}, indent=2))
        return
    typer.echo(f"sqz {VERSION}")


# --- shell completion (the script: `sqz completion`, from sqz-agents) ---
# The shell calls `sqz` with no arguments and ``_SQZ_COMPLETE`` set (``complete_bash``…) at each Tab:
# that never goes through ``sqz_core.hot``'s verbs, so completion costs the hot path nothing.
COMPLETE_VAR = "_SQZ_COMPLETE"


def _completion_request() -> bool:
    """A Tab press asking for completions: register typer's shell classes (add_completion is off)."""
    import os

    if not os.environ.get(COMPLETE_VAR):
        return False
    from typer.completion import completion_init

    completion_init()
    return True


# --- verbs of other distributions (entry points ``sqz.commands``) ---
COMMANDS_GROUP = "sqz.commands"
# The verbs sqz's own distributions bring: with one of them missing, `sqz --help` still lists its
# verbs and each says which distribution to install.
PROVIDED_BY = {"init": "sqz-agents", "uninstall": "sqz-agents", "doctor": "sqz-agents", "discover": "sqz-agents",
               "completion": "sqz-agents",
               "stats": "sqz-insights", "gain": "sqz-insights", "report": "sqz-insights",
               "budget": "sqz-insights", "reset": "sqz-insights", "daemon": "sqz-daemon",
               "proxy": "sqz-proxy", "trust": "sqz-formatters-declarative",
               "formatters": "sqz-formatters-declarative", "config": "sqz-config",
               "compact": "sqz-memory", "pin": "sqz-memory", "recall": "sqz-memory", "sessions": "sqz-memory"}
_OWN_VERBS = frozenset({"compress", "run", "expand", "hook", "version", "plugins"})

_STUB = {"allow_extra_args": True, "ignore_unknown_options": True, "help_option_names": []}
_mounted: set[str] = set()


def _stub(name: str, why: str) -> None:
    """A verb that cannot run here: listed in ``--help``, and saying why (exit 1) whatever its arguments."""
    def unavailable(ctx: typer.Context) -> None:
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


def _version_callback(value: bool) -> None:
    if value:
        from ._version import VERSION

        typer.echo(f"sqz {VERSION}")
        raise typer.Exit()


@app.callback()
def _root(_version: bool = typer.Option(False, "--version", "-V", callback=_version_callback, is_eager=True,
                                        help="Print the version and exit.")) -> None:
    pass


def run_app(args: list[str]) -> int:
    from .store import StoreError

    _completion_request()
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
