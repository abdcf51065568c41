"""``sqz proxy``: the verb the ``sqz`` command mounts from the entry-point group ``sqz.commands``."""

from __future__ import annotations

import json
from typing import Optional

import typer

app = typer.Typer(help="HTTP proxy in front of the model API: compresses every tool result the agent sends "
                       "(Anthropic, OpenAI Chat/Responses, Gemini), streams answers back unchanged.",
                  invoke_without_command=True, no_args_is_help=False, add_completion=False)


def _per(anthropic, openai, gemini) -> dict:
    return {"anthropic": anthropic, "openai": openai, "gemini": gemini}


@app.callback()
def foreground(ctx: typer.Context,
               host: str = typer.Option("127.0.0.1", help="Address to listen on."),
               port: Optional[int] = typer.Option(None, help="Port (default SQZ_PROXY_PORT or 8787; 0: any free)."),
               upstream: Optional[str] = typer.Option(None, help="One upstream base URL for every provider."),
               anthropic_upstream: Optional[str] = typer.Option(None, help="Upstream for Anthropic requests."),
               openai_upstream: Optional[str] = typer.Option(None, help="Upstream for OpenAI requests."),
               gemini_upstream: Optional[str] = typer.Option(None, help="Upstream for Gemini requests."),
               quiet: bool = typer.Option(False, help="No line per request on stderr."),
               fold: bool = typer.Option(False, "--fold", help="Fold long earlier assistant answers to their opening "
                                                               "and headings (off by default; SQZ_PROXY_FOLD=1 too).")):
    """Run the proxy in the foreground (Ctrl-C stops it); `start`, `stop`, `status` manage a background one."""
    ctx.obj = {"host": host, "port": port, "upstream": upstream,
               "per": _per(anthropic_upstream, openai_upstream, gemini_upstream), "fold": fold}
    if ctx.invoked_subcommand is not None:
        return
    from .control import default_port, run_foreground

    if host not in ("127.0.0.1", "::1", "localhost"):
        typer.echo(f"sqz proxy: listening on {host}: anyone who can reach it can use your agents' API keys "
                   "through it", err=True)
    raise typer.Exit(run_foreground(host, default_port() if port is None else port, upstream, ctx.obj["per"],
                                    quiet=quiet, fold_answers=True if fold else None))


@app.command()
def start(ctx: typer.Context,
          port: Optional[int] = typer.Option(None, help="Port (default SQZ_PROXY_PORT or 8787, else a free one)."),
          upstream: Optional[str] = typer.Option(None, help="One upstream base URL for every provider."),
          as_json: bool = typer.Option(False, "--json", help="Print the state as JSON."),
          fold: bool = typer.Option(False, "--fold", help="Fold long earlier assistant answers (off by default)."),
          quiet: bool = typer.Option(False, "--quiet", help="Print nothing (an agent's start hook); errors still go to "
                                                            "stderr.")):
    """Start the proxy in the background on loopback (a free port if the default is taken)."""
    from .control import start as do_start

    o = dict(ctx.obj or {})
    if port is not None:
        o["port"] = port
    if upstream is not None:
        o["upstream"] = upstream
    try:
        st = do_start(o.get("host", "127.0.0.1"), o.get("port"), o.get("upstream"), o.get("per"),
                      fold_answers=fold or bool(o.get("fold")))
    except (RuntimeError, OSError) as exc:
        typer.echo(f"sqz proxy: {exc}", err=True)
        raise typer.Exit(1)
    if quiet:
        return
    if as_json:
        typer.echo(json.dumps(st))
    else:
        typer.echo(f"sqz proxy {'already running' if st.get('already') else 'started'}: {st['url']} "
                   f"(pid {st['pid']}, log {st['log']})")


@app.command()
def stop(as_json: bool = typer.Option(False, "--json", help="Print the outcome as JSON.")):
    """Stop the background proxy."""
    from .control import stop as do_stop

    said = do_stop()
    if as_json:  # ``was_running``: a proxy was there to stop (stopped or killed)
        typer.echo(json.dumps({"was_running": not said.startswith("not running"), "message": said}))
    else:
        typer.echo(f"sqz proxy: {said}")


@app.command()
def status(as_json: bool = typer.Option(False, "--json", help="Print the state as JSON.")):
    """Whether the background proxy runs, and where (exit 1 when it does not)."""
    from .control import status as do_status

    st = do_status()
    if as_json:
        typer.echo(json.dumps(st))
    elif st["running"]:
        typer.echo(f"sqz proxy: running at {st['url']} (pid {st['pid']})")
    else:
        typer.echo(f"sqz proxy: {st['reason']}")
    raise typer.Exit(0 if st["running"] else 1)
