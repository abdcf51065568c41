"""sqz proxy: an HTTP proxy between an agent and its model API that compresses tool results.

It sees the request the model will read (every tool result, failed or not, with the whole
conversation around it), rewrites only tool-result text, and streams the answer back as it
arrives. Built on ``sqz_core.api`` only; nothing here is imported by ``sqz compress``.
"""

from ._version import VERSION as __version__

__all__ = ["__version__"]
