"""What other distributions may import from sqz-memory: recall's matches (``sqz-mcp``'s ``sqz_recall`` tool),
pinning content and a ref's full hash. Importing it loads only ``memory`` (no typer)."""

from __future__ import annotations

from .memory import pin_bytes, recall, resolve_prefix

__all__ = ["pin_bytes", "recall", "resolve_prefix"]
