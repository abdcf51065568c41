"""The verbs sqz-agents brings to ``sqz`` (entry points ``sqz.commands``): init, uninstall, doctor, discover,
completion (the shell's script; a Tab press itself is answered by ``sqz_core.cli``).

``sqz_core.cli`` mounts each function below as a command of its typer application; none of
them is on the hot path.
"""

from __future__ import annotations

import json
import sys
from typing import List, Optional

import typer

from sqz_core.api import Progress as _Progress  # the rich bar of long work (moved to the core)


def _store_or_exit():
    """The configured store, or one clear line on stderr and exit 1 (unreadable, corrupt…)."""
    from sqz_core.api import StoreError, open_store

    try:
        return open_store()
    except StoreError as exc:
        sys.stderr.write(f"sqz: cannot read the store ({exc})\n")
        raise typer.Exit(1)


def _counter_line(counter: str) -> str:
    if counter == "estimate":
        return "tokens counted with: estimate (no exact tokenizer could load; figures are approximate)"
    return f"tokens counted with: {counter} (tiktoken, exact), replayed through the pipeline"


def _names_option(value: Optional[str]) -> Optional[List[str]]:
    return [n.strip() for n in value.split(",") if n.strip()] if value else None


def _integrations(only: Optional[str], skip: Optional[str]) -> dict:
    from .setup_cmds import discover_integrations, select

    found = discover_integrations()
    wanted = _names_option(only)
    unknown = [n for n in (wanted or []) + (_names_option(skip) or []) if n not in found]
    if unknown:
        raise typer.BadParameter(f"unknown integration(s): {', '.join(unknown)}; installed: "
                                 f"{', '.join(found) or 'none'}", param_hint="--only/--skip")
    return select(found, wanted, _names_option(skip))


def init(
    only: Optional[str] = typer.Option(None, "--only", help="Comma-separated integrations to configure (even if not detected)."),
    skip: Optional[str] = typer.Option(None, "--skip", help="Comma-separated integrations to leave alone."),
    project: bool = typer.Option(False, "--project", help="Write project-level config (in the current directory)."),
    global_: bool = typer.Option(False, "--global", help="Write user-level config (the default)."),
    dry_run: bool = typer.Option(False, "--dry-run", help="Show the changes as diffs; write nothing."),
    yes: bool = typer.Option(False, "--yes", "-y", help="Do not ask for confirmation."),
    proxy: bool = typer.Option(False, "--proxy", help="Also point each agent at `sqz proxy` (its base-URL "
                                                      "setting, a start hook where the agent has one)."),
    as_json: bool = typer.Option(False, "--json", help="Machine-readable result on stdout (per agent: detected, "
                                                       "tier, outcome, changes; with --dry-run each diff)."),
):
    """Configure the agents found on this machine to use sqz (hooks, MCP server, guidance).

    Idempotent; every changed file is backed up first; `sqz uninstall` removes exactly what it added.
    """
    from .setup_cmds import NOTHING_INSTALLED, discover_integrations, make_ctx, run_init

    if project and global_:
        raise typer.BadParameter("choose one of --project and --global")
    if not discover_integrations():
        if as_json:
            typer.echo(json.dumps({"dry_run": dry_run, "installed": [], "agents": [], "status": 1,
                                   "problems": [NOTHING_INSTALLED]}, indent=2, sort_keys=True))
        typer.echo(f"sqz init: {NOTHING_INSTALLED}", err=True)
        raise typer.Exit(1)
    names = _integrations(only, skip)
    ctx = make_ctx(scope="project" if project else "global")
    ctx["force"] = bool(only)
    if proxy:
        try:
            from sqz_proxy.api import proxy_url
        except ImportError:
            raise typer.BadParameter("the sqz-proxy distribution is not installed (pip install sqz-proxy)",
                                     param_hint="--proxy") from None
        ctx["proxy"] = proxy_url()
    # with --json, stdout carries the JSON alone: the human lines (and the question) go to stderr
    say = (lambda line: typer.echo(line, err=True)) if as_json else typer.echo
    if not dry_run and not yes and sys.stdin.isatty():
        run_init(names, ctx, dry_run=True, echo=say)
        if not typer.confirm("Apply these changes?", default=True, err=as_json):
            raise typer.Exit(1)
    results: list = []
    status = run_init(names, ctx, dry_run=dry_run, echo=say, results=results)
    if as_json:
        typer.echo(json.dumps({"dry_run": dry_run, "scope": ctx["scope"], "installed": sorted(names),
                               "agents": results, "status": status}, indent=2, sort_keys=True))
    raise typer.Exit(status)


