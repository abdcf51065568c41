"""The public API of sqz-core: the only module other distributions import.

Everything a formatter pack, an agent integration, a store plugin, the MCP server or the API
proxy needs from the core is named here; the modules behind it are private and may move.
Names load lazily (PEP 562), so ``from sqz_core.api import hookimpl, FormatRequest`` in a
formatter costs no more than those two modules: the hot path stays import-light.

Stability: a name listed in ``__all__`` keeps its meaning within one minor version of
``sqz-core`` (``API_VERSION``); a distribution depends on ``sqz-core>=0.2,<0.3``.
"""

from __future__ import annotations

TYPE_CHECKING = False  # not typing's: importing typing would cost every hook call (type checkers know the name)

API_VERSION = "0.2"

# public name -> (private module, attribute there)
_NAMES: dict[str, tuple[str, str]] = {
    # the plugin contract
    "hookimpl": ("markers", "hookimpl"),
    "FormatRequest": ("request", "FormatRequest"),
    "FILE_TOOLS": ("request", "FILE_TOOLS"),
    "FILE_PROGRAMS": ("request", "FILE_PROGRAMS"),
    "reads_lockfile": ("logread", "reads_lockfile"),
    "split_words": ("request", "split_words"),
    "normalize_argv": ("request", "normalize_argv"),
    "Safety": ("verdicts", "Safety"),
    "most_restrictive": ("verdicts", "most_restrictive"),
    # one pass of the pipeline
    "compress": ("pipeline", "compress"),
    "Result": ("pipeline", "Result"),
    "digest_of": ("dedup", "digest_of"),
    "default_session": ("sessions", "default_session"),
    "MIN_REF_BYTES": ("pipeline", "MIN_REF_BYTES"),
    "compress_bytes": ("hot", "compress_bytes"),
    "budget_seconds": ("hot", "_budget_seconds"),
    "RECOVERY_LINE": ("runnable", "RECOVERY_LINE"),
    "expand_hint": ("runnable", "expand_hint"),
    "link_plan": ("runnable", "link_plan"),
    "make_link": ("runnable", "make_link"),
    # recovery
    "ExpandError": ("expand", "ExpandError"),
    "parse_ref": ("expand", "parse_ref"),
    "resolve": ("expand", "resolve"),
    "unique_hash": ("expand", "unique_hash"),
    "short_id": ("gate", "short_id"),
    "REF_ID_PATTERN": ("runnable", "PATTERN"),
    "recovery_id": ("runnable", "short_decimal"),
    "decimal_id": ("runnable", "encode"),
    # stores
    "Store": ("store", "Store"),
    "StoreProtocol": ("storeproto", "StoreProtocol"),
    "SqlStore": ("storesql", "SqlStore"),
    "SqlDialect": ("storesql", "Dialect"),
    "merged_counts": ("storesql", "merged"),
    "Spool": ("spool", "Spool"),
    "StoreError": ("store", "StoreError"),
    "StoreBusy": ("store", "StoreBusy"),
    "StoreReadOnly": ("store", "StoreReadOnly"),
    "holds_secret": ("storesql", "holds_secret"),
    "open_store": ("stores", "open_store"),
    "store_url": ("stores", "store_url"),
    "compact_session": ("sessions", "compact"),
    "session_pressure": ("sessions", "pressure"),
    "short_age": ("dedup", "short_age"),
    "default_session_for": ("sessions", "default_session_for"),
    "sketch": ("dedup", "sketch"),
    "ref_ttl": ("dedup", "ref_ttl"),
    "exact_ref": ("dedup", "exact"),
    "render_delta": ("dedup", "render_delta"),
    "MAX_DELTA_LINES": ("dedup", "MAX_DELTA_LINES"),
    "MAX_DELTA_RATIO": ("dedup", "MAX_DELTA_RATIO"),
    "db_path": ("paths", "db_path"),
    "cache_dir": ("paths", "cache_dir"),
    # safety
    "classify": ("safety", "classify"),
    "scrub_command": ("secrets", "scrub_command"),
    "withhold_credentials": ("storesql", "withhold_credentials"),
    # text and tokens
    "clean_terminal": ("cleanup", "clean_terminal"),
    "strip_escapes": ("cleanup", "strip_escapes"),
    "looks_like_diff": ("cleanup", "looks_like_diff"),
    "lazy_pattern": ("lazyre", "lazy"),
    "estimate": ("tokens", "estimate"),
    "keeps_every_word": ("gate", "keeps_every_word"),
    "count_tokens": ("tokens", "count"),
    # the exit-status trailer of a wrapped command
    "new_nonce": ("exitmarker", "new_nonce"),
    "trailer": ("exitmarker", "trailer"),
    "split_trailer": ("exitmarker", "split_trailer"),
    "wrap_command": ("exitmarker", "wrap_command"),
    "NONCE_ENV": ("exitmarker", "NONCE_ENV"),
    "EXIT_MARKER": ("exitmarker", "MARKER"),
    # the shell lexer (what a hook needs to judge a command line)
    "lex": ("shell", "lex"),
    "shell_words": ("shell", "shell_words"),
    "simple_commands": ("shell", "simple_commands"),
    "program_of": ("shell", "program_of"),
    "SQZ_PROGRAMS": ("shell", "SQZ_PROGRAMS"),
    "runs_sqz": ("shell", "runs_sqz"),
    "sqz_executable": ("shell", "sqz_executable"),
    "ShellOp": ("shell", "Op"),
    "MAX_SHELL_COMMAND": ("shell", "MAX_COMMAND"),
    # where sqz runs from (what ``sqz init`` writes into agents' configuration)
    "entry_script": ("runnable", "entry_script"),
    "on_path": ("runnable", "on_path"),
    # the plugin index (``sqz doctor``, ``sqz plugins``)
    "load_index": ("plugins", "load_index"),
    "Progress": ("progress", "Progress"),
    "plugin_manager": ("plugins", "plugin_manager"),
    "plugin_index_path": ("plugins", "index_path"),
    "enabled_plugins": ("plugins", "enabled"),
    "describe_store": ("stores", "describe"),
    "counter_name": ("tokens", "counter_name"),
    "VERSION": ("_version", "VERSION"),  # sqz-core's own version (the daemon's install stamp)
    "COMPLETE_VAR": ("cli", "COMPLETE_VAR"),  # the variable a shell's Tab press sets (sqz-agents' `sqz completion`)
    # where the warm daemon listens (``sqz_daemon``: its wire format and client are its own api)
    "daemon_dir": ("hot", "daemon_dir"),
    "daemon_socket": ("hot", "daemon_socket"),
    "pack_frame": ("hot", "pack"),
    "unpack_frame": ("hot", "unpack"),
    "open_store_or_say": ("stores", "open_store_or_say"),
    "print_stats_line": ("hot", "_note"),
    "plugin_index_is_fresh": ("plugins", "_fresh"),
    "load_plugin": ("plugins", "load_plugin"),
    "begin_plugin_call": ("plugins", "begin_call"),
    "run_hook": ("hot", "run_hook"),
    "sqlite_path_of": ("stores", "_sqlite_path"),
    # configuration files (``docs/configuration.md``): merged user/project config, where each value came from
    # (parsing and validating the files, and ``sqz config``, are sqz-config's: ``sqz_config.api``)
    "load_config": ("config", "load"),
    "Config": ("config", "Config"),
    "config_env": ("config", "env"),
    "refresh_config": ("config", "refresh"),
    "config_rule_for": ("config", "rule_for"),
    "user_config_path": ("config", "user_path"),
    "config_candidates": ("config", "candidates"),
    "CONFIG_LISTS": ("config", "LISTS"),
    "CONFIG_RULE_MATCHERS": ("config", "RULE_MATCHERS"),
    # per-agent token budgets: where their file is (``sqz budget`` and the warning are sqz-insights')
    "budgets_path": ("paths", "budgets_path"),
    "data_dir": ("paths", "data_dir"),
}

