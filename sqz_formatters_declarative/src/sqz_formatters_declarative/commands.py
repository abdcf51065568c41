"""``sqz trust`` and ``sqz formatters list|check|test|new`` (entry points ``sqz.commands``)."""

from __future__ import annotations

import json
import os
import sys
from typing import List, Optional

import typer

formatters = typer.Typer(help="Declarative (YAML) formatters: list, check, test them on a real output; "
                              "scaffold a Python formatter pack.", no_args_is_help=True)


def _emit(data, as_json: bool, lines: list[str]) -> None:
    if as_json:
        typer.echo(json.dumps(data, indent=2, ensure_ascii=False))
    else:
        for line in lines:
            typer.echo(line)


def trust(
    path: Optional[str] = typer.Argument(None, help="A spec file or folder (default: this project's .sqz/formatters)."),
    list_: bool = typer.Option(False, "--list", help="List every trusted file and whether it is unchanged."),
    revoke: bool = typer.Option(False, "--revoke", help="Forget the trust of PATH (a file, or every file in a folder)."),
    as_json: bool = typer.Option(False, "--json", help="Print the result as JSON."),
):
    """Let this project's declarative formatters run: each file is pinned by its sha256.

    A repository's formatter decides what the agent sees of a command's output, so sqz runs a
    project-local one only after you read and trust it; a file changed since is not used (sqz says
    so in one line) until you trust it again. Your own formatters (~/.config/sqz/formatters) need no trust.
    """
    from .trust import list_pins, revoke_paths, trust_paths

    if list_:
        rows = list_pins()
        _emit({"trusted": rows}, as_json, [f"{r['state']:9} {r['path']}  sha256 {r['sha256'][:12]}…  ({r['at']})"
                                           for r in rows] or ["no project formatter is trusted"])
        raise typer.Exit(0)
    if revoke:
        gone = revoke_paths(path)
        _emit({"revoked": gone}, as_json, [f"revoked {p}" for p in gone] or ["nothing to revoke"])
        raise typer.Exit(0 if gone else 1)
    done, refused = trust_paths(path)
    lines = [f"trusted {r['path']}  sha256 {r['sha256'][:12]}…  formatters: {', '.join(r['formatters']) or '-'}"
             for r in done]
    for r in refused:
        lines.append(f"not trusted: {r['path']}: {r['reason']}")
    if not done and not refused:
        lines.append("no formatter file found (a .sqz/formatters/*.yaml file, or name one)")
    _emit({"trusted": done, "refused": refused}, as_json, lines)
    raise typer.Exit(1 if refused or not done else 0)


@formatters.command("list")
def list_cmd(as_json: bool = typer.Option(False, "--json", help="Print the result as JSON.")):
    """Every declarative formatter sqz would use here, where it comes from, and what is not used and why."""
    from .sources import active

    state = active()
    lines = [f"{s['name']:24} {s['origin']:8} {', '.join(s['programs'])}  ({s['source']})" for s in state["specs"]]
    for rec in state["untrusted"]:
        lines.append(f"{'(not used)':24} {rec['state']:8} {rec['source']}: run `sqz trust {rec['source']}`")
    for rec in state["problems"]:
        lines.extend(f"{'(error)':24} {e}" for e in rec["errors"])
    _emit({"formatters": state["specs"], "untrusted": state["untrusted"], "problems": state["problems"]}, as_json,
          lines or ["no declarative formatter here (.sqz/formatters/*.yaml, ~/.config/sqz/formatters/*.yaml)"])


@formatters.command("check")
def check_cmd(
    files: Optional[List[str]] = typer.Argument(None, help="Spec files (default: every source sqz reads here)."),
    as_json: bool = typer.Option(False, "--json", help="Print the result as JSON."),
):
    """Validate spec files against the schema and the linear-time pattern rules; exit 1 on any error."""
    from .compile import compile_config, compile_file
    from .sources import _sources, config_entries

    targets = [(f, "file") for f in files] if files else _sources(os.getcwd())
    configs = config_entries(os.getcwd()) if not files else {}
    report, bad = [], 0
    for path, origin in targets:
        if origin.endswith("-config"):
            specs, errors = compile_config(path, origin, configs[path]["specs"], configs[path]["lines"])
        else:
            specs, errors = compile_file(path, origin)
        bad += len(errors)
        report.append({"source": path, "formatters": [s["name"] for s in specs], "errors": errors})
    lines = []
    for r in report:
        lines.append(f"{'ok   ' if not r['errors'] else 'ERROR'} {r['source']} ({', '.join(r['formatters']) or 'no formatter'})")
        lines.extend(f"  {e}" for e in r["errors"])
    _emit({"files": report, "errors": bad}, as_json, lines or ["no spec file found"])
    raise typer.Exit(1 if bad else 0)


@formatters.command("test")
def test_cmd(
    file: str = typer.Argument(..., help="The spec file (YAML)."),
    on: str = typer.Option(..., "--on", help="A file holding a real output of the command ('-': stdin)."),
    facts: Optional[str] = typer.Option(None, "--facts", help="A JSON list of facts, or a fixture sidecar (its facts, command, exit_code)."),
    cmd: Optional[str] = typer.Option(None, "--cmd", help="The command line that printed OUTPUT (picks the spec; default: the sidecar's, else the first spec)."),
    exit_code: Optional[int] = typer.Option(None, "--exit", help="Its exit status (default: the sidecar's, else unknown, which counts as failing)."),
    as_json: bool = typer.Option(False, "--json", help="Print the result as JSON."),
):
    """Run one spec on OUTPUT: before and after, cl100k tokens on both sides, and which facts it keeps.

    Exit 1 when a fact is lost, the spec has errors or matches no --cmd. Trust is not needed here
    (nothing runs on an agent's output); the core's later stages (safety, net-win gate) are not run.
    """
    from .testing import run_test

    code, data, lines = run_test(file, on, facts, cmd, exit_code)
    _emit(data, as_json, lines)
    raise typer.Exit(code)


@formatters.command("new")
def new_cmd(
    name: str = typer.Argument(..., help="The program the pack formats (also its entry name): lowercase, digits, - or _."),
    directory: Optional[str] = typer.Option(None, "--dir", help="Where to create sqz-formatters-NAME/ (default: here)."),
    as_json: bool = typer.Option(False, "--json", help="Print the created files as JSON."),
):
    """Scaffold a Python formatter pack: pyproject with the sqz.formatters entry point, a formatter
    module, a test using the sqz-testing pytest plugin, a README."""
    from .scaffold import ScaffoldError, scaffold

    try:
        root, files = scaffold(name, directory or os.getcwd())
    except ScaffoldError as exc:
        typer.echo(f"sqz formatters new: {exc}", err=True)
        raise typer.Exit(1) from None
    _emit({"root": root, "files": files}, as_json,
          [f"created {root}"] + [f"  {f}" for f in files] +
          [f"next: pip install -e '{root}[test]' && pytest {root}"])


if __name__ == "__main__":  # pragma: no cover
    sys.exit(formatters())
