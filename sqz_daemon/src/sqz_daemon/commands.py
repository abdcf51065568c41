"""``sqz daemon start|stop|status``: the verbs sqz-daemon brings to ``sqz`` (entry point ``sqz.commands``)."""

from __future__ import annotations

import typer

daemon = typer.Typer(help="An optional warm local daemon: `sqz compress` and `sqz run` skip Python's start-up "
                          "while it runs (started implicitly only with SQZ_DAEMON=auto; SQZ_DAEMON=0 ignores it).",
                     no_args_is_help=True)


_JSON_HELP = "Machine-readable output: ok, the exit status and what was said."


def _as_json(action) -> None:
    """Run ``action(echo)``; print ``{"ok", "status", "messages"}`` as JSON and exit with its status."""
    import json

    said: list[str] = []
    code = action(said.append)
    typer.echo(json.dumps({"ok": code == 0, "status": code, "messages": said}, indent=2))
    raise typer.Exit(code)


@daemon.command("start")
def daemon_start(
    idle_minutes: float = typer.Option(15.0, "--idle-minutes", min=0, help="Exit after this many minutes without a request (0: never)."),
    foreground: bool = typer.Option(False, "--foreground", help="Serve in this process instead of the background."),
    as_json: bool = typer.Option(False, "--json", help=_JSON_HELP),
):
    """Start the daemon for this user (private Unix socket); refuses if one is already running."""
    from .server import start

    if not as_json or foreground:
        raise typer.Exit(start(idle_minutes, foreground, echo=typer.echo))
    _as_json(lambda echo: start(idle_minutes, False, echo=echo))


@daemon.command("stop")
def daemon_stop(
    wait: float = typer.Option(5.0, "--wait", min=0.0,
                               help="Seconds to wait for the daemon to exit before it is killed (SIGKILL)."),
    as_json: bool = typer.Option(False, "--json", help=_JSON_HELP),
):
    """Stop the daemon, wait until its process is gone (killing it if it does not exit) and say which happened.

    Also removes the socket and pid file a killed daemon left. Exit 1 if the process is still running.
    """
    from .server import stop

    if not as_json:
        raise typer.Exit(stop(echo=typer.echo, timeout=wait))
    _as_json(lambda echo: stop(echo=echo, timeout=wait))


@daemon.command("status")
def daemon_status(as_json: bool = typer.Option(False, "--json", help="Machine-readable output: running, "
                                                                      "and what the daemon says of itself.")):
    """Whether a daemon serves this user's calls: pid, socket, version, requests served. Exit 1 if none."""
    from .server import status

    if not as_json:
        raise typer.Exit(status(echo=typer.echo))
    report: dict = {}
    code = status(echo=lambda line: None, results=report)
    import json

    typer.echo(json.dumps(report, indent=2, sort_keys=True))
    raise typer.Exit(code)
