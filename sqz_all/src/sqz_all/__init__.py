"""sqz-all: one distribution that installs sqz with every formatter pack, agent integration and tool.

It holds no code of its own; ``pip install sqz-all`` (``sqz-all[postgresql]`` for the team store)
brings the core, the packs (generic, git, test, cloud), the agent integrations, the MCP server and
proxy, the insights verbs, the warm daemon and the API proxy.
"""