__all__ = sorted(_NAMES) + ["API_VERSION"]


def __getattr__(name: str) -> Any:
    try:
        module, attr = _NAMES[name]
    except KeyError:
        raise AttributeError(f"module 'sqz_core.api' has no attribute {name!r}") from None
    import importlib

    value = getattr(importlib.import_module(f"sqz_core.{module}"), attr)
    globals()[name] = value  # the next lookup is a plain module attribute
    return value


def __dir__() -> list[str]:
    return list(__all__)


if TYPE_CHECKING:  # pragma: no cover - for type checkers only; runtime loads lazily
    from typing import Any

    from .cleanup import clean_terminal, looks_like_diff, strip_escapes
    from .dedup import exact as exact_ref
    from .dedup import MAX_DELTA_LINES, MAX_DELTA_RATIO, digest_of, ref_ttl, render_delta, short_age, sketch
    from ._version import VERSION
    from .cli import COMPLETE_VAR
    from .config import LISTS as CONFIG_LISTS
    from .config import RULE_MATCHERS as CONFIG_RULE_MATCHERS
    from .config import Config
    from .config import candidates as config_candidates
    from .config import env as config_env
    from .config import load as load_config
    from .config import rule_for as config_rule_for
    from .config import user_path as user_config_path
    from .config import refresh as refresh_config
    from .exitmarker import NONCE_ENV, new_nonce, split_trailer, trailer, wrap_command
    from .expand import ExpandError, parse_ref, resolve, unique_hash
    from .gate import short_id
    from .runnable import PATTERN as REF_ID_PATTERN
    from .runnable import encode as decimal_id
    from .runnable import short_decimal as recovery_id
    from .hot import compress_bytes, daemon_dir, daemon_socket
    from .hot import _note as print_stats_line
    from .hot import _budget_seconds as budget_seconds
    from .hot import run_hook
    from .hot import pack as pack_frame
    from .hot import unpack as unpack_frame
    from .lazyre import lazy as lazy_pattern
    from .markers import hookimpl
    from .paths import budgets_path, cache_dir, data_dir, db_path
    from .plugins import enabled as enabled_plugins
    from .progress import Progress
    from .plugins import index_path as plugin_index_path
    from .pipeline import MIN_REF_BYTES, Result, compress
    from .request import FILE_PROGRAMS, FILE_TOOLS, FormatRequest, normalize_argv, split_words
    from .exitmarker import MARKER as EXIT_MARKER
    from .plugins import _fresh as plugin_index_is_fresh
    from .plugins import begin_call as begin_plugin_call
    from .plugins import load_index, load_plugin, plugin_manager
    from .runnable import RECOVERY_LINE, entry_script, expand_hint, link_plan, make_link, on_path
    from .shell import MAX_COMMAND as MAX_SHELL_COMMAND
    from .shell import SQZ_PROGRAMS, lex, program_of, runs_sqz, shell_words, simple_commands, sqz_executable
    from .shell import Op as ShellOp
    from .safety import classify
    from .secrets import scrub_command
    from .sessions import compact as compact_session
    from .sessions import default_session, default_session_for
    from .sessions import pressure as session_pressure
    from .spool import Spool
    from .store import Store, StoreBusy, StoreError, StoreReadOnly
    from .storeproto import StoreProtocol
    from .storesql import Dialect as SqlDialect
    from .storesql import SqlStore, holds_secret, withhold_credentials
    from .storesql import merged as merged_counts
    from .stores import describe as describe_store
    from .stores import _sqlite_path as sqlite_path_of
    from .stores import open_store, open_store_or_say, store_url
    from .tokens import count as count_tokens
    from .tokens import counter_name, estimate
    from .verdicts import Safety, most_restrictive
