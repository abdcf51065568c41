"""Helpers of the proxy's tests, under a module name no other test folder uses (not ``conftest``)."""


def numbered(text: str) -> str:
    """A file's lines as Claude Code's Read tool returns them (``cat -n`` style: number, tab, line)."""
    return "".join(f"{i:>6}\t{line}\n" for i, line in enumerate(text.splitlines(), 1))
