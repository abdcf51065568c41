"""Paths the declarative pack's tests share (a module of its own: two folders' ``from conftest import …``
find each other's conftest in one whole-suite run)."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples" / "declarative-formatters"
FIXTURES = Path(__file__).resolve().parent / "fixtures"