def uninstall(
    only: Optional[str] = typer.Option(None, "--only", help="Comma-separated integrations to remove."),
    skip: Optional[str] = typer.Option(None, "--skip", help="Comma-separated integrations to keep."),
    dry_run: bool = typer.Option(False, "--dry-run", help="Say what would be removed; change nothing."),
    global_: bool = typer.Option(False, "--global", help="Only what init added to user-wide configuration."),
    project: bool = typer.Option(False, "--project", help="Only what init added inside this project."),
    as_json: bool = typer.Option(False, "--json", help="Machine-readable output: one entry per file or agent "
                                                       "(what was or would be done); the lines go to stderr."),
):
    """Remove exactly what `sqz init` added (and nothing else); by default everywhere it added something."""
    from .setup_cmds import make_ctx, run_uninstall

    if global_ and project:
        raise typer.BadParameter("choose one of --global and --project")
    scope = "project" if project else ("global" if global_ else None)
    if not as_json:
        raise typer.Exit(run_uninstall(_integrations(only, skip), make_ctx(), dry_run=dry_run, echo=typer.echo,
                                       scope=scope))
    changes: list = []
    status = run_uninstall(_integrations(only, skip), make_ctx(), dry_run=dry_run,
                           echo=lambda line: typer.echo(line, err=True), scope=scope, changes=changes)
    typer.echo(json.dumps({"dry_run": dry_run, "status": status, "changes": changes}, indent=2))
    raise typer.Exit(status)


def doctor(
    only: Optional[str] = typer.Option(None, "--only", help="Comma-separated integrations to check."),
    project: bool = typer.Option(False, "--project", help="Check project-level config."),
    purge_secrets: bool = typer.Option(False, "--purge-secrets",
                                       help="Scan the store for secrets an older sqz kept (outputs, the search "
                                            "index, command lines); delete or scrub them and say how many."),
    as_json: bool = typer.Option(False, "--json", help="Machine-readable report on stdout (agents: detected, "
                                                       "configured, tier, problems; database; plugins)."),
):
    """Check agents (detected, configured, tier, last hook), the database and the plugin index.

    Exit 0 healthy, 1 problems (each with the command that fixes it), 2 broken database.
    Older versions stored outputs holding secrets and unscrubbed commands:
    `sqz doctor --purge-secrets` removes them.
    """
    if purge_secrets:
        raise typer.Exit(_purge_secrets(as_json))
    from .setup_cmds import make_ctx, run_doctor

    ctx = make_ctx(scope="project" if project else "global")
    if not as_json:
        raise typer.Exit(run_doctor(_integrations(only, None), ctx, echo=typer.echo))
    report: dict = {}
    status = run_doctor(_integrations(only, None), ctx, echo=lambda line: None, results=report)
    typer.echo(json.dumps(report, indent=2, sort_keys=True))
    raise typer.Exit(status)


def _purge_secrets(as_json: bool = False) -> int:
    from sqz_core.api import StoreError
    from sqz_core.api import describe_store as describe

    store = _store_or_exit()
    try:
        purge = getattr(store, "purge_secrets", None)
        if purge is None:
            typer.echo(f"sqz doctor: this store ({describe()}) cannot be scanned for secrets", err=True)
            return 1
        with _Progress("sqz doctor: scanning the store for secrets"):
            done = purge()
    except StoreError as exc:
        typer.echo(f"sqz doctor: purge failed ({exc})", err=True)
        return 1
    finally:
        store.close()
    if as_json:
        typer.echo(json.dumps({"store": describe(), **done}, indent=2, sort_keys=True))
        return 0
    typer.echo(f"secrets: scanned {done['scanned']} stored outputs in {describe()}; deleted {done['blobs']} "
               f"holding a secret and {done['recall']} search-index rows; scrubbed {done['commands']} command lines")
    return 0


