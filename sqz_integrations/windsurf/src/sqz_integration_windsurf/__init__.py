"""sqz integration for Windsurf."""
