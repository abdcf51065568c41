"""sqz-formatters-declarative: line filters for sqz written in YAML, no Python needed.

A spec names the program it is for and what to keep, drop and fold; ``sqz trust`` decides which
project-local specs may run; ``sqz formatters test`` shows what a spec does to a real output.
See docs/declarative-formatters.md.
"""

from ._version import VERSION as __version__

__all__ = ["__version__"]