def discover(
    transcripts: Optional[str] = typer.Option(None, "--transcripts", help="A directory or .jsonl file (default: ~/.claude/projects)."),
    as_json: bool = typer.Option(False, "--json", help="Machine-readable output."),
    top: int = typer.Option(15, "--top", min=1, help="Rows per table."),
):
    """What sqz would have saved on the tool results of past Claude Code sessions (read locally, sent nowhere)."""
    import os

    from .discover import default_dir, discover as replay

    root = transcripts or default_dir()
    if not os.path.exists(root):
        typer.echo(f"sqz discover: {root} does not exist (pass --transcripts DIR)", err=True)
        raise typer.Exit(1)
    with _Progress("sqz discover: replaying transcripts") as progress:
        found = replay(root, progress=progress)
    if as_json:
        typer.echo(json.dumps(found, indent=2, sort_keys=True))
        return
    t = found["total"]
    typer.echo(_counter_line(found["counter"]))
    typer.echo(f"{found['transcripts']} transcript(s), {t['results']} tool result(s)"
               + (f", {t['already_sqz']} already compressed by sqz (skipped)" if t["already_sqz"] else ""))
    for title, table in (("tool", found["by_tool"]), ("command", found["by_command"])):
        if not table:
            continue
        typer.echo(f"{title:<22}{'results':>8}{'tokens in':>12}{'would send':>12}{'saved':>10}{'%':>5}")
        for name, b in sorted(table.items(), key=lambda kv: -kv[1]["saved"])[:top]:
            pct = 100 * b["saved"] / b["tokens_in"] if b["tokens_in"] else 0
            typer.echo(f"{name[:21]:<22}{b['results']:>8}{b['tokens_in']:>12,}{b['tokens_out']:>12,}{b['saved']:>10,}"
                       f"{pct:>4.0f}%")
    pct = 100 * t["saved"] / t["tokens_in"] if t["tokens_in"] else 0
    typer.echo(f"total: {t['saved']:,} of {t['tokens_in']:,} tokens ({pct:.0f}%) would have been saved")
    if found["outcomes"]:
        typer.echo("outcomes: " + ", ".join(f"{k} {v}" for k, v in sorted(found["outcomes"].items())))


_SHELLS = ("bash", "zsh", "fish")


def completion(
    shell: str = typer.Argument(..., help="bash, zsh or fish."),
    install: bool = typer.Option(False, "--install", help="Also write the script where the shell reads it "
                                                          "(and the line that loads it into the shell's rc file)."),
) -> None:
    """Print the shell completion script for sqz (verbs, options; no network).

    `eval "$(sqz completion bash)"` in ~/.bashrc (zsh: `eval "$(sqz completion zsh)"` in ~/.zshrc after
    compinit; fish: `sqz completion fish > ~/.config/fish/completions/sqz.fish`), or `--install`.
    """
    from typer.completion import get_completion_script  # type: ignore[attr-defined]  # re-exported by typer

    from sqz_core.api import COMPLETE_VAR

    if shell not in _SHELLS:
        raise typer.BadParameter(f"{shell!r} is not one of {', '.join(_SHELLS)}", param_hint="SHELL")
    if not install:
        typer.echo(get_completion_script(prog_name="sqz", complete_var=COMPLETE_VAR, shell=shell))
        return
    from typer.completion import install as install_script  # type: ignore[attr-defined]  # re-exported by typer

    _, path = install_script(shell=shell, prog_name="sqz", complete_var=COMPLETE_VAR)
    typer.echo(f"sqz: {shell} completion installed in {path}; it takes effect in a new shell", err=True)
