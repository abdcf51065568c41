"""sqz-testing: the kit sqz's own packs use to test a formatter, for any third-party pack.

Real captured fixtures with their facts (``load_fixture``, ``iter_fixtures``), the fact rules
(``fact_kept``, ``missing_facts``; ``fact_kept_by_words`` for the blind set's word rule), snapshots
(``assert_snapshot``), the assertions a pack's tests make (``assert_facts_kept``,
``assert_recoverable``, ``assert_passthrough``) and linearity helpers. Installed, it is also a pytest
plugin (entry point ``pytest11``: ``sqz``) with the fixtures ``sqz_home`` (an isolated store and
cache), ``sqz_store`` and ``sqz_compress``: see ``sqz_testing.plugin``.
"""

from __future__ import annotations

from ._version import VERSION as __version__
from .assertions import assert_facts_kept, assert_passthrough, assert_recoverable, format_with
from .kit import (Fixture, assert_snapshot, bytes_at_rest, fact_kept, fact_kept_by_words, fact_words,
                  grows_linearly, iter_fixtures, load_fixture, missing_facts, missing_facts_by_words,
                  nested_repeats, redact_registries, regex_patterns, registry_mentions, work_done)

__all__ = ["Fixture", "__version__", "assert_facts_kept", "assert_passthrough", "assert_recoverable",
           "assert_snapshot", "bytes_at_rest", "fact_kept", "fact_kept_by_words", "fact_words", "format_with",
           "grows_linearly", "iter_fixtures", "load_fixture", "missing_facts", "missing_facts_by_words",
           "nested_repeats", "redact_registries", "regex_patterns", "registry_mentions", "work_done"]
