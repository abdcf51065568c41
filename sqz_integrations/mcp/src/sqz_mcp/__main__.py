"""``sqz-mcp``: the MCP server (stdio or streamable HTTP) and ``sqz-mcp proxy -- CMD…``."""

from __future__ import annotations

import argparse
import sys

from ._version import VERSION

USAGE_PROXY = ("sqz-mcp proxy [--lazy-tools] [--no-desc] [--no-cache] [--timeout SECONDS] "
               "-- UPSTREAM_COMMAND [ARGS…]")


def _server_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="sqz-mcp",
        description="MCP server with lossless, deduplicating read/grep/list tools (see also: sqz-mcp proxy --help).",
        epilog="The dedup cache is the sqz store (SQZ_DB_PATH overrides its location).")
    p.add_argument("--transport", choices=("stdio", "http"), default="stdio",
                   help="stdio (default) or streamable HTTP on 127.0.0.1")
    p.add_argument("--port", type=int, default=3000, help="HTTP port (default 3000; 0 picks a free one)")
    p.add_argument("--token-file", metavar="FILE",
                   help="HTTP: where to write the bearer token (mode 0600; default "
                        "$XDG_RUNTIME_DIR/sqz/mcp-http-PORT.token, else the sqz cache directory)")
    p.add_argument("--root", action="append", default=[], metavar="DIR",
                   help="allow reading below DIR too (the working directory is always allowed); repeatable")
    p.add_argument("--project", metavar="DIR",
                   help="use DIR instead of the working directory (for clients that start servers in / or $HOME); "
                        "a DIR that does not exist is reported and the working directory used")
    p.add_argument("--version", action="version", version=f"sqz-mcp {VERSION}")
    return p


def _proxy_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="sqz-mcp proxy", usage=USAGE_PROXY,
        description="Wrap a stdio MCP server: its tools/call text results and tools/list descriptions are "
                    "compressed; everything else passes through unchanged.")
    p.add_argument("--lazy-tools", action="store_true",
                   help="one-sentence tool descriptions, plus an sqz_tool_help tool serving the originals")
    p.add_argument("--no-desc", action="store_true", help="keep tool descriptions verbatim")
    p.add_argument("--no-cache", action="store_true", help="store nothing: no §ref dedup, no sqz_expand")
    p.add_argument("--timeout", type=_seconds, metavar="SECONDS",
                   help="answer a request the upstream leaves unanswered this long with an error (-32001) "
                        "and cancel it upstream; progress notifications restart the clock, a sampling or "
                        "elicitation request to the client holds it; initialize, which waits for the upstream "
                        "to start, gets at least 300 (default: $SQZ_MCP_PROXY_TIMEOUT, else 120; 0: never)")
    return p


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if not value >= 0 or value == float("inf"):
        raise argparse.ArgumentTypeError(f"must be a finite number >= 0: {text!r}")
    return value


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    protocol_out = sys.stdout.buffer

    if argv[:1] == ["proxy"]:
        rest = argv[1:]
        if "--" in rest:
            cut = rest.index("--")
            opts, cmd = rest[:cut], rest[cut + 1:]
        else:
            i = 0  # options up to the first word that is not one (or the value of --timeout)
            while i < len(rest) and rest[i].startswith("-"):
                i += 2 if rest[i] == "--timeout" else 1
            opts, cmd = rest[:i], rest[i:]
        args = _proxy_parser().parse_args(opts)
        if not cmd:
            _proxy_parser().error("the upstream server's command is missing (put it after --)")
        from .proxy import DEFAULT_TIMEOUT, TIMEOUT_ENV, Proxy

        timeout = args.timeout
        if timeout is None:
            import os

            from sqz_core.api import config_env  # the variable, else the config files (sqz config)

            env = (config_env(TIMEOUT_ENV) or "").strip()
            try:
                timeout = _seconds(env) if env else DEFAULT_TIMEOUT
            except argparse.ArgumentTypeError as exc:
                _proxy_parser().error(f"{TIMEOUT_ENV}: {exc}")
        sys.stdout = sys.stderr  # stdout carries protocol messages only; stray prints go to stderr
        return Proxy(cmd, lazy_tools=args.lazy_tools, no_desc=args.no_desc, no_cache=args.no_cache,
                     timeout=timeout, stdout=protocol_out).run()

    args = _server_parser().parse_args(argv)
    import os

    from .compression import Compressor, new_session_id
    from .roots import Roots
    from .server import McpServer

    for d in args.root:
        if not os.path.isdir(d):
            _server_parser().error(f"--root {d}: not a directory")
    base = os.getcwd()
    if args.project and os.path.isdir(args.project):
        base = args.project
    elif args.project:
        sys.stderr.write(f"sqz-mcp: --project {args.project}: not a directory; using {base}\n")
    server = McpServer(Roots([base, *args.root], explicit=args.root), Compressor())
    sys.stdout = sys.stderr  # stdout carries protocol messages only; stray prints go to stderr
    try:
        if args.transport == "http":
            from .http_transport import serve_http

            return serve_http(server, port=args.port, token_file=args.token_file)
        from .stdio import serve_stdio

        return serve_stdio(server, new_session_id("mcp"), stdout=protocol_out)
    finally:
        server.compressor.close()


if __name__ == "__main__":
    sys.exit(main())
