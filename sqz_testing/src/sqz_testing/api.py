"""What other distributions may import from the test kit (the import contract: ``<pkg>.api`` only).

``sqz formatters test --facts`` (sqz-formatters-declarative) checks facts with the kit's own rule,
so a fact means the same in a pack's tests, the benchmarks and that command.
"""

from __future__ import annotations

from .kit import fact_kept, missing_facts

__all__ = ["fact_kept", "missing_facts"]
