"""sqz integration for OpenCode."""
