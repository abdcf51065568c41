"""The public API of sqz-agents: what an agent integration (``sqz.integrations``) imports.

An integration imports this module and ``sqz_core.api``, nothing else of sqz. Names load
lazily (PEP 562), as in ``sqz_core.api``: ``sqz hook AGENT`` imports an integration, and
``from sqz_agents.api import touch_activity`` must cost no more than that one module.

The integration protocol itself (what an integration module provides) is described in
``sqz_agents.integrations``; the test kit for integrations is ``sqz_agents.testing``.

Stability: a name listed in ``__all__`` keeps its meaning within one minor version of
``sqz-agents`` (``API_VERSION``).
"""

from __future__ import annotations

TYPE_CHECKING = False  # not typing's: importing typing would cost every hook call (type checkers know the name)

API_VERSION = "0.2"

# public name -> (private module, attribute there)
_NAMES: dict[str, tuple[str, str]] = {
    # the integration protocol
    "INTEGRATIONS_GROUP": ("integrations", "GROUP"),
    "Integration": ("integrations", "Integration"),
    # the rewrite policy: which shell commands a hook wraps, and how
    "judge": ("rewrite", "judge"),
    "Verdict": ("rewrite", "Verdict"),
    "rewrite_command": ("rewrite", "rewrite_command"),
    "compress_invocation": ("rewrite", "compress_invocation"),
    "MAX_COMMAND": ("rewrite", "MAX_COMMAND"),
    # what a hook does besides rewriting
    "touch_activity": ("rewrite", "touch_activity"),
    "last_activity": ("rewrite", "last_activity"),
    "post_dedup": ("rewrite", "post_dedup"),
    # ``<sqz> expand REF`` exactly, as hints print it (safe to allow without a prompt)
    "is_own_expand": ("own_expand", "is_own_expand"),
    "hint_verb": ("own_expand", "hint_verb"),
    # a bare ``sqz expand`` resolved by an agent's pre-tool hook, and hints that may then say it
    "resolve_bare_sqz": ("own_expand", "resolve_bare_sqz"),
    "short_hints": ("own_expand", "short_hints"),
    # is a replacement worth sending, in cl100k tokens, against what the host would show the model
    "worth_replacing": ("hostview", "worth_replacing"),
    "claude_preview": ("hostview", "claude_preview"),
    "opencode_view": ("hostview", "opencode_view"),
    # what ``sqz init`` / ``uninstall`` / ``doctor`` build on: detection and actions
    "detect_agent": ("setup_cmds", "detect_agent"),
    "mcp_server_action": ("setup_cmds", "mcp_server_action"),
    "guidance_file_action": ("setup_cmds", "guidance_file_action"),
    "guidance_block_action": ("setup_cmds", "guidance_block_action"),
    "project_root_args": ("setup_cmds", "project_root_args"),
    "discover_integrations": ("setup_cmds", "discover_integrations"),
    # config files edited in place, comments and formatting kept
    "ConfigError": ("configfiles", "ConfigError"),
    "parse_jsonc": ("configfiles", "parse_jsonc"),
    "to_python": ("configfiles", "to_python"),
}

__all__ = sorted(_NAMES) + ["API_VERSION"]


def __getattr__(name: str) -> Any:
    try:
        module, attr = _NAMES[name]
    except KeyError:
        raise AttributeError(f"module 'sqz_agents.api' has no attribute {name!r}") from None
    import importlib

    value = getattr(importlib.import_module(f"sqz_agents.{module}"), attr)
    globals()[name] = value  # the next lookup is a plain module attribute
    return value


def __dir__() -> list[str]:
    return list(__all__)


if TYPE_CHECKING:  # pragma: no cover - for type checkers only; runtime loads lazily
    from typing import Any

    from .configfiles import ConfigError, parse_jsonc, to_python
    from .hostview import claude_preview, opencode_view, worth_replacing
    from .own_expand import hint_verb, is_own_expand, resolve_bare_sqz, short_hints
    from .integrations import GROUP as INTEGRATIONS_GROUP
    from .integrations import Integration
    from .rewrite import (MAX_COMMAND, Verdict, compress_invocation, judge, last_activity, post_dedup,
                          rewrite_command, touch_activity)
    from .setup_cmds import (detect_agent, discover_integrations, guidance_block_action, guidance_file_action,
                             mcp_server_action, project_root_args)
