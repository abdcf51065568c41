"""``sqz-proxy`` / ``python -m sqz_proxy``: the proxy in the foreground (what ``sqz proxy start`` runs).

argparse, not typer: the background process starts without the CLI's imports.
"""

from __future__ import annotations

import argparse
import sys


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="sqz-proxy", description="HTTP proxy in front of the model API that "
                                "compresses the tool results of every request (sqz).")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    p.add_argument("--port", type=int, default=None, help="port (default: SQZ_PROXY_PORT or 8787; 0: any free)")
    p.add_argument("--upstream", default=None, help="one upstream base URL for every provider in this run")
    for name in ("anthropic", "openai", "gemini"):
        p.add_argument(f"--{name}-upstream", default=None, help=f"upstream base URL for {name} requests")
    p.add_argument("--quiet", action="store_true", help="no line per request on stderr")
    p.add_argument("--fold", action="store_true", default=None,
                   help="fold long earlier assistant answers to their opening and headings (off by default; "
                        "SQZ_PROXY_FOLD=1 too)")
    return p


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    from .control import default_port, run_foreground

    port = default_port() if args.port is None else args.port
    per = {n: getattr(args, f"{n}_upstream") for n in ("anthropic", "openai", "gemini")}
    return run_foreground(args.host, port, args.upstream, per, quiet=args.quiet, fold_answers=args.fold)


if __name__ == "__main__":
    sys.exit(main())
