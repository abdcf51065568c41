"""The public names of sqz-formatters-generic: what other packs may import from it.

Table and listing helpers for packs whose commands print such layouts (``docker ps``,
``kubectl get``, ``git grep``…) and the kinds themselves. The modules behind these names
are private and may move. Names load lazily (PEP 562), so importing this module costs
nothing until a helper is used.
"""

from __future__ import annotations

TYPE_CHECKING = False  # not ``typing``: packs import this on the hot path

# public name -> (module under sqz_formatters_generic.kinds, or "" for the package, attribute)
_NAMES: dict[str, tuple[str, str]] = {
    # content kinds
    "KINDS": ("", "KINDS"),
    "detect_kind": ("", "detect_kind"),
    "compress_kind": ("", "compress_kind"),
    # aligned tables: parse, compact, render
    "compact_tables": ("aligned_table", "compact_tables"),
    "compact_table_text": ("aligned_table", "compact_table_text"),
    "parse_lines": ("aligned_table", "parse_lines"),
    "render_table": ("aligned_table", "render_table"),
    "split_rendered": ("aligned_table", "split_rendered"),
    # listings
    "group_paths": ("listings", "group_paths"),
}

__all__ = sorted(_NAMES)


def __getattr__(name: str) -> object:
    try:
        module, attr = _NAMES[name]
    except KeyError:
        raise AttributeError(f"module 'sqz_formatters_generic.api' has no attribute {name!r}") from None
    import importlib

    value = getattr(importlib.import_module("sqz_formatters_generic.kinds" + (f".{module}" if module else "")), attr)
    globals()[name] = value  # the next lookup is a plain module attribute
    return value


def __dir__() -> list[str]:
    return list(__all__)


if TYPE_CHECKING:  # pragma: no cover - for type checkers only; runtime loads lazily
    from .kinds import KINDS, compress_kind, detect_kind
    from .kinds.aligned_table import compact_table_text, compact_tables, parse_lines, render_table, split_rendered
    from .kinds.listings import group_paths
