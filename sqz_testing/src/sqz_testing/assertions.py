"""The assertions a formatter pack's tests make: what survives, what is recoverable, what is not its own."""

from __future__ import annotations

from types import ModuleType


def format_with(module: ModuleType, text: str, command: str | None = None, *, exit_code: int | None = None,
                tool: str | None = None):
    """Call a formatter module's ``sqz_format`` hook as the core does (keyword arguments); its answer or None."""
    from sqz_core.api import FormatRequest

    request = FormatRequest(text, command=command, tool=tool, exit_code=exit_code)
    hook = getattr(module, "sqz_format", None)
    if hook is None:
        raise AssertionError(f"{module.__name__} has no sqz_format hook")
    return hook(request=request)


def assert_facts_kept(output: str, facts, *, by_words: bool = False) -> None:
    """Every fact (a string, parts sharing a line, or ``{"under": header, "line": …}``) holds in ``output``."""
    from .kit import missing_facts, missing_facts_by_words

    missing = (missing_facts_by_words if by_words else missing_facts)(output, facts)
    if missing:
        raise AssertionError(f"{len(missing)} fact(s) lost: {missing[:5]!r}\n--- output ---\n{output[:2000]}")


def assert_recoverable(raw: bytes, result, store) -> None:
    """A lossy ``compress`` result gives the original bytes back through ``expand`` (its recovery line or ref)."""
    from sqz_core.api import digest_of, resolve

    if result.output == raw:
        return  # unchanged: nothing to recover
    back = resolve(store, digest_of(raw))
    if back != raw:
        raise AssertionError(f"expand gave {len(back)} bytes, not the {len(raw)} original ones")


def assert_passthrough(module: ModuleType, text: str, command: str | None = None, **kwargs) -> None:
    """A near-miss (looks like the tool's output, is not) gets None: the input passes through unchanged."""
    answer = format_with(module, text, command, **kwargs)
    if answer is not None:
        raise AssertionError(f"{module.__name__} answered for input that is not its own:\n{answer[:1000]}")
