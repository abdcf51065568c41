"""sqz integration for Claude Code."""
